"""A second count of the legal codes, by walking the grid dot by dot, written apart from the engine.

It shares nothing with ``rules.unlock`` and little with ``brute_force`` (only the exact geometry
helpers: which dots a segment passes over, whether two segments cross). Where ``brute_force``
judges every finished sequence of dots, this walks paths as a player draws them, stroke by
stroke, and applies each rule of the seeds at the moment the stroke is drawn:

- seed 002, "The path must be continuous and made of straight lines linking dots": a stroke goes
  from the end of the path to another dot;
- seed 000, "2つのドットをつなぐ直線上にあるドットは自動的につながるものとします"
  (auto-connection on): a stroke over a dot joins it, so such a stroke is only ever drawn as
  its shorter strokes;
- seed 002, "The path can't cross the same dot twice": a stroke never lands on a dot the path
  has visited or crossed, never passes over one it has visited, and never passes over one it has
  crossed (auto-connection off, a dot passed over is crossed);
- Easy: "Lines can only join vertically, horizontally or diagonally adjacent dots"; Easy and
  Medium: "Lines cannot cross", and the path ends on another dot than it started; Hard: "lines
  can cross and the path may end on the same dot as it started" (a loop of 3 lines or more).

Each open path is drawn from both of its ends and each loop from each of its dots in both
directions; a code is counted once: an open path from its smaller end, a loop from its smallest
dot towards the smaller of its two neighbours.
"""

from __future__ import annotations

from functools import cache

from tests.rules.unlock.brute_force import dots_on_segment, lines_cross, neighbours

Lines = frozenset[frozenset[int]]


@cache
def count_codes(size: int, level: str, auto_connect: bool) -> int:
    """How many legal codes the ``size``×``size`` card has at ``level``."""
    dots = range(1, size * size + 1)
    strokes = {
        a: [
            (b, frozenset((a, b)), dots_on_segment(a, b, size))
            for b in dots
            if b != a
            and (level != "easy" or neighbours(a, b, size))
            and not (auto_connect and dots_on_segment(a, b, size))
        ]
        for a in dots
    }
    every_line = {line for moves in strokes.values() for _, line, _ in moves}
    crossing = {
        line: frozenset(other for other in every_line if lines_cross(line, other, size))
        for line in every_line
    }
    total = 0

    def walk(path: list[int], visited: set[int], crossed: frozenset[int], banned: Lines) -> None:
        """``banned``: the lines that would cross a line drawn so far (Easy and Medium)."""
        nonlocal total
        here, start = path[-1], path[0]
        for dot, line, over in strokes[here]:
            if line in banned or not over.isdisjoint(visited) or not over.isdisjoint(crossed):
                continue
            if dot == start:  # closing a loop: its lines, this one included, are 3 or more
                if level == "hard" and len(path) >= 3 and start == min(path) and path[1] < here:
                    total += 1
                continue
            if dot in visited or dot in crossed:
                continue
            if start < dot:
                total += 1
            path.append(dot)
            visited.add(dot)
            walk(path, visited, crossed | over,
                 banned if level == "hard" else banned | crossing[line])
            visited.discard(dot)
            path.pop()

    for first in dots:
        walk([first], {first}, frozenset(), frozenset())
    return total
