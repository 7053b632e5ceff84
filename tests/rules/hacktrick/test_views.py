"""Views: each hand only to its holder, sizes and announced sums public, the rest public."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import IllegalAction
from rules.hacktrick import GAME, position
from tests.rules.hacktrick.leaks import no_leaks

COMMON = ("game", "seats", "to_act", "phase", "turn", "you", "options", "outcome")
HACKTRICK = ("board", "row", "face_up", "deck_size", "hands", "supply", "declaration",
             "points", "round", "announced_sums")


def _scene() -> Any:
    return position(hands=((0, 2, 3), (1, 5)), row=(4,), board={6: "RR*", 5: "W"},
                    captured={0: "R"}, discarded="W", declaration=("guard", 1),
                    announced={0: 5, 1: 6}, points=(1, 2))


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_view_has_every_listed_key_and_is_json(viewer: int | None) -> None:
    view = GAME.view(_scene(), viewer)
    json.dumps(view)
    for key in (*COMMON, *HACKTRICK):
        assert key in view, key
    assert view["you"] == viewer and view["game"] == "hacktrick"


def test_holder_sees_own_hand_only() -> None:
    state = _scene()
    assert GAME.view(state, 0)["hands"] == [{"size": 3, "cards": [0, 2, 3]},
                                            {"size": 2, "cards": None}]
    assert GAME.view(state, 1)["hands"] == [{"size": 3, "cards": None},
                                            {"size": 2, "cards": [1, 5]}]


def test_spectator_sees_no_hand() -> None:
    assert GAME.view(_scene(), None)["hands"] == [{"size": 3, "cards": None},
                                                  {"size": 2, "cards": None}]


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_public_parts_are_the_same_for_every_viewer(viewer: int | None) -> None:
    view = GAME.view(_scene(), viewer)
    assert view["board"]["6"] == [{"owner": 1, "x2": False}, {"owner": 1, "x2": True}]
    assert view["board"]["5"] == [{"owner": 0, "x2": False}]
    assert view["board"]["1"] == []
    assert view["row"] == [4] and view["face_up"] == list(_scene().face_up)
    assert view["deck_size"] == len(_scene().deck)
    assert view["supply"] == [
        {"own": 8, "x2": True, "captured": 1, "captured_x2": False},
        {"own": 7, "x2": False, "captured": 0, "captured_x2": False},
    ]
    assert view["discarded"] == [1, 0]
    assert view["declaration"] == {"kind": "guard", "by": 1, "against": 0}
    assert view["announced_sums"] == [5, 6]
    assert view["points"] == [1, 2] and view["round"] == 1
    assert view["to_act"] == [0] and view["phase"] == "turn"


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_no_viewer_sees_a_hidden_card_or_the_deck_order(viewer: int | None) -> None:
    state = _scene()
    no_leaks(state, viewer, GAME.view(state, viewer))


def test_leak_check_catches_an_opponent_hand_in_a_view() -> None:
    state = _scene()
    leaky = GAME.view(state, 0)
    leaky["hint"] = {"opponent_sum": sum(state.hands[1])}
    with pytest.raises(AssertionError, match="cannot see"):
        no_leaks(state, 0, leaky)


def test_legal_actions_appear_only_in_the_mover_view() -> None:
    state = _scene()
    assert GAME.view(state, 0)["legal_actions"] == list(GAME.legal_actions(state, 0))
    assert GAME.view(state, 1)["legal_actions"] == []
    assert GAME.view(state, None)["legal_actions"] == []


def test_view_of_a_seat_that_does_not_play_is_refused() -> None:
    with pytest.raises(IllegalAction, match="seat 2"):
        GAME.view(_scene(), 2)


def test_outcome_and_last_round_show_in_views_at_the_end() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"}, points=(4, 1))
    after = GAME.apply(state, 0, "play 2")
    view = GAME.view(after, None)
    assert view["outcome"]["winners"] == [0] and view["to_act"] == []
    assert view["last_round"] == {"round": 1, "winner": 0, "points": 1,
                                  "reason": "three_on_a_square", "squares": [6]}
