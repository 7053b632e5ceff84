"""The TFT's whole screens: a game (whose turn, the board, the score track), its results, and the
start screen. Layouts follow the screen's shape: landscape puts the score track beside the
board, square and portrait put it below."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import qrcode
from PIL import Image, ImageDraw

from firmware_host.screens.words import say
from firmware_host.tft_screens.boards import BOARDS, View, seat_rgb
from firmware_host.tft_screens.draw import INK, LINE, MUTED, blank, fit, ink_on, text
from firmware_host.tft_screens.words import WORDS

Size = tuple[int, int]


def scores_of(view: View) -> list[float] | None:
    """Each seat's score as the game counts it (ICO: markers placed), or ``None``."""
    for key in ("scores", "points", "totals"):
        value = view.get(key)
        if isinstance(value, list) and value:
            return [float(v) for v in value]
    left = view.get("markers_left")
    if isinstance(left, list) and view.get("markers_per_colour") is not None:
        return [float(view["markers_per_colour"]) - float(v) for v in left]
    return None


def _turn(view: View, lang: str) -> tuple[str, tuple[int, int, int] | None]:
    """Whose turn, in words, and the colour of the bar it sits on."""
    to_act = [int(s) for s in view.get("to_act") or []]
    seats = [s for s in to_act if s >= 0]
    names = view.get("seats") or []
    mover = view.get("mover")
    if to_act and not seats and isinstance(mover, int) and 0 <= mover < len(names):
        return say(WORDS, "roll_for", lang, name=names[mover]), seat_rgb(mover, view)
    if len(seats) == 1 and seats[0] < len(names):
        return say(WORDS, "turn_of", lang, name=names[seats[0]]), seat_rgb(seats[0], view)
    if seats:
        return say(WORDS, "several", lang, count=len(seats)), None
    return say(WORDS, "waiting", lang), None


def _progress(view: View, lang: str) -> str:
    if view.get("round") is not None:
        return say(WORDS, "round", lang, n=view["round"])
    if view.get("turn") is not None:
        return say(WORDS, "turn", lang, n=view["turn"])
    return ""


def game_frame(view: View, *, info: Mapping[str, Any], title: str, size: Size,
               lang: str) -> Image.Image:
    """A game on the TFT (its results once it has ended)."""
    if view.get("outcome") or view.get("status") == "abandoned":
        return results_frame(view, title=title, size=size, lang=lang)
    width, height = size
    image, pen = blank(size)
    # the title line: the game and how far it is
    small = max(12, height // 16)
    text(pen, (6, small), title, small, MUTED)
    text(pen, (width - 6, small), _progress(view, lang), small, MUTED, anchor="r")
    # whose turn: a bar in the player's colour, as big as fits
    words, fill = _turn(view, lang)
    bar_top, bar_bottom = small * 2, small * 2 + height // 5
    fill = fill or (230, 228, 220)
    _bar(pen, (0, bar_top, width - 1, bar_bottom), fill)
    big = fit(words, (bar_bottom - bar_top) * 3 // 4, width - 16)
    text(pen, (width // 2, (bar_top + bar_bottom) // 2), words, big, ink_on(fill), anchor="m")
    # the board and the score track
    scores = scores_of(view)
    top = bar_bottom + 6
    if width > height:
        track = (width * 2 // 3, top, width - 4, height - 4)
        board = (4, top, width * 2 // 3 - 6, height - 4)
    else:
        rows = len(view.get("seats") or [])
        track = (4, height - 4 - min(rows, 6) * max(14, height // 18), width - 4, height - 4)
        board = (4, top, width - 4, track[1] - 6)
    drawer = BOARDS.get(str(view.get("game")))
    if drawer is not None:
        drawer(pen, board, view, info, lang)
    if scores is not None:
        _track(pen, track, view, scores)
    return image


def _track(pen: ImageDraw.ImageDraw, box: tuple[int, int, int, int], view: View,
           scores: Sequence[float]) -> None:
    """The score track: a bar a seat, in its colour, as long as its score against the best."""
    x0, y0, x1, y1 = box
    names = list(view.get("seats") or [])
    rows = min(len(names), len(scores), 6)
    if not rows:
        return
    pitch = (y1 - y0) // rows
    high = max(max(scores[:rows]), 1.0)
    low = min(min(scores[:rows]), 0.0)
    size = max(10, min(18, pitch * 2 // 3))
    for seat in range(rows):
        y = y0 + seat * pitch
        fill = seat_rgb(seat, view)
        value = scores[seat]
        share = (value - low) / (high - low) if high > low else 0.0
        pen.rectangle((x0, y + 2, x1, y + pitch - 2), fill=(255, 255, 255), outline=LINE)
        _bar(pen, (x0, y + 2, x0 + max(4, int((x1 - x0) * share)), y + pitch - 2), fill)
        label = f"{names[seat]} {value:g}"
        text(pen, (x0 + 4, y + pitch // 2), label, fit(label, size, x1 - x0 - 8),
             ink_on(fill) if share > 0.5 else INK)


def _bar(pen: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
         fill: tuple[int, int, int]) -> None:
    """A bar in a seat's colour; a light one (Hacktrick's white) edged in ink, so it shows on
    the paper."""
    light = sum(fill) > 3 * 225
    pen.rectangle(box, fill=fill, outline=INK if light else None, width=2 if light else 0)


def results_frame(view: View, *, title: str, size: Size, lang: str) -> Image.Image:
    """The end: the winner in their colour, big; every seat's score below, best first."""
    width, height = size
    image, pen = blank(size)
    small = max(12, height // 16)
    text(pen, (6, small), title, small, MUTED)
    heading = say(WORDS, "game_over", lang)
    text(pen, (width // 2, small * 3), heading, fit(heading, height // 10, width - 12),
         anchor="m")
    outcome = view.get("outcome") or {}
    winners = [int(w) for w in outcome.get("winners") or []]
    names = list(view.get("seats") or [])
    bar_top, bar_bottom = small * 4 + 4, small * 4 + 4 + height // 5
    if winners:
        fill = seat_rgb(winners[0], view)
        words = say(WORDS, "winner", lang, name=" & ".join(names[w] for w in winners))
    else:
        fill, words = (230, 228, 220), say(WORDS, "draw", lang)
    _bar(pen, (0, bar_top, width - 1, bar_bottom), fill)
    text(pen, (width // 2, (bar_top + bar_bottom) // 2), words,
         fit(words, (bar_bottom - bar_top) * 3 // 4, width - 16), ink_on(fill), anchor="m")
    scores = outcome.get("scores") if isinstance(outcome.get("scores"), list) else None
    scores = scores or scores_of(view)
    if scores:
        order = sorted(range(min(len(names), len(scores))), key=lambda s: -float(scores[s]))
        _track(pen, (8, bar_bottom + 8, width - 8, height - 6), {**view, "seats": [
            names[s] for s in order]}, [float(scores[s]) for s in order])
    return image


def start_frame(url: str, *, size: Size, lang: str) -> Image.Image:
    """No game: the box's name, a code to scan and the panel's address."""
    width, height = size
    image, pen = blank(size)
    title = say(WORDS, "start_title", lang)
    text(pen, (width // 2, height // 10), title, fit(title, height // 9, width - 12), anchor="m")
    code = qrcode.QRCode(border=2, box_size=1)
    code.add_data(url)
    matrix = code.get_matrix()
    room = min(width, height) * 3 // 5
    cell = max(1, room // len(matrix))
    left = (width - cell * len(matrix)) // 2
    top = height // 5
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                pen.rectangle((left + c * cell, top + r * cell, left + (c + 1) * cell - 1,
                               top + (r + 1) * cell - 1), fill=INK)
    bottom = top + cell * len(matrix)
    join = say(WORDS, "start_join", lang)
    text(pen, (width // 2, bottom + (height - bottom) // 3), join,
         fit(join, 18, width - 12), anchor="m")
    text(pen, (width // 2, bottom + (height - bottom) * 3 // 4), url, fit(url, 16, width - 12),
         MUTED, anchor="m")
    return image
