"""The UNLOCK tournament: each player the Lock once, game scores summed, standings and ties."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import RulesError
from rules.unlock import GAME, Tournament, abandon_game

PLAYERS = ["Aiko", "Ben", "Chie"]


def result(scores: list[int], counts: bool = True) -> dict[str, Any]:
    return {"winners": [], "scores": scores, "reason": "found", "counts": counts}


def test_the_lock_rotates_through_every_player_by_default() -> None:
    t = Tournament.start(PLAYERS)
    locks = []
    while t.next_lock is not None:
        locks.append(t.next_lock)
        t = t.record(result([0 if s == t.next_lock else 1 for s in range(3)]))
    assert locks == [0, 1, 2]
    assert t.is_over


def test_the_order_of_locks_may_be_given() -> None:
    t = Tournament.start(PLAYERS, order=[2, 0, 1])
    assert t.next_lock == 2
    assert t.game_options({"difficulty": "hard"}) == {"difficulty": "hard", "lock": 2}


@pytest.mark.parametrize("order", [[0, 1], [0, 0, 1], [0, 1, 3]])
def test_an_order_that_is_not_every_seat_once_is_refused(order: list[int]) -> None:
    with pytest.raises(RulesError, match="every seat"):
        Tournament.start(PLAYERS, order=order)


def test_a_tournament_needs_two_players() -> None:
    with pytest.raises(RulesError, match="at least 2"):
        Tournament.start(["solo"])


def test_tournament_score_is_the_sum_of_game_scores_with_zero_as_lock() -> None:
    t = Tournament.start(PLAYERS)
    t = t.record(result([0, 4, -2]))
    t = t.record(result([3, 0, 1]))
    t = t.record(result([-1, 2, 0]))
    assert t.totals == (2, 6, -1)


def test_the_lock_scoring_in_their_own_game_is_refused() -> None:
    with pytest.raises(RulesError, match="Lock"):
        Tournament.start(PLAYERS).record(result([1, 2, 3]))


def test_scores_for_a_different_number_of_players_are_refused() -> None:
    with pytest.raises(RulesError, match="2 scores"):
        Tournament.start(PLAYERS).record(result([0, 2]))


def test_standings_rank_by_total_and_tied_players_share_a_rank() -> None:
    t = Tournament.start(["A", "B", "C", "D"])
    for scores in ([0, 3, 1, 3], [2, 0, 0, 0], [0, 0, 0, 0], [1, 0, 2, 0]):
        t = t.record(result(scores))
    assert [(s.name, s.total, s.rank) for s in t.standings()] == [
        ("A", 3, 1),
        ("B", 3, 1),
        ("C", 3, 1),
        ("D", 3, 1),
    ]
    t = Tournament.start(["A", "B", "C", "D"])
    for scores in ([0, 5, 1, 5], [2, 0, 0, 0], [0, 0, 0, 0], [1, 0, 2, 0]):
        t = t.record(result(scores))
    assert [(s.name, s.total, s.rank) for s in t.standings()] == [
        ("B", 5, 1),
        ("D", 5, 1),
        ("A", 3, 3),
        ("C", 3, 3),
    ]
    assert t.winners == [1, 3] and t.is_tie
    assert t.standings()[0].as_dict() == {"seat": 1, "name": "B", "total": 5, "rank": 1}


def test_single_highest_total_wins() -> None:
    t = Tournament.start(["A", "B"])
    t = t.record(result([0, 4])).record(result([5, 0]))
    assert t.winners == [0] and not t.is_tie


def test_no_winner_before_the_last_game() -> None:
    assert Tournament.start(PLAYERS).record(result([0, 4, 1])).winners == []


def test_abandoned_game_counts_for_nothing_and_the_same_player_is_lock_again() -> None:
    t = Tournament.start(PLAYERS).record(result([0, 9, 9], counts=False))
    assert t.totals == (0, 0, 0) and t.next_lock == 0 and t.abandoned == 1


def test_no_game_after_the_tournament_is_over() -> None:
    t = Tournament.start(["A", "B"]).record(result([0, 1])).record(result([1, 0]))
    assert t.next_lock is None
    with pytest.raises(RulesError, match="over"):
        t.record(result([0, 1]))
    with pytest.raises(RulesError, match="over"):
        t.game_options()


def test_dump_and_load_round_trip_through_json() -> None:
    t = Tournament.start(PLAYERS, order=[1, 2, 0]).record(result([2, 0, 1]))
    t = t.record(result([0, 0, 0], counts=False))
    assert Tournament.load(json.loads(json.dumps(t.dump()))) == t
    with pytest.raises(RulesError, match="not a saved"):
        Tournament.load({"players": PLAYERS})


def test_a_whole_tournament_of_real_games() -> None:
    t = Tournament.start(PLAYERS)
    game_scores = []
    while t.next_lock is not None:
        state = GAME.start(PLAYERS, t.game_options({"difficulty": "easy"}))
        lock = state.lock
        state = GAME.apply(state, lock, "secret 1-2-3")
        guessers = state.guessers
        state = GAME.apply(state, guessers[0], "guess 1-2")  # +1
        state = GAME.apply(state, guessers[1], "guess 3-2-1")  # +2, found
        outcome = GAME.outcome(state)
        assert outcome is not None
        game_scores.append(outcome["scores"])
        t = t.record(outcome)
        if len(game_scores) == 1:  # an abandoned replay of the next game counts for nothing
            replay = GAME.start(PLAYERS, t.game_options())
            t = t.record(GAME.outcome(abandon_game(replay)) or {})
    assert game_scores == [[0, 1, 2], [1, 0, 2], [1, 2, 0]]
    assert t.totals == (2, 3, 4)
    assert t.winners == [2] and t.abandoned == 1
