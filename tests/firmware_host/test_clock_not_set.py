"""Times taken before NTP set the box's clock are recorded as such in the journal and shown as
"before the clock was set" by the history table and the CSV, never as 1970 or a wrong date."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from firmware_host.companion import Companion
from firmware_host.export import BEFORE_CLOCK_SET, exported_games, history_table, to_csv, to_json
from firmware_host.journal import Journal
from firmware_host.journal_schema import MIGRATIONS, SCHEMA_VERSION, schema_version
from tests.firmware_host.box_clock import BoxClock

PIN = "246813"
SET_AT = datetime(2027, 3, 1, 19, 30, tzinfo=UTC)


def play_across_the_clock_being_set(data: Path, clock: BoxClock) -> int:
    """An UNLOCK game started and its code set while the clock is unset; NTP sets it; a guess
    and the end follow. Returns the game's id."""
    with Companion(clock.journal(data / "journal.sqlite3"), host_pin=PIN) as box:
        game = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"}, seed=1)
        clock.wait(5)
        box.act(game, 0, "secret 3-2-1")
        clock.ntp_sets(SET_AT)
        box.act(game, 1, "guess 6-5-4")
        clock.wait(60)
        box.abandon(game)
        return game


def test_the_journal_records_which_times_were_taken_before_the_clock_was_set(
        tmp_path: Path) -> None:
    clock = BoxClock()
    game = play_across_the_clock_being_set(tmp_path, clock)
    with closing(clock.journal(tmp_path / "journal.sqlite3")) as journal:
        (row,) = journal.games()
        actions = journal.actions(game)
    assert row.created.startswith("1970-01-01") and not row.created_clock_set
    assert row.ended == "2027-03-01T19:31:00+00:00" and row.ended_clock_set
    assert [(a.time, a.clock_set) for a in actions] == [
        ("1970-01-01T00:00:05+00:00", False), ("2027-03-01T19:30:00+00:00", True)]


def test_a_real_looking_date_before_ntp_set_the_clock_is_not_trusted(tmp_path: Path) -> None:
    # fake-hwclock restores the time the box last shut down: plausible, and wrong
    clock = BoxClock(datetime(2026, 12, 24, 18, 0, tzinfo=UTC), synchronised=False)
    play_across_the_clock_being_set(tmp_path, clock)
    with closing(clock.journal(tmp_path / "journal.sqlite3")) as journal:
        (row,) = journal.games()
    assert row.created == "2026-12-24T18:00:00+00:00" and not row.created_clock_set


def test_the_csv_says_before_the_clock_was_set_instead_of_the_time(tmp_path: Path) -> None:
    play_across_the_clock_being_set(tmp_path, BoxClock())
    rows = list(csv.DictReader(io.StringIO(to_csv(exported_games(tmp_path / "journal.sqlite3")))))
    assert [(r["created"], r["ended"], r["action"], r["time"]) for r in rows] == [
        (BEFORE_CLOCK_SET, "2027-03-01T19:31:00+00:00", "secret 1-2-3", BEFORE_CLOCK_SET),
        (BEFORE_CLOCK_SET, "2027-03-01T19:31:00+00:00", "guess 4-5-6",
         "2027-03-01T19:30:00+00:00")]
    assert "1970" not in to_csv(exported_games(tmp_path / "journal.sqlite3"))


def test_the_json_export_keeps_the_recorded_time_and_flags_it(tmp_path: Path) -> None:
    play_across_the_clock_being_set(tmp_path, BoxClock())
    (game,) = json.loads(to_json(exported_games(tmp_path / "journal.sqlite3")))["games"]
    assert (game["created"], game["created_clock_set"]) == ("1970-01-01T00:00:00+00:00", False)
    assert game["ended_clock_set"] is True
    assert [a["clock_set"] for a in game["actions"]] == [False, True]


def test_the_history_table_says_before_the_clock_was_set(tmp_path: Path) -> None:
    play_across_the_clock_being_set(tmp_path, BoxClock())
    with closing(Journal(tmp_path / "journal.sqlite3")) as journal:
        table = history_table(journal.games(), 10)
    header, line = table.splitlines()
    assert header.split() == ["id", "game", "status", "players", "started", "ended", "winners"]
    assert f"{BEFORE_CLOCK_SET}  2027-03-01 19:31" in line
    assert "1970" not in table


def test_the_session_api_says_which_times_are_before_the_clock_was_set(
        tmp_path: Path) -> None:
    clock = BoxClock()
    game = play_across_the_clock_being_set(tmp_path, clock)
    for _ in range(2):  # as the game ended, and after a restart (rebuilt from the journal)
        with Companion(clock.journal(tmp_path / "journal.sqlite3"), host_pin=PIN) as box:
            summary = box.summary(game)
            assert (summary["created_clock_set"], summary["ended_clock_set"]) == (False, True)
    with Companion(clock.journal(tmp_path / "journal.sqlite3"), host_pin=PIN) as box:
        later = box.create_game("ico", ["Aiko", "Ben"])
        assert box.summary(later)["created_clock_set"] is True


def test_a_game_ended_before_the_clock_was_set_says_so_in_the_session_api(
        tmp_path: Path) -> None:
    clock = BoxClock()
    with Companion(clock.journal(tmp_path / "journal.sqlite3"), host_pin=PIN) as box:
        game = box.create_game("ico", ["Aiko", "Ben"])
        box.abandon(game)
        (ended,) = box.history()
    assert ended["id"] == game and ended["ended_clock_set"] is False


def make_v5_journal(path: Path) -> None:
    """A journal as schema 5 wrote it: a game a Pi played at 1970, and one after NTP."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    for migrate in MIGRATIONS[:5]:
        migrate(db)
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', '5')")
    seats = json.dumps(["Aiko", "Ben"])
    for gid, created, ended in ((1, "1970-01-01T00:01:00+00:00", "1970-01-01T00:20:00+00:00"),
                                (2, "1970-01-01T00:30:00+00:00", "2027-03-01T19:40:00+00:00"),
                                (3, "2027-03-02T10:00:00+00:00", "2027-03-02T10:30:00+00:00")):
        db.execute("INSERT INTO games (id, game, options, seats, seed, created, ended, status)"
                   " VALUES (?, 'ico', '{}', ?, 1, ?, ?, 'abandoned')",
                   (gid, seats, created, ended))
        db.execute("INSERT INTO actions (game_id, n, seat, action, time) VALUES (?, 1, 0, 'x', ?)",
                   (gid, ended))
    db.execute("COMMIT")
    db.close()


def test_older_journals_judge_their_times_by_date_alone(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    make_v5_journal(path)
    with closing(BoxClock(SET_AT, synchronised=True).journal(path)) as journal:
        assert schema_version(journal.db) == SCHEMA_VERSION
        flags = [(g.id, g.created_clock_set, g.ended_clock_set) for g in journal.games()]
        times = [journal.actions(g)[0].clock_set for g in (1, 2, 3)]
    assert flags == [(1, False, False), (2, False, True), (3, True, True)]
    assert times == [False, True, True]
