"""A reader's own connection to the journal, for the reads that are not in memory: ended games,
their history, standings and replays (any thread; it sees committed transactions only).

Each read opens its connection and closes it: nothing of the journal stays cached between reads
(a connection's page cache grows up to SQLite's default 2 MiB), and a damaged journal is
reported to the damage alarm, never half read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware_host.errors import JournalError, StorageError
from firmware_host.journal_check import DamageAlarm
from firmware_host.journal_schema import read_only


class JournalReader:
    """Opens a connection of its own for each read of the journal at ``path``."""

    def __init__(self, path: Path, alarm: DamageAlarm) -> None:
        self.path = path
        self.alarm = alarm

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection for one read; SQLite's errors become :class:`StorageError`
        (damage is reported to the alarm)."""
        self.alarm.check()
        try:
            db = read_only(self.path)
        except JournalError as error:
            raise StorageError(f"the journal could not be read ({error})") from None
        try:
            yield db
        except sqlite3.Error as error:
            raise self._failed(error) from None
        finally:
            db.close()

    def _failed(self, error: sqlite3.Error) -> StorageError:
        """Why a read failed: damage (reported to the alarm) or the storage."""
        translated = self.alarm.translate(error)
        if isinstance(translated, StorageError):
            return translated
        return StorageError(f"the journal could not be read ({error})")
