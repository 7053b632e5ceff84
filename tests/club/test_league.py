"""The hub's league: each (box, game) exactly once and in the box's order, across restarts and
restored boxes; ratings are openskill's; club profiles and their codes."""

from __future__ import annotations

import csv
import io
import itertools
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from firmware_host.club.league import League
from firmware_host.club.topics import decode_result, encode
from firmware_host.errors import NotAllowed

_keys = itertools.count(1)


def key() -> str:
    return f"{next(_keys):024x}"


def payload(box: str, k: str, prev: str | None, seq: int, game_id: int,
            players: tuple[str, ...] = ("Aiko", "Ben"), winners: tuple[int, ...] = (0,),
            scores: list[int] | None = None, codes: list[str | None] | None = None,
            status: str = "finished", bots: list[str | None] | None = None,
            competitors: list[int] | None = None) -> bytes:
    return encode({
        "v": 1, "kind": "result", "box": box, "key": k, "prev": prev, "seq": seq,
        "game": {"id": game_id, "game": "unlock", "status": status, "players": list(players),
                 "options": {}, "created": "2026-01-01T10:00:00+00:00",
                 "ended": f"2026-01-01T10:{game_id:02d}:00+00:00",
                 "outcome": ({"winners": list(winners), "scores": scores, "reason": "found"}
                             if status == "finished" else None),
                 "tournament": None, "club_codes": codes or [None] * len(players),
                 **({"bots": bots} if bots is not None else {}),
                 **({"competitors": competitors} if competitors is not None else {}),
                 "actions": []}})


def ingest(league: League, box: str, data: bytes) -> str:
    return league.ingest(decode_result(box, data), data).verdict


@pytest.fixture
def league(tmp_path: Path) -> League:
    return League(tmp_path / "hub")


def test_a_record_sent_twice_counts_once(league: League) -> None:
    first = payload("t1", key(), None, 1, 1)
    assert ingest(league, "t1", first) == "ingested"
    assert ingest(league, "t1", first) == "duplicate"
    assert league.counts() == {"t1": 1}
    assert [s.played for s in league.standings("unlock")] == [1, 1]


def test_a_record_before_its_predecessor_waits_and_both_go_in_in_the_boxs_order(
    league: League,
) -> None:
    k1, k2, k3 = key(), key(), key()
    assert ingest(league, "t1", payload("t1", k3, k2, 3, 3)) == "held"
    assert ingest(league, "t1", payload("t1", k2, k1, 2, 2)) == "held"
    assert league.counts() == {} and league.pending() == 2
    done = league.ingest(decode_result("t1", payload("t1", k1, None, 1, 1)),
                         payload("t1", k1, None, 1, 1))
    assert [r.key for r in done.records] == [k1, k2, k3] and done.ack is not None
    assert done.ack.key == k3
    assert [g for _, g, _ in league.ingested()] == [1, 2, 3] and league.pending() == 0


def test_boxes_chains_are_their_own(league: League) -> None:
    shared = key()
    assert ingest(league, "t1", payload("t1", shared, None, 1, 1)) == "ingested"
    # the same key from another box is another record; a prev of another box's is unknown here
    assert ingest(league, "t2", payload("t2", shared, None, 1, 1)) == "ingested"
    assert ingest(league, "t3", payload("t3", key(), shared, 2, 2)) == "held"
    assert league.counts() == {"t1": 1, "t2": 1}


def test_a_box_restored_from_a_backup_loses_nothing_and_counts_nothing_twice(
    league: League,
) -> None:
    k1, k2, k3 = key(), key(), key()
    for seq, (k, prev) in enumerate([(k1, None), (k2, k1), (k3, k2)], start=1):
        ingest(league, "t1", payload("t1", k, prev, seq, seq))
    # restored to the backup taken after game 2: it sends game 2 again, then its new game 3
    assert ingest(league, "t1", payload("t1", k2, k1, 2, 2)) == "duplicate"
    new3 = key()
    assert ingest(league, "t1", payload("t1", new3, k2, 3, 3)) == "ingested"
    assert [k for _, _, k in league.ingested()] == [k1, k2, k3, new3]


def test_waiting_records_survive_a_hub_restart(tmp_path: Path) -> None:
    k1, k2 = key(), key()
    first = League(tmp_path / "hub")
    assert ingest(first, "t1", payload("t1", k2, k1, 2, 2)) == "held"
    first.close()
    again = League(tmp_path / "hub")
    assert ingest(again, "t1", payload("t1", k1, None, 1, 1)) == "ingested"
    assert [g for _, g, _ in again.ingested()] == [1, 2]


def test_ratings_are_openskills_plackett_luce_by_place(league: League) -> None:
    players = ("Aiko", "Ben", "Chie")
    ingest(league, "t1", payload("t1", key(), None, 1, 1, players, winners=(1,),
                                 scores=[3, 9, 5]))
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in players], ranks=[3, 1, 2])
    table = {row.name: row for row in league.standings("unlock")}
    for name, team in zip(players, expected, strict=True):
        assert table[name].mu == pytest.approx(team[0].mu)
        assert table[name].sigma == pytest.approx(team[0].sigma)
        assert table[name].rating == pytest.approx(team[0].ordinal())
    assert [row.name for row in league.standings("unlock")] == ["Ben", "Chie", "Aiko"]
    assert table["Ben"].won == 1 and table["Aiko"].won == 0


def test_only_the_seats_that_competed_are_placed_and_rated(league: League) -> None:
    # UNLOCK: the Lock (seat 0) scores nothing; its guessers are placed among themselves
    players = ("Lock", "Ben", "Chie")
    ingest(league, "t1", payload("t1", key(), None, 1, 1, players, winners=(2,),
                                 scores=[0, -2, 2], competitors=[1, 2]))
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    table = {row.name: row for row in league.standings("unlock")}
    assert set(table) == {"Ben", "Chie"}
    assert table["Chie"].mu == pytest.approx(expected[1][0].mu)
    found = league.player("g:Lock")
    assert found is not None
    (lock_game,) = found[2]
    assert (lock_game.place, lock_game.rating_after) == (None, None)
    # a game with a single competitor (UNLOCK for two: one guesser) rates nobody
    ingest(league, "t1", payload("t1", key(), None, 2, 2, ("Lock", "Dai"), winners=(1,),
                                 competitors=[1]))
    assert "Dai" not in {row.name for row in league.standings("unlock")}


def test_an_abandoned_game_is_kept_but_rates_nobody(league: League) -> None:
    ingest(league, "t1", payload("t1", key(), None, 1, 1, status="abandoned"))
    assert league.counts() == {"t1": 1} and league.standings("unlock") == []


def test_a_club_code_makes_the_seat_count_for_its_profile_on_every_box(league: League) -> None:
    profile, code, token = league.create_profile("  Aiko   Tanaka ")
    assert profile.name == "Aiko Tanaka" and league.profile_of_phone(token) == profile
    k = key()
    ingest(league, "t1", payload("t1", k, None, 1, 1, ("Aiko", "Ben"), codes=[code, None]))
    ingest(league, "t2", payload("t2", key(), None, 1, 1, ("A. T.", "Dai"), winners=(0,),
                                 codes=[code.lower().replace("-", ""), None]))
    found = league.player(profile.player)
    assert found is not None
    name, kind, games = found
    assert (name, kind) == ("Aiko Tanaka", "profile")
    assert sorted((g.box, g.seat) for g in games) == [("t1", 0), ("t2", 0)]
    table = {row.player: row for row in league.standings("unlock")}
    assert table[profile.player].played == 2 and "g:Aiko" not in table


def test_unknown_codes_and_one_code_on_two_seats_count_as_guests(
    league: League, caplog: pytest.LogCaptureFixture
) -> None:
    profile, code, _ = league.create_profile("Aiko")
    other = league.renew_code(profile)  # the first code stops working
    ingest(league, "t1", payload("t1", key(), None, 1, 1, ("A", "B", "C"),
                                 codes=[code, other, other]))
    players = {row.player for row in league.standings("unlock")}
    assert players == {"g:A", profile.player, "g:C"}
    assert "no profile has" in caplog.text and "two seats" in caplog.text


def test_a_bot_seat_is_rated_as_its_level_on_every_box_and_sits_once_a_game(
    league: League, caplog: pytest.LogCaptureFixture
) -> None:
    ingest(league, "t1", payload("t1", key(), None, 1, 1, ("Aiko", "Box"), winners=(1,),
                                 bots=[None, "hard"]))
    ingest(league, "t2", payload("t2", key(), None, 1, 1, ("Ben", "Robo", "Robo 2"),
                                 winners=(0,), bots=[None, "hard", "hard"]))
    table = {row.player: row for row in league.standings("unlock")}
    assert set(table) == {"g:Aiko", "g:Ben", "b:hard", "g:Robo 2"}
    assert (table["b:hard"].name, table["b:hard"].kind, table["b:hard"].played) == (
        "hard", "bot", 2)
    assert table["g:Robo 2"].kind == "guest" and "two 'hard' bots" in caplog.text
    found = league.player("b:hard")
    assert found is not None and [g.box for g in found[2]] == ["t2", "t1"]


def test_profiles_are_claimed_with_their_code_and_names_are_unique(league: League) -> None:
    profile, code, _ = league.create_profile("Ben")
    claimed, token = league.claim(code.replace("-", " "))
    assert claimed == profile and league.profile_of_phone(token) == profile
    with pytest.raises(NotAllowed, match="already has a player called 'ben'"):
        league.create_profile("ben")
    with pytest.raises(NotAllowed, match=r"mistyped|not a club code"):
        league.claim(code[:-1] + ("X" if code[-1] != "X" else "Y"))
    assert league.profile_of_phone("nonsense") is None


def test_the_csv_has_one_row_per_seat_and_runs_no_formula(league: League) -> None:
    ingest(league, "t1", payload("t1", key(), None, 1, 1, ("=HYPERLINK(1)", "Ben")))
    rows: list[dict[str, Any]] = list(csv.DictReader(io.StringIO(league.to_csv())))
    assert [r["name"] for r in rows] == ["'=HYPERLINK(1)", "Ben"]
    assert [r["won"] for r in rows] == ["1", "0"] and rows[0]["box"] == "t1"
    assert [r["kind"] for r in rows] == ["guest", "guest"]
    assert league.to_csv("ico").count("\n") == 1
