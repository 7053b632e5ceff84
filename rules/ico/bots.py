"""Bots for ICO, deciding from the seat's view (ICO has no secrets, so the view is all).

The view is read into a compact model (:class:`Table`: marker counts by seat and edge, the
active face, whose turn) that plays the same rules as :mod:`rules.ico` — the balance rules, the
roll across the edge used, the figures of the level, the draws — fast enough to search.

- ``easy`` looks one turn ahead: it completes a figure when it can, and otherwise avoids rolling
  the face to where the next player can complete one; the rest is chance.
- ``hard`` searches the game tree (alpha-beta over every player's balance-allowed moves, with a
  table of positions already seen, deepening until its node budget is spent); with three or four
  players the others are assumed to play against it (paranoid search). Leaves are scored by how
  close each colour is to its figures. After many turns without a placement (Level 4, where the
  face can roll around full faces for ever) it heads for an end, a draw included.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import tanh
from typing import Any

from rules.bots import Bot, RandomBot, require_legal
from rules.evaluation import Weighing
from rules.ico.balance import MAX_OWN_PER_EDGE
from rules.ico.figures import figures_for
from rules.ico.geometry import EDGE_IDS, EDGE_INDEX, FACE, FACE_IDS, across
from rules.ico.state import MARKERS_PER_COLOUR

#: Positions ``hard`` may visit per move: a move's p99 is about 100 ms on the dev machine
#: (docs/bots.md). A count, not a clock, so that a choice does not depend on the load.
HARD_NODES = 5_000
WIN = 10_000.0
#: Turns without a placement after which ``hard`` stops playing for position and heads for an
#: end, a draw included (Level 4 can otherwise roll around full faces for ever).
STALL_TURNS = 20
#: What an unfinished line of play is worth once stalled: less than a draw.
STALLED = -1.0

#: A lead (in :func:`evaluate`'s figures) the analysis reads as clearly ahead.
OUTLOOK_SCALE = 1.5

FACE_INDEX: Mapping[str, int] = {f: i for i, f in enumerate(FACE_IDS)}
#: Face → its three edges, as indices into ``EDGE_IDS``.
FACE_EDGES: tuple[tuple[int, int, int], ...] = tuple(
    (EDGE_INDEX[a], EDGE_INDEX[b], EDGE_INDEX[c]) for a, b, c in (FACE[f].edges for f in FACE_IDS)
)
#: (face, edge) → the face on the other side of that edge.
ACROSS: Mapping[tuple[int, int], int] = {
    (FACE_INDEX[f], EDGE_INDEX[e]): FACE_INDEX[across(f, e)]
    for f in FACE_IDS for e in FACE[f].edges
}

#: A move: place on the edge (``True``) or only roll across it (``False``), and the edge.
Move = tuple[bool, int]
#: What :meth:`Table.play` returns when a move ends the game in a draw.
DRAW = -1
#: What :meth:`Table.play` needs to take a move back: the face, the turn count and the mover.
Undo = tuple[int, int, int]


@dataclass
class Table:
    """An ICO position as search needs it.

    Bit ``e`` of ``has[seat]`` is set when the colour lies on edge ``EDGE_IDS[e]``, of
    ``two[seat]`` when it lies there twice (Levels 2/2+); ``total[e]`` counts every colour's
    markers on the edge. ``covered[seat][f]`` counts the edges of figure ``f`` the colour lies
    on, and ``progress[seat]`` sums each figure's worth to it (the share of its edges covered,
    squared), both kept up to date move by move so that a leaf of the search costs nothing.
    """

    level: str
    has: list[int]
    two: list[int]
    total: list[int]
    left: list[int]
    face: int
    mover: int
    turns: int
    turn_cap: int | None
    figure_size: int
    figures_of_edge: tuple[tuple[int, ...], ...]
    covered: list[list[int]]
    progress: list[float]

    @property
    def exclusive(self) -> bool:
        """Level 4: one marker per edge in all, so a figure another colour touches is lost."""
        return self.level == "4"

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Table:
        players = len(view["seats"])
        by_id = {e["id"]: [int(n) for n in e["markers"]] for e in view["edges"]}
        counts = [by_id[e] for e in EDGE_IDS]
        options = view["options"]
        cap = options.get("turn_cap")
        figures = [
            [EDGE_INDEX[e] for e in fig.edges]
            for fig in figures_for(str(view["level"]), bool(options.get("double_opposite")))
        ]
        size = len(figures[0])
        covered = [[sum(1 for e in fig if counts[e][s]) for fig in figures]
                   for s in range(players)]
        table = cls(
            level=str(view["level"]),
            has=[sum(1 << e for e, c in enumerate(counts) if c[s] >= 1) for s in range(players)],
            two=[sum(1 << e for e, c in enumerate(counts) if c[s] >= 2) for s in range(players)],
            total=[sum(c) for c in counts],
            left=[int(n) for n in view["markers_left"]],
            face=FACE_INDEX[view["active_face"]],
            mover=int(view["mover"]),
            turns=int(view["turn"]) - 1,
            turn_cap=None if cap is None else int(cap),
            figure_size=size,
            figures_of_edge=tuple(
                tuple(i for i, fig in enumerate(figures) if e in fig)
                for e in range(len(EDGE_IDS))
            ),
            covered=covered,
            progress=[0.0] * players,
        )
        for figure in range(len(figures)):
            table._worth(figure, 1.0)
        return table

    @property
    def players(self) -> int:
        return len(self.has)

    def placements(self) -> list[int]:
        """The edges of the active face the balance rules allow the mover (empty: roll only)."""
        seat = self.mover
        if self.left[seat] <= 0:
            return []
        edges = FACE_EDGES[self.face]
        total = self.total
        if self.level == "4":
            return [e for e in edges if total[e] == 0]
        has = self.has[seat]
        without = [e for e in edges if not has >> e & 1]
        if len(without) == 1:
            return without
        if not without:
            if MAX_OWN_PER_EDGE[self.level] == 1:
                return []
            two = self.two[seat]
            without = [e for e in edges if not two >> e & 1]
            if not without:
                return []
        least = min(total[e] for e in without)
        return [e for e in without if total[e] == least]

    def moves(self) -> list[Move]:
        placements = self.placements()
        if placements:
            return [(True, e) for e in placements]
        return [(False, e) for e in FACE_EDGES[self.face]]

    def play(self, move: Move) -> tuple[int | None, Undo]:
        """Take ``move`` for the mover: the winner (or :data:`DRAW`) if it ends the game, else
        ``None``; and what :meth:`undo` needs to take it back."""
        place, edge = move
        seat = self.mover
        record = (self.face, self.turns, seat)
        self.face = ACROSS[(self.face, edge)]
        if place:
            self.total[edge] += 1
            self.left[seat] -= 1
            bit = 1 << edge
            if self.has[seat] & bit:
                self.two[seat] |= bit
            else:
                self.has[seat] |= bit
                if self._cover(seat, edge, 1):
                    return seat, record
        self.turns += 1
        self.mover = (seat + 1) % self.players
        if self.level == "4" and all(self.total):
            return DRAW, record
        if not any(n > 0 for n in self.left):
            return DRAW, record
        if self.turn_cap is not None and self.turns >= self.turn_cap:
            return DRAW, record
        return None, record

    def _cover(self, seat: int, edge: int, step: int) -> bool:
        """Count ``edge`` in (``step`` 1) or out of (−1) the figures of ``seat``; True if a
        figure is now covered entirely."""
        complete = False
        for figure in self.figures_of_edge[edge]:
            self._worth(figure, -1.0)
            after = self.covered[seat][figure] + step
            self.covered[seat][figure] = after
            self._worth(figure, 1.0)
            complete = complete or after == self.figure_size
        return complete

    def _worth(self, figure: int, sign: float) -> None:
        """Add (``sign`` 1) or take away (−1) what ``figure`` is worth to each colour: the share
        of its edges the colour covers, squared — nothing once another colour holds one of its
        edges at Level 4, where an edge takes one marker in all and such a figure is lost."""
        size = self.figure_size
        counts = [row[figure] for row in self.covered]
        held = sum(counts)
        for seat, count in enumerate(counts):
            if count and (not self.exclusive or count == held):
                self.progress[seat] += sign * count * count / (size * size)

    def undo(self, move: Move, record: Undo) -> None:
        """Take back ``move``; ``record`` is what :meth:`play` returned with it."""
        place, edge = move
        self.face, self.turns, self.mover = record
        if place:
            seat = self.mover
            bit = 1 << edge
            if self.two[seat] & bit:
                self.two[seat] &= ~bit
            else:
                self.has[seat] &= ~bit
                self._cover(seat, edge, -1)
            self.total[edge] -= 1
            self.left[seat] += 1

    def key(self) -> tuple[int, ...]:
        return (self.face, self.mover, *self.has, *self.two)


def idle_turns(view: Mapping[str, Any]) -> int:
    """Turns so far in which nobody placed a marker (only rolled the face)."""
    placed = sum(MARKERS_PER_COLOUR - int(n) for n in view["markers_left"])
    return int(view["turn"]) - 1 - placed


def _try(table: Table, move: Move) -> int | None:
    """The winner (or :data:`DRAW`) if ``move`` ends the game; the table is left unchanged."""
    result, record = table.play(move)
    table.undo(move, record)
    return result


def action_text(move: Move) -> str:
    return f"{'place' if move[0] else 'roll'} {EDGE_IDS[move[1]]}"


def _forced_text(view: Mapping[str, Any], legal: Sequence[str]) -> str | None:
    """Claim a win when the rules offer one; take the roll that follows a placement."""
    if "claim" in legal:
        return "claim"
    if view["phase"] == "roll" or len(legal) == 1:
        return legal[0]
    return None


def _gives_win(table: Table, move: Move) -> bool:
    """Whether after ``move`` the next player can complete a figure at once."""
    result, record = table.play(move)
    threat = result is None and any(_try(table, reply) == table.mover for reply in table.moves())
    table.undo(move, record)
    return threat


class EasyBot:
    """One turn ahead: take a win, avoid handing the next player one, otherwise at random."""

    level = "easy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        forced = _forced_text(view, legal)
        if forced is not None:
            return forced
        table = Table.from_view(view)
        moves = [m for m in table.moves() if action_text(m) in legal]
        me = table.mover
        wins = [m for m in moves if _try(table, m) == me]
        if wins:
            return action_text(wins[rng.randrange(len(wins))])
        safe = [m for m in moves if not _gives_win(table, m)] or moves
        return action_text(safe[rng.randrange(len(safe))])


class _OutOfNodes(Exception):
    """The node budget ran out in the middle of a depth."""


class HardBot:
    """Alpha-beta search with iterative deepening and a node budget (paranoid beyond two)."""

    level = "hard"

    def __init__(self, nodes: int = HARD_NODES) -> None:
        self.nodes = nodes

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        forced = _forced_text(view, legal)
        if forced is not None:
            return forced
        table = Table.from_view(view)
        moves = [m for m in table.moves() if action_text(m) in legal]
        if not moves:  # the model and the rules disagree: stay legal whatever happens
            return legal[rng.randrange(len(legal))]
        rng.shuffle(moves)
        scored = deepen(table, moves, self.nodes, stalled=idle_turns(view) >= STALL_TURNS)
        return action_text(scored[0][1])

    def weigh(self, view: Mapping[str, Any], legal: Sequence[str],
              chosen: str) -> Weighing | None:
        """The best move's value and ``chosen``'s, each searched with the full node budget
        (``chosen`` on its own when it is not the best, so that its value is exact, not the
        bound alpha-beta leaves it); ``None`` for a claim or a roll after a placement."""
        if _forced_text(view, legal) is not None:
            return None
        table = Table.from_view(view)
        moves = [m for m in table.moves() if action_text(m) in legal]
        mine = [m for m in moves if action_text(m) == chosen]
        if not mine:
            return None
        stalled = idle_turns(view) >= STALL_TURNS
        best_value, best = deepen(table, moves, self.nodes, stalled)[0]
        value = best_value
        if best != mine[0]:  # on a fresh table: a search cut short leaves its moves played
            value = deepen(Table.from_view(view), mine, self.nodes, stalled)[0][0]
        return Weighing(action_text(best), outlook(best_value), outlook(value))


def deepen(table: Table, moves: list[Move], nodes: int,
           stalled: bool) -> list[tuple[float, Move]]:
    """``moves`` scored by the deepest search the node budget completes, best first (in the
    order given among equals; all 0 when not even one move ahead fits the budget). The first
    score is exact; the others may be bounds (alpha-beta proves them worse, not by how much).
    The budget running out leaves ``table`` part-way down a line: use it no more."""
    search = _Search(table, nodes, stalled=stalled)
    scored = [(0.0, m) for m in moves]
    for depth in range(1, 60):
        try:
            found = search.root(moves, depth)
        except _OutOfNodes:
            break
        scored = sorted(found, key=lambda pair: -pair[0])
        moves = [m for _, m in scored]
        if abs(scored[0][0]) >= WIN / 2 or search.exhausted:
            break
    return scored


def outlook(value: float) -> float:
    """A search value on the analysis's scale: ±1 for a win or loss found, else the lead in
    figures squashed below 0.9 (:data:`OUTLOOK_SCALE` of lead reads as about 0.69)."""
    if abs(value) >= WIN / 2:
        return 1.0 if value > 0 else -1.0
    return 0.9 * tanh(value / OUTLOOK_SCALE)


@dataclass(frozen=True)
class _Seen:
    """A position searched before: to what depth, its value, whether that value is exact or a
    bound (``bound`` −1 at most, 1 at least, 0 exact), whether the game's end was reached
    everywhere below it (``solved``), and the best move found."""

    depth: int
    value: float
    bound: int
    solved: bool
    best: Move


class _Search:
    """Alpha-beta over a :class:`Table`, remembering positions between iterations."""

    def __init__(self, table: Table, budget: int, stalled: bool) -> None:
        self.table = table
        self.stalled = stalled
        self.me = table.mover
        self.budget = budget
        self.nodes = 0
        #: Leaves scored by :func:`evaluate` rather than by the game's end (0: all solved).
        self.guesses = 0
        self.memory: dict[tuple[int, ...], _Seen] = {}

    @property
    def exhausted(self) -> bool:
        """Whether the last depth reached the game's end on every line searched."""
        return self.guesses == 0

    def root(self, moves: list[Move], depth: int) -> list[tuple[float, Move]]:
        self.guesses = 0
        scored = []
        alpha = -2 * WIN
        for move in moves:
            value = self._after(move, depth, alpha, 2 * WIN, 1)
            scored.append((value, move))
            alpha = max(alpha, value)
        return scored

    def _after(self, move: Move, depth: int, alpha: float, beta: float, ply: int) -> float:
        table = self.table
        result, record = table.play(move)
        if result is None:
            value = self._value(depth - 1, alpha, beta, ply)
        elif result == DRAW:
            value = 0.0
        else:
            value = WIN - ply if result == self.me else -WIN + ply
        table.undo(move, record)
        return value

    def _value(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfNodes
        table = self.table
        if depth <= 0:
            self.guesses += 1
            return STALLED if self.stalled else evaluate(table, self.me)
        key = table.key()
        moves = table.moves()
        seen = self.memory.get(key)
        if seen is not None:
            if seen.depth >= depth and (
                seen.bound == 0 or (seen.bound > 0 and seen.value >= beta)
                or (seen.bound < 0 and seen.value <= alpha)
            ):
                self.guesses += not seen.solved
                return seen.value
            if seen.best in moves:  # the best move of a shallower search first
                moves.remove(seen.best)
                moves.insert(0, seen.best)
        low, high = alpha, beta
        guesses = self.guesses
        maximising = table.mover == self.me
        best = -2 * WIN if maximising else 2 * WIN
        best_move = moves[0]
        for move in moves:
            value = self._after(move, depth, alpha, beta, ply + 1)
            if (value > best) if maximising else (value < best):
                best, best_move = value, move
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        bound = -1 if best <= low else 1 if best >= high else 0
        self.memory[key] = _Seen(depth, best, bound, self.guesses == guesses, best_move)
        return best


def evaluate(table: Table, me: int) -> float:
    """How much closer ``me`` is to a figure than the others: each figure counts by the square
    of the share of its edges a colour covers; the nearest others weigh as one opponent."""
    progress = table.progress
    return progress[me] - max(p for s, p in enumerate(progress) if s != me)


BOTS: Mapping[str, Bot] = {"random": RandomBot(), "easy": EasyBot(), "hard": HardBot()}
