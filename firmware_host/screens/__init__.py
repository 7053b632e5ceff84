"""OLED screens: pure functions from views (and a little UI state) to 128×64 1-bit images."""
