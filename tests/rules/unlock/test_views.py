"""What each viewer sees: the secret only for the Lock until the end; a guess only for its
guesser and the Lock until the reveal; who has submitted is public."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.unlock import GAME, UnlockState, abandon_game
from tests.rules.conformance import assert_value_absent

NAMES = ["Lock", "Aiko", "Ben", "Chie"]
VIEW_KEYS = {
    "game",
    "seats",
    "to_act",
    "phase",
    "turn",
    "you",
    "options",
    "outcome",
    "lock",
    "difficulty",
    "size",
    "secret",
    "scores",
    "submitted",
    "my_guess",
    "clue_board",
}
CARD_KEYS = {"turn", "seat", "code", "matches", "misses", "points", "repeat"}


def views(state: UnlockState) -> dict[int | None, dict[str, Any]]:
    return {seat: GAME.view(state, seat) for seat in [None, 0, 1, 2, 3]}


@pytest.fixture
def drawing() -> UnlockState:
    """The Lock (seat 0) is drawing the secret."""
    return GAME.start(NAMES)


@pytest.fixture
def secret_set(drawing: UnlockState) -> UnlockState:
    return GAME.apply(drawing, 0, "secret 7-5-3-6")


@pytest.fixture
def mid_turn(secret_set: UnlockState) -> UnlockState:
    """Aiko guessed 1-2-4, Ben guessed 8-9; Chie has not guessed yet."""
    return GAME.apply(GAME.apply(secret_set, 1, "guess 4-2-1"), 2, "guess 8-9")


@pytest.fixture
def revealed(mid_turn: UnlockState) -> UnlockState:
    return GAME.apply(mid_turn, 3, "guess 1-4-7")


@pytest.fixture
def finished(revealed: UnlockState) -> UnlockState:
    state = GAME.apply(revealed, 1, "guess 3-5-7-4")
    state = GAME.apply(state, 2, "guess 3-5-6")
    return GAME.apply(state, 3, "guess 6-3-5-7")  # the secret, drawn the other way


def test_every_view_has_the_keys_the_rules_name_and_is_json(mid_turn: UnlockState) -> None:
    for seat, view in views(mid_turn).items():
        assert set(view) >= VIEW_KEYS
        assert view["you"] == seat
        assert view["seats"] == NAMES and view["lock"] == 0
        assert (view["difficulty"], view["size"]) == ("medium", 3)
        json.dumps(view)


def test_before_the_secret_nobody_sees_a_secret(drawing: UnlockState) -> None:
    for view in views(drawing).values():
        assert view["secret"] is None and view["secret_set"] is False
        assert view["phase"] == "secret" and view["to_act"] == [0]


def test_only_the_lock_sees_the_secret_during_the_game(mid_turn: UnlockState) -> None:
    seen = views(mid_turn)
    assert seen[0]["secret"] == "6-3-5-7"  # canonical form of 7-5-3-6
    for seat in (None, 1, 2, 3):
        assert seen[seat]["secret"] is None
        assert seen[seat]["secret_set"] is True
        assert_value_absent(seen[seat], "6-3-5-7", f"view of {seat}")


def test_a_guesser_sees_their_own_guess_before_the_reveal(mid_turn: UnlockState) -> None:
    seen = views(mid_turn)
    assert seen[1]["my_guess"] == "1-2-4"
    assert seen[2]["my_guess"] == "8-9"
    assert seen[3]["my_guess"] is None


def test_other_guessers_and_spectators_do_not_see_a_guess_before_the_reveal(
    mid_turn: UnlockState,
) -> None:
    seen = views(mid_turn)
    for seat in (None, 2, 3):
        assert_value_absent(seen[seat], "1-2-4", f"view of {seat}")
        assert seen[seat]["guesses"] is None
    for seat in (None, 1, 3):
        assert_value_absent(seen[seat], "8-9", f"view of {seat}")


def test_the_lock_sees_every_guess_before_the_reveal(mid_turn: UnlockState) -> None:
    assert GAME.view(mid_turn, 0)["guesses"] == [
        {"seat": 1, "code": "1-2-4"},
        {"seat": 2, "code": "8-9"},
    ]
    assert GAME.view(mid_turn, 0)["my_guess"] is None


def test_who_has_submitted_is_public(mid_turn: UnlockState) -> None:
    for view in views(mid_turn).values():
        assert view["submitted"] == [1, 2]
        assert view["to_act"] == [3]


def test_after_the_reveal_every_card_is_public_with_its_score(revealed: UnlockState) -> None:
    for view in views(revealed).values():
        board = view["clue_board"]
        assert [set(card) >= CARD_KEYS for card in board] == [True, True, True]
        assert [(c["seat"], c["code"], c["matches"], c["misses"]) for c in board] == [
            (1, "1-2-4", 0, 2),
            (2, "8-9", 0, 1),
            (3, "1-4-7", 0, 2),
        ]
        assert view["submitted"] == [] and view["my_guess"] is None
        assert view["scores"] == [0, -2, -1, -2]
        assert view["turn"] == 2


def test_the_secret_stays_hidden_after_the_reveal(revealed: UnlockState) -> None:
    for seat in (None, 1, 2, 3):
        assert GAME.view(revealed, seat)["secret"] is None


def test_after_the_end_the_secret_is_public(finished: UnlockState) -> None:
    for view in views(finished).values():
        assert view["secret"] == "6-3-5-7"
        assert view["phase"] == "over" and view["to_act"] == []
        assert view["outcome"]["found_by"] == [3]


def test_abandoned_game_shows_the_secret_but_not_unrevealed_guesses(
    mid_turn: UnlockState,
) -> None:
    state = abandon_game(mid_turn)
    seen = views(state)
    for seat in (None, 1, 2, 3):
        assert seen[seat]["secret"] == "6-3-5-7"
        assert seen[seat]["phase"] == "abandoned"
    for seat in (None, 3):
        assert_value_absent(seen[seat], "1-2-4", f"view of {seat}")
        assert_value_absent(seen[seat], "8-9", f"view of {seat}")


def test_view_of_a_seat_outside_the_game_is_refused(mid_turn: UnlockState) -> None:
    with pytest.raises(ValueError, match="not in this game"):
        GAME.view(mid_turn, 4)
