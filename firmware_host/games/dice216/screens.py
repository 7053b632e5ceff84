"""2 1 6 screens: the grid with the cursor and the running tally.

The first seat's cells show their number white on black; the second seat's black on white
(the names on the right are drawn the same way, as the legend). On 12×12 (3–4 players) cells
are 5 px: they show their owner as a pattern, and a status line names the number and the
owner of the cell under the cursor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from firmware_host.games.dice216.words import WORDS
from firmware_host.screens.text import CHAR_W, HEIGHT, LINE_H, WIDTH, Pen, blank, clip, shown_name
from firmware_host.screens.words import WORDS as BOX_WORDS
from firmware_host.screens.words import say

Cell = tuple[int, int | None] | None
#: Where the text beside the grid starts: the grid and its cursor end at x = 61 at most.
RIGHT_COLUMN = HEIGHT - 2


def grid_cells(view: Mapping[str, Any]) -> list[list[Cell]]:
    """The view's cells as rows of ``(value, owner)`` or None, whatever nesting the view used."""
    size = int(view.get("size") or 6)
    raw = list(view.get("cells") or [])
    flat: list[Any] = [c for row in raw for c in row] if raw and isinstance(raw[0], list) else raw
    flat += [None] * (size * size - len(flat))
    rows: list[list[Cell]] = []
    for r in range(size):
        row: list[Cell] = []
        for c in flat[r * size : (r + 1) * size]:
            if c is None:
                row.append(None)
            else:
                owner = c.get("owner") if isinstance(c, Mapping) else None
                value = c.get("value", 0) if isinstance(c, Mapping) else c
                row.append((int(value), None if owner is None else int(owner)))
        rows.append(row)
    return rows


def _cell_box(size: int, row: int, col: int) -> tuple[int, int, int]:
    step = (HEIGHT - 1) // size  # one pixel spare for the cursor's bottom edge
    top = (HEIGHT - step * size) // 2
    return col * step, top + row * step, step


def draw_grid(pen: Pen, cells: Sequence[Sequence[Cell]], cursor: tuple[int, int] | None) -> None:
    """The grid, each cell's number in its owner's style, the cursor as an inverted cell."""
    size = len(cells)
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            x, y, step = _cell_box(size, r, c)
            pen.draw.point((x, y), fill=1)
            if cell is None:
                continue
            value, owner = cell
            if step >= 9:
                if owner == 1:
                    pen.draw.rectangle((x + 1, y + 1, x + step - 1, y + step - 1), fill=1)
                pen.text(x + (step - CHAR_W) // 2 + 1, y + max(1, (step - 9) // 2), str(value)[-1],
                         fill=0 if owner == 1 else 1)
                if owner is not None and owner >= 2:
                    pen.draw.line((x + 1, y + step - 1, x + step - 1, y + step - 1), fill=1)
            else:
                _pattern(pen, x, y, step, owner)
    if cursor is not None:
        x, y, step = _cell_box(size, *cursor)
        # the frame is inverted so it shows on empty cells and the second seat's filled ones
        for px, py in _frame(x, y, step):
            pen.draw.point((px, py), fill=0 if pen.image.getpixel((px, py)) else 1)


def _frame(x: int, y: int, step: int) -> list[tuple[int, int]]:
    """The pixels of a two-pixel-thick square frame around a cell."""
    return _ring(x, y, step) + _ring(x + 1, y + 1, step - 2)


def _ring(x: int, y: int, step: int) -> list[tuple[int, int]]:
    return ([(x + i, y) for i in range(step + 1)] + [(x + i, y + step) for i in range(step + 1)]
            + [(x, y + i) for i in range(1, step)] + [(x + step, y + i) for i in range(1, step)])


def _pattern(pen: Pen, x: int, y: int, step: int, owner: int | None) -> None:
    inner = (x + 1, y + 1, x + step - 1, y + step - 1)
    if owner == 0:
        pen.draw.rectangle(inner, fill=1)
    elif owner == 1:
        pen.draw.rectangle(inner, outline=1)
    elif owner == 2:
        pen.draw.line(inner, fill=1)
    else:
        pen.draw.point((x + step // 2, y + step // 2), fill=1)


def cell_status(cell: Cell, seats: Sequence[Any], lang: str = "en") -> str:
    """``cell 5 Ben`` for a written cell (its number and owner), ``cell: -`` for an empty one."""
    if cell is None:
        return say(WORDS, "cell_empty", lang)
    value, owner = cell
    name = str(seats[owner]) if owner is not None and 0 <= owner < len(seats) else ""
    return say(WORDS, "cell", lang, value=value,
               name=shown_name(name, owner or 0) if name else "").rstrip()


def board_screen(
    view: Mapping[str, Any], cursor: tuple[int, int] | None, *, prompt: str = "",
    lang: str = "en",
) -> Image.Image:
    """The grid, the cursor, each player's running total and what happens next (the prompt
    names the number rolled), under the game's name."""
    image = blank()
    pen = Pen(image, lang)
    cells = grid_cells(view)
    draw_grid(pen, cells, cursor)
    seats = list(view.get("seats") or [])
    totals = list(view.get("totals") or [])
    mover = view.get("mover")
    to_act = [mover] if mover is not None else list(view.get("to_act") or [])
    x = RIGHT_COLUMN
    width = WIDTH - x
    chars = width // CHAR_W
    y = pen.header(say(WORDS, "name", lang), left=x - 1)
    for seat, name in enumerate(seats):
        mover = seat in to_act
        pen.text(x, y, ">" if mover else " ")
        if seat == 1:
            pen.draw.rectangle((x + CHAR_W, y, x + CHAR_W * 6, y + LINE_H - 1), fill=1)
        pen.name(x + CHAR_W, y, str(name), seat, chars=5, fill=0 if seat == 1 else 1)
        total = totals[seat] if seat < len(totals) else 0
        pen.text(x + 6 * CHAR_W, y, clip(f"{total:>4}", chars - 6))
        y += LINE_H
    small = cursor is not None and _cell_box(len(cells), 0, 0)[2] < 9
    if view.get("outcome"):
        pen.lines(x, HEIGHT - 2 * LINE_H, [pen.fit(say(WORDS, "game_over", lang), width),
                                           pen.fit(say(BOX_WORDS, "ok_results", lang), width)])
        return image
    if small and cursor is not None:
        # the cells are too small for their numbers: the one under the cursor is spelled out
        pen.text(x, HEIGHT - 2 * LINE_H,
                 pen.fit(cell_status(cells[cursor[0]][cursor[1]], seats, lang), width))
    if prompt:
        pen.text(x, HEIGHT - LINE_H, pen.fit(prompt, width))
    return image
