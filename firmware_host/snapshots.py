"""Published snapshots: what every reader sees of the games and tournaments.

The session thread alone builds new snapshots (after the change is committed to the journal) and
swaps them in; readers on any thread read the current ones without a lock and never wait for the
session thread. Games are found by id in a dict.

Memory is bounded by what is live, not by the history: the snapshots of the games being played
and the tournaments going on are all here; of the ended ones, only the :data:`ENDED_KEPT` games
and :data:`ENDED_TOURNAMENTS_KEPT` tournaments ended or looked up last, the others read from the
journal when asked (:mod:`firmware_host.ended_games`) — committed before they were published,
so a reader sees the same either way.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from firmware_host.errors import NoSuchGame, NoSuchTournament
from firmware_host.game_waits import GameWaits
from firmware_host.games import BoxGame
from firmware_host.journal_rows import SeatHolder
from firmware_host.session_api import GameStatus, GameSummary
from firmware_host.shared_results import SharedResults
from firmware_host.tournaments import Tournament

if TYPE_CHECKING:
    from firmware_host.ended_games import EndedGames

T = TypeVar("T")

#: How many ended games' snapshots are kept (those ended or looked up last): more than the live
#: streams the panel holds at once (64), so phones left on ended games never read the journal
#: at each change. Each is ~1 KiB, with the final state of a game that ended in this run.
ENDED_KEPT = 96
#: How many ended tournaments are kept (those ended or looked up last).
ENDED_TOURNAMENTS_KEPT = 16


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


def claimed(held: set[int], bots: tuple[str | None, ...], seats: int) -> tuple[bool, ...]:
    """Per seat, whether a phone or the box (a bot) holds it."""
    return tuple(s in held or (s < len(bots) and bots[s] is not None) for s in range(seats))


class Snapshots:
    """The current snapshots — every live game and tournament, the ended ones kept — the change
    counter, and a way to wait for the next change."""

    def __init__(self, version: int) -> None:
        self._live: Mapping[int, GameSnapshot] = {}
        self._tournaments: Mapping[int, Tournament] = {}
        self._ended: SharedResults[int, GameSnapshot] = SharedResults(ENDED_KEPT)
        self._ended_tournaments: SharedResults[int, Tournament] = SharedResults(
            ENDED_TOURNAMENTS_KEPT)
        #: Where the ended games are read (set at start: ``firmware_host.restore``).
        self.journal: EndedGames | None = None
        #: The newest game's id: a higher one is no game, without asking the journal.
        self._newest = 0
        self._version = version
        self._changed = threading.Condition()
        #: Per game, woken only when that game changes (a live page waits on its own game).
        self._waits = GameWaits()
        #: Host sessions (token hash → expiry, ISO time), as the journal keeps them.
        self.host_sessions: Mapping[str, str] = {}

    def read_ended_from(self, journal: EndedGames, newest: int) -> None:
        """Read the ended games that are not kept from ``journal``; ``newest``: its newest
        game's id."""
        self.journal = journal
        self._newest = max(self._newest, newest)

    # --- readers (any thread) -----------------------------------------------------------------
    def game(self, game_id: object) -> GameSnapshot:
        """The game ``game_id``, or :class:`NoSuchGame`."""
        if isinstance(game_id, int):
            snap = self._live.get(game_id)
            if snap is not None:
                return snap
            journal = self.journal
            if journal is not None and 0 < game_id <= self._newest:
                try:
                    return self._ended.get(game_id, lambda: journal.snapshot(game_id))
                except NoSuchGame:  # not published yet, or published just now
                    snap = self._live.get(game_id)
                    if snap is not None:
                        return snap
        raise NoSuchGame(f"there is no game {game_id!r}")

    def live(self) -> list[GameSnapshot]:
        """The games being played, newest first."""
        return sorted(self._live.values(), key=lambda g: g.id, reverse=True)

    def live_ids(self) -> frozenset[int]:
        """The ids of the games being played (as published)."""
        return frozenset(self._live)

    def tournament(self, tid: object) -> Tournament:
        """The tournament ``tid``, or :class:`NoSuchTournament`."""
        if isinstance(tid, int):
            found = self._tournaments.get(tid)
            if found is not None:
                return found
            journal = self.journal
            if journal is not None and tid > 0:
                try:
                    return self._ended_tournaments.get(tid, lambda: journal.tournament(tid))
                except NoSuchTournament:
                    found = self._tournaments.get(tid)
                    if found is not None:
                        return found
        raise NoSuchTournament(f"there is no tournament {tid!r}")

    def live_tournaments(self) -> list[Tournament]:
        """The tournaments going on, newest first."""
        return [self._tournaments[t] for t in sorted(self._tournaments, reverse=True)]

    @property
    def version(self) -> int:
        """The change counter of the last published change."""
        return self._version

    def held(self) -> dict[str, int]:
        """How many of each thing is held in memory: snapshots of live and of ended games and
        tournaments, games with a waiter (each a condition) — bounded by what is live."""
        return {"live games": len(self._live), "ended games": len(self._ended),
                "live tournaments": len(self._tournaments),
                "ended tournaments": len(self._ended_tournaments),
                "games waited on": len(self._waits)}

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until :attr:`version` exceeds ``since`` or ``timeout`` seconds pass."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > since, timeout=max(0.0, timeout))
            return self._version

    def wait_for_game(self, game_id: int, since: int, timeout: float) -> int:
        """Block until the game's version exceeds ``since`` or ``timeout`` seconds pass; returns
        the game's version. Only a change of this game wakes the caller."""
        self.game(game_id)
        self._waits.wait(game_id, lambda: self.game(game_id).version > since, timeout)
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
        answer). An ended game or tournament is kept among the ended ones before it leaves the
        live ones, so a reader finds it all along."""
        if games:
            ended = {i: g for i, g in games.items() if g.status != "active"}
            for game_id, snap in ended.items():
                self._ended.put(game_id, snap)
            self._live = {**{i: g for i, g in self._live.items() if i not in ended},
                          **{i: g for i, g in games.items() if i not in ended}}
            self._newest = max(self._newest, *games)
        if tournaments:
            over = {i: t for i, t in tournaments.items() if t.status != "active"}
            for tid, tournament in over.items():
                self._ended_tournaments.put(tid, tournament)
            self._tournaments = {
                **{i: t for i, t in self._tournaments.items() if i not in over},
                **{i: t for i, t in tournaments.items() if i not in over}}
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
        self._waits.wake(game_ids)
