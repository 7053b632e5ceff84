"""The topic tree and the payload schema: every field is checked, and a refusal names it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from firmware_host.club.topics import (
    BadMessage,
    Topic,
    decode_ack,
    decode_result,
    decode_status,
    decode_table,
    encode,
    parse_topic,
)

KEY = "0123456789abcdef01234567"


def record(**game: Any) -> dict[str, Any]:
    return {"v": 1, "kind": "result", "box": "table-1", "key": KEY, "prev": None, "seq": 1,
            "game": {"id": 3, "game": "unlock", "status": "finished",
                     "players": ["Aiko", "Ben"], "options": {}, "created": "c", "ended": "e",
                     "outcome": {"winners": [1], "scores": [2, 7], "reason": "found"},
                     "tournament": None, "club_codes": [None, None],
                     "actions": [{"n": 1, "seat": 0, "action": "secret 1-2-3"}], **game}}


def test_topics_name_the_box_and_what_it_sends() -> None:
    assert parse_topic("club/v1/boxes/table-2/status") == Topic("table-2", "status")
    assert parse_topic("club/v1/boxes/table-2/results") == Topic("table-2", "results")
    assert parse_topic("club/v1/boxes/t2/tables/12") == Topic("t2", "table", 12)


@pytest.mark.parametrize("topic", [
    "club/v2/boxes/t/status", "club/v1/boxes/T_2/status", "club/v1/boxes/t/tables/x",
    "club/v1/boxes/t/tables/1/2", "club/v1/acks/t", "club/v1/boxes/t", "other/topic",
])
def test_a_topic_the_hub_does_not_read_is_refused(topic: str) -> None:
    with pytest.raises(BadMessage, match="topic"):
        parse_topic(topic)


def test_a_valid_record_reads_back() -> None:
    read = decode_result("table-1", encode(record()))
    assert read.game.players == ("Aiko", "Ben") and read.game.outcome is not None
    assert read.game.outcome.winners == (1,) and read.game.actions[0].action == "secret 1-2-3"


@pytest.mark.parametrize(("change", "named"), [
    ({"v": 2}, "v: version 2"),
    ({"kind": "table"}, "kind"),
    ({"box": "table-9"}, "box: the payload names 'table-9' but came from box 'table-1'"),
    ({"key": "xyz"}, "key: expected a record key"),
    ({"prev": 5}, "prev: expected a record key"),
    ({"seq": 0}, "seq: expected a whole number"),
    ({"game": []}, "game: expected a JSON object"),
])
def test_a_bad_envelope_names_the_field(change: dict[str, Any], named: str) -> None:
    with pytest.raises(BadMessage, match=named.replace("(", r"\(")):
        decode_result("table-1", encode({**record(), **change}))


@pytest.mark.parametrize(("change", "named"), [
    ({"players": []}, "game.players"),
    ({"players": ["x" * 41, "B"]}, "game.players"),
    ({"status": "active"}, "game.status"),
    ({"outcome": None}, "game.outcome: a finished game has an outcome"),
    ({"outcome": {"winners": [2], "scores": None, "reason": "r"}}, "game.outcome.winners"),
    ({"outcome": {"winners": [1, 1], "scores": None, "reason": "r"}}, "named twice"),
    ({"outcome": {"winners": [1], "scores": [1], "reason": "r"}}, "game.outcome.scores"),
    ({"outcome": {"winners": [1], "scores": [True, 1], "reason": "r"}}, "game.outcome.scores"),
    ({"players": ["Aiko", "Aiko"], "club_codes": [None, None]}, "game.players: a player's name"),
    ({"club_codes": [None]}, "game.club_codes"),
    ({"bots": ["easy"]}, "game.bots"),
    ({"bots": [None, "Hard!"]}, "game.bots"),
    ({"competitors": [0, 2]}, "game.competitors"),
    ({"competitors": [1, 1]}, "game.competitors: a seat is named twice"),
    ({"competitors": [0]}, "game.competitors: a winner is not among them"),
    ({"actions": [{"n": 1, "seat": 0}]}, r"game.actions\[0\].action"),
    ({"game": "Unlock!"}, "game.game"),
    ({"options": []}, "game.options"),
])
def test_a_bad_game_names_the_field(change: dict[str, Any], named: str) -> None:
    with pytest.raises(BadMessage, match=named):
        decode_result("table-1", encode(record(**change)))


@pytest.mark.parametrize("data", [b"", b"\xff\xfe", b"[1]", b"{" * 100_000, b"null",
                                  b"x" * (600 * 1024)])
def test_garbage_is_a_bad_message_not_a_crash(data: bytes) -> None:
    with pytest.raises(BadMessage):
        decode_result("table-1", data)


def test_bot_seats_and_competitors_are_optional_and_read_per_seat() -> None:
    assert decode_result("table-1", encode(record())).game.bots == (None, None)
    assert decode_result("table-1", encode(record())).game.competitors == (0, 1)
    assert decode_result("table-1", encode(record(competitors=[1]))).game.competitors == (1,)
    assert decode_result("table-1", encode(record(bots=[None, "hard"]))).game.bots == (
        None, "hard")


def test_an_abandoned_game_needs_no_outcome() -> None:
    read = decode_result("table-1", encode(record(status="abandoned", outcome=None)))
    assert read.game.outcome is None


def test_tables_status_and_acks() -> None:
    table = {"v": 1, "kind": "table", "box": "t1", "game_id": 4, "game": "ico",
             "status": "active", "players": ["A", "B"], "turn": 3, "to_act": [1],
             "scores": None, "updated": "now"}
    read = decode_table("t1", 4, encode(table))
    assert read is not None and read.to_act == (1,)
    assert decode_table("t1", 4, b"") is None  # an empty retained message: the table is gone
    with pytest.raises(BadMessage, match="game_id"):
        decode_table("t1", 5, encode(table))
    bad = copy.deepcopy(table)
    bad["to_act"] = [2]
    with pytest.raises(BadMessage, match="to_act"):
        decode_table("t1", 4, encode(bad))
    status = {"v": 1, "kind": "status", "box": "t1", "online": True,
              "panel": "javascript:alert(1)", "since": "now"}
    with pytest.raises(BadMessage, match="panel"):
        decode_status("t1", encode(status))
    assert decode_ack(encode({"v": 1, "kind": "ack", "key": KEY, "seq": 3})).seq == 3
