"""Play! and Guard!: the discarded marker, what each forces, the forced draws, and the option
``declare_after_draw``."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.hacktrick import GAME, position


def test_declaring_discards_one_own_marker_and_binds_the_opponent() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    after = GAME.apply(state, 0, "play 2 declare=play")
    assert after.supplies[0].own == state.supplies[0].own - 2, "one placed, one discarded"
    assert after.supplies[0].own_x2, "a plain marker is discarded before the ×2"
    assert after.discarded == (1, 0)
    assert GAME.view(after, None)["declaration"] == {"kind": "play", "by": 0, "against": 1}


def test_declaring_is_optional() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    assert {"play 2", "play 2 declare=play", "play 2 declare=guard"} <= set(
        GAME.legal_actions(state, 0))
    assert GAME.apply(state, 0, "play 2").declaration is None


def test_play_forbids_drawing_on_the_next_turn() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    after = GAME.apply(state, 0, "play 2 declare=play")
    assert "draw" not in GAME.legal_actions(after, 1)
    with pytest.raises(IllegalAction, match="Play! was declared against you: you must play"):
        GAME.apply(after, 1, "draw")
    assert GAME.apply(after, 1, "play 1").declaration is None, "Play! lasts one turn"


def test_play_lasts_only_the_next_turn() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), declaration=("play", 1), to_act=0)
    after = GAME.apply(state, 0, "play 2")
    assert after.declaration is None
    back = GAME.apply(after, 1, "play 1")
    assert "draw" in GAME.legal_actions(back, 0)


def test_under_play_holding_only_cards_equal_to_the_rightmost_shows_hand_and_draws() -> None:
    state = position(hands=((3, 3), (1, 5)), row=(2, 3), declaration=("play", 1), to_act=0)
    assert GAME.legal_actions(state, 0) == ["draw"]
    after = GAME.apply(state, 0, "draw")
    assert len(after.hands[0]) == 3 and after.row == state.row, "no card is played"
    assert GAME.to_act(after) == [1]
    for viewer in (None, 0, 1):
        assert GAME.view(after, viewer)["shown"] == {"turn": state.turn, "seat": 0,
                                                     "cards": [3, 3]}


def test_under_play_with_an_empty_hand_the_player_draws_and_the_turn_ends() -> None:
    state = position(hands=((), (1, 5)), row=(2, 3), declaration=("play", 1), to_act=0)
    assert GAME.legal_actions(state, 0) == ["draw"]
    after = GAME.apply(state, 0, "draw")
    assert len(after.hands[0]) == 1 and after.shown is None
    assert GAME.to_act(after) == [1] and after.board == state.board


def test_guard_forbids_declaring_play_on_the_next_turn() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    after = GAME.apply(state, 0, "play 2 declare=guard")
    legal = set(GAME.legal_actions(after, 1))
    assert "play 1 declare=guard" in legal and "play 1 declare=play" not in legal
    with pytest.raises(IllegalAction, match="Guard! was declared against you"):
        GAME.apply(after, 1, "play 1 declare=play")
    assert "draw" in legal, "Guard! does not force a play"


def test_guard_lasts_only_the_next_turn() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), declaration=("guard", 1), to_act=0)
    after = GAME.apply(state, 0, "play 2")
    assert after.declaration is None
    back = GAME.apply(after, 1, "play 1")
    assert "play 3 declare=play" in GAME.legal_actions(back, 0)


def test_a_declaration_needs_an_own_marker_left_after_placing() -> None:
    state = position(
        hands=((2, 3), (1, 5)), row=(4,), discarded="WWWWWWWWW", captured={0: "R"},
        options={"out_of_markers": "empty_supply"},
    )
    assert not any("declare" in a for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="you have none left"):
        GAME.apply(state, 0, "play 2 x2 declare=guard")


def test_declaring_with_the_last_own_marker_loses_the_round() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), discarded="WWWWWWWW")
    assert state.supplies[0].own == 1 and state.supplies[0].own_x2
    after = GAME.apply(state, 0, "play 2 declare=guard")
    assert after.results[-1].winner == 1
    assert after.results[-1].reason == "out_of_markers"


def test_no_declaration_on_a_play_that_ends_the_round() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W", 7: "W"})
    assert "play 2 declare=play" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="ends the round"):
        GAME.apply(state, 0, "play 2 declare=play")


def test_declare_after_draw_is_off_by_default() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    assert [a for a in GAME.legal_actions(state, 0) if a.startswith("draw")] == ["draw"]
    with pytest.raises(IllegalAction, match="declare_after_draw is off"):
        GAME.apply(state, 0, "draw declare=play")


def test_declare_after_draw_option_allows_play_and_guard_after_a_draw() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), options={"declare_after_draw": True})
    assert {"draw", "draw declare=play", "draw declare=guard"} <= set(
        GAME.legal_actions(state, 0))
    after = GAME.apply(state, 0, "draw declare=play")
    assert after.declaration is not None and after.declaration.kind == "play"
    assert after.discarded == (1, 0) and len(after.hands[0]) == 3
    with pytest.raises(IllegalAction, match="must play"):
        GAME.apply(after, 1, "draw")


def test_declare_after_draw_still_respects_guard() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), options={"declare_after_draw": True},
                     declaration=("guard", 1))
    assert "draw declare=play" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="Guard!"):
        GAME.apply(state, 0, "draw declare=play")
