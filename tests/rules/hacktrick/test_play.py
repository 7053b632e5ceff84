"""Playing a card: the row, the square of the sum, the marker chosen, and captures."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.hacktrick import GAME, Marker, position
from rules.hacktrick.board import board_text


def test_played_card_goes_right_of_the_row_and_marks_the_sum_square() -> None:
    # The rules' own example: rightmost 4, play 2, a marker on 6.
    state = position(hands=((1, 5, 5), (3, 4, 2)), row=(1, 4), to_act=1)
    after = GAME.apply(state, 1, "play 2")
    assert after.row == (1, 4, 2)
    assert board_text(after.board) == {6: "R"}
    assert after.hands[1] == (3, 4)
    assert after.supplies[1].own == state.supplies[1].own - 1


def test_card_equal_to_the_rightmost_is_refused() -> None:
    state = position(hands=((3, 4, 2), (1, 5)), row=(1, 4))
    with pytest.raises(IllegalAction, match=r"equal to the rightmost card of the row \(4\)"):
        GAME.apply(state, 0, "play 4")
    assert "play 4" not in GAME.legal_actions(state, 0)


def test_card_not_in_hand_is_refused() -> None:
    state = position(hands=((3, 2), (1, 5)), row=(4,))
    with pytest.raises(IllegalAction, match="you hold no 5"):
        GAME.apply(state, 0, "play 5")


def test_sum_of_zero_and_one_marks_square_one_and_five_and_four_marks_nine() -> None:
    low = GAME.apply(position(hands=((1,), (3,)), row=(0,)), 0, "play 1")
    high = GAME.apply(position(hands=((5,), (3,)), row=(4,)), 0, "play 5")
    assert board_text(low.board) == {1: "W"}
    assert board_text(high.board) == {9: "W"}


def test_player_chooses_the_x2_marker() -> None:
    state = position(hands=((2, 3), (1,)), row=(4,))
    after = GAME.apply(state, 0, "play 2 x2")
    assert after.board[5] == (Marker(0, x2=True),)
    assert after.supplies[0].own_x2 is False and after.supplies[0].own == 9


def test_x2_marker_can_be_placed_only_once() -> None:
    state = position(hands=((2, 3), (1,)), row=(4,), board={9: "W*"})
    with pytest.raises(IllegalAction, match="×2 marker is not in your supply"):
        GAME.apply(state, 0, "play 2 x2")


def test_when_only_the_x2_is_left_a_plain_placement_is_refused_with_a_hint() -> None:
    state = position(
        hands=((2, 3), (1,)), row=(4,), discarded="WWWWW", board={1: "WW", 3: "W", 8: "W"},
        options={"out_of_markers": "empty_supply"}, captured={0: "R"},
    )
    assert state.supplies[0].own == 0 and state.supplies[0].own_x2
    with pytest.raises(IllegalAction, match="'play 2 x2'"):
        GAME.apply(state, 0, "play 2")
    # After placing it no own marker is left to discard, so nothing can be declared.
    assert [a for a in GAME.legal_actions(state, 0) if a.startswith("play 2")] == ["play 2 x2"]


def test_capture_of_one_opponent_marker() -> None:
    state = position(hands=((2, 3), (1,)), row=(4,), board={6: "R"})
    after = GAME.apply(state, 0, "play 2")
    assert board_text(after.board) == {6: "W"}
    assert after.supplies[0].captured == 1 and not after.supplies[0].captured_x2
    assert after.supplies[1] == state.supplies[1], "captured markers leave the opponent's board"


def test_capture_of_two_opponent_markers_including_the_x2() -> None:
    state = position(hands=((2, 3), (1,)), row=(4,), board={6: "RR*"})
    after = GAME.apply(state, 0, "play 2")
    assert board_text(after.board) == {6: "W"}
    assert after.supplies[0].captured == 1 and after.supplies[0].captured_x2
    assert after.supplies[0].captured_total == 2


def test_own_markers_on_the_square_stay_and_are_joined() -> None:
    state = position(hands=((2, 3), (1,)), row=(4,), board={6: "W"})
    after = GAME.apply(state, 0, "play 2")
    assert board_text(after.board) == {6: "WW"}
    assert after.supplies[0].captured_total == 0


def test_captured_markers_cannot_be_placed() -> None:
    # Captured markers serve only Ask the sum: with no own marker left there is no play.
    state = position(
        hands=((2, 3), (1,)), row=(4,), discarded="WWWWWWWWWW*", captured={0: "RR"},
        options={"out_of_markers": "empty_supply"},
    )
    assert not [a for a in GAME.legal_actions(state, 0) if a.startswith("play")]
    with pytest.raises(IllegalAction, match="no plain marker"):
        GAME.apply(state, 0, "play 2")


def test_turn_passes_after_a_play() -> None:
    state = position(hands=((2, 3), (1,)), row=(4,))
    after = GAME.apply(state, 0, "play 2")
    assert GAME.to_act(after) == [1] and after.turn == state.turn + 1


def test_playing_out_of_turn_is_refused() -> None:
    state = position(hands=((2, 3), (1,)), row=(4,))
    with pytest.raises(IllegalAction, match="White's turn"):
        GAME.apply(state, 1, "play 1")
