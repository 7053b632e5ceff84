"""Table cards (``cards=table``): no hands or deck are known; the device counts and referees."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.hacktrick import GAME, position
from rules.hacktrick.board import board_text

TABLE = {"cards": "table"}


def test_table_deal_knows_only_sizes_and_waits_for_the_lead_card() -> None:
    state = GAME.start(["Aiko", "Ben"], TABLE, seed=1)
    assert state.hands == ((), ()) and state.deck == () and state.face_up == ()
    assert (state.hand_size(0), state.hand_size(1), state.deck_size) == (4, 3, 9)
    assert state.phase == "lead" and GAME.to_act(state) == [0]
    assert list(GAME.legal_actions(state, 0)) == [f"lead {v}" for v in range(6)]
    led = GAME.apply(state, 0, "lead 3")
    assert led.row == (3,) and led.hand_size(0) == 3 and GAME.to_act(led) == [1]
    assert GAME.view(led, None)["announced_sums"] == [None, None], "sums are spoken aloud"


def test_table_play_names_the_value_and_keeps_the_board() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(3, 3), board={6: "R"})
    after = GAME.apply(state, 0, "play 2")
    assert after.row == (4, 2) and board_text(after.board) == {6: "W"}
    assert after.supplies[0].captured == 1
    assert (after.hand_size(0), after.hand_size(1)) == (2, 3)


def test_table_card_equal_to_the_rightmost_is_still_refused() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(3, 3))
    assert "play 4" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="equal to the rightmost"):
        GAME.apply(state, 0, "play 4")


def test_table_value_whose_three_copies_are_in_the_row_is_refused() -> None:
    state = position(options=TABLE, row=(3, 1, 3, 2, 3, 4), hand_sizes=(3, 3))
    with pytest.raises(IllegalAction, match="all three 3s are already in the row"):
        GAME.apply(state, 0, "play 3")


def test_table_play_with_an_empty_hand_is_refused() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(0, 3))
    assert GAME.legal_actions(state, 0) == ["draw"]
    with pytest.raises(IllegalAction, match="hand is empty"):
        GAME.apply(state, 0, "play 2")


def test_table_draw_counts_and_needs_fewer_than_four_cards() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(3, 3), deck_size=5)
    after = GAME.apply(state, 0, "draw")
    assert (after.hand_size(0), after.deck_size) == (4, 4)
    full = position(options=TABLE, row=(4,), hand_sizes=(4, 3))
    with pytest.raises(IllegalAction, match="you hold 4 cards"):
        GAME.apply(full, 0, "draw")


def test_table_deck_is_rebuilt_from_the_row_but_its_rightmost_as_it_runs_out() -> None:
    # Seed 001: "もし山札が尽きてしまったら…残りのカードを全てシャッフルし新たな山札とします".
    state = position(options=TABLE, row=(3, 4, 5, 3, 4, 5, 0, 1), hand_sizes=(2, 3),
                     deck_size=1)
    after = GAME.apply(state, 0, "draw")
    assert after.row == (1,) and after.deck_size == 7 and after.hand_size(0) == 3


def test_table_under_play_the_player_may_draw_after_showing_the_hand_at_the_table() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(2, 3), declaration=("play", 1))
    legal = GAME.legal_actions(state, 0)
    assert "draw" in legal and "play 2" in legal
    after = GAME.apply(state, 0, "draw")
    assert after.hand_size(0) == 3 and after.declaration is None


def test_table_under_play_a_hand_too_big_to_be_all_rightmost_cards_must_play() -> None:
    # Only three 4s exist and two are in the row: a hand of two cannot be all 4s.
    state = position(options=TABLE, row=(4, 1, 4), hand_sizes=(2, 3), declaration=("play", 1))
    assert "draw" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="you must play"):
        GAME.apply(state, 0, "draw")
    one = position(options=TABLE, row=(4, 1, 4), hand_sizes=(1, 3), declaration=("play", 1))
    assert "draw" in GAME.legal_actions(one, 0)


def test_table_ask_discards_a_captured_marker_and_records_no_sum() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(3, 3), captured={0: "R"})
    after = GAME.apply(state, 0, "ask")
    assert after.supplies[0].captured_total == 0 and after.discarded == (0, 1)
    assert after.announcements == ()


def test_table_round_end_scores_and_deals_sizes_for_the_next_round() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(3, 3), board={2: "W*", 7: "W"},
                     starter=1)
    after = GAME.apply(state, 0, "play 2")
    assert after.points == (2, 0) and after.round == 2 and after.starter == 0
    assert (after.hand_size(0), after.hand_size(1), after.deck_size) == (4, 3, 9)
    assert after.phase == "lead" and GAME.to_act(after) == [0]


def test_table_views_show_no_cards_to_anyone() -> None:
    state = position(options=TABLE, row=(4,), hand_sizes=(3, 2))
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["hands"] == [{"size": 3, "cards": None}, {"size": 2, "cards": None}]
        assert view["face_up"] is None and view["deck_size"] == 9
