"""The journal file: durability settings, the schema version and its migrations, damage."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from firmware_host.errors import JournalError
from firmware_host.journal import MIGRATIONS, SCHEMA_VERSION, Journal
from tests.firmware_host.toys import toy_games


def test_journal_uses_wal_and_full_synchronous_writes(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    try:
        db = journal._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert journal.schema_version() == SCHEMA_VERSION
        assert journal.integrity() == "ok"
    finally:
        journal.close()


def make_v1_journal(path: Path) -> None:
    """A journal as the first schema wrote it: one race game, two actions, no undo column."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    MIGRATIONS[0](db)
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
    db.execute(
        "INSERT INTO games (id, game, options, seats, seed, created, status)"
        " VALUES (1, 'race', ?, ?, 9, '2026-01-01T00:00:00+00:00', 'active')",
        (json.dumps({"first_player": 1, "goal": 10}), json.dumps(["Aiko", "Ben"])),
    )
    db.execute("INSERT INTO actions VALUES (1, 1, -1, 'roll 6', '2026-01-01T00:00:01+00:00')")
    db.execute("INSERT INTO actions VALUES (1, 2, 1, 'take', '2026-01-01T00:00:02+00:00')")
    db.execute("COMMIT")
    db.close()


def test_a_v1_journal_is_migrated_and_its_game_replays(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    make_v1_journal(data / "journal.sqlite3")
    with Companion.open(data, games=toy_games, game_ids=("race",)) as box:
        assert box.journal.schema_version() == SCHEMA_VERSION
        assert box.view(1, None)["totals"] == [0, 6]
        assert box.view(1, None)["to_act"] == [-1]
        box.act(1, -1, "roll 2")
        box.act(1, 0, "take")
        box.undo(1)  # the v2 audit column works on migrated rows
        assert box.view(1, None)["totals"] == [0, 6]


def test_a_journal_from_a_newer_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="schema version 99 is newer"):
        Journal(path)


def test_a_damaged_file_is_reported_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(JournalError, match="damaged") as refusal:
        Journal(path)
    assert "\n" not in str(refusal.value)


def test_every_game_row_keeps_its_seed_options_and_seats(tmp_path: Path) -> None:
    with Companion.open(tmp_path, games=toy_games, game_ids=("race",)) as box:
        box.create_game("race", ["Aiko", "Ben"], {"goal": 12}, seed=44)
        (row,) = box.journal.games()
    assert (row.seed, row.options, row.seats) == (44, {"first_player": 0, "goal": 12},
                                                  ["Aiko", "Ben"])
