"""The grid of 2 1 6: marks (a number and its owner) and the lines that are scored.

Cells are kept row-major in a flat tuple; a :class:`Line` lists the flat indices of its cells.

>>> [str(line) for line in lines_of(4, diagonals=True, diagonal_cells="full")][-3:]
['column 4', 'diagonal 1', 'diagonal 2']
>>> lines_of(4, diagonals=True, diagonal_cells="full")[-1].cells
(3, 6, 9, 12)
>>> [line.cells[:2] for line in lines_of(8, diagonals=True, diagonal_cells="six")[16:]]
[(2, 11), (16, 25), (5, 12), (23, 30)]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

LineKind = Literal["row", "column", "diagonal"]
#: Which diagonals are lines when diagonals score: ``six`` — seed 004's "6マスの部分のみを計算する"
#: (only the six-cell parts): the diagonals of exactly six cells; ``full`` — the two
#: corner-to-corner diagonals whatever the size.
DiagonalCells = Literal["six", "full"]
SIX = 6


@dataclass(frozen=True)
class Mark:
    """A number written in a cell, in the pen colour of its ``owner`` (a seat)."""

    value: int
    owner: int


Cells = tuple[Mark | None, ...]


@dataclass(frozen=True)
class Line:
    """A scored line: a row or column (index 1 at the top/left), or a diagonal.

    Diagonals run down to the right (``direction`` ↘) or down to the left (↙) and are numbered
    as :func:`diagonals_of` lists them: ↘ ones first, then ↙, each family in the reading order
    of its top cell. With the two corner-to-corner diagonals, diagonal 1 is ↘ from the
    top-left corner and diagonal 2 is ↙ from the top-right corner.
    """

    kind: LineKind
    index: int
    cells: tuple[int, ...]
    direction: str = ""

    def __str__(self) -> str:
        return f"{self.kind} {self.index}"


@cache
def diagonals_of(size: int, which: DiagonalCells) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The diagonals that are lines, as ``(direction, flat cell indices from the top)``.

    ``full``: the two corner-to-corner diagonals. ``six``: every diagonal of exactly six cells
    — the corner-to-corner ones on 6×6, four on 8×8 and 12×12, none on 4×4.
    """
    down_right = [  # column − row = k; its top cell is (0, k) or (−k, 0)
        tuple(r * size + r + k for r in range(size) if 0 <= r + k < size)
        for k in range(-(size - 1), size)
    ]
    down_left = [  # row + column = k; its top cell is (0, k) or (k − size + 1, size − 1)
        tuple(r * size + k - r for r in range(size) if 0 <= k - r < size)
        for k in range(2 * size - 1)
    ]
    families = (("↘", sorted(down_right)), ("↙", sorted(down_left)))
    wanted = size if which == "full" else SIX
    return tuple(
        (arrow, run) for arrow, runs in families for run in runs if len(run) == wanted
    )


@cache
def lines_of(
    size: int, diagonals: bool, diagonal_cells: DiagonalCells = "six"
) -> tuple[Line, ...]:
    """Every scored line of a ``size``×``size`` grid: rows, then columns, then diagonals."""
    rows = [Line("row", r + 1, tuple(r * size + c for c in range(size))) for r in range(size)]
    columns = [
        Line("column", c + 1, tuple(r * size + c for r in range(size))) for c in range(size)
    ]
    lines = rows + columns
    if diagonals:
        lines.extend(
            Line("diagonal", index, cells, arrow)
            for index, (arrow, cells) in enumerate(diagonals_of(size, diagonal_cells), start=1)
        )
    return tuple(lines)


def largest_groups(cells: Cells, size: int, n_players: int) -> tuple[int, ...]:
    """Each seat's largest group of own cells joined through edges (not corners)."""
    best = [0] * n_players
    seen = [False] * len(cells)
    for start, mark in enumerate(cells):
        if mark is None or seen[start]:
            continue
        seen[start] = True
        stack, count = [start], 0
        while stack:
            at = stack.pop()
            count += 1
            row, col = divmod(at, size)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < size and 0 <= c < size:
                    near = r * size + c
                    other = cells[near]
                    if not seen[near] and other is not None and other.owner == mark.owner:
                        seen[near] = True
                        stack.append(near)
        best[mark.owner] = max(best[mark.owner], count)
    return tuple(best)
