"""Scoring of 2 1 6: who dominates each line, what it scores, area, handicap and totals.

The same function scores a finished grid and one still being filled: on a partial grid it gives
the **running** tally (the score if the game ended now: empty cells belong to nobody and add
nothing, and a bonus needs a full line). The **projected** total adds, for every line that has a
dominator, the die's mean value ((faces + 1) / 2) for each of its empty cells to that dominator,
as if the current dominator kept the line and its empty cells received average rolls; bonuses,
area and handicap are counted as they stand. At the end both equal the final totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice216.grid import Cells, Line, largest_groups, lines_of
from rules.dice216.setup import Setup

#: Points for a line whose every cell is its dominator's.
BONUS = 10


def strict_leader(counts: Sequence[int]) -> int | None:
    """The seat with strictly more than each other seat, if any (and at least one).

    >>> strict_leader([3, 3]), strict_leader([5, 4, 3]), strict_leader([5, 5, 2])
    (None, 0, None)
    """
    top = max(counts)
    if top == 0 or list(counts).count(top) > 1:
        return None
    return list(counts).index(top)


@dataclass(frozen=True)
class LineResult:
    """One line of the score sheet."""

    line: Line
    #: Cells each seat owns in the line.
    counts: tuple[int, ...]
    dominator: int | None
    #: Every number now in the line, whoever owns it.
    sum: int
    #: What the line scores for its dominator under ``line_total`` (0 when nobody dominates).
    total: int
    #: ``BONUS`` when the line is full and every cell is the dominator's, else 0.
    bonus: int
    empty: int

    @property
    def points(self) -> int:
        """Total plus bonus: what the dominator writes beside the line."""
        return self.total + self.bonus


@dataclass(frozen=True)
class AreaResult:
    """The area variant: each seat's largest edge-connected group and who scores it."""

    groups: tuple[int, ...]
    #: The seat with the strictly largest group; ``None`` on a tie at the top.
    winner: int | None
    #: The winner's group size, which they add to their total (0 without a winner).
    points: int


@dataclass(frozen=True)
class Handicap:
    """The handicap variant: ``seat`` (the second player) adds ``roll`` once it is rolled."""

    seat: int
    roll: int | None


@dataclass(frozen=True)
class ScoreSheet:
    """The whole score sheet of a grid, with each seat's total broken down."""

    lines: tuple[LineResult, ...]
    area: AreaResult | None
    handicap: Handicap | None
    #: Per seat: the totals of the lines it dominates.
    line_points: tuple[int, ...]
    bonus: tuple[int, ...]
    area_points: tuple[int, ...]
    handicap_points: tuple[int, ...]
    #: Per seat: the running total (the final total once the grid is full).
    totals: tuple[int, ...]
    #: Per seat: the projected total (see the module's docstring).
    projected: tuple[float, ...]


def score_line(line: Line, cells: Cells, n_players: int, own: bool) -> LineResult:
    """The result of one line; ``own``: only the dominator's numbers count."""
    counts = [0] * n_players
    sums = [0] * n_players
    empty = 0
    for index in line.cells:
        mark = cells[index]
        if mark is None:
            empty += 1
        else:
            counts[mark.owner] += 1
            sums[mark.owner] += mark.value
    dominator = strict_leader(counts)
    total = bonus = 0
    if dominator is not None:
        total = sums[dominator] if own else sum(sums)
        if counts[dominator] == len(line.cells):
            bonus = BONUS
    return LineResult(line, tuple(counts), dominator, sum(sums), total, bonus, empty)


def score(
    cells: Cells, setup: Setup, n_players: int, handicap: Handicap | None = None
) -> ScoreSheet:
    """The score sheet of ``cells`` (full or partial) under ``setup``."""
    own = setup.line_total == "own"
    lines = tuple(
        score_line(line, cells, n_players, own)
        for line in lines_of(setup.size, setup.diagonals, setup.diagonal_cells)
    )
    line_points = [0] * n_players
    bonus = [0] * n_players
    mean_fill = [0.0] * n_players
    mean = (setup.die_faces + 1) / 2
    for result in lines:
        if result.dominator is not None:
            line_points[result.dominator] += result.total
            bonus[result.dominator] += result.bonus
            mean_fill[result.dominator] += result.empty * mean

    area = None
    area_points = [0] * n_players
    if setup.area:
        groups = largest_groups(cells, setup.size, n_players)
        winner = strict_leader(groups)
        points = groups[winner] if winner is not None else 0
        area = AreaResult(groups, winner, points)
        if winner is not None:
            area_points[winner] = points

    handicap_points = [0] * n_players
    if handicap is not None and handicap.roll is not None:
        handicap_points[handicap.seat] = handicap.roll

    totals = tuple(
        line_points[s] + bonus[s] + area_points[s] + handicap_points[s] for s in range(n_players)
    )
    return ScoreSheet(
        lines=lines,
        area=area,
        handicap=handicap,
        line_points=tuple(line_points),
        bonus=tuple(bonus),
        area_points=tuple(area_points),
        handicap_points=tuple(handicap_points),
        totals=totals,
        projected=tuple(totals[s] + mean_fill[s] for s in range(n_players)),
    )
