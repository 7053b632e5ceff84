"""The box's outbox: a game's end and its outbox row are one transaction; rows chain; what a
record carries is public; a journal from before club mode queues its ended games in order."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from firmware_host.club import outbox
from firmware_host.club.topics import decode_result, decode_table, encode
from firmware_host.companion import Companion
from firmware_host.errors import NotAllowed
from firmware_host.game_log import add_game, end_game
from firmware_host.journal import Journal
from firmware_host.journal_schema import MIGRATIONS, SCHEMA_VERSION, read_only, schema_version

PIN = "246813"


def unlock_game(box: Companion, secret: str = "1-2-3", found: bool = True) -> int:
    game = box.create_game("unlock", ["Aiko", "Ben"], seed=7)
    box.act(game, 0, f"secret {secret}")
    box.act(game, 1, f"guess {secret if found else '7-8-9'}")
    return game


def rows(path: Path) -> list[outbox.OutboxRow]:
    db = read_only(path)
    try:
        return outbox.undelivered(db)
    finally:
        db.close()


def test_each_game_that_ends_is_queued_with_the_key_of_the_one_before(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=PIN) as box:
        first = unlock_game(box)
        live = box.create_game("ico", ["Aiko", "Ben"])
        assert [r.game_id for r in rows(box.journal.path)] == [first]  # only ended games
        box.abandon(live)
        queued = rows(box.journal.path)
    assert [r.game_id for r in queued] == [first, live]
    assert queued[0].prev is None and queued[1].prev == queued[0].key
    assert len({r.key for r in queued}) == 2 and all(len(r.key) == 24 for r in queued)


def test_the_outbox_row_is_written_in_the_transaction_that_ends_the_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    with journal.transaction() as version:
        game = add_game(journal, "ico", {}, ["Aiko", "Ben"], 1, version)
    with pytest.raises(RuntimeError), journal.transaction() as version:
        end_game(journal, game, "finished", {"winners": [0]}, version)
        raise RuntimeError("power cut before the commit")
    assert rows(journal.path) == [] and journal.games()[0].status == "active"
    with journal.transaction() as version:
        end_game(journal, game, "finished", {"winners": [0]}, version)
    assert [r.game_id for r in rows(journal.path)] == [game]
    journal.close()


def test_delivered_rows_leave_the_queue_up_to_the_acknowledged_one(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=PIN) as box:
        games = [unlock_game(box) for _ in range(3)]
        queued = rows(box.journal.path)
        assert box.club_delivered(queued[1].seq) == 2
        assert box.club_delivered(queued[1].seq) == 0
        assert [r.game_id for r in rows(box.journal.path)] == games[2:]


def test_a_record_is_what_the_replay_shows_and_never_the_seed(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=PIN) as box:
        game = box.create_game("unlock", ["Aiko", "Ben"], seed=8675309123)
        box.set_club_code(game, 1, "K7QM-4XP1")
        box.act(game, 0, "secret 1-5-9")
        box.act(game, 1, "guess 1-5-9")
        db = read_only(box.journal.path)
        payload = outbox.result_payload(db, "table-1", outbox.undelivered(db)[0], box.registry)
        db.close()
        replay = [step["action"] for step in box.replay(game)[1:]]
    record = decode_result("table-1", encode(payload))
    assert [a.action for a in record.game.actions] == replay == ["secret 1-5-9", "guess 1-5-9"]
    assert record.game.club_codes == (None, "K7QM-4XP1") and record.game.bots == (None, None)
    assert record.game.competitors == (1,)  # the Lock (seat 0) does not compete
    assert record.game.outcome is not None and record.game.outcome.winners == (1,)
    assert "8675309123" not in json.dumps(payload) and "seed" not in payload["game"]


def test_a_record_says_which_seats_the_box_played_with_bots(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=PIN, bot_delay=3600) as box:
        game = box.create_game("unlock", ["Aiko", "Ben", "Box"], bots={2: "easy"})
        box.abandon(game)
        db = read_only(box.journal.path)
        payload = outbox.result_payload(db, "table-1", outbox.undelivered(db)[0])
        db.close()
    assert payload["game"]["bots"] == [None, None, "easy"]
    assert decode_result("table-1", encode(payload)).game.bots == (None, None, "easy")


def test_every_seat_competes_but_unlocks_lock(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=PIN) as box:
        assert box.registry["ico"].competitors({}, 3) == [0, 1, 2]
        assert box.registry["unlock"].competitors({"lock": 1}, 3) == [0, 2]
        game = box.create_game("unlock", ["Aiko", "Ben", "Chie"], {"lock": 2})
        box.abandon(game)
        db = read_only(box.journal.path)
        payload = outbox.result_payload(db, "table-1", outbox.undelivered(db)[0], box.registry)
        db.close()
    assert payload["game"]["competitors"] == [0, 1]


def test_a_club_code_is_only_for_a_seat_of_a_game_in_play(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=PIN) as box:
        ended = unlock_game(box)
        with pytest.raises(NotAllowed, match="finished"):
            box.set_club_code(ended, 0, "K7QM-4XP1")
        game = box.create_game("ico", ["Aiko", "Ben"])
        with pytest.raises(NotAllowed, match="no seat 2"):
            box.set_club_code(game, 2, "K7QM-4XP1")


def test_a_live_table_is_the_spectators_view_only(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=PIN) as box:
        game = box.create_game("unlock", ["Aiko", "Ben", "Chie"])
        box.act(game, 0, "secret 1-5-9-6-3")
        box.act(game, 1, "guess 7-5-3-6-9")
        payload = outbox.table_payload("table-1", box.summary(game), box.view(game, None),
                                       "2026-01-01T00:00:00+00:00")
    text = json.dumps(payload)
    assert "1-5-9" not in text and "7-5-3" not in text and "secret" not in text
    table = decode_table("table-1", game, encode(payload))
    assert table is not None and table.players == ("Aiko", "Ben", "Chie")
    assert table.turn == 1 and table.to_act == (2,) and table.scores == (0, 0, 0)


def old_journal(path: Path, version: int, games: list[tuple[str, str | None]]) -> None:
    """A journal of schema ``version`` (4: before bot seats; 5: bot seats, before club mode)
    with games (status, ended)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    for migrate in MIGRATIONS[:version]:
        migrate(db)
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (str(version),))
    for status, ended in games:
        db.execute("INSERT INTO games (game, options, seats, seed, created, ended, status, outcome)"
                   " VALUES ('ico', '{}', '[\"Aiko\", \"Ben\"]', 1, '2026-01-01T10:00:00+00:00',"
                   " ?, ?, ?)", (ended, status,
                                 '{"winners": [0]}' if status == "finished" else None))
    db.close()


def columns(path: Path, table: str) -> set[str]:
    db = read_only(path)
    try:
        return {row["name"] for row in db.execute(f"PRAGMA table_info({table})")}
    finally:
        db.close()


def test_club_mode_is_schema_6_after_bot_seats_on_a_fresh_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    try:
        # 8: one page an action; 9: post-game analyses
        assert schema_version(journal.db) == SCHEMA_VERSION == 9
        assert {"bots", "hints_off"} <= columns(path, "games")  # schema 5 (bot seats)
        assert columns(path, "club_outbox") and columns(path, "club_codes")  # schema 6
        assert columns(path, "analyses") == {"game_id", "body", "computed"}  # schema 9
    finally:
        journal.close()


@pytest.mark.parametrize("version", [4, 5])
def test_a_journal_from_before_club_mode_queues_its_ended_games_in_the_order_they_ended(
    tmp_path: Path, version: int,
) -> None:
    path = tmp_path / "journal.sqlite3"
    old_journal(path, version, [("finished", "2026-01-01T12:00:00+00:00"), ("active", None),
                                ("abandoned", "2026-01-01T11:00:00+00:00")])
    journal = Journal(path)
    assert schema_version(journal.db) == SCHEMA_VERSION
    assert "bots" in columns(path, "games")  # schema 5 applied first (from 4) or kept
    queued = rows(path)
    assert [r.game_id for r in queued] == [3, 1]
    assert queued[0].prev is None and queued[1].prev == queued[0].key
    with journal.transaction() as game_version:  # the trigger goes on from there
        end_game(journal, 2, "abandoned", None, game_version)
    assert [r.game_id for r in rows(path)] == [3, 1, 2] and rows(path)[2].prev == queued[1].key
    journal.close()
