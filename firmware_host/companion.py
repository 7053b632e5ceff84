"""The session API (docs/session-api.md): the one object the web panel and the pad talk to.

Writes go through the session thread (:class:`firmware_host.session.SessionThread`), which owns
every game, commits each change to the journal and only then publishes a new immutable snapshot
and calls the listeners ("shown means saved"). Reads use the latest snapshot and never wait for
the session thread.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from firmware_host.errors import (
    JournalError,
    NoSuchGame,
    NoSuchTournament,
    NotAllowed,
    SeatTaken,
)
from firmware_host.host_pin import load_or_create_pin
from firmware_host.journal import (
    ActionRow,
    GameRow,
    Journal,
    actions_of,
    games_of,
    read_only,
)
from firmware_host.session import SessionThread
from firmware_host.tournament import Tournament
from firmware_host.undo import is_public, undo_refusal
from rules import CHANCE, GAME_IDS, Game, IllegalAction, UnknownGame, get_game

log = logging.getLogger(__name__)

GameSource = Callable[[str], Game[Any]]
Listener = Callable[[int | None, int], None]

JOURNAL_FILE = "journal.sqlite3"
MAX_ACTION_LENGTH = 200
MAX_NAME_LENGTH = 40
_ENDED_CACHE = 32
_EXTRAS_CACHE = 64


def _unlock_extras(state: Any) -> dict[str, Any]:
    from rules.unlock import codes_remaining

    return {"codes_remaining": codes_remaining(state)}


#: Public facts added to every view of a game, by rules id (see ``Companion.view``).
PUBLIC_EXTRAS: dict[str, Callable[[Any], dict[str, Any]]] = {"unlock": _unlock_extras}


def token_hash(token: str) -> str:
    """How a seat token is stored: its SHA-256, so the journal never holds a usable token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class GameSnapshot:
    """One game as the read side sees it; never changed after publication."""

    id: int
    game: str
    rules: Game[Any] = field(repr=False)
    status: str
    seats: tuple[str, ...]
    claimed: tuple[bool, ...]
    created: str
    ended: str | None
    outcome: Mapping[str, Any] | None
    tournament: int | None
    version: int
    #: ``None`` for a game that ended before this run (rebuilt on demand).
    state: Any = field(repr=False)
    undo_refusal: str | None
    tokens: Mapping[str, int] = field(repr=False)

    def summary(self) -> dict[str, Any]:
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
        }


@dataclass(frozen=True)
class _NewGame:
    """A validated game, started in memory, not yet journaled."""

    game: str
    rules: Game[Any]
    names: list[str]
    options: dict[str, Any]
    seed: int
    state: Any


@dataclass
class _Live:
    """An active game as the session thread holds it (never shared with other threads)."""

    row: GameRow
    rules: Game[Any]
    state: Any
    actions: list[ActionRow]
    previous: Any | None
    tokens: dict[str, int]


class Companion:
    """Every game, tournament and seat of the box, behind one thread-safe API."""

    def __init__(
        self,
        journal: Journal,
        *,
        host_pin: str,
        hardware: str = "simulator",
        host_pin_from_config: bool = False,
        games: GameSource = get_game,
        game_ids: Iterable[str] = GAME_IDS,
    ) -> None:
        self.journal = journal
        self.host_pin = host_pin
        self.hardware = hardware
        self._host_pin_from_config = host_pin_from_config
        self._get_game = games
        self._game_ids = tuple(game_ids)
        self._status_source: Callable[[], Mapping[str, Any]] | None = None
        self._listeners: list[Listener] = []
        self._changed = threading.Condition()
        self._version = journal.version()
        self._games: Mapping[int, GameSnapshot] = {}
        self._tournaments: Mapping[int, Tournament] = {}
        self._ended_states: OrderedDict[int, Any] = OrderedDict()
        self._ended_lock = threading.Lock()
        self._extras: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        self._extras_lock = threading.Lock()
        self._live: dict[int, _Live] = {}
        self._session = SessionThread()
        try:
            self._session.call(self._restore, timeout=None)
        except BaseException:
            self._session.close()
            raise

    @classmethod
    def open(
        cls,
        data_dir: Path,
        *,
        host_pin: str | None = None,
        hardware: str = "simulator",
        games: GameSource = get_game,
        game_ids: Iterable[str] = GAME_IDS,
    ) -> Companion:
        """A companion on the journal in ``data_dir`` (created if need be)."""
        journal = Journal(Path(data_dir) / JOURNAL_FILE)
        try:
            pin = host_pin if host_pin is not None else load_or_create_pin(Path(data_dir))
            return cls(
                journal,
                host_pin=pin,
                hardware=hardware,
                host_pin_from_config=host_pin is not None,
                games=games,
                game_ids=game_ids,
            )
        except BaseException:
            journal.close()
            raise

    def close(self) -> None:
        """Finish queued commands, stop the session thread and close the journal (idempotent)."""
        self._session.close()
        self.journal.close()

    def __enter__(self) -> Companion:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def attach_status(self, source: Callable[[], Mapping[str, Any]]) -> None:
        """Where :meth:`status` reads the device's health (``oled``, ``die``)."""
        self._status_source = source

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(game_id, version)`` on the session thread after each commit."""
        self._session.call(lambda: self._listeners.append(listener))

    # --- read side ------------------------------------------------------------------------

    def catalog(self) -> list[dict[str, Any]]:
        """Each available game's description (a game whose rules fail to load is left out)."""
        described = []
        for game_id in self._game_ids:
            try:
                described.append(self._get_game(game_id).describe())
            except (ImportError, AttributeError, UnknownGame) as error:
                log.warning("game %s is not available: %s", game_id, error)
        return described

    def games(self, status: str | None = None) -> list[dict[str, Any]]:
        """Summaries of every game (or those with ``status``), newest first."""
        games = sorted(self._games.values(), key=lambda g: g.id, reverse=True)
        return [g.summary() for g in games if status is None or g.status == status]

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """Finished and abandoned games, newest first."""
        ended = [g for g in self._games.values() if g.status != "active"]
        ended.sort(key=lambda g: g.id, reverse=True)
        return [g.summary() for g in ended[: max(0, limit)]]

    def view(self, game_id: int, seat: int | None) -> dict[str, Any]:
        """The rules' view of the game for ``seat`` (``None``: a spectator), plus the session's
        ``game_id``, ``status``, ``version``, ``can_undo`` and ``claimed``."""
        snap = self._snapshot(game_id)
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(snap.seats)
        ):
            raise NotAllowed(f"game {game_id} has no seat {seat!r} (seats 0–{len(snap.seats) - 1})")
        state = snap.state if snap.state is not None else self._ended_state(snap)
        view = snap.rules.view(state, seat)
        view.update(self._public_extras(snap, state))
        view.update(
            game_id=snap.id,
            status=snap.status,
            version=snap.version,
            can_undo=snap.undo_refusal is None,
            claimed=list(snap.claimed),
        )
        return view

    def version(self) -> int:
        """The global change counter, bumped after every committed change (kept across
        restarts, so a page that reconnects never sees it go back)."""
        return self._version

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until :meth:`version` exceeds ``since`` or ``timeout`` seconds pass."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > since, timeout=max(0.0, timeout))
            return self._version

    def replay(self, game_id: int) -> list[dict[str, Any]]:
        """An ended game step by step: the spectator view at the start (step 0) and after
        each action (``step``, ``seat``, ``action``, ``view``)."""
        snap = self._snapshot(game_id)
        if snap.status == "active":
            raise NotAllowed(f"game {game_id} is still being played; replays are for ended games")
        rules = snap.rules
        row, actions = self._read_game(game_id)
        state = rules.start(list(row.seats), row.options, seed=row.seed)
        steps: list[dict[str, Any]] = [
            {"step": 0, "seat": None, "action": None, "view": rules.view(state, None)}]
        for step, action in enumerate(actions, start=1):
            state = rules.apply(state, action.seat, action.action)
            steps.append({"step": step, "seat": action.seat, "action": action.action,
                          "view": rules.view(state, None)})
        return steps

    def standings(self, game: str | None = None) -> list[dict[str, Any]]:
        """Every player by name over the finished games (of ``game``, or all): ``name``,
        ``played``, ``won``, ``points`` (sum of their scores), ranked by wins then points;
        abandoned games count for nothing."""
        table: dict[str, dict[str, Any]] = {}
        for snap in self._games.values():
            if snap.status != "finished" or (game is not None and snap.game != game):
                continue
            outcome = snap.outcome or {}
            winners = outcome.get("winners") or []
            scores = outcome.get("scores")
            for seat, name in enumerate(snap.seats):
                row = table.setdefault(name, {"name": name, "played": 0, "won": 0, "points": 0})
                row["played"] += 1
                row["won"] += seat in winners
                if isinstance(scores, list | tuple) and seat < len(scores):
                    score = scores[seat]
                    row["points"] += score if isinstance(score, int) else 0
        ranked = sorted(table.values(), key=lambda r: (-r["won"], -r["points"], r["name"]))
        for position, row in enumerate(ranked):
            same = position and (ranked[position - 1]["won"], ranked[position - 1]["points"]) == (
                row["won"], row["points"])
            row["rank"] = ranked[position - 1]["rank"] if same else position + 1
        return ranked

    def tournament(self, tid: int) -> dict[str, Any]:
        """A tournament's players, games, scores and standings."""
        try:
            tournament = self._tournaments[tid]
        except KeyError:
            raise NoSuchTournament(f"there is no tournament {tid!r}") from None
        return tournament.describe()

    def tournaments(self) -> list[dict[str, Any]]:
        """Every tournament, newest first."""
        return [self.tournament(tid) for tid in sorted(self._tournaments, reverse=True)]

    def status(self) -> dict[str, Any]:
        """The box's health for the panel: hardware mode, OLED, die, host PIN, and whatever
        else the device reports (``die_port``, ``pad``)."""
        device: Mapping[str, Any] = {}
        if self._status_source is not None:
            try:
                device = self._status_source()
            except Exception as error:  # a broken device must not break the panel
                device = {"oled": f"error: {error}", "die": False}
        return {
            **device,
            "hardware": self.hardware,
            "oled": device.get("oled", "missing"),
            "die": bool(device.get("die", False)),
            "host_pin_set": self._host_pin_from_config,
        }

    def seat_for_token(self, game_id: int, token: str) -> int | None:
        """The seat ``token`` holds in the game, or ``None``."""
        if not isinstance(token, str) or not token:
            return None
        return self._snapshot(game_id).tokens.get(token_hash(token))

    # --- write side -----------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        players: list[str],
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
    ) -> int:
        """Start a new game (journaled); returns its id."""
        return self._session.call(lambda: self._create_game(game, players, options, seed))

    def create_tournament(
        self,
        players: list[str],
        options: Mapping[str, object] | None = None,
        order: list[int] | None = None,
    ) -> int:
        """An UNLOCK tournament: one game per player, each the Lock once (rotating, or in
        ``order``); its first game starts now, each next one when the previous ends."""
        return self._session.call(lambda: self._create_tournament(players, options, order))

    def act(self, game_id: int, seat: int, action: str) -> dict[str, Any]:
        """Apply ``action`` for ``seat`` (or ``rules.CHANCE``); committed before anyone is
        shown it. Returns that seat's new view (the spectator's for chance)."""
        self._session.call(lambda: self._act(game_id, seat, action))
        return self.view(game_id, None if seat == CHANCE else seat)

    def undo(self, game_id: int) -> None:
        """Take back the game's last action, if it revealed nothing and involved no chance."""
        self._session.call(lambda: self._undo(game_id))

    def abandon(self, game_id: int) -> None:
        """End the game as abandoned (kept in history, counts for nothing)."""
        self._session.call(lambda: self._abandon(game_id))

    def abandon_tournament(self, tid: int) -> None:
        """End a tournament early: its current game is abandoned, the standings stay."""
        self._session.call(lambda: self._abandon_tournament(tid))

    def claim_seat(self, game_id: int, seat: int) -> str:
        """A token for an unclaimed seat; ``SeatTaken`` if someone holds it."""
        return self._session.call(lambda: self._issue(game_id, seat, reissue=False))

    def reissue_seat(self, game_id: int, seat: int) -> str:
        """A new token for the seat; every older token of it stops working."""
        return self._session.call(lambda: self._issue(game_id, seat, reissue=True))

    # --- the session thread's side ----------------------------------------------------------

    def _restore(self) -> None:
        """Rebuild every unfinished game by replaying its actions through the rules."""
        games: dict[int, GameSnapshot] = {}
        for row in self.journal.games():
            try:
                rules = self._get_game(row.game)
            except (ImportError, AttributeError, UnknownGame) as error:
                log.error("game %d: the rules of %r cannot be loaded: %s", row.id, row.game, error)
                continue
            if row.status != "active":
                games[row.id] = self._snapshot_of_ended(row, rules, None)
                continue
            actions = self.journal.actions(row.id)
            try:
                state, previous = _rebuild(rules, row, actions)
            except Exception as error:  # one game the rules no longer replay must not stop
                # the box from starting; its actions stay in the journal for inspection
                log.error("game %d (%s) cannot be replayed; it is abandoned: %s",
                          row.id, row.game, error)
                with self.journal.transaction() as version:
                    self.journal.end_game(row.id, "abandoned", None, version)
                    self._version = version
                ended = self.journal.games()
                row = next(r for r in ended if r.id == row.id)
                games[row.id] = self._snapshot_of_ended(row, rules, None)
                continue
            live = _Live(row, rules, state, actions, previous, self.journal.tokens(row.id))
            self._live[row.id] = live
            games[row.id] = self._snapshot_of_live(live, row.version)
            self._warm_extras(games[row.id])
            log.info("game %d (%s) restored after %d actions", row.id, row.game, len(actions))
        self._games = games
        self._tournaments = {t.id: Tournament.from_row(t, self._tournament_games(t.id))
                             for t in self.journal.tournaments()}
        for tournament in self._tournaments.values():
            self._resume_tournament(tournament)
        self._version = self.journal.version()

    def _tournament_games(self, tid: int) -> list[tuple[int, str, Mapping[str, Any] | None]]:
        games = sorted((g for g in self._games.values() if g.tournament == tid),
                       key=lambda g: g.id)
        return [(g.id, g.status, g.outcome) for g in games]

    def _resume_tournament(self, tournament: Tournament) -> None:
        """A tournament whose last game could not be replayed goes on with a new game."""
        if tournament.status != "active" or any(o is None for o in tournament.outcomes):
            return
        options = tournament.next_options()
        new = (self._prepare(Tournament.GAME, list(tournament.players), options, None)
               if options is not None else None)
        with self.journal.transaction() as version:
            if new is not None:
                live = self._record(new, version, tournament.id)
            else:
                self.journal.end_tournament(tournament.id, "finished")
        if new is not None:
            self._live[live.row.id] = live
            tournament = tournament.with_game(live.row.id)
            self._games = {**self._games, live.row.id: self._snapshot_of_live(live, version)}
        else:
            tournament = tournament.ended("finished")
        self._tournaments = {**self._tournaments, tournament.id: tournament}

    def _prepare(
        self,
        game: str,
        players: list[str],
        options: Mapping[str, object] | None,
        seed: int | None,
    ) -> _NewGame:
        """Validate a new game and start it in memory; nothing is written yet."""
        if not isinstance(game, str):
            raise UnknownGame(f"unknown game {game!r}")
        rules = self._get_game(game)
        names = _check_players(rules, players)
        if options is not None and not isinstance(options, Mapping):
            raise NotAllowed("options must be a mapping of option names to values")
        resolved = rules.resolve_options(options, len(names))
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise NotAllowed(f"a seed must be a whole number ≥ 0, got {seed!r}")
        state = rules.start(names, resolved, seed=seed)
        return _NewGame(game, rules, names, dict(resolved), seed, state)

    def _record(self, new: _NewGame, version: int, tournament: int | None) -> _Live:
        """Write a prepared game inside the caller's transaction; returns it (not yet live)."""
        created = self.journal.now()
        game_id = self.journal.add_game(new.game, new.options, new.names, new.seed, version,
                                        tournament, created=created)
        row = GameRow(game_id, new.game, new.options, new.names, new.seed, created, None,
                      "active", None, tournament, version)
        return _Live(row, new.rules, new.state, [], None, {})

    def _create_game(
        self,
        game: str,
        players: list[str],
        options: Mapping[str, object] | None,
        seed: int | None,
    ) -> int:
        new = self._prepare(game, players, options, seed)
        with self.journal.transaction() as version:
            live = self._record(new, version, None)
        self._live[live.row.id] = live
        log.info("game %d (%s) started for %d players", live.row.id, game, len(new.names))
        self._publish(live.row.id, version, self._snapshot_of_live(live, version))
        return live.row.id

    def _create_tournament(
        self,
        players: list[str],
        options: Mapping[str, object] | None,
        order: list[int] | None,
    ) -> int:
        rules = self._get_game(Tournament.GAME)
        names = _check_players(rules, players)
        scores, shared = Tournament.plan(names, options, order)
        # Validate the options of every game before anything is written.
        for lock in scores.order:
            rules.resolve_options({**shared, "lock": lock}, len(names))
        first = self._prepare(Tournament.GAME, names, scores.game_options(shared), None)
        with self.journal.transaction() as version:
            created = self.journal.now()
            tid = self.journal.add_tournament(Tournament.GAME, names, shared,
                                              list(scores.order), created=created)
            live = self._record(first, version, tid)
        self._live[live.row.id] = live
        tournament = Tournament(tid, shared, scores, (), (), "active", created)
        self._tournaments = {**self._tournaments, tid: tournament.with_game(live.row.id)}
        log.info("tournament %d started: game %d", tid, live.row.id)
        self._publish(live.row.id, version, self._snapshot_of_live(live, version))
        return tid

    def _next_game(
        self, tid: int | None, outcome: Mapping[str, Any] | None
    ) -> tuple[Tournament | None, _NewGame | None]:
        """When a tournament's game ends (``outcome`` ``None``: abandoned): the tournament
        after it, and its next game, prepared but not written."""
        if tid is None:
            return None, None
        tournament = self._tournaments[tid].game_ended(outcome)
        options = tournament.next_options()
        if options is None:
            return tournament.ended("finished"), None
        new = self._prepare(Tournament.GAME, list(tournament.players), options, None)
        return tournament, new

    def _start_next(self, tournament: Tournament | None, new: _NewGame | None,
                    version: int) -> _Live | None:
        """Inside the transaction that ended a tournament's game: write its next game, or
        close the tournament."""
        if tournament is None:
            return None
        if new is None:
            self.journal.end_tournament(tournament.id, "finished")
            return None
        return self._record(new, version, tournament.id)

    def _switch_tournament(self, tournament: Tournament | None, follow_up: _Live | None) -> None:
        """After the commit: the tournament's new state and its next game become live."""
        if tournament is None:
            return
        if follow_up is not None:
            self._live[follow_up.row.id] = follow_up
            tournament = tournament.with_game(follow_up.row.id)
        self._tournaments = {**self._tournaments, tournament.id: tournament}

    def _active(self, game_id: int) -> _Live:
        live = self._live.get(game_id) if isinstance(game_id, int) else None
        if live is not None:
            return live
        snap = self._snapshot(game_id)
        raise NotAllowed(f"game {game_id} is {snap.status}")

    def _act(self, game_id: int, seat: int, action: str) -> None:
        live = self._active(game_id)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"a seat is a number, got {seat!r}")
        if not isinstance(action, str) or len(action) > MAX_ACTION_LENGTH:
            raise IllegalAction("an action is a short text such as 'place 2 3'")
        after = live.rules.apply(live.state, seat, action)
        entered, action = action, live.rules.canonical(live.state, seat, action)
        outcome = live.rules.outcome(after)
        tournament, upcoming = (self._next_game(live.row.tournament, outcome)
                                if outcome is not None else (None, None))
        with self.journal.transaction() as version:
            n = self.journal.add_action(game_id, seat, action, version, entered=entered)
            if outcome is not None:
                ended_at = self.journal.end_game(game_id, "finished", outcome, version)
                follow_up = self._start_next(tournament, upcoming, version)
        public = is_public(live.rules, live.state, after)
        live.actions.append(ActionRow(n, seat, action, self.journal.now()))
        live.previous, live.state = live.state, after
        if public:
            log.info("game %d: seat %d: %s", game_id, seat, action)
        else:
            log.info("game %d: seat %d acted", game_id, seat)
        if outcome is None:
            self._publish(game_id, version, self._snapshot_of_live(live, version))
            return
        del self._live[game_id]
        self._switch_tournament(tournament, follow_up)
        ended = replace(live.row, status="finished", outcome=outcome, ended=ended_at,
                        version=version)
        log.info("game %d finished: %s", game_id, outcome.get("reason", ""))
        self._publish(game_id, version, self._snapshot_of_ended(ended, live.rules, after),
                      follow_up.row.id if follow_up is not None else None)

    def _undo(self, game_id: int) -> None:
        live = self._active(game_id)
        if not live.actions:
            raise NotAllowed(f"game {game_id} has no action to take back")
        refusal = self._refusal(live)
        if refusal is not None:
            raise NotAllowed(f"cannot undo: {refusal}")
        kept = live.actions[:-1]
        state, previous = _rebuild(live.rules, live.row, kept)
        with self.journal.transaction() as version:
            taken = self.journal.undo_last_action(game_id, version)
        live.actions, live.state, live.previous = kept, state, previous
        log.info("game %d: action %d of seat %d taken back", game_id, taken.n, taken.seat)
        self._publish(game_id, version, self._snapshot_of_live(live, version))

    def _abandon(self, game_id: int, *, whole_tournament: bool = False) -> None:
        live = self._active(game_id)
        tid = live.row.tournament
        if whole_tournament:
            tournament, upcoming = None, None
        else:  # the game counts for nothing; the same Lock plays again
            tournament, upcoming = self._next_game(tid, None)
        with self.journal.transaction() as version:
            ended_at = self.journal.end_game(game_id, "abandoned", None, version)
            follow_up = self._start_next(tournament, upcoming, version)
            if whole_tournament and tid is not None:
                self.journal.end_tournament(tid, "abandoned")
        del self._live[game_id]
        self._switch_tournament(tournament, follow_up)
        if whole_tournament and tid is not None:
            ended_tournament = self._tournaments[tid].game_ended(None).ended("abandoned")
            self._tournaments = {**self._tournaments, tid: ended_tournament}
        ended = replace(live.row, status="abandoned", ended=ended_at, version=version)
        log.info("game %d abandoned", game_id)
        final = _abandoned(live.rules, live.state)
        self._publish(game_id, version, self._snapshot_of_ended(ended, live.rules, final),
                      follow_up.row.id if follow_up is not None else None)

    def _abandon_tournament(self, tid: int) -> None:
        tournament = self._tournaments.get(tid) if isinstance(tid, int) else None
        if tournament is None:
            raise NoSuchTournament(f"there is no tournament {tid!r}")
        if tournament.status != "active":
            raise NotAllowed(f"tournament {tid} is {tournament.status}")
        current = tournament.games[-1]
        if current in self._live:
            self._abandon(current, whole_tournament=True)
            return
        with self.journal.transaction() as version:
            self.journal.end_tournament(tid, "abandoned")
        self._tournaments = {**self._tournaments, tid: tournament.ended("abandoned")}
        self._publish(current, version, self._games[current])

    def _issue(self, game_id: int, seat: int, *, reissue: bool) -> str:
        live = self._active(game_id)
        seats = len(live.row.seats)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise NotAllowed(f"game {game_id} has no seat {seat!r} (seats 0–{seats - 1})")
        if not reissue and seat in live.tokens.values():
            raise SeatTaken(
                f"seat {seat} ({live.row.seats[seat]}) is already taken; the host can re-issue it"
            )
        token = secrets.token_urlsafe(24)
        hashed = token_hash(token)
        with self.journal.transaction() as version:
            self.journal.issue_token(game_id, seat, hashed, version)
        live.tokens = {h: s for h, s in live.tokens.items() if s != seat}
        live.tokens[hashed] = seat
        log.info("game %d: seat %d %s", game_id, seat, "re-issued" if reissue else "claimed")
        self._publish(game_id, version, self._snapshot_of_live(live, version))
        return token

    # --- snapshots ------------------------------------------------------------------------

    def _refusal(self, live: _Live) -> str | None:
        if not live.actions or live.previous is None:
            return "there is no action to take back"
        last = live.actions[-1]
        return undo_refusal(live.rules, live.previous, last.seat, last.action, live.state)

    def _snapshot_of_live(self, live: _Live, version: int) -> GameSnapshot:
        row = live.row
        claimed = set(live.tokens.values())
        return GameSnapshot(
            id=row.id, game=row.game, rules=live.rules, status="active",
            seats=tuple(row.seats), claimed=tuple(s in claimed for s in range(len(row.seats))),
            created=row.created, ended=None, outcome=None, tournament=row.tournament,
            version=version, state=live.state, undo_refusal=self._refusal(live),
            tokens=dict(live.tokens),
        )

    def _snapshot_of_ended(self, row: GameRow, rules: Game[Any], state: Any) -> GameSnapshot:
        tokens = self.journal.tokens(row.id)
        claimed = set(tokens.values())
        return GameSnapshot(
            id=row.id, game=row.game, rules=rules, status=row.status, seats=tuple(row.seats),
            claimed=tuple(s in claimed for s in range(len(row.seats))), created=row.created,
            ended=row.ended, outcome=copy.deepcopy(row.outcome), tournament=row.tournament,
            version=row.version, state=state, undo_refusal="the game has ended", tokens=tokens,
        )

    def _publish(
        self, game_id: int, version: int, snap: GameSnapshot, follow_up: int | None = None
    ) -> None:
        """Swap in the new snapshot (the change is already committed), wake the waiters, then
        tell the listeners."""
        games = {**self._games, game_id: snap}
        if follow_up is not None:
            games[follow_up] = self._snapshot_of_live(self._live[follow_up], version)
        self._games = games
        with self._changed:
            self._version = version
            self._changed.notify_all()
        self._warm_extras(games[game_id])
        for changed in (game_id, follow_up):
            if changed is None:
                continue
            for listener in list(self._listeners):
                try:
                    listener(changed, version)
                except Exception:
                    log.exception("a listener failed on game %d", changed)

    def _snapshot(self, game_id: int) -> GameSnapshot:
        snap = self._games.get(game_id) if isinstance(game_id, int) else None
        if snap is None:
            raise NoSuchGame(f"there is no game {game_id!r}")
        return snap

    def _read_game(self, game_id: int) -> tuple[GameRow, list[ActionRow]]:
        """A game's row and live actions, through a reader's own connection."""
        db = read_only(self.journal.path)
        try:
            rows = _games_by_id(db, game_id)
            if not rows:
                raise NoSuchGame(f"there is no game {game_id!r}")
            return rows[0], actions_of(db, game_id)
        except sqlite3.Error as error:
            raise JournalError(f"journal {self.journal.path}: {error}") from None
        finally:
            db.close()

    def _public_extras(self, snap: GameSnapshot, state: Any) -> dict[str, Any]:
        """Costly public facts of a game (UNLOCK: ``codes_remaining``), computed once per
        change on the first reader's thread — never on the session thread, which must stay
        quick for the pad."""
        compute = PUBLIC_EXTRAS.get(snap.rules.id)
        if compute is None:
            return {}
        key = (snap.id, snap.version)
        with self._extras_lock:
            extras = self._extras.get(key)
            if extras is None:
                extras = compute(state)
                self._extras[key] = extras
                while len(self._extras) > _EXTRAS_CACHE:
                    self._extras.popitem(last=False)
            return dict(extras)

    def _warm_extras(self, snap: GameSnapshot) -> None:
        """Compute a live game's costly public facts in the background right after a change,
        so the first phone or the pad does not wait for them (on a Pi, UNLOCK's first count
        of a level builds its code index: seconds)."""
        if snap.state is None or snap.rules.id not in PUBLIC_EXTRAS:
            return
        threading.Thread(
            target=self._public_extras, args=(snap, snap.state),
            name=f"extras-{snap.id}", daemon=True,
        ).start()

    def _ended_state(self, snap: GameSnapshot) -> Any:
        """The final state of a game that ended before this run, rebuilt once and cached."""
        with self._ended_lock:
            if snap.id in self._ended_states:
                self._ended_states.move_to_end(snap.id)
                return self._ended_states[snap.id]
        row, actions = self._read_game(snap.id)
        state = _replay_what_applies(snap.rules, row, actions)
        if snap.status == "abandoned":
            state = _abandoned(snap.rules, state)
        with self._ended_lock:
            self._ended_states[snap.id] = state
            while len(self._ended_states) > _ENDED_CACHE:
                self._ended_states.popitem(last=False)
        return state


def _games_by_id(db: sqlite3.Connection, game_id: int) -> list[GameRow]:
    return [row for row in games_of(db) if row.id == game_id]


def _abandoned(rules: Game[Any], state: Any) -> Any:
    """The final state of an abandoned game: the rules' own abandoned state where the game
    has one (UNLOCK's ``abandon``), else the state it stopped in."""
    abandon = getattr(rules, "abandon", None)
    return abandon(state) if callable(abandon) else state


def _replay_what_applies(rules: Game[Any], row: GameRow, actions: list[ActionRow]) -> Any:
    """An ended game's final state; a game the rules no longer replay (it was abandoned for
    that at start) shows the state before the first action they refuse."""
    state = rules.start(list(row.seats), row.options, seed=row.seed)
    for action in actions:
        try:
            state = rules.apply(state, action.seat, action.action)
        except ValueError as error:
            log.warning("game %d stops replaying at action %d: %s", row.id, action.n, error)
            break
    return state


def _rebuild(rules: Game[Any], row: GameRow, actions: list[ActionRow]) -> tuple[Any, Any | None]:
    """The state after ``actions`` (a seeded start, then each action), and the one before the
    last action."""
    state = rules.start(list(row.seats), row.options, seed=row.seed)
    previous = None
    for action in actions:
        previous, state = state, rules.apply(state, action.seat, action.action)
    return state, previous


def _check_players(rules: Game[Any], players: object) -> list[str]:
    """Player names: a list of distinct, non-empty, short texts, as many as the game takes."""
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise NotAllowed("players must be a list of names")
    names = [p.strip() for p in players]
    if any(not name for name in names):
        raise NotAllowed("every player needs a name")
    long = [n for n in names if len(n) > MAX_NAME_LENGTH]
    if long:
        raise NotAllowed(f"the name {long[0][:20]!r}… is longer than {MAX_NAME_LENGTH} characters")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise NotAllowed(f"two players are called {twice!r}; give each a different name")
    if not rules.min_players <= len(names) <= rules.max_players:
        raise NotAllowed(
            f"{rules.name} takes {rules.min_players}–{rules.max_players} players, "
            f"got {len(names)}"
        )
    return names
