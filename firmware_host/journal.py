"""The journal: every game, action, seat token and tournament in one SQLite file.

Stdlib ``sqlite3`` in WAL mode with ``synchronous=FULL``, so a committed transaction survives a
power cut. Only the session thread writes, inside :meth:`Journal.transaction`; readers on other
threads open their own connection (:func:`~firmware_host.journal_schema.read_only`). The journal
is in parts, each readable on its own: the file, its connections and migrations
(:mod:`~firmware_host.journal_schema`); this module's transactions; the append-only log of games,
actions and tournaments (:mod:`~firmware_host.game_log`); the rows as the read side decodes them
(:mod:`~firmware_host.journal_rows`); and each feature's own records beside its commands (seats,
hints, bots, the pad's settings, host sessions, the club's outbox); backups in
:mod:`~firmware_host.backups`.

Actions are append-only: an undo marks its row ``undone`` (an audit trail) instead of deleting it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_host.errors import JournalError, StorageError
from firmware_host.journal_check import DamageAlarm, is_damage
from firmware_host.journal_rows import (
    ActionRow,
    GameRow,
    Stamp,
    TournamentRow,
    actions_of,
    games_of,
    tournaments_of,
    version_of,
)
from firmware_host.journal_schema import connect, migrate, settle_page_size
from firmware_host.wall_clock import clock_is_set

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
#: Whether a time just read from the clock can be trusted (:func:`wall_clock.clock_is_set`).
ClockCheck = Callable[[datetime], bool]


def utc_now() -> datetime:
    """The wall clock in UTC (the journal's default clock)."""
    return datetime.now(UTC)


class Journal:
    """The journal file; writes happen inside :meth:`transaction` on one thread."""

    def __init__(self, path: Path, *, clock: Clock = utc_now, clock_set: ClockCheck = clock_is_set,
                 allow_empty: bool = False) -> None:
        """Open (or create) the journal at ``path``; ``clock`` tells the time and ``clock_set``
        whether a time it told can be trusted. A journal that is missing or empty while a
        backup holds games is refused (say so loudly, rather than start as if nothing
        happened) unless ``allow_empty``; a damaged one is refused and left untouched."""
        self.path = Path(path)
        self.clock = clock
        self.clock_set = clock_set
        #: The first damage met during play (:mod:`firmware_host.journal_check`).
        self.alarm = DamageAlarm(self.path)
        directory = self.path.parent
        if not directory.is_dir():
            try:
                directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            except OSError as error:
                raise JournalError(
                    f"data directory {directory}: cannot create it ({error.strerror}); check "
                    "that its parent is writable by this user"
                ) from None
        self._check_not_lost(allow_empty)
        try:
            if not self.path.exists():
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                os.close(fd)
        except OSError as error:
            raise JournalError(f"journal {self.path}: cannot create it ({error.strerror}); "
                               "check that the data directory is writable by this user and "
                               "that its disk is not full") from None
        try:
            self._db = connect(self.path, read_only=False)
            fresh = not self._db.execute("SELECT 1 FROM sqlite_master").fetchone()
            if fresh:  # a new file gets its page size before WAL mode writes its header
                settle_page_size(self._db)
            self._wal()
            migrate(self._db, self.path)
            if not fresh:  # an older file is rewritten to it once, after its backup
                settle_page_size(self._db)
                self._wal()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"journal {self.path}: {_explain(error)}") from None
        self._in_transaction = False
        self._counted = False
        self._version = version_of(self._db)

    def _wal(self) -> None:
        mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise JournalError(f"journal {self.path}: WAL mode refused (got {mode})")
        self._db.execute("PRAGMA synchronous = FULL")

    def _check_not_lost(self, allow_empty: bool) -> None:
        """Refuse to start empty when a backup holds games (the journal was lost or wiped)."""
        if allow_empty or (self.path.exists() and self.path.stat().st_size > 0):
            return
        from firmware_host.backups import backups

        saved = next((b for b in backups(self.path) if b.games), None)
        if saved is not None:
            state = "is empty" if self.path.exists() else "is missing"
            raise JournalError(
                f"journal {self.path} {state}, but the backup {saved.path} holds {saved.games} "
                "games: bring them back with 'tabletop journal restore', or start an empty "
                "journal with 'tabletop run --new-journal'")

    # --- transactions ---------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[int]:
        """One atomic, durable write; yields the journal's new change counter.

        When the write cannot be saved (a full disk, a read-only or vanished file) nothing of
        it is kept and :class:`StorageError` says why: the caller changes nothing in memory.
        """
        if self._in_transaction:
            raise RuntimeError("journal transactions do not nest")
        self.alarm.check()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise self._failed(error) from None
        self._in_transaction = True
        self._counted = False
        try:
            version = self._version + 1
            yield version
            if not self._counted:  # no row of this write carries its version: meta does
                self._db.execute("UPDATE meta SET value = ? WHERE key = 'version'",
                                 (str(version),))
            self._db.execute("COMMIT")
            self._version = version
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise self._failed(error) from None
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        finally:
            self._in_transaction = False

    def _failed(self, error: sqlite3.Error) -> StorageError:
        """Why a write failed: damage (reported to :attr:`alarm`) or the storage."""
        if is_damage(error):
            damaged = self.alarm.translate(error)
            assert isinstance(damaged, StorageError)
            return damaged
        return _storage_error(self.path, error)

    def write(self, sql: str, parameters: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        """Run one statement that changes the journal (inside :meth:`transaction` only)."""
        if not self._in_transaction:
            raise RuntimeError("journal writes must happen inside transaction()")
        return self._db.execute(sql, parameters)

    def counted(self) -> None:
        """This write's version is kept in a row it wrote (an action's): the change counter in
        ``meta`` need not be written too (the version is read back as the largest of both)."""
        self._counted = True

    def touch(self, game_id: int, version: int) -> None:
        """Mark the game changed at ``version`` (its live pages resume from there)."""
        self.write("UPDATE games SET version = ? WHERE id = ?", (version, game_id))

    @property
    def db(self) -> sqlite3.Connection:
        """The session thread's connection, for the rows' queries
        (:mod:`~firmware_host.journal_rows`)."""
        return self._db

    def now(self) -> str:
        """The current time as the journal stores it (ISO 8601, UTC, seconds)."""
        return self.clock().astimezone(UTC).isoformat(timespec="seconds")

    def stamp(self) -> Stamp:
        """The current time as the journal stores it, and whether the clock has been set."""
        when = self.clock().astimezone(UTC)
        return Stamp(when.isoformat(timespec="seconds"), self.clock_set(when))

    # --- reads ----------------------------------------------------------------------------

    def version(self) -> int:
        """The journal's change counter (bumped by every transaction)."""
        return self._version

    def games(self, status: str | None = None) -> list[GameRow]:
        """Every game (or those with ``status``), oldest first."""
        return games_of(self._db, status)

    def actions(self, game_id: int) -> list[ActionRow]:
        """The game's live actions in order (undone ones left out)."""
        return actions_of(self._db, game_id)

    def tournaments(self) -> list[TournamentRow]:
        """Every tournament, oldest first."""
        return tournaments_of(self._db)

    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``ok`` when sound)."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        """Close the file (idempotent). A damaged journal is left exactly as it was found:
        the last connection to close a WAL journal copies the log into the file, so a
        read-only one (which cannot) is kept open across the writer's close."""
        keeper: sqlite3.Connection | None = None
        if self.alarm.problem is not None:
            with contextlib.suppress(sqlite3.Error):
                keeper = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
                keeper.execute("PRAGMA journal_mode").fetchone()  # joins the WAL
        try:
            self._db.close()
        finally:
            if keeper is not None:
                keeper.close()


def _storage_error(path: Path, error: sqlite3.Error) -> StorageError:
    log.error("journal %s: a write failed: %s", path, error)
    text = str(error)
    if "full" in text:
        why = "the box's storage is full"
    elif "readonly" in text or "read-only" in text:
        why = "the box's storage has become read-only"
    else:
        why = f"the journal could not be written ({text})"
    return StorageError(f"{why}: nothing was saved or changed; free some space (or fix the "
                        "storage) and try again")


def _explain(error: sqlite3.DatabaseError) -> str:
    text = str(error)
    if "file is not a database" in text or "malformed" in text:
        return (f"{text} — the file is damaged; it is left untouched: restore a backup with "
                "'tabletop journal restore', or move the file aside to start a new journal")
    if "readonly" in text or "unable to open" in text:
        return f"{text} (check that the data directory is writable by this user)"
    return text
