"""UNLOCK tournaments: one game per player, each player the Lock once.

A player's tournament score is the sum of their game scores (0 in the game where they were the
Lock); the highest total wins and ties are reported as ties (rules/unlock.md, "Tournament").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from firmware_host.errors import NotAllowed
from firmware_host.journal import TournamentRow


@dataclass(frozen=True)
class Plan:
    """A validated tournament before it is written: shared options and the Lock order."""

    options: Mapping[str, Any]
    lock_order: tuple[int, ...]

    def options_for(self, lock: int) -> dict[str, Any]:
        """The options of the game in which ``lock`` is the Lock."""
        return {**self.options, "lock": lock}


@dataclass(frozen=True)
class Tournament:
    """A tournament as the read side sees it (immutable; the session thread swaps it)."""

    GAME: ClassVar[str] = "unlock"

    id: int
    players: tuple[str, ...]
    options: Mapping[str, Any]
    lock_order: tuple[int, ...]
    games: tuple[int, ...]
    status: str
    created: str
    ended_at: str | None = None

    @staticmethod
    def plan(
        players: list[str], options: Mapping[str, object] | None, order: list[int] | None
    ) -> Plan:
        """Check the options and the Lock order (a permutation of the seats; default: seat
        order)."""
        if options is not None and not isinstance(options, Mapping):
            raise NotAllowed("options must be a mapping of option names to values")
        shared = dict(options or {})
        if "lock" in shared:
            raise NotAllowed("a tournament sets each game's Lock itself; give an order instead")
        seats = list(range(len(players)))
        if order is None:
            lock_order = tuple(seats)
        else:
            if not isinstance(order, list | tuple) or any(
                isinstance(s, bool) or not isinstance(s, int) for s in order
            ):
                raise NotAllowed("the Lock order is a list of seat numbers")
            if sorted(order) != seats:
                raise NotAllowed(
                    f"the Lock order must name every seat 0–{len(players) - 1} once, got {order}"
                )
            lock_order = tuple(order)
        return Plan(shared, lock_order)

    @classmethod
    def from_row(cls, row: TournamentRow, games: list[int]) -> Tournament:
        """The tournament stored in the journal, with its games so far (in order)."""
        return cls(row.id, tuple(row.players), dict(row.options), tuple(row.lock_order),
                   tuple(games), row.status, row.created, row.ended)

    def options_for(self, lock: int) -> dict[str, Any]:
        """The options of the game in which ``lock`` is the Lock."""
        return {**self.options, "lock": lock}

    def next_lock(self, played: int) -> int | None:
        """The Lock of the next game after ``played`` games, or ``None`` when all are played."""
        return self.lock_order[played] if played < len(self.lock_order) else None

    def with_game(self, game_id: int) -> Tournament:
        """The tournament with its next game started."""
        return replace(self, games=(*self.games, game_id))

    def ended(self, status: str) -> Tournament:
        """The tournament closed as ``finished`` or ``abandoned``."""
        return replace(self, status=status)

    def describe(self, outcomes: Mapping[int, Mapping[str, Any] | None]) -> dict[str, Any]:
        """``id``, ``players``, ``games``, ``locks``, ``scores`` (per game, per seat),
        ``totals``, ``standings`` and ``status``."""
        per_game: list[list[int] | None] = []
        totals = [0] * len(self.players)
        for index, game_id in enumerate(self.games):
            outcome = outcomes.get(game_id)
            if outcome is None:
                per_game.append(None)
                continue
            lock = self.lock_order[index]
            row = [0 if seat == lock else seat_score(outcome, seat)
                   for seat in range(len(self.players))]
            per_game.append(row)
            totals = [a + b for a, b in zip(totals, row, strict=True)]
        return {
            "id": self.id,
            "game": self.GAME,
            "players": list(self.players),
            "games": list(self.games),
            "locks": list(self.lock_order),
            "scores": per_game,
            "totals": totals,
            "standings": standings(list(self.players), totals),
            "status": self.status,
            "created": self.created,
        }


def seat_score(outcome: Mapping[str, Any], seat: int) -> int:
    """A seat's score in a game's outcome (``scores`` as a list by seat, or a mapping)."""
    scores = outcome.get("scores")
    if isinstance(scores, list | tuple):
        return int(scores[seat]) if seat < len(scores) and scores[seat] is not None else 0
    if isinstance(scores, Mapping):
        value = scores.get(seat, scores.get(str(seat), 0))
        return int(value or 0)
    return 0


def standings(names: list[str], totals: list[int]) -> list[dict[str, Any]]:
    """Players by total, highest first; equal totals share a rank (1, 1, 3)."""
    order = sorted(range(len(names)), key=lambda seat: (-totals[seat], seat))
    table = []
    for position, seat in enumerate(order):
        rank = position + 1
        if position and totals[order[position - 1]] == totals[seat]:
            rank = table[-1]["rank"]
        table.append({"seat": seat, "name": names[seat], "total": totals[seat], "rank": rank})
    return table
