"""Hacktrick screens: the magic-square board with markers, the row's tail, points and status.

The pad's 3×3 grid is the board; each square shows its number small in the corner. The first
seat's markers are hollow rings, the second's filled discs; a ×2 marker is drawn bigger.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from firmware_host.games.hacktrick.words import WORDS
from firmware_host.screens.message import message_screen
from firmware_host.screens.text import CHAR_W, HEIGHT, LINE_H, WIDTH, Pen, blank, shown_name
from firmware_host.screens.words import say

#: The board as laid out on the table and on the pad, row by row.
MAGIC_SQUARE = ((2, 7, 6), (9, 5, 1), (4, 3, 8))
CELL = 21


def square_at(dot: int) -> int:
    """The board square under pad dot ``dot`` (1–9, row by row)."""
    row, col = divmod(dot - 1, 3)
    return MAGIC_SQUARE[row][col]


def markers_on(view: Mapping[str, Any], square: int) -> list[tuple[int, bool]]:
    """``(owner, is_x2)`` for each marker on ``square``."""
    board = view.get("board") or {}
    raw = board.get(str(square), board.get(square, [])) if isinstance(board, Mapping) else (
        board[square - 1] if len(board) >= square else [])
    out = []
    for m in raw or []:
        if isinstance(m, Mapping):
            out.append((int(m.get("owner", 0)), bool(m.get("x2", False))))
        else:
            out.append((int(m), False))
    return out


def draw_board(pen: Pen, view: Mapping[str, Any], highlight: int | None = None) -> None:
    """The nine squares with their numbers and markers; ``highlight`` is inverted."""
    for r, row in enumerate(MAGIC_SQUARE):
        for c, square in enumerate(row):
            x, y = c * CELL, r * CELL + 1
            pen.draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), outline=1)
            _tiny_digit(pen, x + 2, y + 2, square)
            for i, (owner, x2) in enumerate(markers_on(view, square)[:3]):
                cx, cy = x + 6 + (i % 2) * 8 + (i // 2) * 4, y + 9 + (i // 2) * 6
                rad = 3 if x2 else 2
                box = (cx, cy, cx + 2 * rad, cy + 2 * rad)
                if owner == 1:
                    pen.draw.ellipse(box, fill=1)
                else:
                    pen.draw.ellipse(box, outline=1)
            if square == highlight:
                pen.invert((x + 1, y + 1, x + CELL - 2, y + CELL - 2))


#: A 3×5 pixel font for the squares' numbers (rows of 3 bits).
DIGITS = {
    1: (2, 6, 2, 2, 7), 2: (6, 1, 2, 4, 7), 3: (6, 1, 2, 1, 6), 4: (5, 5, 7, 1, 1),
    5: (7, 4, 6, 1, 6), 6: (3, 4, 6, 5, 2), 7: (7, 1, 2, 2, 2), 8: (2, 5, 2, 5, 2),
    9: (2, 5, 3, 1, 6), 0: (2, 5, 5, 5, 2),
}


def _tiny_digit(pen: Pen, x: int, y: int, digit: int) -> None:
    for dy, bits in enumerate(DIGITS[digit]):
        for dx in range(3):
            if bits & (4 >> dx):
                pen.draw.point((x + dx, y + dy), fill=1)


def _name(view: Mapping[str, Any], seat: int) -> str:
    seats = view.get("seats") or []
    return str(seats[seat]) if 0 <= seat < len(seats) else f"P{seat + 1}"


def title(lang: str) -> str:
    """Hacktrick's name: the title of every screen."""
    return say(WORDS, "name", lang)


def _row(view: Mapping[str, Any], lang: str) -> str:
    row = [str(v) for v in (view.get("row") or [])]
    return say(WORDS, "row", lang, cards=" ".join(row[-3:]) if row else "-")


def board_screen(
    view: Mapping[str, Any], *, prompt: str = "", highlight: int | None = None,
    lang: str = "en",
) -> Image.Image:
    """Board, row tail, points, captures and declaration, plus the prompt's lines, under
    Hacktrick's name."""
    image = blank()
    pen = Pen(image, lang)
    draw_board(pen, view, highlight)
    x = 3 * CELL + 2
    width = WIDTH - x
    chars = width // CHAR_W
    if view.get("outcome"):
        prompt = say(WORDS, "game_over", lang)
    prompt_lines = [pen.fit(line, width) for line in prompt.split("\n")] if prompt else []
    limit = HEIGHT - LINE_H * len(prompt_lines)
    pen.lines(x, limit, prompt_lines)
    top = pen.header(title(lang), left=x - 1)
    points = list(view.get("points") or [0, 0])
    to_act = list(view.get("to_act") or [])
    status: list[tuple[int | None, str]] = []
    for player in range(len(view.get("seats") or [])):
        status.append((player, f"{points[player] if player < len(points) else 0:>2}"))
    status.append((None, pen.fit(_row(view, lang), width)))
    supply = view.get("supply") or []
    caps = [str(s.get("captured", 0)) for s in supply if isinstance(s, Mapping)]
    if caps:
        status.append((None, pen.fit(say(WORDS, "captured", lang, counts="/".join(caps)),
                                     width)))
    declaration = view.get("declaration")
    if declaration:
        kind = declaration.get("kind") if isinstance(declaration, Mapping) else declaration
        if f"declared.{kind}" in WORDS:
            status.append((None, say(WORDS, f"declared.{kind}", lang)))
    y = top
    for who, text in status:
        if y + LINE_H > limit:
            break
        if who is None:
            pen.text(x, y, text)
        else:
            pen.text(x, y, ">" if who in to_act else " ")
            pen.name(x + CHAR_W, y, _name(view, who), who, chars=chars - 3)
            pen.text(WIDTH - 2 * CHAR_W, y, text)
        y += LINE_H
    return image


#: A card of the hand: a box this size, spaced by `CARD_GAP`; `CARD_MARGIN` blank columns
#: on each side keep one hand from reading as part of a longer one.
CARD_W, CARD_H, CARD_GAP, CARD_MARGIN = 10, 13, 2, 3
HAND_X = 3 * CELL + CARD_MARGIN
#: The hand's row of cards, under the title bar and the holder's name.
HAND_Y = LINE_H


def card_row(cards: list[int], chosen: int | None = None) -> Image.Image:
    """The hand as a row of boxed values (sorted), with `CARD_MARGIN` blank columns each
    side; ``chosen`` (a position in the sorted row) is inverted."""
    width = 2 * CARD_MARGIN + max(0, len(cards) * (CARD_W + CARD_GAP) - CARD_GAP)
    image = Image.new("1", (width, CARD_H), 0)
    pen = Pen(image)
    for i, value in enumerate(sorted(cards)):
        x, y = CARD_MARGIN + i * (CARD_W + CARD_GAP), 0
        pen.draw.rectangle((x, y, x + CARD_W - 1, y + CARD_H - 1), outline=1)
        pen.text(x + 2, y + 1, str(value))
        if i == chosen:
            pen.invert((x + 1, y + 1, x + CARD_W - 2, y + CARD_H - 2))
    return image


def chosen_position(cards: list[int], value: int | None) -> int | None:
    """Where the first card of ``value`` sits in the sorted hand (None: not held)."""
    ordered = sorted(cards)
    return ordered.index(value) if value in ordered else None


def hand_screen(
    view: Mapping[str, Any], seat: int, *, chosen: int | None = None, prompt: str = "",
    highlight: int | None = None, lang: str = "en",
) -> Image.Image:
    """``seat``'s own hand beside the board: only for the seat's own view, after they took
    the pad. ``chosen`` is the value of the card being played (shown inverted)."""
    hands = view.get("hands") or []
    cards = [int(c) for c in (hands[seat].get("cards") or [])] if seat < len(hands) else []
    image = blank()
    pen = Pen(image, lang)
    draw_board(pen, view, highlight)
    x = 3 * CELL + 2
    width = WIDTH - x
    chars = width // CHAR_W
    top = pen.header(title(lang), left=x - 1)
    points = list(view.get("points") or [0, 0])
    pen.name(x, top, _name(view, seat), seat, chars=chars - 3)
    pen.text(WIDTH - 2 * CHAR_W, top, f"{points[seat] if seat < len(points) else 0:>2}")
    image.paste(card_row(cards, chosen_position(cards, chosen)),
                (HAND_X - CARD_MARGIN, top + HAND_Y))
    prompt_lines = [pen.fit(line, width) for line in prompt.split("\n")] if prompt else []
    limit = HEIGHT - LINE_H * len(prompt_lines)
    pen.lines(x, limit, prompt_lines)
    other = 1 - seat
    status = [_row(view, lang)]
    declaration = view.get("declaration")
    if isinstance(declaration, Mapping) and declaration.get("against") == seat:
        status.append(say(WORDS, "must_play" if declaration.get("kind") == "play"
                          else "no_play", lang))
    size = hands[other].get("size", 0) if other < len(hands) else 0
    said = (view.get("announced_sums") or [None, None])[other]
    status.append(say(WORDS, "versus", lang, size=size) if said is None
                  else say(WORDS, "versus_sum", lang, size=size, sum=said))
    y = top + HAND_Y + CARD_H + 1
    for text in status:
        if y + LINE_H > limit + 1:
            break
        pen.text(x, y, pen.fit(text, width))
        y += LINE_H
    return image


def round_screen(view: Mapping[str, Any], *, lang: str = "en") -> Image.Image:
    """The last round's result: who won it, how (``end.<RoundEnd>``), the points it scored
    and the score."""
    result = view.get("last_round") or {}
    seats = [str(s) for s in view.get("seats") or []]
    names = [shown_name(s, i) for i, s in enumerate(seats)]
    winner = int(result.get("winner", 0))
    points = list(view.get("points") or [0] * len(names))
    score = ", ".join(f"{n} {p}" for n, p in zip(names, points, strict=False))
    who = names[winner] if winner < len(names) else "?"
    end = f"end.{result.get('reason')}"
    how = say(WORDS, end, lang) if end in WORDS else ""
    text = say(WORDS, "round_won", lang, who=who, points=result.get("points", 1), how=how,
               score=score)
    return message_screen(title(lang), text, "OK", lang=lang,
                          right=say(WORDS, "round", lang, round=result.get("round", "?")))
