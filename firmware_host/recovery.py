"""A damaged journal: set aside, never written again, and replaced by its newest sound backup.

``tabletop run`` examines the journal before opening it (:mod:`firmware_host.journal_check`);
during play the journal's :class:`~firmware_host.journal_check.DamageAlarm` reports damage a
read or a write met. Either way the box stops taking moves and this module takes over:

- :func:`set_aside` moves the journal and its WAL files aside under one name, logs one line,
  and finds the newest backup SQLite finds sound (:class:`Damage`);
- the OLED and every page of the panel say so and offer that backup: when it was taken, how
  many games it holds and what is lost since (``web_panel/recovery.py``);
- :func:`put_back` restores it (the host, with the PIN, from the panel; or
  ``tabletop journal restore``), or starts an empty journal when no backup is sound.

The daemon goes on running meanwhile, so under systemd nothing restarts in a loop.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from firmware_host.backups import Backup, newest_sound, restore
from firmware_host.errors import JournalError

log = logging.getLogger(__name__)

#: The files of a journal in WAL mode, by suffix.
SUFFIXES = ("", "-wal", "-shm")


@dataclass(frozen=True)
class Damage:
    """A damaged journal set aside, and what can replace it."""

    #: What the check or SQLite found, in one line.
    problem: str
    #: Where the damaged journal now is (``None``: it could not be moved; it is left alone).
    aside: Path | None
    #: The newest backup SQLite finds sound, if any.
    backup: Backup | None
    #: Games the damaged journal still lists after the backup was taken (``None``: unreadable).
    lost_games: int | None
    #: When the damage was found (ISO 8601, UTC).
    found: str

    def taken(self) -> str:
        """When the backup was taken, as people read it (``2026-11-28 02:44 UTC``)."""
        return "" if self.backup is None else readable_stamp(self.backup.taken)


def readable_stamp(stamp: str) -> str:
    """A backup's stamp (``20261128T024408.123456Z``) as ``2026-11-28 02:44 UTC``."""
    try:
        when = datetime.strptime(stamp[:15], "%Y%m%dT%H%M%S")
    except ValueError:
        return stamp
    return when.strftime("%Y-%m-%d %H:%M UTC")


def set_aside(journal: Path, problem: str) -> Damage:
    """Move the damaged ``journal`` (and its WAL files) aside and find what can replace it."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside: Path | None = journal.with_name(f"{journal.name}.damaged-{stamp}")
    assert aside is not None
    try:
        for suffix in SUFFIXES:
            source = journal.with_name(journal.name + suffix)
            if source.exists():
                source.rename(aside.with_name(aside.name + suffix))
    except OSError as error:
        log.error("journal %s is damaged (%s) and could not be moved aside (%s): it is left "
                  "as it is and not written to", journal, problem, error.strerror)
        aside = None
    backup = newest_sound(journal)
    lost = _games_after(aside, backup) if aside is not None else None
    offer = (f"the newest sound backup is {backup.path.name} ({backup.games} games)"
             if backup is not None else "no backup is sound")
    log.error("journal %s is damaged (%s): kept aside as %s; %s", journal, problem,
              aside if aside is not None else journal, offer)
    return Damage(problem, aside, backup, lost, datetime.now(UTC).isoformat(timespec="seconds"))


def _games_after(damaged: Path, backup: Backup | None) -> int | None:
    """How many games the damaged journal lists that began after ``backup`` was taken (all of
    them without a backup), as far as it can still be read; ``None`` if it cannot."""
    since = "" if backup is None else _iso(backup.taken)
    try:
        db = sqlite3.connect(f"file:{damaged}?mode=ro&immutable=1", uri=True)
        try:
            row = db.execute("SELECT COUNT(*) FROM games WHERE created > ?", (since,)).fetchone()
            return int(row[0])
        finally:
            db.close()
    except sqlite3.Error:
        return None


def _iso(stamp: str) -> str:
    try:
        return datetime.strptime(stamp[:15], "%Y%m%dT%H%M%S").replace(tzinfo=UTC).isoformat()
    except ValueError:
        return ""


def put_back(journal: Path, damage: Damage) -> Backup | None:
    """Restore the damage's backup in place of the journal (set aside already); with no sound
    backup, leave the place empty for a new journal. Returns the backup restored."""
    if journal.exists():
        raise JournalError(f"journal {journal} is back in place already; nothing was restored")
    if damage.backup is None:
        return None
    chosen, _ = restore(journal, damage.backup.path)
    log.info("journal %s restored from %s (%d games)", journal, chosen.path, chosen.games)
    return chosen
