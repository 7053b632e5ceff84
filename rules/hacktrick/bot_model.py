"""What a Hacktrick bot knows, read from its seat's view: the board as counts, and the odds of
the opponent's hidden hand.

:class:`Board` plays placements as the rules do (captures, a win by three on a square or by a
line, the ×2 marker's double points, running out of markers) on plain lists, fast enough to be
tried thousands of times a move. :func:`hand_odds` lists every hand the opponent may hold —
any cards of their hand's size among those the seat has not seen (the deck and the opponent's
hand), weighted by how many ways the deal could give them — keeping only hands that agree with
what the view shows: a sum announced since the opponent last acted, a hand shown under Play!.
Nothing here reads a state: the bot gets the view and nothing else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from math import comb
from typing import Any

from rules.hacktrick.board import LINES
from rules.hacktrick.cards import FULL_DECK, VALUES

SQUARES = range(1, 10)
#: Square → the lines through it.
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if square in line) for square in range(10)
)
#: Each line as a bit mask of its squares (bit ``s`` for square ``s``), with its squares.
LINE_MASKS: tuple[tuple[int, tuple[int, int, int]], ...] = tuple(
    (sum(1 << s for s in line), line) for line in LINES
)

#: A hand as counts of each value 0–5.
Hand = tuple[int, ...]


@dataclass(frozen=True)
class Ending:
    """A placement ended the round: ``winner`` scores ``points``."""

    winner: int
    points: int


@dataclass
class Board:
    """Markers as the rules keep them, by seat: ``stack[seat][square]`` markers on a square,
    ``held[seat]`` the squares holding any (a bit per square), ``x2_at[seat]`` the square of
    the seat's ×2 marker (0 when it is not on the board)."""

    stack: list[list[int]]
    held: list[int]
    x2_at: list[int]
    plain: list[int]
    x2_in_supply: list[bool]
    captured: list[int]
    x2_rule: bool
    captured_keep_alive: bool

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Board:
        stack = [[0] * 10, [0] * 10]
        x2_at = [0, 0]
        for square, markers in view["board"].items():
            for marker in markers:
                owner = int(marker["owner"])
                stack[owner][int(square)] += 1
                if marker["x2"]:
                    x2_at[owner] = int(square)
        supply = view["supply"]
        options = view["options"]
        return cls(
            stack=stack,
            held=[sum(1 << s for s in SQUARES if row[s]) for row in stack],
            x2_at=x2_at,
            plain=[int(s["own"]) - bool(s["x2"]) for s in supply],
            x2_in_supply=[bool(s["x2"]) for s in supply],
            captured=[int(s["captured"]) for s in supply],
            x2_rule=bool(options["x2_marker"]),
            captured_keep_alive=options["out_of_markers"] == "empty_supply",
        )

    def copy(self) -> Board:
        return Board([self.stack[0][:], self.stack[1][:]], self.held[:], self.x2_at[:],
                     self.plain[:],
                     self.x2_in_supply[:], self.captured[:], self.x2_rule,
                     self.captured_keep_alive)

    def own_total(self, seat: int) -> int:
        return self.plain[seat] + self.x2_in_supply[seat]

    def alive(self, seat: int) -> bool:
        """Whether ``seat`` still has the markers that keep it in the round."""
        left = self.own_total(seat)
        return (left + self.captured[seat] if self.captured_keep_alive else left) > 0

    def markers(self, seat: int) -> list[bool]:
        """The markers ``seat`` can place: ``False`` a plain one, ``True`` its ×2."""
        return [x2 for x2, has in ((False, self.plain[seat] > 0), (True, self.x2_in_supply[seat]))
                if has]

    def wins_at(self, seat: int, square: int) -> bool:
        """Whether a marker of ``seat`` placed on ``square`` would win the round."""
        mine = self.stack[seat]
        if mine[square] >= 2:
            return True
        return any(all(mine[s] for s in line if s != square) for line in LINES_THROUGH[square])

    def win_points(self, seat: int, square: int, x2: bool) -> int:
        """What a winning placement on ``square`` scores (2 when the ×2 already on the board
        is part of the win and is not the marker placed last)."""
        at = self.x2_at[seat]
        if not self.x2_rule or x2 or at == 0:
            return 1
        mine = self.stack[seat]
        if mine[square] >= 2 and at == square:
            return 2
        for line in LINES_THROUGH[square]:
            if at in line and all(mine[s] for s in line if s != square):
                return 2
        return 1

    def place(self, seat: int, square: int, x2: bool) -> Ending | None:
        """Place a marker of ``seat`` on ``square`` (capturing the other's markers there);
        the round's end if it ends."""
        if self.wins_at(seat, square):
            points = self.win_points(seat, square, x2)
            self._put(seat, square, x2)
            return Ending(seat, points)
        self._put(seat, square, x2)
        return self._supplies(seat)

    def _put(self, seat: int, square: int, x2: bool) -> None:
        other = 1 - seat
        taken = self.stack[other][square]
        if taken:
            self.captured[seat] += taken
            self.stack[other][square] = 0
            self.held[other] &= ~(1 << square)
            if self.x2_at[other] == square:
                self.x2_at[other] = 0
        self.stack[seat][square] += 1
        self.held[seat] |= 1 << square
        if x2:
            self.x2_in_supply[seat] = False
            self.x2_at[seat] = square
        else:
            self.plain[seat] -= 1

    def discard(self, seat: int) -> Ending | None:
        """Discard one of ``seat``'s own markers to declare (a plain one first)."""
        if self.plain[seat]:
            self.plain[seat] -= 1
        else:
            self.x2_in_supply[seat] = False
        return self._supplies(seat)

    def _supplies(self, mover: int) -> Ending | None:
        for seat in (mover, 1 - mover):
            if not self.alive(seat):
                return Ending(1 - seat, 1)
        return None

    def winning_squares(self, seat: int) -> list[int]:
        return [s for s in SQUARES if self.wins_at(seat, s)]

    def wins(self, seat: int) -> list[int]:
        """For each square (index 0 unused), the points ``seat`` would score placing there now
        with its best marker, 0 where that does not win — :meth:`wins_at` and
        :meth:`win_points` for every square at once, fast."""
        points = [0] * 10
        markers = self.markers(seat)
        if not markers:
            return points
        double = self.x2_rule and markers[0] is False and self.x2_at[seat]
        at = self.x2_at[seat] if double else -1
        stack = self.stack[seat]
        for square in SQUARES:
            if stack[square] >= 2:
                points[square] = 2 if square == at else 1
        held = self.held[seat]
        for mask, line in LINE_MASKS:
            if (held & mask).bit_count() == 2:
                square = (mask & ~held).bit_length() - 1
                points[square] = max(points[square], 2 if at in line else 1)
        return points


def unseen(view: Mapping[str, Any]) -> Counter[int]:
    """The cards ``view``'s seat has not seen: the deck and the opponent's hand together."""
    me = int(view["you"])
    left = Counter(FULL_DECK)
    left.subtract(view["hands"][me]["cards"] or [])
    left.subtract(view["row"])
    left.subtract(view["face_up"] or [])
    return left


def _known_sum(view: Mapping[str, Any], opponent: int) -> int | None:
    """The opponent's hand sum if one was announced since the opponent last acted: at the deal
    (the opponent led and has not played since) or by Ask the sum this very turn."""
    turn = int(view["turn"])
    for announcement in reversed(view["announcements"]):
        if announcement["seat"] != opponent:
            continue
        fresh = (announcement["reason"] == "ask" and announcement["turn"] == turn) or (
            announcement["reason"] == "deal" and announcement["turn"] == turn - 1
        )
        return int(announcement["sum"]) if fresh else None
    return None


def _shown(view: Mapping[str, Any], opponent: int) -> Counter[int]:
    """Cards the opponent showed under Play! on their last turn (they then drew one)."""
    shown = view.get("shown")
    if shown and shown["seat"] == opponent and shown["turn"] == int(view["turn"]) - 1:
        return Counter(shown["cards"])
    return Counter()


def hand_odds(view: Mapping[str, Any]) -> list[tuple[Hand, float]]:
    """Every hand the opponent may hold (as counts of each value) and its probability."""
    opponent = 1 - int(view["you"])
    size = int(view["hands"][opponent]["size"])
    pool = unseen(view)
    total = _known_sum(view, opponent)
    shown = _shown(view, opponent)
    hands: list[tuple[Hand, float]] = []
    ranges = [range(min(pool[v], size) + 1) for v in VALUES]
    for counts in product(*ranges):
        if sum(counts) != size:
            continue
        if total is not None and sum(v * n for v, n in zip(VALUES, counts, strict=True)) != total:
            continue
        if any(counts[v] < n for v, n in shown.items()):
            continue
        ways = 1
        for v, n in zip(VALUES, counts, strict=True):
            ways *= comb(pool[v], n)
        hands.append((counts, float(ways)))
    if not hands and (total is not None or shown):
        # Nothing fits what the view says (this model reads less than it could): plain odds.
        return hand_odds({**view, "announcements": [], "shown": None})
    if not hands:
        return []
    weight = sum(w for _, w in hands)
    return [(hand, w / weight) for hand, w in hands]
