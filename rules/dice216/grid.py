"""The grid of 2 1 6: marks (a number and its owner) and the lines that are scored.

Cells are kept row-major in a flat tuple; a :class:`Line` lists the flat indices of its cells.

>>> [str(line) for line in lines_of(4, diagonals=True)][-3:]
['column 4', 'diagonal 1', 'diagonal 2']
>>> lines_of(4, diagonals=True)[-1].cells
(3, 6, 9, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

LineKind = Literal["row", "column", "diagonal"]


@dataclass(frozen=True)
class Mark:
    """A number written in a cell, in the pen colour of its ``owner`` (a seat)."""

    value: int
    owner: int


Cells = tuple[Mark | None, ...]


@dataclass(frozen=True)
class Line:
    """A scored line: a row or column (index 1 at the top/left), or a full diagonal.

    Diagonal 1 runs from the top-left corner to the bottom-right; diagonal 2 from the top-right
    to the bottom-left. Shorter diagonals are never lines.
    """

    kind: LineKind
    index: int
    cells: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.kind} {self.index}"


@cache
def lines_of(size: int, diagonals: bool) -> tuple[Line, ...]:
    """Every scored line of a ``size``×``size`` grid: rows, then columns, then diagonals."""
    rows = [Line("row", r + 1, tuple(r * size + c for c in range(size))) for r in range(size)]
    columns = [
        Line("column", c + 1, tuple(r * size + c for r in range(size))) for c in range(size)
    ]
    lines = rows + columns
    if diagonals:
        lines.append(Line("diagonal", 1, tuple(i * size + i for i in range(size))))
        lines.append(Line("diagonal", 2, tuple(i * size + size - 1 - i for i in range(size))))
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
