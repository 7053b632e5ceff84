"""Hacktrick bots: legal moves only, one game per seed, no peeking at hidden cards, and play
that follows what the rules reward (wins, double wins, not handing the opponent a line)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from rules.bot_games import duel, play_bot_game
from rules.bots import LEVELS, get_bot
from rules.hacktrick import GAME, HacktrickState, position
from rules.hacktrick.bot_model import Board, hand_odds
from rules.hacktrick.cards import VALUES
from tests.rules.hacktrick.leaks import rearranged_secrets

OPTIONS: list[dict[str, Any]] = [
    {},
    {"out_of_markers": "empty_supply", "target": 3},
    {"x2_marker": False, "declare_after_draw": True, "starter": "winner", "target": 3},
    {"ask_under_play": True, "declare_after_draw": True, "target": 3},
    {"cards": "table", "target": 3},
]


def legal_of(state: HacktrickState, seat: int) -> list[str]:
    return list(GAME.legal_actions(state, seat))


def bot_game_states(
    levels: tuple[str, str], seed: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[HacktrickState, int, str]]:
    """Every decision of one seeded bot game: the state, the seat, and the action it took."""
    played = play_bot_game("hacktrick", [get_bot("hacktrick", lv) for lv in levels],
                           options=options, seed=seed)
    state = GAME.start(["Aiko", "Ben"], options, seed=seed)
    for seat, action in played.actions:
        yield state, seat, action
        state = GAME.apply(state, seat, action)
    assert GAME.outcome(state) == played.outcome


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("level", LEVELS)
def test_bots_take_only_legal_actions_to_the_end(level: str, options: dict[str, Any]) -> None:
    for seed in range(2):
        decisions = 0
        for state, seat, action in bot_game_states((level, "hard"), seed, options):
            assert action in legal_of(state, seat)
            decisions += 1
        assert decisions > 20


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_replays_the_same_game(level: str) -> None:
    bots = [get_bot("hacktrick", level), get_bot("hacktrick", "easy")]
    first = play_bot_game("hacktrick", bots, seed=3)
    assert play_bot_game("hacktrick", bots, seed=3) == first
    assert play_bot_game("hacktrick", bots, seed=4).actions != first.actions


@pytest.mark.parametrize("level", LEVELS)
def test_choices_do_not_depend_on_cards_the_seat_cannot_see(level: str) -> None:
    """The opponent's hand and the deck dealt otherwise (and another seed): same view, same
    choice from the same generator."""
    bot = get_bot("hacktrick", level)
    compared = 0
    for seed in range(3):
        for state, seat, _ in bot_game_states((level, level), seed):
            other = rearranged_secrets(state, seat)
            if other.hands[1 - seat] == state.hands[1 - seat]:
                continue
            view = GAME.view(state, seat)
            assert GAME.view(other, seat) == view
            legal = legal_of(state, seat)
            assert legal_of(other, seat) == legal
            assert bot.choose(view, legal, random.Random(seed)) == bot.choose(
                GAME.view(other, seat), legal, random.Random(seed)
            )
            compared += 1
    assert compared > 50


def test_the_post_game_weighing_reads_only_what_the_mover_could_see() -> None:
    """The analysis weighs each move from the mover's information (issue 34): with the
    opponent's hand and the deck dealt otherwise, every legal action weighs the same."""
    bot = get_bot("hacktrick", "hard")
    compared = 0
    for seed in range(2):
        for state, seat, action in bot_game_states(("hard", "easy"), seed):
            other = rearranged_secrets(state, seat)
            if other.hands[1 - seat] == state.hands[1 - seat] or action == "ask":
                continue
            legal = legal_of(state, seat)
            if len(legal) < 2:
                continue
            first = bot.weigh(GAME.view(state, seat), legal, action)  # type: ignore[attr-defined]
            again = bot.weigh(GAME.view(other, seat), legal, action)  # type: ignore[attr-defined]
            assert first is not None and first == again
            compared += 1
    assert compared > 20


def test_the_opponent_holding_the_winning_card_or_not_changes_nothing() -> None:
    mine = (1, 5, 5, 5)
    threat = position(hands=(mine, (3, 3, 3)), row=(0,), board={3: "R", 4: "R"})
    harmless = position(hands=(mine, (2, 2, 4)), row=(0,), board={3: "R", 4: "R"})
    view = GAME.view(threat, 0)
    assert GAME.view(harmless, 0) == view
    for level in LEVELS:
        bot = get_bot("hacktrick", level)
        for seed in range(5):
            legal = legal_of(threat, 0)
            assert bot.choose(view, legal, random.Random(seed)) == bot.choose(
                GAME.view(harmless, 0), legal_of(harmless, 0), random.Random(seed)
            )


# --- what the bots know: the odds of the hidden hand, the board model ---------------------------


def hand_counts(hand: tuple[int, ...]) -> tuple[int, ...]:
    counts = Counter(hand)
    return tuple(counts[v] for v in VALUES)


def test_the_opponents_real_hand_is_always_among_the_hands_weighed() -> None:
    checked = 0
    for seed in range(6):
        for state, seat, _ in bot_game_states(("hard", "random"), seed):
            odds = hand_odds(GAME.view(state, seat))
            assert sum(p for _, p in odds) == pytest.approx(1.0)
            support = {hand for hand, p in odds if p > 0}
            assert hand_counts(state.hands[1 - seat]) in support
            checked += 1
    assert checked > 200


def test_a_sum_announced_this_turn_narrows_the_odds_to_hands_of_that_sum() -> None:
    state = position(hands=((1, 2), (0, 4, 5)), row=(3,), captured={0: "R"})
    asked = GAME.apply(state, 0, "ask")
    odds = hand_odds(GAME.view(asked, 0))
    assert odds and all(sum(v * n for v, n in zip(VALUES, h, strict=True)) == 9 for h, _ in odds)
    assert len(odds) < len(hand_odds(GAME.view(state, 0)))


def test_the_bot_board_plays_placements_as_the_rules_do() -> None:
    """Captures, wins and their points, the ×2 marker, running out: the model agrees with
    ``apply`` on every legal play of many positions."""
    checked = 0
    for seed in range(4):
        for options in ({}, {"out_of_markers": "empty_supply"}):
            for state, seat, _ in bot_game_states(("random", "easy"), seed, options):
                view = GAME.view(state, seat)
                for action in legal_of(state, seat):
                    words = action.split()
                    if words[0] != "play":
                        continue
                    checked += 1
                    model = Board.from_view(view)
                    ending = model.place(seat, int(words[1]) + state.row[-1], "x2" in words)
                    if ending is None and "declare=" in action:
                        ending = model.discard(seat)
                    after = GAME.apply(state, seat, action)
                    if len(after.results) > len(state.results):
                        result = after.results[-1]
                        if result.reason == "the opponent could take no turn":
                            continue  # a turn's end, not the placement: outside the model
                        assert ending is not None, action
                        assert (ending.winner, ending.points) == (result.winner, result.points)
                    else:
                        assert ending is None, action
                        assert model == Board.from_view(GAME.view(after, seat)), action
    assert checked > 1000


def test_the_win_map_agrees_with_the_placement_rules() -> None:
    checked = 0
    for seed in range(3):
        for state, seat, _ in bot_game_states(("random", "random"), seed):
            board = Board.from_view(GAME.view(state, seat))
            for owner in (0, 1):
                markers = board.markers(owner)
                expected = [0] + [
                    max(board.win_points(owner, s, x2) for x2 in markers)
                    if markers and board.wins_at(owner, s) else 0
                    for s in range(1, 10)
                ]
                assert board.wins(owner) == expected
                checked += 1
    assert checked > 100


# --- play that follows the rules' rewards ------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_card_that_completes_a_line_is_played(level: str) -> None:
    # White holds 2 and 7 (line 2-6-7); rightmost 1, so a 5 marks 6 and wins.
    state = position(hands=((0, 3, 5), (2, 4)), row=(1,), board={2: "W", 7: "W"})
    for seed in range(5):
        action = get_bot("hacktrick", level).choose(
            GAME.view(state, 0), legal_of(state, 0), random.Random(seed))
        assert action.split()[:2] == ["play", "5"]
        assert GAME.apply(state, 0, action).points == (1, 0)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_of_two_wins_the_one_with_the_x2_marker_is_chosen(level: str) -> None:
    # Line 1-5-9 holds White's ×2 (a plain marker on 5 scores 2); line 2-6-7 would score 1.
    state = position(hands=((4, 5), (0, 2)), row=(1,), board={9: "W*", 1: "W", 2: "W", 7: "W"})
    for seed in range(5):
        action = get_bot("hacktrick", level).choose(
            GAME.view(state, 0), legal_of(state, 0), random.Random(seed))
        assert action == "play 4"
        assert GAME.apply(state, 0, action).points == (2, 0)


def test_hard_does_not_hand_the_opponent_a_winning_sum() -> None:
    # Red holds 3 and 4 (line 3-4-8) and, as White's Ask the sum just told, a single 3.
    # Playing a 5 leaves 5 rightmost, and Red's 3 marks 8 and wins; the 1 leaves 1 rightmost.
    state = position(hands=((1, 5, 5, 5), (3,)), row=(0,), board={3: "R", 4: "R"},
                     captured={0: "R"})
    state = GAME.apply(state, 0, "ask")
    bot = get_bot("hacktrick", "hard")
    for seed in range(5):
        action = bot.choose(GAME.view(state, 0), legal_of(state, 0),
                            random.Random(seed))
        assert action.split()[:2] == ["play", "1"]
    assert GAME.apply(GAME.apply(state, 0, "play 5"), 1, "play 3").points == (0, 1)


def test_hard_asks_the_sum_when_a_captured_marker_makes_it_free() -> None:
    state = position(hands=((1, 2), (0, 4, 5)), row=(3,), captured={0: "R"})
    bot = get_bot("hacktrick", "hard")
    assert bot.choose(GAME.view(state, 0), legal_of(state, 0), random.Random(0)) == "ask"


def test_hard_keeps_captured_markers_when_they_keep_it_in_the_round() -> None:
    state = position(hands=((1, 2), (0, 4, 5)), row=(3,), captured={0: "R"},
                     options={"out_of_markers": "empty_supply"})
    bot = get_bot("hacktrick", "hard")
    assert bot.choose(GAME.view(state, 0), legal_of(state, 0), random.Random(0)) != "ask"


# --- a seeded strength check small enough for CI (the full run is bench/bots.py) ---------------


def wins(level: str, against: str, games: int) -> int:
    """Games ``level`` wins against ``against``, seats alternating, seeds 0…games−1."""
    return sum(duel("hacktrick", level, against, seed) == "win" for seed in range(games))


def test_hard_beats_random_in_nine_of_ten_seeded_games() -> None:
    # A bot no better than random would win 9 of 10 with a chance of 1%.
    assert wins("hard", "random", 10) >= 9


def test_hard_beats_easy_in_thirteen_of_twenty_seeded_games() -> None:
    # A bot no better than easy would win 13 of 20 with a chance of 13%.
    assert wins("hard", "easy", 20) >= 13
