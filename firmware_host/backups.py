"""Journal backups: a copy after each finished game (and before a schema migration), the last
few kept, and a restore that never destroys what it replaces.

Copies are made with SQLite's online backup API from a reader's connection, so a backup is a
consistent journal even while the session thread writes. They live in ``<data>/backups/``,
readable by this user only. ``tabletop journal restore`` puts one back in place; the journal it
replaces is moved aside, never deleted.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from firmware_host.errors import JournalDamaged, JournalError
from firmware_host.journal_check import examine, is_damage

log = logging.getLogger(__name__)

BACKUP_DIR = "backups"
#: How many backups are kept (the oldest go first).
KEEP = 5


@dataclass(frozen=True)
class Backup:
    """One backup file: where it is, when it was taken, and how many games it holds."""

    path: Path
    taken: str
    games: int


def backup_dir(journal: Path) -> Path:
    return journal.parent / BACKUP_DIR


def take_backup(journal: Path, reason: str, keep: int = KEEP) -> Path:
    """Copy ``journal`` into its backups (``reason`` goes into the name); keep the newest
    ``keep``. Raises :class:`JournalError` when the copy cannot be made, and
    :class:`JournalDamaged` when the journal is damaged: a damaged copy is never kept, so it
    cannot push a sound backup out."""
    folder = backup_dir(journal)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    target = folder / f"journal-{stamp}-{reason}.sqlite3"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        _copy(journal, target)
        problem = examine(target)
    except (OSError, sqlite3.Error) as error:
        target.unlink(missing_ok=True)
        if isinstance(error, sqlite3.Error) and is_damage(error):
            raise JournalDamaged(str(error)) from None
        raise JournalError(f"backup of {journal} to {folder}: {error}") from None
    if problem is not None:
        target.unlink(missing_ok=True)
        raise JournalDamaged(problem)
    for old in sorted(folder.glob("journal-*.sqlite3"))[:-keep]:
        old.unlink(missing_ok=True)
    log.info("journal backed up to %s", target)
    return target


def backups(journal: Path) -> list[Backup]:
    """The journal's backups, newest first (a file that is not a journal is left out)."""
    found = []
    for path in sorted(backup_dir(journal).glob("journal-*.sqlite3"), reverse=True):
        games = count_games(path)
        if games is not None:
            taken = path.name.split("-", 2)[1]
            found.append(Backup(path, taken, games))
    return found


def newest_sound(journal: Path) -> Backup | None:
    """The newest backup SQLite's check finds sound (``None`` if there is none)."""
    return next((b for b in backups(journal) if examine(b.path) is None), None)


def count_games(path: Path) -> int | None:
    """How many games the journal at ``path`` holds; ``None`` if it is not a readable journal."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return None


def restore(journal: Path, backup: Path | None = None) -> tuple[Backup, Path | None]:
    """Put ``backup`` (default: the newest) in place of ``journal``; the journal it replaces
    (and its WAL files) are moved aside, not deleted. Returns the backup and where the old
    journal went. The daemon must not be running."""
    found = backups(journal)
    if backup is None:
        if not found:
            raise JournalError(f"no backups of {journal} in {backup_dir(journal)}")
        chosen = found[0]
    else:
        games = count_games(backup)
        if games is None:
            raise JournalError(f"{backup} is not a journal backup")
        chosen = Backup(backup, "", games)
    aside: Path | None = None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    try:
        if journal.exists():
            aside = journal.with_name(f"{journal.name}.replaced-{stamp}")
            journal.rename(aside)
            for suffix in ("-wal", "-shm"):
                extra = journal.with_name(journal.name + suffix)
                if extra.exists():
                    extra.rename(aside.with_name(aside.name + suffix))
        _copy(chosen.path, journal)
    except (OSError, sqlite3.Error) as error:
        raise JournalError(f"restoring {chosen.path} to {journal}: {error}") from None
    return chosen, aside


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into a new private file ``target``."""
    _create_private(target)
    reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    writer = sqlite3.connect(target)
    try:
        reader.backup(writer)
    finally:
        writer.close()
        reader.close()


def _create_private(path: Path) -> None:
    """Create ``path`` empty and readable by this user only (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
