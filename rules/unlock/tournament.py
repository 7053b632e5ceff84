"""An UNLOCK tournament: one game per player, each player the Lock once; scores add up.

Pure data for the daemon: it starts each game with :meth:`Tournament.game_options`, feeds the
game's outcome to :meth:`Tournament.record`, and shows :meth:`Tournament.standings`. Game seats
are tournament seats (every game is played with the same players in the same order).

>>> t = Tournament.start(["Aiko", "Ben", "Chie"])
>>> t.next_lock
0
>>> t = t.record({"winners": [1], "scores": [0, 4, -1], "reason": "found", "counts": True})
>>> t = t.record({"winners": [], "scores": [0, 0, 0], "reason": "abandoned", "counts": False})
>>> t.next_lock                     # an abandoned game counts for nothing: the same Lock again
1
>>> t.totals
(0, 4, -1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.errors import RulesError


@dataclass(frozen=True)
class Standing:
    """One player's place: seat, name, total score and rank (tied players share a rank)."""

    seat: int
    name: str
    total: int
    rank: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe form for the panel."""
        return {"seat": self.seat, "name": self.name, "total": self.total, "rank": self.rank}


@dataclass(frozen=True)
class Tournament:
    """The players, the order in which they are the Lock, and each counted game's scores."""

    players: tuple[str, ...]
    order: tuple[int, ...]
    #: Scores per seat of each game that counted, in the order played (game ``i``'s Lock is
    #: ``order[i]``).
    results: tuple[tuple[int, ...], ...] = ()
    #: How many games were abandoned (kept for history; they count for nothing).
    abandoned: int = 0

    @classmethod
    def start(cls, players: Sequence[str], order: Sequence[int] | None = None) -> Tournament:
        """A tournament for ``players``; ``order`` lists the Locks (default: seat order)."""
        names = tuple(players)
        if isinstance(players, str) or len(names) < 2:
            raise RulesError("a tournament needs a list of at least 2 players")
        if order is None:
            chosen = tuple(range(len(names)))
        else:
            chosen = tuple(order)
            if sorted(chosen) != list(range(len(names))):
                raise RulesError(
                    f"the order of Locks {list(chosen)} must list every seat "
                    f"0…{len(names) - 1} exactly once"
                )
        return cls(names, chosen)

    @property
    def next_lock(self) -> int | None:
        """The seat of the next game's Lock, or ``None`` when every game has been played."""
        return self.order[len(self.results)] if not self.is_over else None

    @property
    def is_over(self) -> bool:
        """True once every player has been the Lock in a game that counted."""
        return len(self.results) == len(self.order)

    def game_options(self, options: Mapping[str, object] | None = None) -> dict[str, object]:
        """The next game's options: the tournament's shared ones plus the next Lock."""
        if self.next_lock is None:
            raise RulesError("the tournament is over; there is no next game")
        return {**(options or {}), "lock": self.next_lock}

    def record(self, outcome: Mapping[str, Any]) -> Tournament:
        """The tournament after the next game ended with ``outcome`` (the game's outcome dict).

        An abandoned game (``counts`` false) adds nothing and the same player is the Lock again.
        """
        lock = self.next_lock
        if lock is None:
            raise RulesError("the tournament is over; no more games can be recorded")
        if not outcome.get("counts", True):
            return replace(self, abandoned=self.abandoned + 1)
        scores = tuple(int(score) for score in outcome["scores"])
        if len(scores) != len(self.players):
            raise RulesError(
                f"the game has {len(scores)} scores but the tournament {len(self.players)} players"
            )
        if scores[lock]:
            raise RulesError(f"the Lock (seat {lock}) scores nothing in their own game")
        return replace(self, results=(*self.results, scores))

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's sum of game scores so far."""
        return tuple(sum(game[seat] for game in self.results) for seat in range(len(self.players)))

    def standings(self) -> list[Standing]:
        """Players by total, highest first; equal totals share a rank (1, 1, 3…)."""
        totals = self.totals
        seats = sorted(range(len(self.players)), key=lambda s: (-totals[s], s))
        out: list[Standing] = []
        for place, seat in enumerate(seats):
            rank = place + 1
            if place and totals[seat] == totals[seats[place - 1]]:
                rank = out[-1].rank
            out.append(Standing(seat, self.players[seat], totals[seat], rank))
        return out

    @property
    def winners(self) -> list[int]:
        """The seats with the highest total once the tournament is over (several: a tie)."""
        if not self.is_over:
            return []
        return [s.seat for s in self.standings() if s.rank == 1]

    @property
    def is_tie(self) -> bool:
        """True when the tournament is over and several players share the highest total."""
        return len(self.winners) > 1

    def dump(self) -> dict[str, Any]:
        """JSON-safe form; :meth:`load` gives the same tournament back."""
        return {
            "players": list(self.players),
            "order": list(self.order),
            "results": [list(game) for game in self.results],
            "abandoned": self.abandoned,
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Tournament:
        """The tournament :meth:`dump` produced."""
        try:
            base = cls.start(data["players"], data["order"])
            results = tuple(tuple(int(x) for x in game) for game in data["results"])
            return replace(base, results=results, abandoned=int(data["abandoned"]))
        except (KeyError, TypeError, ValueError) as error:
            raise RulesError(f"not a saved UNLOCK tournament: {error}") from error
