"""The companion: the session API (docs/session-api.md) the web panel and the pad talk to.

A thin front over the parts a reader can name:

- :class:`~firmware_host.session_owner.SessionOwner` — the one session thread that runs every
  command (:mod:`firmware_host.commands`): checked, committed to the journal, and only then
  published; each feature keeps its commands in its own module;
- :class:`~firmware_host.read_side.ReadSide` — views, history, replay and standings, read from
  the published snapshots and the journal, never waiting for the session thread;
- :class:`~firmware_host.bot_seats.BotSeats` — the seats the box plays.

Its reads are :class:`~firmware_host.companion_reads.CompanionReads`, its writes (one command
each) :class:`~firmware_host.companion_writes.CompanionWrites`. The games come from a
:class:`~firmware_host.games.Registry` (the built-in four by default).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from firmware_host.allocator import give_back
from firmware_host.analysis_process import AnalysisProcess
from firmware_host.backups import take_backup
from firmware_host.bot_seats import DELAY as BOT_DELAY
from firmware_host.bot_seats import BotSeats
from firmware_host.commands import PLAY, Change
from firmware_host.companion_writes import CompanionWrites
from firmware_host.errors import JournalDamaged, JournalError
from firmware_host.game_analyses import GameAnalyses
from firmware_host.games import Analyser, Registry, builtin_games, is_builtin
from firmware_host.host_pin import load_or_create_pin
from firmware_host.journal import Journal
from firmware_host.read_side import ReadSide
from firmware_host.restore import restore
from firmware_host.session_api import AnalysisAnswer, DeviceStatus, Listener
from firmware_host.session_owner import SessionOwner
from firmware_host.session_state import Session
from firmware_host.snapshots import Snapshots
from firmware_host.wall_clock import clock_is_set, keeps_its_time

log = logging.getLogger(__name__)

JOURNAL_FILE = "journal.sqlite3"


class Companion(CompanionWrites):
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
        analyses_apart: bool = False,
    ) -> None:
        self.journal = journal
        self.hardware = hardware
        self.registry = games if games is not None else builtin_games()
        self._host_pin = host_pin
        self._host_pin_from_config = host_pin_from_config
        self._status_source: Callable[[], DeviceStatus] | None = None
        self._snapshots = Snapshots(journal.version())
        self._session = Session(journal, self.registry, self._snapshots)
        self._read = ReadSide(journal.path, self._snapshots, journal.alarm)
        try:
            self._owner = SessionOwner(self._session, restore)
        except BaseException:
            self._read.close()
            raise
        self._backups = ThreadPoolExecutor(max_workers=1, thread_name_prefix="backup")
        #: The reason of the backup waiting to start (``None``: none waits); see _back_up_later.
        self._backup_waiting: str | None = None
        self._backup_lock = threading.Lock()
        #: Where built-in games' analyses are computed with ``analyses_apart`` (as ``tabletop
        #: run`` does): a child interpreter, so they never hold this one's GIL.
        self._apart = AnalysisProcess() if analyses_apart else None
        self._analyses = GameAnalyses(
            status=self._game_status, record=self._read.game_record,
            stored=self._read.stored_analysis, analyser=self._analyser_of,
            run=self._owner.run)
        self._owner.add_listener(self._after_change)
        for game in self._read.games(status="active"):
            self._warm(game["id"])
        self.bots = BotSeats(self, self.registry, delay=bot_delay, rng=bot_rng)
        self.bots.start(self._owner.add_listener)

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
        analyses_apart: bool = False,
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
                       bot_delay=bot_delay, bot_rng=bot_rng, analyses_apart=analyses_apart)
        except BaseException:
            journal.close()
            raise

    def close(self) -> None:
        """Finish queued commands, stop the session thread and close the journal (idempotent)."""
        self.bots.close()
        self._analyses.close()  # before the session stops: an analysis under way is kept
        if self._apart is not None:
            self._apart.close()
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
        """Call ``listener(game_id, version)`` on the session thread after each commit, for
        each game it changed (``None``: a box-wide setting)."""

        def tell(change: Change) -> None:
            for game_id in change.games:
                listener(game_id, change.version)
            if not change.games:
                listener(None, change.version)

        self._owner.add_listener(tell)

    def _after_change(self, change: Change) -> None:
        """Warm the changed games' public extras, and copy the journal after a game finishes
        (both in the background: the pad never waits)."""
        for game_id in change.games:
            self._read.warm(game_id)
            snap = self._snapshots.game(game_id)
            if PLAY in change.kinds and snap.status == "finished" \
                    and snap.version == change.version:
                self._back_up_later(f"game-{game_id}")
            if PLAY in change.kinds and snap.status != "active" \
                    and snap.version == change.version:
                self._analyses.ended(game_id)

    def _analyser_of(self, kind: str) -> Analyser | Callable[..., str] | None:
        """The analysis of ``kind``'s games: in the child interpreter for a built-in game when
        analyses are computed apart, else the registration's own (``None``: none)."""
        game = self.registry.get(kind)
        if game is None or game.analysis is None:
            return None
        if self._apart is not None and is_builtin(game):
            return partial(self._apart.analyse, kind)
        return game.analysis

    def settle(self, timeout: float = 60.0) -> None:
        """Wait until the backups and analyses asked for so far are taken (the box at rest)."""
        self._backups.submit(lambda: None).result(timeout)
        self._analyses.settle(timeout)

    def analysis(self, game_id: int) -> AnalysisAnswer:
        """An ended game's post-game analysis (:mod:`firmware_host.game_analyses`): ``ready``
        with it, ``pending``, ``unavailable`` (none for this game yet) or ``not_over``."""
        return self._analyses.answer(game_id)

    def _game_status(self, game_id: int) -> tuple[str, str]:
        summary = self._read.summary(game_id)
        return summary["game"], summary["status"]

    def _back_up_later(self, reason: str) -> None:
        """Copy the journal on the backup thread. At most one backup waits: a game that ends
        while one waits is in it already (the copy is made when it starts), so it only takes
        this ``reason``. When games end faster than the journal is copied (a long journal,
        quick bot games), backups would otherwise pile up in proportion to the history."""
        with self._backup_lock:
            waiting, self._backup_waiting = self._backup_waiting, reason
        if waiting is None:
            self._backups.submit(self._back_up_waiting)

    def _back_up_waiting(self) -> None:
        with self._backup_lock:
            reason, self._backup_waiting = self._backup_waiting, None
        if reason is not None:
            self._back_up(reason)

    def _back_up(self, reason: str) -> None:
        try:
            take_backup(self.journal.path, reason)
        except JournalDamaged as damage:
            self.journal.alarm.report(str(damage))
        except JournalError as error:
            log.error("%s", error)
        finally:
            give_back()  # what the game and its backup freed goes back to the system

    def _warm(self, game_id: int) -> None:
        self._read.warm(game_id)
