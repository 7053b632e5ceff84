"""Published snapshots: what every reader sees of the games and tournaments.

The session thread alone builds new snapshots (after the change is committed to the journal) and
swaps them in; readers on any thread read the current ones without a lock and never wait for the
session thread. Games are found by id in a dict.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from firmware_host.errors import NoSuchGame, NoSuchTournament
from firmware_host.games import BoxGame
from firmware_host.journal_rows import SeatHolder
from firmware_host.session_api import GameStatus, GameSummary
from firmware_host.tournaments import Tournament

T = TypeVar("T")


class Deferred(Generic[T]):
    """A value worked out on first use — by whichever thread asks first — then kept: costly
    facts of a snapshot (whether the last action may be taken back) stay off the session
    thread, which only publishes."""

    def __init__(self, compute: Callable[[], T]) -> None:
        self._compute: Callable[[], T] | None = compute
        self._value: T | None = None
        self._lock = threading.Lock()

    @classmethod
    def known(cls, value: T) -> Deferred[T]:
        """A value already worked out."""
        deferred = cls(lambda: value)
        deferred.get()
        return deferred

    def get(self) -> T:
        """The value (computed now if nobody asked before)."""
        with self._lock:
            if self._compute is not None:
                self._value = self._compute()
                self._compute = None
            return self._value  # type: ignore[return-value]


@dataclass(frozen=True)
class GameSnapshot:
    """One game as the read side sees it; never changed after publication."""

    id: int
    game: str
    box: BoxGame = field(repr=False)
    status: GameStatus
    seats: tuple[str, ...]
    claimed: tuple[bool, ...]
    created: str
    ended: str | None
    outcome: Mapping[str, Any] | None
    tournament: int | None
    version: int
    #: ``None`` for a game that ended before this run (the read side rebuilds it on demand).
    state: Any = field(repr=False)
    #: Why the last action may not be taken back (``None``: it may), worked out when asked.
    undo_check: Deferred[str | None] = field(repr=False)
    #: Valid seat tokens (their hashes) → seat.
    tokens: Mapping[str, int] = field(repr=False)
    #: Who holds each claimed seat.
    holders: Mapping[int, SeatHolder] = field(default_factory=dict)
    #: The seats' join codes while the host has locked the seats.
    join_codes: list[str] | None = field(default=None, repr=False)
    #: Per seat, the level of the bot the box plays it with (``None``: a person).
    bots: tuple[str | None, ...] = ()
    #: Whether the host turned hints off; how many hints each seat asked for.
    hints_off: bool = False
    hints_used: tuple[int, ...] = ()
    #: Whether the clock had been set when the game started, and when it ended.
    created_clock_set: bool = True
    ended_clock_set: bool = True

    @property
    def undo_refusal(self) -> str | None:
        """Why the last action may not be taken back, or ``None`` when it may."""
        return self.undo_check.get()

    def summary(self) -> GameSummary:
        """The summary ``games()`` and ``history()`` list."""
        return {
            "id": self.id,
            "game": self.game,
            "status": self.status,
            "seats": list(self.seats),
            "claimed": list(self.claimed),
            "created": self.created,
            "ended": self.ended,
            "outcome": copy.deepcopy(dict(self.outcome)) if self.outcome is not None else None,
            "tournament": self.tournament,
            "locked": self.join_codes is not None,
            "bots": list(self.bots) if self.bots else [None] * len(self.seats),
            "created_clock_set": self.created_clock_set,
            "ended_clock_set": self.ended_clock_set,
        }


class Snapshots:
    """The current snapshots, the change counter, and a way to wait for the next change."""

    def __init__(self, version: int) -> None:
        self._games: Mapping[int, GameSnapshot] = {}
        self._tournaments: Mapping[int, Tournament] = {}
        self._version = version
        self._changed = threading.Condition()
        #: Per game, woken only when that game changes (a live page waits on its own game).
        self._game_changed: dict[int, threading.Condition] = {}
        self._conditions = threading.Lock()
        #: Host sessions (token hash → expiry, ISO time), as the journal keeps them.
        self.host_sessions: Mapping[str, str] = {}

    # --- readers (any thread) -----------------------------------------------------------------
    def game(self, game_id: object) -> GameSnapshot:
        """The game ``game_id``, or :class:`NoSuchGame`."""
        snap = self._games.get(game_id) if isinstance(game_id, int) else None
        if snap is None:
            raise NoSuchGame(f"there is no game {game_id!r}")
        return snap

    def games(self) -> list[GameSnapshot]:
        """Every game, newest first."""
        return sorted(self._games.values(), key=lambda g: g.id, reverse=True)

    def tournament(self, tid: object) -> Tournament:
        """The tournament ``tid``, or :class:`NoSuchTournament`."""
        found = self._tournaments.get(tid) if isinstance(tid, int) else None
        if found is None:
            raise NoSuchTournament(f"there is no tournament {tid!r}")
        return found

    def tournaments(self) -> list[Tournament]:
        """Every tournament, newest first."""
        return [self._tournaments[t] for t in sorted(self._tournaments, reverse=True)]

    @property
    def version(self) -> int:
        """The change counter of the last published change."""
        return self._version

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until :attr:`version` exceeds ``since`` or ``timeout`` seconds pass."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > since, timeout=max(0.0, timeout))
            return self._version

    def wait_for_game(self, game_id: int, since: int, timeout: float) -> int:
        """Block until the game's version exceeds ``since`` or ``timeout`` seconds pass; returns
        the game's version. Only a change of this game wakes the caller."""
        self.game(game_id)
        with self._conditions:
            condition = self._game_changed.setdefault(game_id, threading.Condition())
        with condition:
            condition.wait_for(lambda: self.game(game_id).version > since,
                               timeout=max(0.0, timeout))
        return self.game(game_id).version

    # --- the session thread -------------------------------------------------------------------
    def set_host_sessions(self, sessions: Mapping[str, str]) -> None:
        """Swap in the host sessions."""
        self.host_sessions = dict(sessions)

    def publish(self, version: int, games: Mapping[int, GameSnapshot] | None = None,
                tournaments: Mapping[int, Tournament] | None = None, *,
                later: Callable[[Callable[[], None]], None] | None = None) -> None:
        """Swap in new snapshots of ``games`` and ``tournaments`` (the change is committed), then
        wake the waiters (``wait_for_change``, ``wait_for_game``: the live streams) — through
        ``later`` when given (``SessionThread.after``: once the change's own caller has its
        answer)."""
        if games:
            self._games = {**self._games, **games}
        if tournaments:
            self._tournaments = {**self._tournaments, **tournaments}
        with self._changed:
            self._version = max(self._version, version)
        changed = list(games or ())
        if later is None:
            self._wake(changed)
        else:
            later(lambda: self._wake(changed))

    def _wake(self, game_ids: list[int]) -> None:
        """Wake whoever waits on a change, and on a change of these games."""
        with self._changed:
            self._changed.notify_all()
        for game_id in game_ids:
            with self._conditions:
                condition = self._game_changed.get(game_id)
            if condition is not None:
                with condition:
                    condition.notify_all()
