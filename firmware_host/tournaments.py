"""Tournaments as the session keeps them: a game's tournament scoring plus its games.

The scoring belongs to the game (its registration's ``tournament``, e.g.
:class:`rules.unlock.tournament.Tournament`: one game per player, each the Lock once; totals of
game scores; an abandoned game counts for nothing and the same Lock plays again). This module adds
what the daemon needs around it: the journal id, the game, the shared options, the ids of the
games played, and the status. Values are immutable: the session thread swaps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.errors import NotAllowed
from firmware_host.games import TournamentFormat, TournamentScores
from firmware_host.journal_rows import TournamentRow
from firmware_host.session_api import TournamentInfo

#: What an abandoned game tells the tournament: it counts for nothing.
ABANDONED: Mapping[str, Any] = {"counts": False}


@dataclass(frozen=True)
class Tournament:
    """A tournament as the read side sees it."""

    id: int
    game: str
    options: Mapping[str, Any]
    scores: TournamentScores
    games: tuple[int, ...]
    #: Per game in ``games``: its outcome once ended (``ABANDONED`` for an abandoned one).
    outcomes: tuple[Mapping[str, Any] | None, ...]
    status: str
    created: str
    #: Per player, the level of the bot the box plays them with in every game (``None``: a
    #: person).
    bots: tuple[str | None, ...] = ()

    @staticmethod
    def plan(
        form: TournamentFormat, players: list[str], options: Mapping[str, object] | None,
        order: list[int] | None,
    ) -> tuple[TournamentScores, dict[str, Any]]:
        """Check the shared options and the leaders' order before anything is written."""
        if options is not None and not isinstance(options, Mapping):
            raise NotAllowed("options must be a mapping of option names to values")
        shared = dict(options or {})
        if "lock" in shared:
            raise NotAllowed("a tournament sets each game's Lock itself; give an order instead")
        if order is not None and (
            not isinstance(order, list | tuple)
            or any(isinstance(s, bool) or not isinstance(s, int) for s in order)
        ):
            raise NotAllowed("the order of Locks is a list of seat numbers")
        return form.start(players, order), shared

    @classmethod
    def from_row(
        cls, form: TournamentFormat, row: TournamentRow,
        games: list[tuple[int, str, Mapping[str, Any] | None]],
    ) -> Tournament:
        """The tournament stored in the journal, with its games so far (id, status, outcome)."""
        scores = form.start(row.players, row.lock_order)
        outcomes: list[Mapping[str, Any] | None] = []
        for _, status, outcome in games:
            if status == "active":
                outcomes.append(None)
                continue
            ended = outcome if status == "finished" and outcome is not None else ABANDONED
            outcomes.append(ended)
            scores = scores.record(ended)
        return cls(row.id, row.game, dict(row.options), scores, tuple(g for g, _, _ in games),
                   tuple(outcomes), row.status, row.created, row.bots)

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in seat order (the same in every game)."""
        return self.scores.players

    def next_options(self) -> dict[str, Any] | None:
        """The options of the next game, or ``None`` when every player has led one."""
        if self.scores.next_lock is None:
            return None
        return dict(self.scores.game_options(self.options))

    def game_ended(self, outcome: Mapping[str, Any] | None) -> Tournament:
        """The tournament after its current game ended (``None``: abandoned)."""
        ended = outcome if outcome is not None else ABANDONED
        return replace(self, scores=self.scores.record(ended),
                       outcomes=(*self.outcomes[:-1], ended))

    def with_game(self, game_id: int) -> Tournament:
        """The tournament with its next game started."""
        return replace(self, games=(*self.games, game_id), outcomes=(*self.outcomes, None))

    def ended(self, status: str) -> Tournament:
        """The tournament closed as ``finished`` or ``abandoned``."""
        return replace(self, status=status)

    def describe(self) -> TournamentInfo:
        """What ``SessionApi.tournament`` answers (see docs/session-api.md)."""
        per_game: list[list[int] | None] = []
        locks: list[int] = []
        lock_index = 0
        order = self.scores.order
        for outcome in self.outcomes:
            locks.append(order[min(lock_index, len(order) - 1)])
            if outcome is None or not outcome.get("counts", True):
                per_game.append(None)
                continue
            per_game.append(list(self.scores.results[lock_index]))
            lock_index += 1
        return {
            "id": self.id,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "order": list(order),
            "games": list(self.games),
            "locks": locks,
            "scores": per_game,
            "totals": list(self.scores.totals),
            "standings": [{"seat": s.seat, "name": s.name, "total": s.total, "rank": s.rank}
                          for s in self.scores.standings()],
            "winners": list(self.scores.winners),
            "status": self.status,
            "created": self.created,
            "bots": list(self.bots) if self.bots else [None] * len(self.players),
        }
