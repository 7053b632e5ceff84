"""The daemon: config, CLI, game sessions, journal, and the pad & OLED interface."""
