"""Bots for 2 1 6, deciding from the seat's view (2 1 6 has no secrets, so the view is all).

- ``easy`` writes the roll where it raises the running projection most: its projected total (the
  tally the panel shows: dominated lines, their empty cells at the die's mean) minus the best
  other player's.
- ``hard`` scores a grid by each player's *expected* final total — a line goes to the player who
  dominates it when its empty cells are shared out at random, each line's total is its numbers
  plus the die's mean per empty cell — and looks two placements ahead: for each of its best few
  cells, every roll the next player may get and that player's best answer (expectimax over the
  die). With two cells left the search reaches the end of the game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import comb, tanh
from typing import Any

from rules.bots import Bot, RandomBot, require_legal
from rules.dice216.grid import Mark, largest_groups
from rules.dice216.scoring import BONUS
from rules.evaluation import Weighing

#: How many of its own candidate cells ``hard`` searches two placements deep.
HARD_CANDIDATES = 8


def _cell_index(action: str, size: int) -> int:
    _, row, col = action.split()
    return (int(row) - 1) * size + int(col) - 1


class Grid:
    """The grid of a view as mutable arrays, with per-line counts kept up to date for search."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.size: int = int(view["size"])
        self.faces: int = int(view["die_faces"])
        self.players: int = len(view["seats"])
        self.me: int = int(view["you"])
        options = view["options"]
        self.own_total: bool = options["line_total"] == "own"
        self.area: bool = bool(options["area"])
        self.mean: float = (self.faces + 1) / 2
        cells = [cell for row in view["cells"] for cell in row]
        self.owner: list[int] = [-1 if c is None else int(c["owner"]) for c in cells]
        self.value: list[int] = [0 if c is None else int(c["value"]) for c in cells]
        self.lines: list[tuple[int, ...]] = [
            tuple((r - 1) * self.size + c - 1 for r, c in line["cells"]) for line in view["lines"]
        ]
        self.cell_lines: list[list[int]] = [[] for _ in cells]
        for index, line in enumerate(self.lines):
            for cell in line:
                self.cell_lines[cell].append(index)
        self.fixed: list[float] = [0.0] * self.players
        handicap = view.get("handicap")
        if handicap and handicap.get("roll") is not None:
            self.fixed[int(handicap["seat"])] += int(handicap["roll"])

    @property
    def empties(self) -> list[int]:
        return [i for i, owner in enumerate(self.owner) if owner < 0]

    def place(self, cell: int, value: int, seat: int) -> None:
        self.owner[cell], self.value[cell] = seat, value

    def clear(self, cell: int) -> None:
        self.owner[cell], self.value[cell] = -1, 0

    def line_key(self, line: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """What a line's worth depends on: counts and sums by seat, and its empty cells."""
        counts = [0] * self.players
        sums = [0] * self.players
        empty = 0
        for cell in line:
            owner = self.owner[cell]
            if owner < 0:
                empty += 1
            else:
                counts[owner] += 1
                sums[owner] += self.value[cell]
        return tuple(counts), tuple(sums), empty


# --- easy: the running projection --------------------------------------------------------------


def projected(grid: Grid) -> list[float]:
    """Each seat's projected total, as the score sheet shows it: dominated lines with the die's
    mean in their empty cells, full-line bonuses, the area as it stands, the handicap."""
    totals = list(grid.fixed)
    for line in grid.lines:
        counts, sums, empty = grid.line_key(line)
        top = max(counts)
        if top == 0 or counts.count(top) > 1:
            continue
        dominator = counts.index(top)
        totals[dominator] += (sums[dominator] if grid.own_total else sum(sums)) + empty * grid.mean
        if top == len(line):
            totals[dominator] += BONUS
    if grid.area:
        _add_area(grid, totals)
    return totals


def _add_area(grid: Grid, totals: list[float]) -> None:
    """Add the area variant's points as the grid stands (the larger group scores its size)."""
    cells = tuple(None if owner < 0 else Mark(value, owner)
                  for owner, value in zip(grid.owner, grid.value, strict=True))
    groups = largest_groups(cells, grid.size, grid.players)
    top = max(groups)
    if top and groups.count(top) == 1:
        totals[groups.index(top)] += top


def margin(totals: Sequence[float], seat: int) -> float:
    """``seat``'s total minus the best other total: positive when it leads."""
    return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)


class EasyBot:
    """Greedy on the projected tally: the cell that raises its lead the most (ties at random)."""

    level = "easy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        grid = Grid(view)
        roll = int(view["pending_roll"])
        best: list[str] = []
        best_score = float("-inf")
        for action in legal:
            cell = _cell_index(action, grid.size)
            grid.place(cell, roll, grid.me)
            score = margin(projected(grid), grid.me)
            grid.clear(cell)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif score > best_score - 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]


# --- hard: expected final totals, searched over the next roll ------------------------------------


@lru_cache(maxsize=1 << 14)
def _share_odds(mine: int, others: tuple[int, ...], empty: int, players: int) -> float:
    """The chance ``mine`` ends strictly above every count of ``others`` when each of ``empty``
    cells goes to one of ``players`` seats at random."""
    share = 1 / players
    total = 0.0
    for k in range(empty + 1):
        p_k = comb(empty, k) * share**k * (1 - share) ** (empty - k)
        total += p_k * _all_below(mine + k, others, empty - k, players - 1)
    return total


@lru_cache(maxsize=1 << 14)
def _all_below(limit: int, others: tuple[int, ...], cells: int, seats: int) -> float:
    """The chance every one of ``others`` stays below ``limit`` when ``cells`` cells are shared
    at random among ``seats`` seats (``len(others) == seats``)."""
    if not others:
        return 1.0
    first, rest = others[0], others[1:]
    if seats == 1:
        return 1.0 if first + cells < limit else 0.0
    share = 1 / seats
    total = 0.0
    for j in range(cells + 1):
        if first + j >= limit:
            break
        p_j = comb(cells, j) * share**j * (1 - share) ** (cells - j)
        total += p_j * _all_below(limit, rest, cells - j, seats - 1)
    return total


@lru_cache(maxsize=1 << 16)
def _line_worth(
    counts: tuple[int, ...], sums: tuple[int, ...], empty: int, mean: float, own: bool
) -> tuple[float, ...]:
    """Each seat's expected points from one line: the chance it dominates times the line's
    expected total, plus the bonus times the chance it takes every remaining cell."""
    players = len(counts)
    length = sum(counts) + empty
    worth = []
    for seat in range(players):
        others = tuple(sorted(c for s, c in enumerate(counts) if s != seat))
        odds = _share_odds(counts[seat], others, empty, players)
        total = sums[seat] + empty / players * mean if own else sum(sums) + empty * mean
        value = odds * total
        if counts[seat] + empty == length:
            value += BONUS * (1 / players) ** empty
        worth.append(value)
    return tuple(worth)


def expected_totals(grid: Grid) -> list[float]:
    """Each seat's expected final total, lines shared out at random from here (see above)."""
    totals = list(grid.fixed)
    for line in grid.lines:
        counts, sums, empty = grid.line_key(line)
        for seat, value in enumerate(_line_worth(counts, sums, empty, grid.mean, grid.own_total)):
            totals[seat] += value
    if grid.area:
        _add_area(grid, totals)
    return totals


class _Search:
    """Expected totals kept per line, updated as cells are tried and taken back."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.worth = [self._worth(line) for line in grid.lines]
        self.totals = list(grid.fixed)
        for worth in self.worth:
            for seat, value in enumerate(worth):
                self.totals[seat] += value

    def _worth(self, line: tuple[int, ...]) -> tuple[float, ...]:
        counts, sums, empty = self.grid.line_key(line)
        return _line_worth(counts, sums, empty, self.grid.mean, self.grid.own_total)

    def place(self, cell: int, value: int, seat: int) -> None:
        self.grid.place(cell, value, seat)
        self._refresh(cell)

    def clear(self, cell: int) -> None:
        self.grid.clear(cell)
        self._refresh(cell)

    def _refresh(self, cell: int) -> None:
        for index in self.grid.cell_lines[cell]:
            old = self.worth[index]
            new = self._worth(self.grid.lines[index])
            self.worth[index] = new
            for seat in range(self.grid.players):
                self.totals[seat] += new[seat] - old[seat]

    def score(self, seat: int, area: bool = True) -> float:
        """``seat``'s expected lead; with ``area`` (and the variant on), the area as it stands
        (the costliest term, left out where the search tries every cell)."""
        if not (area and self.grid.area):
            return margin(self.totals, seat)
        totals = list(self.totals)
        _add_area(self.grid, totals)
        return margin(totals, seat)


class HardBot:
    """Expected-total evaluation with a two-placement expectimax over the next player's roll."""

    level = "hard"

    def __init__(self, candidates: int = HARD_CANDIDATES) -> None:
        self.candidates = candidates

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        if len(legal) == 1:
            return legal[0]
        values = self._values(view, legal, ())
        top = max(values.values())
        best = [order for order, value in values.items() if value > top - 1e-9]
        return legal[best[rng.randrange(len(best))]]

    def weigh(self, view: Mapping[str, Any], legal: Sequence[str],
              chosen: str) -> Weighing | None:
        """The best cell's expected lead and ``chosen``'s (searched too when it is not among
        the candidates), on the analysis's scale."""
        if chosen not in legal or view.get("phase") != "place":
            return None
        mine = legal.index(chosen)
        values = self._values(view, legal, (mine,))
        best = max(values, key=lambda order: (values[order], -order))
        scale = int(view["size"]) * (int(view["die_faces"]) + 1) / 2
        return Weighing(legal[best], tanh(values[best] / scale), tanh(values[mine] / scale))

    def _values(self, view: Mapping[str, Any], legal: Sequence[str],
                also: Sequence[int]) -> dict[int, float]:
        """The expected lead after each of the best few cells (and the ``also`` ones), by
        their place in ``legal``, in the order they were weighed."""
        grid = Grid(view)
        search = _Search(grid)
        me, roll = grid.me, int(view["pending_roll"])
        cells = [_cell_index(action, grid.size) for action in legal]
        first: list[tuple[float, int]] = []
        for order, cell in enumerate(cells):
            search.place(cell, roll, me)
            first.append((search.score(me), order))
            search.clear(cell)
        first.sort(key=lambda pair: -pair[0])
        shortlist = [order for _, order in first[: self.candidates]]
        shortlist += [order for order in also if order not in shortlist]
        nxt = (me + 1) % grid.players
        values: dict[int, float] = {}
        for order in shortlist:
            cell = cells[order]
            search.place(cell, roll, me)
            values[order] = self._reply_value(search, nxt, me)
            search.clear(cell)
        return values

    def _reply_value(self, search: _Search, mover: int, me: int) -> float:
        """My expected lead after ``mover`` rolls and answers with its own best cell."""
        grid = search.grid
        empties = grid.empties
        if not empties:
            return search.score(me)
        total = 0.0
        for roll in range(1, grid.faces + 1):
            best_for_mover = float("-inf")
            answer = empties[0]
            for cell in empties:
                search.place(cell, roll, mover)
                theirs = search.score(mover, area=False)
                if theirs > best_for_mover:
                    best_for_mover, answer = theirs, cell
                search.clear(cell)
            search.place(answer, roll, mover)
            total += search.score(me)
            search.clear(answer)
        return total / grid.faces


BOTS: Mapping[str, Bot] = {"random": RandomBot(), "easy": EasyBot(), "hard": HardBot()}
