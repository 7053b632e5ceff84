"""The companion: the session API (docs/session-api.md) the web panel and the pad talk to.

A thin front over four parts a reader can name:

- :class:`~firmware_host.session_owner.SessionOwner` — the one session thread that applies every
  command, commits it to the journal, and only then publishes (writes);
- :mod:`firmware_host.seats` — seat tokens;
- :mod:`firmware_host.tournaments` — tournaments and their games;
- :class:`~firmware_host.read_side.ReadSide` — views, history, replay and standings, read from
  the published snapshots and the journal, never waiting for the session thread.

The games come from a :class:`~firmware_host.games.Registry` (the built-in four by default).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from firmware_host.backups import take_backup
from firmware_host.bot_seats import DELAY as BOT_DELAY
from firmware_host.bot_seats import BotSeats
from firmware_host.errors import JournalDamaged, JournalError, NotAllowed
from firmware_host.games import Registry, builtin_games
from firmware_host.host_pin import load_or_create_pin
from firmware_host.journal import Journal
from firmware_host.read_side import ReadSide
from firmware_host.seats import check_seat, token_hash
from firmware_host.session_api import (
    DeviceStatus,
    GameInfo,
    GameStatus,
    GameSummary,
    Listener,
    Move,
    PadChooser,
    PadSettings,
    ReplayStep,
    SeatsInfo,
    Standing,
    Status,
    TournamentInfo,
    View,
)
from firmware_host.session_owner import SessionOwner
from firmware_host.snapshots import Snapshots
from firmware_host.wall_clock import clock_is_set, keeps_its_time
from rules import CHANCE

log = logging.getLogger(__name__)

JOURNAL_FILE = "journal.sqlite3"


class Companion:
    """Every game, tournament and seat of the box, behind one thread-safe API
    (it implements :class:`firmware_host.session_api.SessionApi`)."""

    def __init__(
        self,
        journal: Journal,
        *,
        host_pin: str,
        hardware: str = "simulator",
        host_pin_from_config: bool = False,
        games: Registry | None = None,
        bot_delay: float = BOT_DELAY,
        bot_rng: random.Random | None = None,
    ) -> None:
        self.journal = journal
        self.hardware = hardware
        self.registry = games if games is not None else builtin_games()
        self._host_pin = host_pin
        self._host_pin_from_config = host_pin_from_config
        self._status_source: Callable[[], DeviceStatus] | None = None
        #: The game put on the pad (host page or OLED menu); None: the pad follows the newest.
        self._snapshots = Snapshots(journal.version())
        self._read = ReadSide(journal.path, self._snapshots, journal.alarm)
        try:
            self._owner = SessionOwner(journal, self.registry, self._snapshots)
        except BaseException:
            self._read.close()
            raise
        self._owner.add_listener(lambda game_id, _version: self._warm(game_id))
        self._backups = ThreadPoolExecutor(max_workers=1, thread_name_prefix="backup")
        self._owner.add_listener(self._back_up_when_finished)
        for game in self._read.games(status="active"):
            self._warm(game["id"])
        self.bots = BotSeats(self, self.registry, delay=bot_delay, rng=bot_rng)
        self.bots.start()

    @classmethod
    def open(
        cls,
        data_dir: Path,
        *,
        host_pin: str | None = None,
        hardware: str = "simulator",
        games: Registry | None = None,
        new_journal: bool = False,
        bot_delay: float = BOT_DELAY,
        bot_rng: random.Random | None = None,
    ) -> Companion:
        """A companion on the journal in ``data_dir`` (created if need be; an empty one while a
        backup holds games only with ``new_journal``). Bot seats move ``bot_delay`` seconds
        after their turn comes, drawing from ``bot_rng`` (default: the operating system's)."""
        # A Pi has no battery-backed clock: its times count only once NTP has set it. The
        # simulator runs on a computer that keeps its own time.
        journal = Journal(Path(data_dir) / JOURNAL_FILE, allow_empty=new_journal,
                          clock_set=clock_is_set if hardware == "pi" else keeps_its_time)
        try:
            pin = host_pin if host_pin is not None else load_or_create_pin(Path(data_dir))
            return cls(journal, host_pin=pin, hardware=hardware,
                       host_pin_from_config=host_pin is not None, games=games,
                       bot_delay=bot_delay, bot_rng=bot_rng)
        except BaseException:
            journal.close()
            raise

    def close(self) -> None:
        """Finish queued commands, stop the session thread and close the journal (idempotent)."""
        self.bots.close()
        self._owner.close()
        self._read.close()
        self._backups.shutdown(wait=True)
        self.journal.close()

    def __enter__(self) -> Companion:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def host_pin(self) -> str:
        """The host PIN, shown on the OLED start screen."""
        return self._host_pin

    def attach_status(self, source: Callable[[], DeviceStatus]) -> None:
        """Where :meth:`status` reads the device's health."""
        self._status_source = source

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(game_id, version)`` on the session thread after each commit."""
        self._owner.add_listener(listener)

    def _back_up_when_finished(self, game_id: int | None, version: int) -> None:
        """After a game finishes, copy the journal (in the background: the pad never waits)."""
        if game_id is None:
            return
        snap = self._snapshots.game(game_id)
        if snap.status == "finished" and snap.version == version:
            self._backups.submit(self._back_up, f"game-{game_id}")

    def _back_up(self, reason: str) -> None:
        try:
            take_backup(self.journal.path, reason)
        except JournalDamaged as damage:
            self.journal.alarm.report(str(damage))
        except JournalError as error:
            log.error("%s", error)

    def _warm(self, game_id: int | None) -> None:
        if game_id is not None:
            self._read.warm(game_id)

    # --- read side ------------------------------------------------------------------------
    def catalog(self) -> list[GameInfo]:
        """Each game's description: its rules' options, whether it has tournaments, its bots'
        levels and whether it has hints."""
        described: list[GameInfo] = []
        for box in self.registry.values():
            info = box.rules.describe()
            described.append({**info,  # type: ignore[typeddict-item]
                              "tournament": box.tournament is not None,
                              "bots": list(box.bots) if box.bots is not None else [],
                              "hints": box.hint is not None,
                              "pad": box.pad is not None})
        return described

    def games(self, status: GameStatus | None = None) -> list[GameSummary]:
        """Summaries of every game (or those with ``status``), newest first."""
        return self._read.games(status)

    def summary(self, game_id: int) -> GameSummary:
        """One game's summary (a dictionary lookup)."""
        return self._read.summary(game_id)

    def history(self, limit: int = 50) -> list[GameSummary]:
        return self._read.history(limit)

    def view(self, game_id: int, seat: int | None) -> View:
        return self._read.view(game_id, seat)

    def game_version(self, game_id: int) -> int:
        return self._read.game_version(game_id)

    def version(self) -> int:
        """The global change counter, bumped after every committed change (kept across
        restarts, so a page that reconnects never sees it go back)."""
        return self._snapshots.version

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until :meth:`version` exceeds ``since`` or ``timeout`` seconds pass."""
        return self._snapshots.wait_for_change(since, timeout)

    def wait_for_game(self, game_id: int, since: int, timeout: float) -> int:
        """Block until the game's version exceeds ``since`` or ``timeout`` seconds pass (only
        this game's changes wake the caller); returns the game's version."""
        return self._snapshots.wait_for_game(game_id, since, timeout)

    def replay(self, game_id: int) -> list[ReplayStep]:
        return self._read.replay(game_id)

    def moves(self, game_id: int, since: int = 0) -> list[Move]:
        """The game's accepted actions after step ``since``, for a move log (see
        :class:`firmware_host.session_api.Move`)."""
        return self._read.moves(game_id, since)

    def standings(self, game: str | None = None) -> list[Standing]:
        return self._read.standings(game)

    def tournament(self, tid: int) -> TournamentInfo:
        """A tournament's players, games, scores and standings."""
        return self._snapshots.tournament(tid).describe()

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament, newest first."""
        return [t.describe() for t in self._snapshots.tournaments()]

    def status(self) -> Status:
        """The box's health for the panel: the device's, the hardware mode, and whether the
        host PIN comes from the config."""
        device: DeviceStatus = {"oled": "missing", "die": False, "die_port": None, "pad": "ok",
                                "firmware": None}
        if self._status_source is not None:
            try:
                device = self._status_source()
            except Exception as error:  # a broken device must not break the panel
                log.exception("the device's status failed")
                device = {**device, "oled": f"error: {error}"}
        return {**device, "hardware": self.hardware,
                "host_pin_set": self._host_pin_from_config}

    def seat_for_token(self, game_id: int, token: str) -> int | None:
        """The seat ``token`` holds in the game, or ``None``."""
        return self._read.seat_for_token(game_id, token)

    def legal_actions(self, game_id: int, seat: int) -> list[str]:
        """What ``seat`` may do now, for that seat alone (a bot's or a phone's choices)."""
        return self._read.legal_actions(game_id, seat)

    def pad(self) -> PadSettings:
        """The pad's game (which game the pad and the OLED follow), who chose it, and the box's
        language as the host chose it (``None``: the config's)."""
        pad = self._owner.pad
        return {"game": pad.game, "by": pad.by, "language": pad.language}

    # --- write side -----------------------------------------------------------------------
    def create_game(self, game: str, players: list[str],
                    options: Mapping[str, object] | None = None,
                    seed: int | None = None,
                    bots: Mapping[int, str] | None = None) -> int:
        """Start a new game (journaled); returns its id. ``bots`` maps the seats the box plays
        to their bot's level (UNLOCK: a bot seated as the Lock is the box as the Lock)."""
        return self._owner.create_game(game, players, options, seed, bots)

    def create_tournament(self, game: str, players: list[str],
                          options: Mapping[str, object] | None = None,
                          order: list[int] | None = None,
                          bots: Mapping[int, str] | None = None) -> int:
        """A tournament of ``game``: one game per player, each leading once (UNLOCK: the Lock,
        rotating or in ``order``); its first game starts now, each next one when the previous
        ends. ``bots``: the players the box plays in every game, with their level."""
        return self._owner.create_tournament(game, players, options, order, bots)

    def hint(self, game_id: int, seat: int) -> dict[str, Any]:
        """A hint for ``seat`` from the public view alone (UNLOCK: the codes still possible
        and a suggested guess), counted in the journal before it is returned."""
        snap = self._snapshots.game(game_id)
        check_seat(game_id, snap.seats, seat)
        if snap.box.hint is None:
            raise NotAllowed(f"{snap.box.rules.name} has no hints")
        if snap.status != "active":
            raise NotAllowed(f"game {game_id} is {snap.status}")
        if snap.hints_off:
            raise NotAllowed("the host has turned hints off for this game")
        if snap.bots and snap.bots[seat] is not None:
            raise NotAllowed(f"seat {seat} is played by the box")
        answer = snap.box.hint(self.view(game_id, None), seat)
        self._owner.count_hint(game_id, seat)
        return answer

    def allow_hints(self, game_id: int, allowed: bool) -> None:
        """The host turns the game's hints on or off."""
        self._owner.allow_hints(game_id, allowed)

    def seat_bot(self, game_id: int, seat: int, level: str | None) -> None:
        """During the game, the box takes over ``seat`` with a bot at ``level`` (a player
        left, or none came), or gives it back to a person (``None``); journaled. Refused for a
        seat a phone holds."""
        self._owner.seat_bot(game_id, seat, level)
        self.bots.reseated(game_id)

    def act(self, game_id: int, seat: int, action: str, by: str | None = None) -> View:
        """Apply ``action`` for ``seat`` (or ``rules.CHANCE``); committed before anyone is
        shown it, with who entered it (``by``: e.g. ``die``, ``keypad``, ``box random``,
        ``host``, ``seat 1``; ``None`` for the seat itself). Returns that seat's new view (the
        spectator's for chance)."""
        self._owner.act(game_id, seat, action, by)
        return self.view(game_id, None if seat == CHANCE else seat)

    def act_on_pad(self, game_id: int, seat: int, action: str,
                   by: str | None = None) -> View:
        """As :meth:`act`, for an action entered on the pad: refused (``NotPadGame``) unless
        ``game_id`` is the pad's game when the session thread takes it."""
        self._owner.act_on_pad(game_id, seat, action, by)
        return self.view(game_id, None if seat == CHANCE else seat)

    def set_pad_game(self, game_id: int | None, by: PadChooser = "host") -> None:
        """The pad and the OLED follow game ``game_id`` (a game being played; ``None``: no
        game), chosen by the ``host`` or on the ``pad``'s games menu; journaled."""
        self._owner.set_pad_game(game_id, by)

    def set_box_language(self, language: str | None) -> None:
        """The OLED's language, ``en`` or ``ja`` (``None``: the config's); journaled."""
        self._owner.set_box_language(language)

    def undo(self, game_id: int) -> None:
        """Take back the game's last action, if it revealed nothing and involved no chance."""
        self._owner.undo(game_id)

    def abandon(self, game_id: int) -> None:
        """End the game as abandoned (kept in history, counts for nothing)."""
        self._owner.abandon(game_id)

    def abandon_tournament(self, tid: int) -> None:
        """End a tournament early: its current game is abandoned, the standings stay."""
        self._owner.abandon_tournament(tid)

    def claim_seat(self, game_id: int, seat: int, code: str | None = None,
                   holder: str | None = None) -> str:
        """A token for an unclaimed seat (``SeatTaken`` if someone holds it; with the seats
        locked, ``code`` must be the seat's join code), for the phone ``holder`` describes."""
        return self._owner.issue_seat(game_id, seat, reissue=False, code=code, holder=holder)

    def lock_seats(self, game_id: int, locked: bool) -> list[str] | None:
        """Lock the game's seats behind fresh join codes (returned, one per seat), or open
        them again (``None``)."""
        return self._owner.lock_seats(game_id, locked)

    def seats(self, game_id: int) -> SeatsInfo:
        """For the host: who holds each seat, and the join codes while the seats are locked."""
        snap = self._snapshots.game(game_id)
        return {
            "locked": snap.join_codes is not None,
            "join_codes": list(snap.join_codes) if snap.join_codes is not None else None,
            "holders": [
                {"device": h.device, "since": h.since} if (h := snap.holders.get(s)) else None
                for s in range(len(snap.seats))],
        }

    def open_host_session(self, lifetime: float) -> str:
        """A new host session token, valid ``lifetime`` seconds (kept across restarts)."""
        token = secrets.token_urlsafe(24)
        expires = (datetime.now(UTC) + timedelta(seconds=lifetime)).isoformat(
            timespec="seconds")
        self._owner.open_host_session(token_hash(token), expires)
        return token

    def is_host_session(self, token: str | None) -> bool:
        """Whether ``token`` is a host session that has not ended or expired."""
        if not token:
            return False
        expires = self._snapshots.host_sessions.get(token_hash(token))
        return expires is not None and expires > datetime.now(UTC).isoformat(timespec="seconds")

    def close_host_session(self, token: str | None) -> None:
        """End a host session (log out)."""
        if token:
            self._owner.close_host_session(token_hash(token))

    def reissue_seat(self, game_id: int, seat: int, holder: str | None = None) -> str:
        """A new token for the seat; every older token of it stops working."""
        return self._owner.issue_seat(game_id, seat, reissue=True, holder=holder)

    # --- club mode (docs/club.md) ---------------------------------------------------------
    def set_club_code(self, game_id: int, seat: int, code: str) -> None:
        """Keep the club code the player of ``seat`` entered; it goes to the club hub with the
        game's record (an active game only; a new code replaces the seat's last)."""
        self._owner.set_club_code(game_id, seat, code)

    def club_delivered(self, through_seq: int) -> int:
        """The club hub has the outbox rows up to ``through_seq``; returns how many were
        newly marked delivered."""
        return self._owner.club_delivered(through_seq)
