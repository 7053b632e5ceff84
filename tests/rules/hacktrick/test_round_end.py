"""The end of a round (wins first, then running out of markers), scoring, and the game's end."""

from __future__ import annotations

import pytest

from rules.hacktrick import GAME, position
from rules.hacktrick.turns import LINE, NO_MOVE, OUT_OF_MARKERS, THREE_ON_A_SQUARE


def test_three_own_markers_on_one_square_win_the_round() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"})
    after = GAME.apply(state, 0, "play 2")
    result = after.results[-1]
    assert (result.winner, result.points, result.reason, result.squares) == (
        0, 1, THREE_ON_A_SQUARE, (6,))
    assert after.points == (1, 0) and after.round == 2


def test_a_marker_on_each_square_of_a_line_wins_the_round() -> None:
    # 2 7 6 is the top row of the square; 2 + 7 + 6 = 15.
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W", 7: "W"})
    after = GAME.apply(state, 0, "play 2")
    assert after.results[-1].reason == LINE and after.results[-1].squares == (2, 6, 7)
    assert after.points == (1, 0)


@pytest.mark.parametrize("line", [(2, 7, 6), (9, 5, 1), (4, 3, 8), (2, 9, 4), (7, 5, 3),
                                  (6, 1, 8), (2, 5, 8), (6, 5, 4)])
def test_each_row_column_and_diagonal_is_a_winning_line(line: tuple[int, int, int]) -> None:
    first, second, last = line
    # Lay a card making the sum ``last``: the rightmost is 0 or 5, the card the difference.
    rightmost = 0 if last <= 5 else 5
    card = last - rightmost
    state = position(hands=((card,), (1,) if card != 1 else (2,)), row=(rightmost,),
                     board={first: "W", second: "W"})
    after = GAME.apply(state, 0, f"play {card}")
    assert after.results and after.results[-1].reason == LINE


def test_markers_on_a_line_of_mixed_colours_do_not_win() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W", 7: "R"})
    after = GAME.apply(state, 0, "play 2")
    assert after.results == () and after.round == 1


def test_a_win_including_the_x2_placed_earlier_scores_two() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W*", 7: "W"})
    assert GAME.apply(state, 0, "play 2").points == (2, 0)
    triple = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW*"})
    assert GAME.apply(triple, 0, "play 2").points == (2, 0)


def test_a_win_completed_by_placing_the_x2_last_scores_one() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W", 7: "W"})
    assert GAME.apply(state, 0, "play 2 x2").points == (1, 0)
    triple = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"})
    assert GAME.apply(triple, 0, "play 2 x2").points == (1, 0)


def test_x2_marker_off_the_winning_line_scores_one() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W", 7: "W", 9: "W*"})
    assert GAME.apply(state, 0, "play 2").points == (1, 0)


def test_of_two_wins_made_at_once_the_better_one_counts() -> None:
    # Placing on 6 completes 2-7-6 and 8-1-6; only the second holds the ×2.
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W", 7: "W", 8: "W*", 1: "W"})
    after = GAME.apply(state, 0, "play 2")
    assert after.points == (2, 0) and after.results[-1].squares == (1, 6, 8)


def test_x2_marker_option_off_means_no_x2_and_every_win_scores_one() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"},
                     options={"x2_marker": False})
    assert state.supplies[0].own == 8 and not state.supplies[0].own_x2
    assert not any("x2" in a for a in GAME.legal_actions(state, 0))
    assert GAME.apply(state, 0, "play 2").points == (1, 0)
    fresh = GAME.start(["Aiko", "Ben"], {"x2_marker": False}, seed=1)
    assert fresh.supplies[0].own == 10


def test_running_out_of_own_markers_loses_the_round_with_own_colour() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), discarded="WWWWWWWWW",
                     captured={0: "RR"})
    after = GAME.apply(state, 0, "play 2 x2")
    result = after.results[-1]
    assert (result.winner, result.points, result.reason) == (1, 1, OUT_OF_MARKERS)
    assert after.points == (0, 1)


def test_captured_markers_keep_a_player_alive_with_empty_supply() -> None:
    options = {"out_of_markers": "empty_supply"}
    state = position(hands=((2, 3), (1, 5)), row=(4,), discarded="WWWWWWWWW",
                     captured={0: "RR"}, options=options)
    after = GAME.apply(state, 0, "play 2 x2")
    assert after.results == () and after.supplies[0].own_total == 0
    assert GAME.to_act(after) == [1]


def test_an_empty_supply_loses_the_round_with_empty_supply() -> None:
    options = {"out_of_markers": "empty_supply"}
    state = position(hands=((2, 3), (1, 5)), row=(4,), discarded="WWWWWWWWWW*",
                     captured={0: "R"}, options=options)
    after = GAME.apply(state, 0, "ask")
    result = after.results[-1]
    assert (result.winner, result.reason) == (1, OUT_OF_MARKERS)


def test_with_empty_supply_a_player_who_can_neither_play_nor_draw_loses_the_round() -> None:
    # White holds only captured markers and four cards: no marker to place, no room to draw.
    options = {"out_of_markers": "empty_supply"}
    state = position(hands=((0, 1, 2, 3), (1, 5)), row=(4,), discarded="WWWWWWWWWW*",
                     captured={0: "R"}, options=options, to_act=1)
    after = GAME.apply(state, 1, "play 1")
    result = after.results[-1]
    assert (result.winner, result.points, result.reason) == (1, 1, NO_MOVE)


def test_wins_are_checked_before_running_out_of_markers() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={2: "W", 7: "W"},
                     discarded="WWWWWWW")
    assert state.supplies[0].own_total == 1
    after = GAME.apply(state, 0, "play 2 x2")
    assert after.results[-1].winner == 0 and after.results[-1].reason == LINE


def test_new_round_returns_markers_and_reshuffles_all_cards() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW", 1: "R"},
                     discarded="R", captured={0: "R"})
    after = GAME.apply(state, 0, "play 2")
    assert after.round == 2 and after.phase == "lead"
    assert all(not square for square in after.board)
    assert after.supplies[0] == after.supplies[1]
    assert after.supplies[0].own == 9 and after.supplies[0].own_x2
    assert after.discarded == (0, 0) and after.row == ()
    assert [len(h) for h in after.hands] in ([4, 3], [3, 4])
    assert len(after.deck) == 9 and len(after.face_up) == 2
    assert after.announcements == () and after.declaration is None


def test_starting_player_alternates_by_default() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"}, starter=0)
    after = GAME.apply(state, 0, "play 2")
    assert after.starter == 1 and GAME.to_act(after) == [1]
    assert len(after.hands[1]) == 4 and len(after.hands[0]) == 3


def test_starter_option_winner_lets_the_round_winner_start() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"}, starter=0,
                     options={"starter": "winner"})
    after = GAME.apply(state, 0, "play 2")
    assert after.starter == 0 and GAME.to_act(after) == [0]
    assert len(after.hands[0]) == 4


def test_first_to_five_points_wins_the_game() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"}, points=(4, 4))
    after = GAME.apply(state, 0, "play 2")
    assert after.phase == "over" and GAME.to_act(after) == []
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome["winners"] == [0] and outcome["scores"] == [5, 4]
    assert all(list(GAME.legal_actions(after, s)) == [] for s in (0, 1))


def test_target_option_sets_the_points_that_win() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"}, points=(4, 0),
                     options={"target": 6})
    after = GAME.apply(state, 0, "play 2")
    assert GAME.outcome(after) is None and after.points == (5, 0)
    one = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"}, options={"target": 1})
    assert GAME.outcome(GAME.apply(one, 0, "play 2")) is not None


def test_two_points_can_overshoot_the_target() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW*"}, points=(4, 0))
    after = GAME.apply(state, 0, "play 2")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome["scores"] == [6, 0]


def test_whole_games_end_with_one_winner_at_the_target() -> None:
    for seed in range(5):
        state = GAME.start(["Aiko", "Ben"], {"target": 3}, seed=seed)
        steps = 0
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = sorted(GAME.legal_actions(state, seat))
            state = GAME.apply(state, seat, legal[steps % len(legal)])
            steps += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert max(outcome["scores"]) >= 3 and outcome["scores"][outcome["winners"][0]] >= 3
        assert sum(r.points for r in state.results) == sum(state.points)
