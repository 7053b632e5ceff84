"""The session API on a real journal: games, actions, seats, versions, listeners, restarts."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from firmware_host.errors import NoSuchGame, NotAllowed, SeatTaken, SessionError
from rules import CHANCE, IllegalAction, OptionError, UnknownGame
from tests.firmware_host.conftest import OpenCompanion


def journal_rows(companion: Companion, query: str, *args: object) -> list[tuple[object, ...]]:
    """Rows read through a separate connection: what is committed, not what is in memory."""
    db = sqlite3.connect(companion.journal.path)
    try:
        return list(db.execute(query, args))
    finally:
        db.close()


def test_catalog_describes_each_available_game(companion: Companion) -> None:
    assert [g["id"] for g in companion.catalog()] == ["race", "vault"]


def test_create_game_is_journaled_and_listed(companion: Companion) -> None:
    gid = companion.create_game("race", ["Aiko", "Ben"], seed=7)
    (summary,) = companion.games()
    assert summary["id"] == gid and summary["status"] == "active"
    assert summary["seats"] == ["Aiko", "Ben"] and summary["claimed"] == [False, False]
    rows = journal_rows(companion, "SELECT game, seed, status FROM games")
    assert rows == [("race", 7, "active")]


def test_unknown_game_and_bad_options_are_refused_without_a_trace(companion: Companion) -> None:
    with pytest.raises(UnknownGame):
        companion.create_game("chess", ["a", "b"])
    with pytest.raises(OptionError, match="goal"):
        companion.create_game("race", ["a", "b"], {"goal": 0})
    with pytest.raises(NotAllowed, match="2–4 players"):
        companion.create_game("race", ["a"])
    with pytest.raises(NotAllowed, match="'a'"):
        companion.create_game("race", ["a", "a"])
    assert companion.games() == []
    assert journal_rows(companion, "SELECT COUNT(*) FROM games") == [(0,)]


def test_missing_seed_is_drawn_and_stored_so_the_game_replays(
    open_companion: OpenCompanion,
) -> None:
    first = open_companion()
    gid = first.create_game("race", ["a", "b", "c", "d"], {"first_player": "random"})
    before = first.view(gid, None)
    (seed,) = journal_rows(first, "SELECT seed FROM games WHERE id = ?", gid)[0]
    assert isinstance(seed, int)
    first.close()
    assert open_companion().view(gid, None)["to_act"] == before["to_act"]


def test_action_is_committed_before_listeners_hear_of_it(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    seen: list[tuple[int | None, int, list[tuple[object, ...]]]] = []
    companion.add_listener(lambda g, v: seen.append(
        (g, v, journal_rows(companion, "SELECT seat, action FROM actions"))))
    companion.act(gid, CHANCE, "roll 4")
    assert seen == [(gid, companion.version(), [(CHANCE, "roll 4")])]


def test_act_returns_the_actors_view(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    companion.act(gid, CHANCE, "roll 5")
    view = companion.act(gid, 0, "take")
    assert view["you"] == 0 and view["totals"] == [5, 0] and view["game_id"] == gid


def test_illegal_action_changes_nothing(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    version = companion.version()
    with pytest.raises(IllegalAction):
        companion.act(gid, 0, "take")  # chance must roll first
    with pytest.raises(IllegalAction):
        companion.act(gid, CHANCE, "roll 7")
    assert companion.version() == version
    assert journal_rows(companion, "SELECT COUNT(*) FROM actions") == [(0,)]


def test_unknown_game_id_is_no_such_game(companion: Companion) -> None:
    for call in (lambda: companion.view(99, None), lambda: companion.act(99, 0, "take"),
                 lambda: companion.undo(99), lambda: companion.claim_seat(99, 0)):
        with pytest.raises(NoSuchGame):
            call()


def test_view_refuses_a_seat_the_game_does_not_have(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    with pytest.raises(NotAllowed, match="seat 2"):
        companion.view(gid, 2)


def play_race_to_the_end(companion: Companion, gid: int) -> None:
    while companion.view(gid, None)["status"] == "active":
        companion.act(gid, CHANCE, "roll 6")
        mover = companion.view(gid, None)["to_act"][0]
        companion.act(gid, mover, "take")


def test_finished_game_moves_to_history_with_its_outcome(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    play_race_to_the_end(companion, gid)
    (summary,) = companion.history()
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == [0]
    assert summary["ended"] is not None
    with pytest.raises(NotAllowed, match="finished"):
        companion.act(gid, CHANCE, "roll 1")
    assert journal_rows(companion, "SELECT status, outcome IS NOT NULL FROM games") == [
        ("finished", 1)]


def test_abandoned_game_is_kept_in_history(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    companion.abandon(gid)
    (summary,) = companion.history()
    assert summary["status"] == "abandoned" and summary["outcome"] is None
    with pytest.raises(NotAllowed):
        companion.abandon(gid)


def test_unfinished_games_are_rebuilt_on_restart(open_companion: OpenCompanion) -> None:
    first = open_companion()
    race = first.create_game("race", ["a", "b"])
    vault = first.create_game("vault", ["Lock", "Gus", "Hana"])
    for seat, action in ((CHANCE, "roll 3"), (0, "take"), (CHANCE, "roll 2")):
        first.act(race, seat, action)
    first.act(vault, 0, "secret 6")
    first.act(vault, 1, "guess 2")
    views = {(g, s): first.view(g, s) for g in (race, vault) for s in (None, 0, 1)}
    first.close()
    second = open_companion()
    assert {(g, s): second.view(g, s) for g in (race, vault) for s in (None, 0, 1)} == views
    second.act(vault, 2, "guess 6")
    assert second.view(vault, None)["outcome"]["winners"] == [2]


def test_version_grows_across_restarts(open_companion: OpenCompanion) -> None:
    first = open_companion()
    gid = first.create_game("race", ["a", "b"])
    first.act(gid, CHANCE, "roll 1")
    version = first.version()
    first.close()
    second = open_companion()
    assert second.version() == version
    second.act(gid, 0, "pass")
    assert second.version() > version
    assert second.view(gid, None)["version"] == second.version()


def test_wait_for_change_wakes_on_a_commit(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    since = companion.version()
    woke: list[int] = []
    waiting = threading.Thread(target=lambda: woke.append(companion.wait_for_change(since, 10)))
    waiting.start()
    companion.act(gid, CHANCE, "roll 2")
    waiting.join(10)
    assert woke == [since + 1]


def test_wait_for_change_times_out_without_one(companion: Companion) -> None:
    since = companion.version()
    assert companion.wait_for_change(since, 0.01) == since


def test_commands_from_many_threads_are_applied_one_at_a_time(companion: Companion) -> None:
    games = [companion.create_game("race", ["a", "b"]) for _ in range(8)]

    def play(gid: int) -> None:
        for _ in range(10):
            companion.act(gid, CHANCE, "roll 1")
            companion.act(gid, companion.view(gid, None)["to_act"][0], "pass")

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert journal_rows(companion, "SELECT COUNT(*) FROM actions") == [(160,)]
    assert len(set(journal_rows(companion, "SELECT game_id, n FROM actions"))) == 160


def test_claimed_seat_is_taken_until_reissued(companion: Companion) -> None:
    gid = companion.create_game("vault", ["Lock", "Gus"])
    token = companion.claim_seat(gid, 1)
    assert companion.seat_for_token(gid, token) == 1
    assert companion.view(gid, None)["claimed"] == [False, True]
    with pytest.raises(SeatTaken):
        companion.claim_seat(gid, 1)
    fresh = companion.reissue_seat(gid, 1)
    assert companion.seat_for_token(gid, fresh) == 1
    assert companion.seat_for_token(gid, token) is None


def test_seat_tokens_survive_restart_and_are_stored_hashed(
    open_companion: OpenCompanion,
) -> None:
    first = open_companion()
    gid = first.create_game("vault", ["Lock", "Gus"])
    token = first.claim_seat(gid, 0)
    assert token.encode() not in first.journal.path.read_bytes()
    first.close()
    second = open_companion()
    assert second.seat_for_token(gid, token) == 0
    assert second.seat_for_token(gid, token + "x") is None
    with pytest.raises(SeatTaken):
        second.claim_seat(gid, 0)


def test_claiming_a_seat_that_does_not_exist_is_refused(companion: Companion) -> None:
    gid = companion.create_game("vault", ["Lock", "Gus"])
    with pytest.raises(NotAllowed, match="no seat 5"):
        companion.claim_seat(gid, 5)


def test_session_errors_are_value_errors() -> None:
    assert issubclass(SessionError, ValueError)
    assert all(issubclass(e, SessionError) for e in (NoSuchGame, NotAllowed, SeatTaken))


def test_host_pin_is_generated_once_and_kept(open_companion: OpenCompanion) -> None:
    first = open_companion()
    pin = first.host_pin
    assert pin.isdigit() and 4 <= len(pin) <= 6
    assert first.status()["host_pin_set"] is False
    first.close()
    assert open_companion().host_pin == pin


def test_replay_steps_through_an_ended_game_from_its_seed(companion: Companion) -> None:
    gid = companion.create_game("vault", ["Lock", "Gus"])
    companion.act(gid, 0, "secret 4")
    with pytest.raises(NotAllowed, match="still being played"):
        companion.replay(gid)
    companion.act(gid, 1, "guess 2")
    companion.act(gid, 1, "guess 4")
    steps = companion.replay(gid)
    assert [(s["step"], s["seat"], s["action"]) for s in steps] == [
        (0, None, None), (1, 0, "secret 4"), (2, 1, "guess 2"), (3, 1, "guess 4")]
    assert [s["view"]["secret"] for s in steps] == [None, None, None, 4]


def test_spectator_view_hides_the_secret_until_the_end(companion: Companion) -> None:
    gid = companion.create_game("vault", ["Lock", "Gus"])
    companion.act(gid, 0, "secret 8")
    assert companion.view(gid, None)["secret"] is None
    assert companion.view(gid, 1)["secret"] is None
    assert companion.view(gid, 0)["secret"] == 8


def test_unlock_views_carry_how_many_codes_fit_the_clue_board(tmp_path: Path) -> None:
    from rules.unlock import Code, all_codes, feedback

    with Companion.open(tmp_path / "real") as box:
        gid = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"})
        every = list(all_codes("easy"))
        assert box.view(gid, None)["codes_remaining"] == len(every)
        box.act(gid, 0, "secret 1-2-3")
        box.act(gid, 1, "guess 4-5-6")
        secret, guess = Code.parse("1-2-3"), Code.parse("4-5-6")
        fitting = [c for c in every if feedback(c, guess) == feedback(secret, guess)]
        assert box.view(gid, 1)["codes_remaining"] == len(fitting)


def test_unlock_count_is_worked_out_after_each_change_before_anyone_asks(
    tmp_path: Path,
) -> None:
    from dataclasses import replace

    from firmware_host.games import builtin_games

    counted: list[dict[str, object]] = []
    done = threading.Event()
    games = builtin_games()
    original = games["unlock"].extras
    assert original is not None

    def counting(state: object) -> dict[str, object]:
        extras = original(state)
        counted.append(extras)
        done.set()
        return extras

    games = games.with_game(replace(games["unlock"], extras=counting))
    with Companion.open(tmp_path / "warm", games=games) as box:
        gid = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"})
        assert done.wait(30), "the count was not worked out in the background"
        calls = len(counted)
        assert box.view(gid, None)["codes_remaining"] == counted[0]["codes_remaining"]
        assert len(counted) == calls, "the view counted again instead of using the warm result"


def test_abandoned_unlock_game_shows_the_rules_abandoned_end(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "real") as box:
        gid = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"})
        box.act(gid, 0, "secret 1-2-3")
        box.abandon(gid)
        view = box.view(gid, 1)
        assert view["status"] == "abandoned" and view["outcome"]["reason"] == "abandoned"
        assert view["to_act"] == []
    with Companion.open(tmp_path / "real") as box:  # rebuilt from the journal the same way
        assert box.view(gid, 1)["outcome"]["reason"] == "abandoned"


def test_status_reports_the_attached_device(companion: Companion) -> None:
    assert companion.status() == {"hardware": "simulator", "oled": "missing", "die": False,
                                  "die_port": None, "pad": "ok", "firmware": None,
                                  "lights": "none", "tft": "none", "host_pin_set": False}
    firmware = {"device": "pico-keypad", "version": "1.1"}
    companion.attach_status(lambda: {"oled": "ok", "die": True, "die_port": "/dev/ttyACM0",
                                     "pad": "ok", "firmware": firmware, "lights": "ok",
                                     "tft": "ok"})
    assert companion.status() == {"hardware": "simulator", "oled": "ok", "die": True,
                                  "die_port": "/dev/ttyACM0", "pad": "ok",
                                  "firmware": firmware, "lights": "ok", "tft": "ok",
                                  "host_pin_set": False}


def test_host_pin_from_config_is_used_and_reported(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "cfg", host_pin="2468") as box:
        assert box.host_pin == "2468" and box.status()["host_pin_set"] is True
    assert not (tmp_path / "cfg" / "host_pin").exists()


def test_a_game_that_no_longer_replays_is_abandoned_and_the_box_starts(
    open_companion: OpenCompanion,
) -> None:
    first = open_companion()
    broken = first.create_game("race", ["a", "b"])
    fine = first.create_game("race", ["c", "d"])
    first.act(broken, CHANCE, "roll 3")
    first.close()
    db = sqlite3.connect(first.journal.path)
    db.execute("UPDATE actions SET action = 'roll 9' WHERE game_id = ?", (broken,))
    db.commit()
    db.close()
    second = open_companion()
    assert second.view(broken, None)["status"] == "abandoned"
    assert second.view(fine, None)["status"] == "active"
    assert journal_rows(second, "SELECT action FROM actions WHERE game_id = ?", broken) == [
        ("roll 9",)]


def test_standings_count_wins_and_points_of_finished_games_only(companion: Companion) -> None:
    def race(players: list[str], winner_takes: bool) -> None:
        gid = companion.create_game("race", players)
        while companion.view(gid, None)["status"] == "active":
            companion.act(gid, CHANCE, "roll 5")
            mover = companion.view(gid, None)["to_act"][0]
            companion.act(gid, mover, "take" if winner_takes or mover == 1 else "pass")

    race(["Aiko", "Ben"], winner_takes=True)   # Aiko reaches 10 first: 10 to 5
    race(["Ben", "Chie"], winner_takes=False)  # only Chie (seat 1) takes: 0 to 10
    companion.abandon(companion.create_game("race", ["Aiko", "Chie"]))
    assert companion.standings() == [
        {"name": "Aiko", "played": 1, "won": 1, "points": 10, "rank": 1},
        {"name": "Chie", "played": 1, "won": 1, "points": 10, "rank": 1},
        {"name": "Ben", "played": 2, "won": 0, "points": 5, "rank": 3},
    ]
    assert companion.standings(game="vault") == []


def test_listeners_run_on_the_one_session_thread(companion: Companion) -> None:
    names: set[str] = set()
    companion.add_listener(lambda gid, version: names.add(threading.current_thread().name))
    gids = [companion.create_game("race", ["a", "b"]) for _ in range(3)]
    workers = [threading.Thread(target=companion.act, args=(g, CHANCE, "roll 2"), name=f"web{g}")
               for g in gids]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(10)
    assert names == {"session"}
