"""UNLOCK screens: the code pad with the line drawn live, the privacy screen, the reveal, scores.

A code is only ever drawn for the person entering it (the ``dots`` the pad holds, never a view's
secret) or, for the Lock's secret, from a view that carries it (the game is over).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from PIL import Image

from firmware_host.games.unlock.words import WORDS
from firmware_host.pad.inputs import KEYPAD_LAYOUT
from firmware_host.screens.text import CHAR_W, HEIGHT, LINE_H, WIDTH, Pen, blank, clip
from firmware_host.screens.words import WORDS as BOX_WORDS
from firmware_host.screens.words import say

PAD_SIDE = HEIGHT
#: x of the reveal's columns: matches, misses, points, total.
REVEAL_COLS = (40, 64, 88, 110)
LEVELS = ("easy", "medium", "hard")


def title(lang: str) -> str:
    """UNLOCK's name: the title of every screen."""
    return say(WORDS, "name", lang)


def dot_centre(dot: int, size: int, left: int = 0, side: int = PAD_SIDE,
               top: int = 0) -> tuple[int, int]:
    """The pixel centre of ``dot`` (1-based, row by row) on a pad drawn at ``left``, ``top``."""
    step = side // size
    row, col = divmod(dot - 1, size)
    return left + step * col + step // 2, top + step * row + step // 2


def code_dots(code: str | None) -> list[int]:
    """The dots of a code's text form (``"1-2-5"``), in drawing order."""
    if not code:
        return []
    return [int(part) for part in code.split("-") if part.strip().isdigit()]


def draw_code_pad(
    pen: Pen, dots: Sequence[int], size: int, *, left: int = 0, side: int = PAD_SIDE,
    top: int = 0,
) -> None:
    """The grid of dots with the path through ``dots`` drawn as a thick line."""
    points = [dot_centre(d, size, left, side, top) for d in dots]
    if len(points) > 1:
        pen.draw.line(points, fill=1, width=3 if side >= 48 else 1, joint="curve")
    used = set(dots)
    r = 3 if side >= 48 else 1
    for dot in range(1, size * size + 1):
        x, y = dot_centre(dot, size, left, side, top)
        if dot in used:
            pen.draw.ellipse((x - r, y - r, x + r, y + r), fill=1)
        else:
            pen.draw.ellipse((x - r, y - r, x + r, y + r), outline=1, fill=0)
    if dots:
        x, y = dot_centre(dots[-1], size, left, side, top)
        pen.draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=1)


def draw_ghost(pen: Pen, dots: Sequence[int], size: int, *, left: int = 0,
               side: int = PAD_SIDE, top: int = 0, gap: int = 3) -> None:
    """A suggested code as a dotted line (a pixel every ``gap``), under a drawn path: the
    hint's code, told apart from the player's own thick line."""
    points = [dot_centre(d, size, left, side, top) for d in dots]
    for (x1, y1), (x2, y2) in pairwise(points):
        steps = max(abs(x2 - x1), abs(y2 - y1)) // gap
        for k in range(steps + 1):
            x = x1 + (x2 - x1) * k // max(steps, 1)
            y = y1 + (y2 - y1) * k // max(steps, 1)
            pen.draw.point((x, y), fill=1)


def _name(view: Mapping[str, Any], seat: int) -> str:
    seats = view.get("seats") or []
    return str(seats[seat]) if 0 <= seat < len(seats) else f"P{seat + 1}"


def entry_screen(
    view: Mapping[str, Any], seat: int, dots: Sequence[int], *, secret: bool, lang: str = "en",
    hint: tuple[int, Sequence[int]] | None = None, offer_hint: bool | None = None,
) -> Image.Image:
    """The code being drawn by ``seat`` (the Lock's secret or a guess), with the line live.

    ``hint``: the hint this guesser was given, ``(codes left, the suggested code's dots)``: the
    count replaces the level, the code is dotted under the drawing, and with nothing drawn yet
    the last line says OK takes it. ``offer_hint``: with nothing drawn, say that OK held asks
    for one (default: for a guesser with no hint yet, when the host allows hints)."""
    size = int(view.get("size") or 3)
    if offer_hint is None:
        offer_hint = hint is None and not secret and bool(
            (view.get("hints") or {}).get("allowed"))
    image = blank()
    pen = Pen(image, lang)
    if hint is not None:
        draw_ghost(pen, hint[1], size)
    draw_code_pad(pen, dots, size)
    x = PAD_SIDE + 2
    width = WIDTH - x
    chars = width // CHAR_W
    y = pen.header(title(lang), left=PAD_SIDE + 1)
    pen.name(x, y, _name(view, seat), seat, chars=chars)
    step = "" if secret else say(WORDS, "turn", lang, turn=view.get("turn", 1))
    if size == 4 and not dots:
        # the keypad's keys sit where the card's dots do; OK and Back are the pad's buttons
        pen.lines(x, y + LINE_H, [" ".join(row) for row in KEYPAD_LAYOUT])
        pen.right(HEIGHT - LINE_H, say(WORDS, "pad_ok_back", lang))
        return image
    pen.text(x, y + LINE_H, pen.fit(say(WORDS, "secret", lang) if secret else step, width))
    level = str(view.get("difficulty"))
    if hint is not None:
        pen.text(x, y + 2 * LINE_H, pen.fit(say(WORDS, "codes_left", lang, n=hint[0]), width))
    elif level in LEVELS:
        pen.text(x, y + 2 * LINE_H, pen.fit(say(WORDS, f"level.{level}", lang), width))
    shown = "-".join(str(d) for d in dots) or say(WORDS, "draw", lang)
    pen.lines(x, y + 3 * LINE_H, [shown[i : i + chars] for i in range(0, len(shown), chars)][:2])
    if dots:
        pen.text(x, HEIGHT - LINE_H, say(WORDS, "ok_back", lang))
    elif hint is not None:
        pen.text(x, HEIGHT - LINE_H, pen.fit(say(WORDS, "ok_use", lang), width))
    elif offer_hint:
        pen.lines(x, HEIGHT - 2 * LINE_H, [pen.fit(say(WORDS, "hold_ok", lang), width),
                                           pen.fit(say(WORDS, "for_hint", lang), width)])
    return image


#: Guessers per page of the reveal.
REVEAL_ROWS = 4


def reveal_cards(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cards of the last revealed turn, in the clue board's order."""
    board = list(view.get("clue_board") or [])
    turn = max((int(c.get("turn", 0)) for c in board), default=0)
    return [c for c in board if int(c.get("turn", 0)) == turn]


def reveal_pages(view: Mapping[str, Any]) -> int:
    """How many pages `reveal_screen` needs (four guessers a page)."""
    return max(1, -(-len(reveal_cards(view)) // REVEAL_ROWS))


def reveal_screen(view: Mapping[str, Any], page: int = 0, *, lang: str = "en") -> Image.Image:
    """The last turn's cards: each guesser's matches, misses and points, with their score."""
    cards = reveal_cards(view)
    turn = int(cards[0].get("turn", 0)) if cards else 0
    scores = list(view.get("scores") or [])
    pages = reveal_pages(view)
    image = blank()
    pen = Pen(image, lang)
    y = pen.header(title(lang), f"{page + 1}/{pages}" if pages > 1 else "")
    pen.text(0, y, say(WORDS, "reveal", lang, turn=turn))
    for x, head in zip(REVEAL_COLS, ("col.hit", "col.miss", "col.points", "col.total"),
                       strict=True):
        pen.text(x, y, say(WORDS, head, lang))
    pen.draw.line((0, y + LINE_H - 1, WIDTH - 1, y + LINE_H - 1), fill=1)
    y += LINE_H
    for card in cards[page * REVEAL_ROWS : (page + 1) * REVEAL_ROWS]:
        seat = int(card["seat"])
        pen.name(0, y, _name(view, seat), seat, chars=6)
        points = int(card.get("points", 0))
        pen.text(REVEAL_COLS[0] + CHAR_W, y, str(card.get("matches", 0)))
        pen.text(REVEAL_COLS[1] + CHAR_W, y, str(card.get("misses", 0)))
        pen.text(REVEAL_COLS[2], y, say(WORDS, "repeat", lang) if card.get("repeat")
                 else f"{points:+d}")
        total = scores[seat] if seat < len(scores) else 0
        pen.text(REVEAL_COLS[3], y, clip(f"{total:>3}", 3))
        y += LINE_H
    more = page + 1 < pages
    pen.text(0, HEIGHT - LINE_H, say(WORDS, "ok_more" if more else "ok_next", lang))
    return image


def scores_screen(view: Mapping[str, Any], *, lang: str = "en") -> Image.Image:
    """The guessers' scores; at the end also the secret and the winners (marked ``*``)."""
    outcome = view.get("outcome")
    lock = int(view.get("lock", 0))
    scores = list(view.get("scores") or [])
    seats = list(view.get("seats") or [])
    winners = set(outcome.get("winners", [])) if outcome else set()
    image = blank()
    pen = Pen(image, lang)
    right = (say(BOX_WORDS, "game_over", lang) if outcome
             else say(WORDS, "scores_turn", lang, turn=view.get("turn", 1)))
    y = pen.header(title(lang), right)
    bottom = HEIGHT
    if outcome:
        draw_code_pad(pen, code_dots(view.get("secret")), int(view.get("size") or 3),
                      left=WIDTH - 40, side=40, top=y)
        pen.text(WIDTH - 40, y + 41, say(WORDS, "the_secret", lang))
        bottom = HEIGHT - LINE_H
        pen.text(0, bottom, say(BOX_WORDS, "ok_results", lang))
    for seat in range(len(seats)):
        if seat == lock:
            continue
        if y + LINE_H > bottom + 1:
            break
        pen.text(0, y, "*" if seat in winners else " ")
        pen.name(CHAR_W, y, _name(view, seat), seat, chars=8)
        score = scores[seat] if seat < len(scores) else 0
        pen.text(10 * CHAR_W, y, clip(f"{score:>4}", 4))
        y += LINE_H
    return image


def scored_seats(view: Mapping[str, Any]) -> list[int]:
    """The seats whose scores the results list: every guesser (the Lock does not score)."""
    lock = view.get("lock")
    return [s for s in range(len(view.get("seats") or [])) if s != lock]
