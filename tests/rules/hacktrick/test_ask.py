"""Ask the sum: first in a turn, at most once, paid with a captured opponent marker."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.hacktrick import GAME, position


def test_ask_discards_a_captured_marker_and_the_opponent_sum_is_announced() -> None:
    state = position(hands=((2, 3), (1, 5, 4)), row=(4,), captured={0: "R"})
    after = GAME.apply(state, 0, "ask")
    assert after.supplies[0].captured_total == 0
    assert after.discarded == (0, 1), "the discarded marker is red, out for the round"
    for viewer in (None, 0, 1):
        view = GAME.view(after, viewer)
        assert view["announced_sums"][1] == 10
        assert view["announcements"][-1] == {"turn": state.turn, "seat": 1, "sum": 10,
                                             "reason": "ask"}
    assert GAME.to_act(after) == [0], "the asker still takes the turn's main action"


def test_ask_is_allowed_only_once_a_turn() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "RR"})
    after = GAME.apply(state, 0, "ask")
    assert "ask" not in GAME.legal_actions(after, 0)
    with pytest.raises(IllegalAction, match="only once a turn"):
        GAME.apply(after, 0, "ask")


def test_ask_needs_a_captured_marker() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    assert "ask" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="captured none"):
        GAME.apply(state, 0, "ask")


def test_ask_comes_first_then_a_main_action_ends_the_turn() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "RR"})
    asked = GAME.apply(state, 0, "ask")
    played = GAME.apply(asked, 0, "play 2")
    assert GAME.to_act(played) == [1] and not played.asked
    assert "ask" in GAME.legal_actions(GAME.apply(played, 1, "play 1"), 0), "a new turn"


#: Seed 001 on Play!: "the opponent cannot take any action but playing a card (drawing from
#: the deck, etc.)".
UNDER_PLAY = "カードのプレイ以外のアクション(山札からカードをドロー等)を実行できなくなる"


def test_ask_is_refused_under_play_by_default() -> None:
    # Seed 001, under Play!:
    # "カードのプレイ以外のアクション(山札からカードをドロー等)を実行できなくなる".
    state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "R"},
                     declaration=("play", 1))
    assert state.settings.ask_under_play is False
    assert "ask" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, "ask")
    assert UNDER_PLAY in str(refused.value) and "ask_under_play is off" in str(refused.value)
    assert all(a.startswith("play") for a in GAME.legal_actions(state, 0))


def test_ask_is_refused_under_play_even_when_the_hand_forces_a_draw() -> None:
    # Seed 001: "カードのプレイ以外のアクション…を実行できなくなる"; the forced draw is the
    # seed's own exception.
    state = position(hands=((4,), (1, 5)), row=(3, 4), captured={0: "R"},
                     declaration=("play", 1))
    assert GAME.legal_actions(state, 0) == ["draw"]


def test_ask_under_play_option_allows_it_and_says_it_departs() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "R"},
                     declaration=("play", 1), options={"ask_under_play": True})
    assert "ask" in GAME.legal_actions(state, 0)
    asked = GAME.apply(state, 0, "ask")
    assert "draw" not in GAME.legal_actions(asked, 0), "still under Play!: no draw"
    (option,) = [o for o in GAME.describe()["options"] if o["name"] == "ask_under_play"]
    assert option["default"] is False
    assert UNDER_PLAY in option["help"] and "departs from the printed rules" in option["help"]


def test_ask_is_still_allowed_when_not_under_play_and_under_guard() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "R"},
                     declaration=("guard", 1))
    assert "ask" in GAME.legal_actions(state, 0)


def test_the_captured_x2_pays_for_an_ask_only_when_no_plain_one_is_left() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "RR*"})
    after = GAME.apply(state, 0, "ask")
    assert after.supplies[0].captured_x2 and after.supplies[0].captured == 0
    again = GAME.apply(GAME.apply(GAME.apply(after, 0, "play 2"), 1, "play 1"), 0, "ask")
    assert again.supplies[0].captured_total == 0 and again.discarded == (0, 2)


def test_own_markers_cannot_pay_for_an_ask() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "R"}, captured={1: "W"})
    assert state.supplies[0].own_total == 9 and "ask" not in GAME.legal_actions(state, 0)
