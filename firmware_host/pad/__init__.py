"""The pad & OLED interface: controllers turning key and die events into session actions, and
the loop that redraws the OLED from the companion's published views."""
