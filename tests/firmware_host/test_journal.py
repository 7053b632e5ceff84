"""The journal file: durability settings, the schema version and its migrations, damage."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from firmware_host.errors import JournalError
from firmware_host.journal import Journal
from firmware_host.journal_schema import MIGRATIONS, SCHEMA_VERSION, schema_version
from tests.firmware_host.toys import toy_games


def test_journal_uses_wal_and_full_synchronous_writes(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    try:
        db = journal._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert schema_version(journal.db) == SCHEMA_VERSION
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
    with Companion.open(data, games=toy_games()) as box:
        assert schema_version(box.journal.db) == SCHEMA_VERSION
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
    with Companion.open(tmp_path, games=toy_games()) as box:
        box.create_game("race", ["Aiko", "Ben"], {"goal": 12}, seed=44)
        (row,) = box.journal.games()
    assert (row.seed, row.options, row.seats) == (44, {"first_player": 0, "goal": 12},
                                                  ["Aiko", "Ben"])


def make_v2_journal(path: Path) -> tuple[str, dict[str, object]]:
    """A journal as schema 2 wrote it: an UNLOCK game entered with codes drawn backwards, and a
    finished 2 1 6 game whose outcome gives its reason as English text. Returns the 2 1 6 game's
    last action and the outcome its rules give now."""
    import random

    from rules import CHANCE, get_game

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    MIGRATIONS[0](db)
    MIGRATIONS[1](db)
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', '2')")
    db.execute(
        "INSERT INTO games (id, game, options, seats, seed, created, status, version)"
        " VALUES (1, 'unlock', ?, ?, 5, '2026-01-01T00:00:00+00:00', 'active', 3)",
        (json.dumps({"difficulty": "medium"}), json.dumps(["Lock", "Aiko", "Ben"])),
    )
    for n, (seat, action) in enumerate([(0, "secret 9-5-1"), (1, "guess  3-2-1"),
                                        (2, "guess 7-8-9")], start=1):
        db.execute("INSERT INTO actions (game_id, n, seat, action, time) VALUES (1, ?, ?, ?, ?)",
                   (n, seat, action, "2026-01-01T00:00:01+00:00"))
    rules = get_game("dice216")
    options = {"size": 4}
    state = rules.start(["Aiko", "Ben"], rules.resolve_options(options, 2), seed=3)
    rng = random.Random(3)
    n = 0
    while rules.outcome(state) is None:
        seat = rules.to_act(state)[0]
        action = rng.choice(list(rules.legal_actions(state, seat)))
        state = rules.apply(state, seat, action)
        n += 1
        db.execute("INSERT INTO actions (game_id, n, seat, action, time) VALUES (2, ?, ?, ?, ?)",
                   (n, seat if seat != CHANCE else CHANCE, action, "2026-01-01T00:00:02+00:00"))
    outcome = rules.outcome(state)
    assert outcome is not None
    old = {**outcome, "reason": "highest total (40)"}
    db.execute(
        "INSERT INTO games (id, game, options, seats, seed, created, ended, status, outcome,"
        " version) VALUES (2, 'dice216', ?, ?, 3, '2026-01-01T00:00:00+00:00',"
        " '2026-01-01T00:10:00+00:00', 'finished', ?, 4)",
        (json.dumps(rules.resolve_options(options, 2)), json.dumps(["Aiko", "Ben"]),
         json.dumps(old)),
    )
    db.execute("COMMIT")
    db.close()
    return action, json.loads(json.dumps(outcome))


def test_a_v2_journal_keeps_canonical_actions_and_outcomes_as_data(tmp_path: Path) -> None:
    # issue 14: the journal stores each action's canonical text; old games stay replayable
    data = tmp_path / "data"
    data.mkdir()
    _, outcome = make_v2_journal(data / "journal.sqlite3")
    with Companion.open(data) as box:
        actions = [(a.seat, a.action) for a in box.journal.actions(1)]
        assert actions == [(0, "secret 1-5-9"), (1, "guess 1-2-3"), (2, "guess 7-8-9")]
        db = box.journal._db
        entered = [row[0] for row in db.execute(
            "SELECT entered FROM actions WHERE game_id = 1 ORDER BY n")]
        assert entered == ["secret 9-5-1", "guess  3-2-1", None]
        assert box.view(1, 0)["secret"] == "1-5-9"
        assert [c["code"] for c in box.view(1, None)["clue_board"]] == ["1-2-3", "7-8-9"]
        (finished,) = box.history()
        assert finished["outcome"] == outcome
        assert finished["outcome"]["reason"] in ("highest_total", "equal_totals")
        assert box.replay(2)[-1]["view"]["outcome"] == outcome


def test_actions_are_journaled_in_canonical_text(tmp_path: Path) -> None:
    with Companion.open(tmp_path) as box:
        game = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"}, seed=1)
        box.act(game, 0, "secret 3-2-1")
        box.act(game, 1, "guess   6-5-4")
        texts = [a.action for a in box.journal.actions(game)]
    assert texts == ["secret 1-2-3", "guess 4-5-6"]
