"""The commands that read the journal while the box is stopped (or beside it): ``history``,
``export``, ``journal check``, ``journal backups`` and ``journal restore``."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.errors import EXIT_JOURNAL, EXIT_OK, JournalError, StartupError

if TYPE_CHECKING:
    from firmware_host.config import Config



def _journal_path(config: Config) -> Path:
    from firmware_host.companion import JOURNAL_FILE

    path = Path(config.data_dir) / JOURNAL_FILE
    if not path.is_file():
        raise StartupError(f"no journal at {path} yet (run 'tabletop run' first, or give "
                           "--data-dir)")
    return path


def history(config: Config, limit: int) -> int:

    from firmware_host.errors import JournalError
    from firmware_host.export import history_table
    from firmware_host.journal_rows import games_of
    from firmware_host.journal_schema import read_only

    path = _journal_path(config)
    db = read_only(path)
    try:
        rows = games_of(db)
    except sqlite3.DatabaseError as error:
        raise JournalError(f"journal {path}: {error}") from None
    finally:
        db.close()
    if not rows:
        print("no games yet")
        return EXIT_OK
    sys.stdout.write(history_table(rows, max(1, limit)))
    return EXIT_OK


def export(config: Config, form: str, out: Path | None) -> int:

    from firmware_host.errors import JournalError
    from firmware_host.export import exported_games, to_csv, to_json

    path = _journal_path(config)
    try:
        games = exported_games(path)
    except sqlite3.DatabaseError as error:
        raise JournalError(f"journal {path}: {error}") from None
    text = to_json(games) if form == "json" else to_csv(games)
    if out is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        raise StartupError(f"cannot write {out}: {error.strerror}") from None
    print(f"tabletop: {len(games)} games written to {out}", file=sys.stderr)
    return EXIT_OK


def journal(config: Config, command: str, file: Path | None, full: bool = False) -> int:
    from firmware_host.backups import backups, newest_sound, restore
    from firmware_host.companion import JOURNAL_FILE
    from firmware_host.journal_check import examine

    journal = Path(config.data_dir) / JOURNAL_FILE
    if command == "check":
        if not journal.is_file():
            raise StartupError(f"no journal at {journal} (give --data-dir)")
        problem = examine(journal, full=full)
        if problem is None:
            print(f"tabletop: journal {journal} is sound "
                  f"({'integrity_check' if full else 'quick_check'}: ok)")
            return EXIT_OK
        sound = newest_sound(journal)
        offer = (f"the newest sound backup is {sound.path} ({sound.games} games): "
                 "'tabletop journal restore' puts it back" if sound is not None
                 else "no backup is sound")
        print(f"tabletop: journal {journal} is damaged: {problem}; {offer}", file=sys.stderr)
        return EXIT_JOURNAL
    if command == "backups":
        found = backups(journal)
        for backup in found:
            state = "" if examine(backup.path) is None else "  (damaged)"
            print(f"{backup.path}  {backup.games} games{state}")
        if not found:
            print(f"no backups of {journal} yet")
        return EXIT_OK
    if file is None:
        newest = newest_sound(journal)
        if newest is None:
            raise JournalError(f"no sound backup of {journal} in its backups folder")
        file = newest.path
    chosen, aside = restore(journal, file)
    print(f"tabletop: restored {chosen.path} ({chosen.games} games) to {journal}")
    if aside is not None:
        print(f"tabletop: the journal it replaced is kept as {aside}")
    return EXIT_OK
