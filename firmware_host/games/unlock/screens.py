"""UNLOCK screens: the code pad with the line drawn live, the privacy screen, the reveal, scores.

A code is only ever drawn for the person entering it (the ``dots`` the pad holds, never a view's
secret) or, for the Lock's secret, from a view that carries it (the game is over).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from firmware_host.pad.inputs import KEYPAD_LAYOUT
from firmware_host.screens.text import CHAR_W, HEIGHT, LINE_H, WIDTH, Pen, blank, clip

PAD_SIDE = HEIGHT
#: x of the reveal's columns: matches, misses, points, total.
REVEAL_COLS = (40, 64, 88, 110)
LEVEL_NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}


def dot_centre(dot: int, size: int, left: int = 0, side: int = PAD_SIDE) -> tuple[int, int]:
    """The pixel centre of ``dot`` (1-based, row by row) on a pad drawn at ``left``."""
    step = side // size
    row, col = divmod(dot - 1, size)
    return left + step * col + step // 2, step * row + step // 2


def code_dots(code: str | None) -> list[int]:
    """The dots of a code's text form (``"1-2-5"``), in drawing order."""
    if not code:
        return []
    return [int(part) for part in code.split("-") if part.strip().isdigit()]


def draw_code_pad(
    pen: Pen, dots: Sequence[int], size: int, *, left: int = 0, side: int = PAD_SIDE
) -> None:
    """The grid of dots with the path through ``dots`` drawn as a thick line."""
    points = [dot_centre(d, size, left, side) for d in dots]
    if len(points) > 1:
        pen.draw.line(points, fill=1, width=3 if side >= 48 else 1, joint="curve")
    used = set(dots)
    r = 3 if side >= 48 else 1
    for dot in range(1, size * size + 1):
        x, y = dot_centre(dot, size, left, side)
        if dot in used:
            pen.draw.ellipse((x - r, y - r, x + r, y + r), fill=1)
        else:
            pen.draw.ellipse((x - r, y - r, x + r, y + r), outline=1, fill=0)
    if dots:
        x, y = dot_centre(dots[-1], size, left, side)
        pen.draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=1)


def _name(view: Mapping[str, Any], seat: int) -> str:
    seats = view.get("seats") or []
    return str(seats[seat]) if 0 <= seat < len(seats) else f"P{seat + 1}"


def entry_screen(
    view: Mapping[str, Any], seat: int, dots: Sequence[int], *, secret: bool
) -> Image.Image:
    """The code being drawn by ``seat`` (the Lock's secret or a guess), with the line live."""
    size = int(view.get("size") or 3)
    image = blank()
    pen = Pen(image)
    draw_code_pad(pen, dots, size)
    x = PAD_SIDE + 2
    chars = (WIDTH - x) // CHAR_W
    pen.name(x, 0, _name(view, seat), seat, chars=chars)
    pen.text(x, LINE_H, "secret:" if secret else f"turn {view.get('turn', 1)}:")
    if size == 4 and not dots:
        # the keypad's keys sit where the card's dots do; OK and Back are the pad's buttons
        pen.lines(x, 2 * LINE_H + 1, [" ".join(row) for row in KEYPAD_LAYOUT])
        hint = "pad OK/Back"  # right-aligned: one character more than the column holds
        pen.text(WIDTH - CHAR_W * len(hint), HEIGHT - LINE_H, hint)
        return image
    pen.text(x, 2 * LINE_H, LEVEL_NAMES.get(str(view.get("difficulty")), "")[:chars])
    shown = "-".join(str(d) for d in dots) or "draw..."
    pen.lines(x, 3 * LINE_H + 2, [shown[i : i + chars] for i in range(0, len(shown), chars)][:2])
    pen.text(x, HEIGHT - LINE_H, "OK  Back" if dots else "")
    return image


#: Guessers per page of the reveal.
REVEAL_ROWS = 5


def reveal_cards(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cards of the last revealed turn, in the clue board's order."""
    board = list(view.get("clue_board") or [])
    turn = max((int(c.get("turn", 0)) for c in board), default=0)
    return [c for c in board if int(c.get("turn", 0)) == turn]


def reveal_pages(view: Mapping[str, Any]) -> int:
    """How many pages `reveal_screen` needs (five guessers a page)."""
    return max(1, -(-len(reveal_cards(view)) // REVEAL_ROWS))


def reveal_screen(view: Mapping[str, Any], page: int = 0) -> Image.Image:
    """The last turn's cards: each guesser's matches, misses and points, with their score."""
    cards = reveal_cards(view)
    turn = int(cards[0].get("turn", 0)) if cards else 0
    scores = list(view.get("scores") or [])
    image = blank()
    pen = Pen(image)
    pen.inverse_bar(0, f"T{turn}")
    for x, head in ((REVEAL_COLS[0], "hit"), (REVEAL_COLS[1], "mis"), (REVEAL_COLS[2], "pts"),
                    (REVEAL_COLS[3], "tot")):
        pen.text(x, 0, head, fill=0)
    y = LINE_H + 1
    for card in cards[page * REVEAL_ROWS : (page + 1) * REVEAL_ROWS]:
        seat = int(card["seat"])
        pen.name(0, y, _name(view, seat), seat, chars=6)
        points = int(card.get("points", 0))
        pen.text(REVEAL_COLS[0] + CHAR_W, y, str(card.get("matches", 0)))
        pen.text(REVEAL_COLS[1] + CHAR_W, y, str(card.get("misses", 0)))
        pen.text(REVEAL_COLS[2], y, "rep" if card.get("repeat") else f"{points:+d}")
        total = scores[seat] if seat < len(scores) else 0
        pen.text(REVEAL_COLS[3], y, clip(f"{total:>3}", 3))
        y += LINE_H
    more = page + 1 < reveal_pages(view)
    pen.text(0, HEIGHT - LINE_H, "OK: more" if more else "OK: next")
    return image


def scores_screen(view: Mapping[str, Any]) -> Image.Image:
    """The guessers' scores; at the end also the secret and the winners (marked ``*``)."""
    outcome = view.get("outcome")
    lock = int(view.get("lock", 0))
    scores = list(view.get("scores") or [])
    seats = list(view.get("seats") or [])
    winners = set(outcome.get("winners", [])) if outcome else set()
    image = blank()
    pen = Pen(image)
    left = 0
    if outcome:
        draw_code_pad(pen, code_dots(view.get("secret")), int(view.get("size") or 3),
                      left=WIDTH - 40, side=40)
        pen.text(WIDTH - 40, 41, "secret")
    pen.text(0, 0, "Game over" if outcome else f"Scores t{view.get('turn', 1)}")
    y = LINE_H + 2
    for seat in range(len(seats)):
        if seat == lock:
            continue
        mark = "*" if seat in winners else " "
        pen.text(left, y, mark)
        pen.name(left + CHAR_W, y, _name(view, seat), seat, chars=8)
        score = scores[seat] if seat < len(scores) else 0
        pen.text(left + 10 * CHAR_W, y, clip(f"{score:>4}", 4))
        y += LINE_H
        if y > HEIGHT - LINE_H + 1:
            break
    return image
