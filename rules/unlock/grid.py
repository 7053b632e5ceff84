"""The card's grid of dots and every line that can join two of them, as bitmask tables.

Dots are numbered row by row from the top-left, 1…n². A **line** is an undirected segment
between two different dots; every pair of dots has one bit, so a code's lines fit in an int.
The tables here hold the geometry the rules ask about, computed once per grid size:
which dots a line passes over, which lines cross, which dots are neighbours.

>>> g = grid(3)
>>> g.line_count
36
>>> g.line_text(g.line_index(1, 3))
'1-3'
>>> g.dots_of_mask(g.between[1][3])
(2,)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import gcd

MIN_SIZE = 2
MAX_SIZE = 5


@dataclass(frozen=True, eq=False)
class Grid:
    """Geometry tables of an n×n card (index 0 of per-dot tables is unused)."""

    size: int
    #: ``line_ends[i]`` is the pair of dots (smaller first) of line ``i``.
    line_ends: tuple[tuple[int, int], ...]
    #: ``line_bit[a][b]`` is the single-bit mask of the line a–b (0 when a == b).
    line_bit: tuple[tuple[int, ...], ...]
    #: ``between[a][b]`` is the mask of dots (bit ``d``) strictly inside the segment a–b.
    between: tuple[tuple[int, ...], ...]
    #: ``crossing[i]`` is the mask of lines that cross line ``i``.
    crossing: tuple[int, ...]
    #: ``neighbours[a]`` are the dots horizontally, vertically or diagonally adjacent to ``a``.
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def dot_count(self) -> int:
        """How many dots the card has (9 on 3×3)."""
        return self.size * self.size

    @property
    def line_count(self) -> int:
        """How many lines the bitmask can hold: one per pair of dots."""
        return len(self.line_ends)

    @property
    def dots(self) -> range:
        """The dot numbers, 1…n²."""
        return range(1, self.dot_count + 1)

    def position(self, dot: int) -> tuple[int, int]:
        """Row and column (0-based) of ``dot``."""
        return divmod(dot - 1, self.size)

    def line_index(self, a: int, b: int) -> int:
        """The bit index of the line a–b."""
        return self.line_bit[a][b].bit_length() - 1

    def line_text(self, index: int) -> str:
        """A line as players write it, smaller dot first: ``1-5``."""
        a, b = self.line_ends[index]
        return f"{a}-{b}"

    def lines_of_mask(self, mask: int) -> tuple[int, ...]:
        """The line indices set in ``mask``, in increasing order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return tuple(out)

    def dots_of_mask(self, mask: int) -> tuple[int, ...]:
        """The dots set (bit ``d`` for dot ``d``) in ``mask``, in increasing order."""
        return tuple(d for d in self.dots if mask >> d & 1)

    def is_adjacent(self, a: int, b: int) -> bool:
        """True when a and b are horizontal, vertical or diagonal neighbours."""
        return b in self.neighbours[a]


def _orientation(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
    """Sign of the turn p→q→r: positive, negative, or 0 when collinear."""
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 0) - (value < 0)


def segments_cross(
    a: tuple[int, int], b: tuple[int, int], c: tuple[int, int], d: tuple[int, int]
) -> bool:
    """True when segments ab and cd share no endpoint and their interiors meet in one point.

    Strict orientation tests: a T-junction (an endpoint on the other segment) is not a crossing,
    and collinear segments never cross — they meet in no point or in infinitely many.
    """
    if {a, b} & {c, d}:
        return False
    return (
        _orientation(a, b, c) * _orientation(a, b, d) < 0
        and _orientation(c, d, a) * _orientation(c, d, b) < 0
    )


@cache
def grid(size: int) -> Grid:
    """The geometry tables of the ``size``×``size`` card (built once, then cached)."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"a card is {MIN_SIZE}×{MIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}, not {size}")
    n = size * size
    pos = [(-1, -1)] + [divmod(d - 1, size) for d in range(1, n + 1)]
    ends = tuple((a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1))
    bit = [[0] * (n + 1) for _ in range(n + 1)]
    between = [[0] * (n + 1) for _ in range(n + 1)]
    for index, (a, b) in enumerate(ends):
        bit[a][b] = bit[b][a] = 1 << index
        (ra, ca), (rb, cb) = pos[a], pos[b]
        steps = gcd(rb - ra, cb - ca)
        dr, dc = (rb - ra) // steps, (cb - ca) // steps
        inside = 0
        for k in range(1, steps):
            inside |= 1 << ((ra + k * dr) * size + (ca + k * dc) + 1)
        between[a][b] = between[b][a] = inside
    crossing = tuple(
        sum(
            1 << j
            for j, (c, d) in enumerate(ends)
            if segments_cross(pos[a], pos[b], pos[c], pos[d])
        )
        for a, b in ends
    )
    neighbours = tuple(
        tuple(
            b
            for b in range(1, n + 1)
            if b != a and max(abs(pos[a][0] - pos[b][0]), abs(pos[a][1] - pos[b][1])) == 1
        )
        if a
        else ()
        for a in range(n + 1)
    )
    return Grid(
        size=size,
        line_ends=ends,
        line_bit=tuple(tuple(row) for row in bit),
        between=tuple(tuple(row) for row in between),
        crossing=crossing,
        neighbours=neighbours,
    )
