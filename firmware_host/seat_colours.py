"""The seats' colours, one palette for every drawing of a seat: the panel's pages (and
``web_panel/static/kit.js``, which holds the same list), the pad's lights and the colour display.

Seat 0 red, 1 blue, 2 yellow, 3 green, then purple, orange, teal and pink; a game whose view
names its seats' colours (``view["colours"]``, e.g. 2 1 6's white and red) draws those instead.
The first four are told apart with the common colour-vision deficiencies too (they also differ
in lightness), and every drawing pairs a colour with a name or a shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The seats' colours in seat order.
SEAT_COLOURS = ("#b71c1c", "#1a237e", "#fdd835", "#66bb6a", "#8e44ad", "#e67e22", "#16a0a0",
                "#c2185b")
#: A colour a game's view may name for a seat (``view["colours"]``).
NAMED = {"white": "#f7f7f2", "red": "#b71c1c", "blue": "#1a237e", "yellow": "#fdd835",
         "green": "#66bb6a", "black": "#222222"}
#: No seat (the die, the box).
NO_SEAT = "#6b6b70"

RGB = tuple[int, int, int]


def seat_colour(seat: int | None, view: Mapping[str, Any] | None = None) -> str:
    """The colour of ``seat`` as ``#rrggbb`` (the view's named colour for it, if it names one).

    >>> seat_colour(1), seat_colour(1, {"colours": ["white", "red"]}), seat_colour(None)
    ('#1a237e', '#b71c1c', '#6b6b70')
    """
    if seat is None or seat < 0:
        return NO_SEAT
    colours = view.get("colours") if view is not None else None
    if isinstance(colours, list) and seat < len(colours):
        named = NAMED.get(str(colours[seat]))
        if named is not None:
            return named
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _luminance(colour: str) -> float:
    """The relative luminance of ``#rrggbb`` (WCAG 2)."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    """Black or white, whichever contrasts more with ``colour`` (as ``kit.js``'s ``inkOn``):
    the text on a seat's colour, on a page or the colour display.

    >>> ink_on("#fdd835"), ink_on("#1a237e")
    ('#111111', '#ffffff')
    """
    light = _luminance(colour)
    return "#ffffff" if 1.05 / (light + 0.05) >= (light + 0.05) / 0.05 else "#111111"


def rgb(colour: str) -> RGB:
    """``#rrggbb`` as three 0–255 channels.

    >>> rgb("#fdd835")
    (253, 216, 53)
    """
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
