"""Each game's board on the TFT, drawn into a box of the screen from the spectator's view:
UNLOCK's codes left and its newest clue cards, Hacktrick's magic square with its markers, the
ICO net with its active face, 2 1 6's grid."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import ImageDraw

from firmware_host.screens.words import say
from firmware_host.seat_colours import rgb, seat_colour
from firmware_host.tft_screens.draw import INK, LINE, MUTED, PAPER, fit, ink_on, text
from firmware_host.tft_screens.words import WORDS

Box = tuple[int, int, int, int]
View = Mapping[str, Any]
#: A board drawer: (pen, box, view, catalogue entry, language).
Board = Callable[[ImageDraw.ImageDraw, Box, View, Mapping[str, Any], str], None]


def seat_rgb(seat: int, view: View) -> tuple[int, int, int]:
    return rgb(seat_colour(seat, view))


def unlock(pen: ImageDraw.ImageDraw, box: Box, view: View, info: Mapping[str, Any],
           lang: str) -> None:
    """Codes left, big; the newest clue cards as small drawings of the guessed code, each with
    its guesser's colour and its matches (●) and misses (○)."""
    x0, y0, x1, y1 = box
    if not view.get("secret_set"):
        text(pen, ((x0 + x1) // 2, (y0 + y1) // 2), say(WORDS, "lock_drawing", lang),
             fit(say(WORDS, "lock_drawing", lang), 22, x1 - x0 - 8), MUTED, anchor="m")
        return
    left = x0 + (x1 - x0) * 2 // 5
    count = str(view.get("codes_remaining", "?"))
    text(pen, ((x0 + left) // 2, y0 + (y1 - y0) * 2 // 5), count, fit(count, 56, left - x0 - 8),
         anchor="m")
    label = say(WORDS, "codes_left", lang)
    text(pen, ((x0 + left) // 2, y0 + (y1 - y0) * 3 // 4), label,
         fit(label, 18, left - x0 - 8), MUTED, anchor="m")
    cards = list(view.get("clue_board") or [])
    if not cards:
        words = say(WORDS, "no_clues", lang)
        text(pen, ((left + x1) // 2, (y0 + y1) // 2), words, fit(words, 16, x1 - left - 8),
             MUTED, anchor="m")
        return
    side = min((y1 - y0) // 2 - 6, 54)
    across = max(1, (x1 - left) // (side + 8))
    shown = cards[-across * 2:]
    size = int(view.get("size") or 3)
    for i, card in enumerate(shown):
        cx = left + 4 + (i % across) * (side + 8)
        cy = y0 + 2 + (i // across) * (side + 10)
        _card(pen, (cx, cy, cx + side, cy + side), card, size, seat_rgb(int(card["seat"]), view))


def _card(pen: ImageDraw.ImageDraw, box: Box, card: Mapping[str, Any], size: int,
          ink: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box
    pen.rounded_rectangle(box, radius=4, fill=(255, 255, 255), outline=LINE)
    step = (x1 - x0 - 12) / max(1, size - 1)

    def at(dot: int) -> tuple[float, float]:
        row, col = divmod(dot - 1, size)
        return x0 + 6 + col * step, y0 + 6 + row * step * 0.8

    dots = [int(d) for d in str(card.get("code", "")).split("-") if d.isdigit()]
    for dot in range(1, size * size + 1):
        x, y = at(dot)
        pen.ellipse((x - 1.5, y - 1.5, x + 1.5, y + 1.5), fill=MUTED)
    if len(dots) > 1:
        pen.line([at(d) for d in dots], fill=ink, width=3, joint="curve")
    marks = [True] * int(card.get("matches", 0)) + [False] * int(card.get("misses", 0))
    for i, match in enumerate(marks[:8]):
        x = x0 + 6 + i * 7
        pen.ellipse((x - 3, y1 - 9, x + 3, y1 - 3), fill=INK if match else (255, 255, 255),
                    outline=INK)


def hacktrick(pen: ImageDraw.ImageDraw, box: Box, view: View, info: Mapping[str, Any],
              lang: str) -> None:
    """The magic square, each number with the markers on it in their owners' colours (a ×2
    marker drawn larger), and the row of cards played."""
    x0, y0, x1, y1 = box
    layout = view.get("layout") or [[2, 7, 6], [9, 5, 1], [4, 3, 8]]
    board = view.get("board") or {}
    side = min(x1 - x0, y1 - y0) - 4
    cell = side // 3
    left = x0 + ((x1 - x0) - cell * 3) // 2
    for r, row in enumerate(layout):
        for c, number in enumerate(row):
            cx, cy = left + c * cell, y0 + 2 + r * cell
            pen.rectangle((cx, cy, cx + cell - 2, cy + cell - 2), fill=(255, 255, 255),
                          outline=LINE)
            text(pen, (cx + 6, cy + cell // 3), str(number), max(12, cell // 3), INK)
            markers = board.get(str(number)) or []
            for i, marker in enumerate(markers[:4]):
                radius = cell // 7 if marker.get("x2") else cell // 10
                mx = cx + cell - 10 - i * (cell // 4)
                my = cy + cell - cell // 4
                fill = seat_rgb(int(marker.get("owner", 0)), view)
                pen.ellipse((mx - radius, my - radius, mx + radius, my + radius), fill=fill,
                            outline=INK)


def ico(pen: ImageDraw.ImageDraw, box: Box, view: View, info: Mapping[str, Any],
        lang: str) -> None:
    """The net: each face in its pair's tint, the active face black, every edge's markers as
    dots in their seats' colours."""
    x0, y0, x1, y1 = box
    net = info.get("board") or {}
    faces = [f for f in net.get("faces") or [] if f.get("outline")]
    if not faces:
        return
    radius = float(net.get("outer_radius") or 1.0)
    scale = (min(x1 - x0, y1 - y0) - 6) / (2 * radius)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2

    def at(point: Any) -> tuple[float, float]:
        return cx + float(point[0]) * scale, cy + float(point[1]) * scale

    tints = [(244, 199, 195), (198, 220, 245), (246, 231, 168), (200, 235, 207),
             (220, 203, 240), (248, 211, 176), (191, 232, 230), (241, 198, 221),
             (222, 222, 222), (226, 238, 192)]
    active = view.get("active_face")
    for face in faces:
        fill = (43, 43, 43) if face["id"] == active else tints[int(face.get("colour", 0)) % 10]
        pen.polygon([at(p) for p in face["outline"]], fill=fill, outline=(120, 120, 120))
    markers = {str(e["id"]): e.get("markers") or [] for e in view.get("edges") or []}
    for edge in net.get("edges") or []:
        counts = markers.get(str(edge.get("id")), [])
        seats = [seat for seat, n in enumerate(counts) for _ in range(int(n))]
        (ax, ay), (bx, by) = at(edge["from"]), at(edge["to"])
        for i, seat in enumerate(seats):
            t = 0.5 + (i - (len(seats) - 1) / 2) * 0.22
            mx, my = ax + (bx - ax) * t, ay + (by - ay) * t
            r = max(3.0, scale * 0.035)
            pen.ellipse((mx - r, my - r, mx + r, my + r), fill=seat_rgb(seat, view), outline=INK)


def dice216(pen: ImageDraw.ImageDraw, box: Box, view: View, info: Mapping[str, Any],
            lang: str) -> None:
    """The grid: each die's value on its owner's colour."""
    x0, y0, x1, y1 = box
    cells = view.get("cells") or []
    size = len(cells) or 1
    side = min(x1 - x0, y1 - y0) - 2
    cell = max(6, side // size)
    left = x0 + ((x1 - x0) - cell * size) // 2
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            cx, cy = left + c * cell, y0 + 1 + r * cell
            fill = PAPER if not value else seat_rgb(int(value.get("owner", 0)), view)
            pen.rectangle((cx, cy, cx + cell - 1, cy + cell - 1), fill=fill, outline=LINE)
            if value and cell >= 12:
                text(pen, (cx + cell // 2, cy + cell // 2), str(value.get("value")),
                     max(8, cell * 2 // 3), ink_on(fill), anchor="m")


BOARDS: dict[str, Board] = {"unlock": unlock, "hacktrick": hacktrick, "ico": ico,
                            "dice216": dice216}
