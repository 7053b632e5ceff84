"""Journal backups: a copy after each finished game (and before a schema migration), the last
few kept, and a restore that never destroys what it replaces.

A copy is made with SQLite's online backup API from a reader's connection, so it is a
consistent journal even while the session thread writes, and checked before it is kept. It is
made in memory (``/dev/shm``) and written over the oldest backup it replaces, 4 KiB at a time,
only where the two differ: the journal grows at its end, so a backup costs an SD card about what
was played since, not the whole journal (issue 32). Backups live in ``<data>/backups/``,
readable by this user only. ``tabletop journal restore`` puts one back in place; the journal it
replaces is moved aside, never deleted.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from firmware_host.errors import JournalDamaged, JournalError
from firmware_host.journal_check import examine, is_damage
from firmware_host.journal_schema import small_cache

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
    scratch = _scratch(folder)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        _copy(journal, scratch)
        problem = examine(scratch)
        if problem is not None:
            raise JournalDamaged(problem)
        kept = sorted(folder.glob("journal-*.sqlite3"))
        if len(kept) >= keep:  # the oldest becomes the newest: only what changed is written
            os.replace(kept[0], target)
        else:
            _create_private(target)
        write_changes(scratch, target)
    except (OSError, sqlite3.Error) as error:
        target.unlink(missing_ok=True)
        if isinstance(error, sqlite3.Error) and is_damage(error):
            raise JournalDamaged(str(error)) from None
        raise JournalError(f"backup of {journal} to {folder}: {error}") from None
    finally:
        scratch.unlink(missing_ok=True)
    for old in sorted(folder.glob("journal-*.sqlite3"))[:-keep]:
        old.unlink(missing_ok=True)
    log.info("journal backed up to %s", target)
    return target


#: How much is compared (and, where it differs, written) at a time: a storage page.
BLOCK = 4096


def write_changes(source: Path, target: Path) -> int:
    """Make ``target`` a copy of ``source`` by writing only the blocks that differ (and
    syncing it); returns the bytes written."""
    written = 0
    with source.open("rb") as src, target.open("r+b") as dst:
        offset = 0
        while block := src.read(BLOCK):
            if dst.read(len(block)) != block:
                dst.seek(offset)
                dst.write(block)
                written += len(block)
            offset += len(block)
            dst.seek(offset)
        dst.truncate(offset)
        dst.flush()
        os.fsync(dst.fileno())
    return written


def _scratch(folder: Path) -> Path:
    """Where a backup is first made: in memory where the system has ``/dev/shm``."""
    shm = Path("/dev/shm")
    where = shm if shm.is_dir() and os.access(shm, os.W_OK) else folder
    return where / f"tabletop-backup-{os.getpid()}-{secrets.token_hex(4)}.sqlite3"


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
    reader = small_cache(sqlite3.connect(f"file:{source}?mode=ro", uri=True))
    writer = small_cache(sqlite3.connect(target))
    try:
        reader.backup(writer)
    finally:
        writer.close()
        reader.close()


def _create_private(path: Path) -> None:
    """Create ``path`` empty and readable by this user only (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
