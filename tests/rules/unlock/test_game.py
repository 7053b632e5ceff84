"""The game of UNLOCK as the rules describe it: secret, simultaneous guesses, scoring, the end."""

from __future__ import annotations

import json
from itertools import islice

import pytest

from rules import IllegalAction, OptionError, RulesError, get_game
from rules.unlock import (
    GAME,
    Code,
    UnlockState,
    abandon_game,
    all_codes,
    codes_remaining,
    feedback,
)

NAMES = ["Lock", "Aiko", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen", "Hana", "Ivo"]


def new(players: int = 3, secret: str | None = "1-2-3", **options: object) -> UnlockState:
    state = GAME.start(NAMES[:players], options)
    if secret is not None:
        state = GAME.apply(state, state.lock, f"secret {secret}")
    return state


def play_turn(state: UnlockState, *codes: str) -> UnlockState:
    """Every guesser, in seat order, guesses the next of ``codes``."""
    assert len(codes) == len(state.guessers)
    for seat, code in zip(state.guessers, codes, strict=True):
        state = GAME.apply(state, seat, f"guess {code}")
    return state


def refused(state: UnlockState, seat: int, action: str) -> str:
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before
    return str(refusal.value)


# --- setting up -------------------------------------------------------------------------


def test_registry_gives_the_unlock_game() -> None:
    assert get_game("unlock") is GAME


def test_options_and_defaults_are_as_the_rules_table() -> None:
    state = GAME.start(["a", "b"])
    assert state.options == {
        "difficulty": "medium",
        "size": 3,
        "auto_connect": True,
        "repeats": "reject",
        "turn_limit": 10,
        "shared_win": False,
        "lock": 0,
    }
    described = {o["name"]: o for o in GAME.describe()["options"]}
    assert described["difficulty"]["choices"] == ["easy", "medium", "hard"]
    assert described["repeats"]["choices"] == ["reject", "score_zero"]
    assert described["size"]["choices"] == [3, 4]
    assert described["turn_limit"]["allow_none"] is True


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"difficulty": "expert"}, "difficulty"),
        ({"size": 5}, "size"),
        ({"repeats": "allow"}, "repeats"),
        ({"turn_limit": 0}, "turn_limit"),
        ({"lock": 3}, "lock"),
        ({"shared_win": "sometimes"}, "shared_win"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_option_is_refused_by_name(options: dict[str, object], named: str) -> None:
    with pytest.raises(OptionError) as refusal:
        GAME.start(["a", "b", "c"], options)
    assert refusal.value.option == named


@pytest.mark.parametrize("count", [0, 1, 17])
def test_player_count_outside_two_to_sixteen_is_refused(count: int) -> None:
    with pytest.raises(RulesError, match=f"not {count}"):
        GAME.start([f"p{i}" for i in range(count)])


@pytest.mark.parametrize("players", ["Aiko", None, 3])
def test_players_that_are_not_a_list_of_names_are_refused(players: object) -> None:
    with pytest.raises(RulesError, match="list of names"):
        GAME.start(players)  # type: ignore[arg-type]


def test_blank_player_name_is_refused() -> None:
    with pytest.raises(RulesError, match="name"):
        GAME.start(["a", " "])


def test_the_lock_sets_the_secret_first() -> None:
    state = new(secret=None)
    assert GAME.to_act(state) == [0]
    assert GAME.view(state, None)["phase"] == "secret"
    assert "has not set the secret" in refused(state, 1, "guess 1-2")
    state = GAME.apply(state, 0, "secret 1-5-9")
    assert state.secret == Code.parse("9-5-1")


def test_lock_option_chooses_the_lock_seat() -> None:
    state = new(4, secret=None, lock=2)
    assert GAME.to_act(state) == [2]
    assert "only the Lock (Ben, seat 2) sets the secret" in refused(state, 0, "secret 1-2")
    state = GAME.apply(state, 2, "secret 1-2")
    assert GAME.to_act(state) == [0, 1, 3]


def test_secret_must_obey_the_level() -> None:
    state = new(secret=None, difficulty="easy")
    assert "crossing is not allowed on Easy" in refused(state, 0, "secret 1-5-2-4")


def test_secret_is_set_once() -> None:
    assert "already set" in refused(new(), 0, "secret 4-5-6")


def test_the_lock_does_not_guess() -> None:
    assert "the Lock does not guess" in refused(new(), 0, "guess 4-5-6")


# --- a turn -------------------------------------------------------------------------------


def test_every_guesser_acts_at_once_and_leaves_to_act_when_submitted() -> None:
    state = new(4)
    assert GAME.to_act(state) == [1, 2, 3]
    state = GAME.apply(state, 2, "guess 4-5-6")
    assert GAME.to_act(state) == [1, 3]
    assert GAME.view(state, None)["submitted"] == [2]


def test_a_guesser_submits_one_code_per_turn() -> None:
    state = GAME.apply(new(), 1, "guess 4-5-6")
    assert "already guessed in turn 1" in refused(state, 1, "guess 7-8-9")


def test_guess_must_obey_the_level() -> None:
    state = new(difficulty="easy")
    assert "line 1-6 joins dots that are not neighbours" in refused(state, 1, "guess 1-6")


def test_nothing_is_revealed_until_every_guesser_has_submitted() -> None:
    state = GAME.apply(new(), 1, "guess 4-5-6")
    assert state.board == () and state.turn == 1
    state = GAME.apply(state, 2, "guess 7-8")
    assert [str(card.code) for card in state.board] == ["4-5-6", "7-8"]
    assert state.turn == 2 and GAME.to_act(state) == [1, 2]


def test_score_is_matches_minus_misses() -> None:
    # secret 1-2-3-6: lines 1-2, 2-3, 3-6.
    state = play_turn(new(secret="1-2-3-6"), "2-3-5", "1-2-3-6-9")
    one, two = state.board
    assert (one.matches, one.misses, one.points) == (1, 1, 0)
    assert (two.matches, two.misses, two.points) == (3, 1, 2)
    assert state.scores == (0, 0, 2)


def test_score_can_go_down() -> None:
    state = play_turn(new(secret="1-2-3"), "4-5-6-9", "1-2")
    assert state.scores == (0, -3, 1)


def test_secret_lines_missing_from_the_card_do_not_count() -> None:
    state = play_turn(new(secret="1-2-3-6-9-8-7"), "1-2", "4-5")
    assert [card.points for card in state.board] == [1, -1]


def test_scores_add_up_over_turns() -> None:
    state = play_turn(new(secret="1-2-3"), "1-2", "4-5")
    state = play_turn(state, "2-3-6", "7-8")
    assert state.scores == (0, 1 + 0, -1 - 1)


def test_card_goes_onto_the_clue_board_in_the_column_of_its_matches() -> None:
    state = play_turn(new(secret="1-2-3-6-9"), "1-2-3-6", "7-8")
    board = GAME.view(state, None)["clue_board"]
    assert [(c["code"], c["column"]) for c in board] == [("1-2-3-6", 3), ("7-8", 0)]


def test_any_traversal_of_a_guess_is_accepted_and_shown_canonically() -> None:
    state = play_turn(new(secret="5-6"), "9-5-1", "3-1")
    assert [c["code"] for c in GAME.view(state, None)["clue_board"]] == ["1-5-9", "1-2-3"]


# --- repeats --------------------------------------------------------------------------------


def test_repeat_from_an_earlier_turn_is_refused_by_default() -> None:
    state = play_turn(new(), "4-5-6", "7-8")
    message = refused(state, 2, "guess 6-5-4")
    assert "4-5-6 was already played in turn 1" in message
    assert "repeats=reject" in message


def test_repeat_is_recognised_across_auto_connection() -> None:
    state = play_turn(new(), "4-5-6", "7-8")
    assert "already played" in refused(state, 1, "guess 4-6")


def test_repeat_in_later_turn_scores_zero_with_score_zero() -> None:
    state = play_turn(new(secret="4-5-6-3", repeats="score_zero"), "4-5-6", "7-8")
    state = play_turn(state, "7-8", "6-5-4")
    repeats = [card for card in state.board if card.turn == 2]
    assert [(c.repeat, c.points) for c in repeats] == [(True, 0), (True, 0)]
    assert state.scores == (0, 2, -1)


def test_repeat_is_not_placed_on_the_clue_board() -> None:
    state = play_turn(new(repeats="score_zero"), "4-5-6", "7-8")
    state = play_turn(state, "7-8", "1-4")
    columns = [c["column"] for c in GAME.view(state, None)["clue_board"] if c["turn"] == 2]
    assert columns == [None, 0]
    assert [str(clue.code) for clue in state.clues] == ["4-5-6", "7-8", "1-4"]


@pytest.mark.parametrize("policy", ["reject", "score_zero"])
def test_same_new_code_in_the_same_turn_both_score(policy: str) -> None:
    state = play_turn(new(secret="1-2-3", repeats=policy), "2-3-6", "2-3-6")
    assert [(c.repeat, c.points) for c in state.board] == [(False, 0), (False, 0)]
    state = play_turn(state, "1-2-5", "1-2-5")
    assert [(c.repeat, c.points) for c in state.board[2:]] == [(False, 0), (False, 0)]
    state = play_turn(state, "2-1", "2-1")
    assert state.scores == (0, 1, 1)


# --- the end ------------------------------------------------------------------------------


def test_game_ends_after_the_turn_in_which_a_card_equals_the_secret() -> None:
    state = GAME.apply(new(4, secret="1-2-3"), 1, "guess 3-2-1")
    assert GAME.outcome(state) is None and GAME.to_act(state) == [2, 3]
    state = GAME.apply(GAME.apply(state, 2, "guess 4-5"), 3, "guess 1-2")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["found_by"] == [1]
    assert GAME.to_act(state) == []
    assert "the game is over" in refused(state, 1, "guess 7-8")


def test_a_card_holding_every_secret_line_and_more_does_not_end_the_game() -> None:
    state = play_turn(new(secret="1-2-3"), "1-2-3-6", "4-5")
    assert GAME.outcome(state) is None


def test_highest_score_wins() -> None:
    state = play_turn(new(4, secret="1-2-3-6"), "1-2-3", "1-2-3-6", "5-6")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome["scores"] == [0, 2, 3, -1]
    assert (outcome["winners"], outcome["reason"]) == ([2], "found")


def test_a_guesser_who_did_not_find_the_secret_can_win_on_score() -> None:
    state = play_turn(new(secret="1-2-3-6-9"), "1-2-3-6", "7-8")
    state = play_turn(state, "2-3-6-9", "1-2-3-6-9")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["scores"] == [0, 6, 3]
    assert outcome["winners"] == [1] and outcome["found_by"] == [2]


def test_tie_is_broken_by_the_tied_guesser_who_found_the_secret() -> None:
    state = play_turn(new(secret="1-2-3"), "1-2-5", "4-5")  # +0, -1
    state = play_turn(state, "2-3", "1-2-3")  # +1, +2
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["scores"] == [0, 1, 1]
    assert (outcome["winners"], outcome["reason"]) == ([2], "tie_break")


def test_tie_between_guessers_who_both_found_the_secret_is_a_tie() -> None:
    state = play_turn(new(secret="1-2-3"), "1-2-3", "1-2-3")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome["winners"], outcome["tied"], outcome["reason"]) == ([], [1, 2], "tie")


def test_tie_between_leaders_who_did_not_find_the_secret_is_a_tie() -> None:
    state = new(4, secret="1-2-3-6")
    state = play_turn(state, "1-2-3", "2-3-6", "4-5-6-9-8-7")  # +2, +2, -5
    state = play_turn(state, "4-5", "5-8", "1-2-3-6")  # -1, -1, +3
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["scores"] == [0, 1, 1, -2]
    assert outcome["found_by"] == [3]
    assert (outcome["winners"], outcome["tied"], outcome["reason"]) == ([], [1, 2], "tie")


def test_shared_win_makes_every_tied_guesser_a_winner() -> None:
    state = play_turn(new(secret="1-2-3", shared_win=True), "1-2-3", "1-2-3")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome["winners"], outcome["reason"]) == ([1, 2], "shared_win")


def test_turn_limit_ends_the_game_with_everyone_at_zero_and_losing() -> None:
    state = play_turn(new(secret="1-2-3", turn_limit=2), "1-2", "4-5")
    assert GAME.outcome(state) is None
    state = play_turn(state, "2-3", "5-6")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome["winners"], outcome["scores"], outcome["reason"]) == (
        [],
        [0, 0, 0],
        "turn_limit",
    )
    assert GAME.view(state, None)["scores"] == [0, 0, 0]


def test_default_turn_limit_is_ten_turns() -> None:
    state = new(secret="1-2-3")
    misses = ["4-5", "5-6", "7-8", "8-9", "1-4", "4-7", "2-5", "5-8", "3-6", "6-9"]
    for turn, code in enumerate(misses, start=1):
        assert GAME.outcome(state) is None and state.turn == turn
        assert GAME.view(state, 1)["turns_left"] == 11 - turn
        state = play_turn(state, code, code)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["reason"] == "turn_limit"


def test_finding_the_secret_in_the_last_turn_wins() -> None:
    state = play_turn(new(secret="1-2-3", turn_limit=1), "1-2-3", "4-5")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["reason"] == "found" and outcome["winners"] == [1]


def test_without_a_turn_limit_the_game_goes_on() -> None:
    state = new(secret="1-2-3", turn_limit="none")
    for code in [c for c in all_codes("medium") if c.lines & 1 << 35][:15]:
        state = play_turn(state, str(code), str(code))
    assert GAME.outcome(state) is None and state.turn == 16
    assert GAME.view(state, 1)["turns_left"] is None


# --- abandoning -------------------------------------------------------------------------


def test_host_abandoning_a_game_ends_it_counting_for_nothing() -> None:
    state = play_turn(new(secret="1-2-3"), "1-2", "4-5")
    state = abandon_game(state)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome["reason"] == "abandoned" and outcome["counts"] is False
    assert outcome["winners"] == [] and outcome["scores"] == [0, 0, 0]
    assert GAME.to_act(state) == [] and GAME.view(state, None)["phase"] == "abandoned"
    assert "abandoned" in refused(state, 1, "guess 2-3")


def test_a_finished_game_cannot_be_abandoned() -> None:
    state = abandon_game(new())
    with pytest.raises(IllegalAction, match="already abandoned"):
        abandon_game(state)


# --- players, cards, auto-connection --------------------------------------------------------


@pytest.mark.parametrize("players", [2, 7, 10])
def test_any_number_of_guessers_plays(players: int) -> None:
    state = new(players, secret="4-5")
    codes = [
        f"{a}-{b}"
        for a, b in [(1, 2), (2, 3), (7, 8), (8, 9), (1, 4), (3, 6), (4, 7), (6, 9), (2, 5)]
    ]
    state = play_turn(state, *codes[: players - 1])
    assert len(state.board) == players - 1 and state.turn == 2
    state = play_turn(state, *["4-5"] * (players - 1))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["found_by"] == list(range(1, players))


def test_4x4_game_uses_dots_1_to_16() -> None:
    state = new(secret="1-6-11-16", size=4)
    state = play_turn(state, "1-11", "13-14")
    assert [(c.matches, c.misses) for c in state.board] == [(2, 0), (0, 1)]
    assert "dot 17 is not on the 4×4 card" in refused(state, 1, "guess 16-17")


def test_without_auto_connect_a_long_stroke_is_one_line_when_scored() -> None:
    state = play_turn(new(secret="1-2-3", auto_connect=False), "1-3", "3-2-1")
    assert [(c.matches, c.misses) for c in state.board] == [(0, 1), (2, 0)]


def test_unknown_action_names_the_actions() -> None:
    message = refused(new(), 1, "pass")
    assert "'secret CODE'" in message and "'guess CODE'" in message


@pytest.mark.parametrize("seat", [-1, 3, "1", None])
def test_seat_outside_the_game_is_refused(seat: object) -> None:
    assert "not in this game" in refused(new(), seat, "guess 1-2")  # type: ignore[arg-type]


# --- legal actions -------------------------------------------------------------------------


def test_lock_may_set_any_code_of_the_level() -> None:
    state = new(secret=None, difficulty="easy")
    actions = list(GAME.legal_actions(state, 0))
    assert sorted(actions) == sorted(f"secret {c}" for c in all_codes("easy"))
    assert list(GAME.legal_actions(state, 1)) == []


def test_guesser_may_guess_any_code_not_played_before_when_repeats_are_refused() -> None:
    state = play_turn(new(difficulty="easy"), "4-5-6", "7-8")
    actions = set(GAME.legal_actions(state, 1))
    assert "guess 4-5-6" not in actions and "guess 7-8" not in actions
    assert len(actions) == sum(1 for _ in all_codes("easy")) - 2


def test_guesser_may_repeat_when_repeats_score_zero() -> None:
    state = play_turn(new(difficulty="easy", repeats="score_zero"), "4-5-6", "7-8")
    assert "guess 4-5-6" in set(GAME.legal_actions(state, 1))


def test_legal_actions_are_lazy_on_the_4x4_card() -> None:
    state = new(secret="1-2", size=4, difficulty="hard")
    first = list(islice(GAME.legal_actions(state, 1), 200))
    assert len(set(first)) == 200
    for action in first[::20]:
        GAME.apply(state, 1, action)


def test_submitted_guesser_has_no_legal_action() -> None:
    state = GAME.apply(new(), 1, "guess 4-5-6")
    assert list(islice(GAME.legal_actions(state, 1), 1)) == []


# --- saving, and the codes still possible --------------------------------------------------


def test_dump_and_load_round_trip_through_json() -> None:
    state = play_turn(
        new(4, secret="1-3-6", auto_connect=False, repeats="score_zero"), "1-3", "4-6", "7-9"
    )
    state = GAME.apply(state, 2, "guess 1-3")
    again = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert again == state
    assert GAME.dump(again) == GAME.dump(state)


def test_load_refuses_what_is_not_a_saved_game() -> None:
    with pytest.raises(RulesError, match="not a saved UNLOCK game"):
        GAME.load({"players": ["a", "b"]})
    data = GAME.dump(new())
    with pytest.raises(RulesError, match="not a saved UNLOCK game"):
        GAME.load({**data, "end": "exploded"})


def test_codes_remaining_counts_codes_agreeing_with_the_public_board() -> None:
    state = play_turn(new(secret="1-2-3-6"), "1-2-5", "4-5-6")
    state = play_turn(state, "2-3-6", "7-8-9")
    expected = [
        code
        for code in all_codes("medium")
        if all(
            feedback(code, card.code)[0] == card.matches and code != card.code
            for card in state.board
        )
    ]
    assert Code.parse("1-2-3-6") in expected
    assert codes_remaining(state) == len(expected)


def test_codes_remaining_is_unknown_on_the_4x4_card() -> None:
    assert codes_remaining(new(size=4)) is None
