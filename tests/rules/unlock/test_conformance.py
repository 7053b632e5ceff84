"""The shared conformance suite on UNLOCK: random games under many options and player counts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.bots import LEVELS
from rules.unlock import GAME, Code, UnlockState, random_code
from rules.unlock.bots import BOTS
from tests.rules.conformance import assert_value_absent, bot_picker, check_conformance

NAMES = ["Lock", "Aiko", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen", "Hana"]


def written_somehow(code: Code, rng: random.Random) -> str:
    """``code`` as a player might write it: forwards or backwards."""
    dots = list(code.path)
    if rng.random() < 0.5:
        dots.reverse()
    return "-".join(map(str, dots))


def pick(state: UnlockState, seat: int, rng: random.Random) -> str:
    """A random legal action, drawn without listing every code of the level."""
    if state.secret is None:
        code = random_code(rng, state.difficulty, state.size, state.auto_connect)
        return f"secret {written_somehow(code, rng)}"
    if rng.random() < 0.12:  # somebody finds it, so games also end without a turn limit
        return f"guess {written_somehow(state.secret, rng)}"
    if state.repeats == "score_zero" and state.board and rng.random() < 0.2:
        return f"guess {written_somehow(rng.choice(state.board).code, rng)}"
    while True:
        code = random_code(rng, state.difficulty, state.size, state.auto_connect)
        if state.repeats == "score_zero" or state.played_in(code) is None:
            return f"guess {written_somehow(code, rng)}"


def no_leaks(state: UnlockState, viewer: int | None, view: dict[str, Any]) -> None:
    """The secret reaches only the Lock before the end; a guess only its guesser and the Lock."""
    if state.secret is not None and (viewer == state.lock or state.end is not None):
        assert view["secret"] == str(state.secret)
    if viewer == state.lock or (state.end is not None and state.end != "abandoned"):
        return
    mine = next((str(code) for seat, code in state.guesses if seat == viewer), None)
    public = {str(card.code) for card in state.board} | {mine}
    if state.end is None:
        assert view["secret"] is None
        if state.secret is not None and str(state.secret) not in public:
            assert_value_absent(view, str(state.secret), f"view of {viewer}")
    for seat, code in state.guesses:
        if seat != viewer and str(code) not in public:
            assert_value_absent(view, str(code), f"view of {viewer}")


def illegal(state: UnlockState, seat: int) -> list[str]:
    """Actions the rules must refuse from ``seat`` now."""
    if state.secret is None:
        examples = ["guess 1-2", "secret 1-1", "secret 1-2-1"]
    else:
        examples = ["secret 1-2", "guess 1-2-1", f"guess 1-{state.size**2 + 1}"]
        if state.repeats == "reject" and state.board:
            examples.append(f"guess {state.board[0].code}")
    crossing, far = ("1-5-2-4", "1-6") if state.size == 3 else ("1-6-2-5", "1-7")
    if state.difficulty != "hard":
        examples += [f"guess {crossing}", f"secret {crossing}", "guess 1-2-5-1", "secret 1-2-5-1"]
    if state.difficulty == "easy":
        examples += [f"guess {far}", f"secret {far}"]
    return examples


def run(players: int, options: dict[str, object] | None = None, seeds: int = 6) -> int:
    return check_conformance(
        GAME,
        NAMES[:players],
        options,
        seeds=range(seeds),
        pick=pick,
        leak_check=no_leaks,
        illegal_examples=illegal,
        legal_sample=3,
    )


def test_conformance_default_options() -> None:
    assert run(3, None, seeds=6) > 0


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_conformance_each_difficulty(difficulty: str) -> None:
    assert run(4, {"difficulty": difficulty}, seeds=3) > 0


def test_conformance_hard_without_auto_connect() -> None:
    assert run(3, {"difficulty": "hard", "auto_connect": False}, seeds=3) > 0


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_conformance_4x4_card(difficulty: str) -> None:
    assert run(3, {"size": 4, "difficulty": difficulty, "turn_limit": 3}, seeds=2) > 0


def test_conformance_repeats_score_zero() -> None:
    assert run(4, {"repeats": "score_zero"}, seeds=3) > 0


def test_conformance_without_a_turn_limit() -> None:
    assert run(3, {"turn_limit": "none", "shared_win": True}, seeds=3) > 0


@pytest.mark.parametrize("players", [2, 7, 9])
def test_conformance_player_counts(players: int) -> None:
    assert run(players, {"lock": players - 1, "turn_limit": 4}, seeds=2 if players < 9 else 1) > 0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("difficulty", ["easy", "medium"])
def test_conformance_along_bot_games(difficulty: str, level: str) -> None:
    # the box as the Lock (a bot of the level draws the secret among the level's codes) and two
    # bot guessers, one of the level and one hard: the whole suite along their games
    bots = [BOTS[level], BOTS[level], BOTS["hard"]]
    checked = check_conformance(
        GAME, NAMES[:3], {"difficulty": difficulty}, seeds=range(2), pick=bot_picker(GAME, bots),
        leak_check=no_leaks, illegal_examples=illegal, legal_sample=3,
    )
    assert checked >= 2 * 3  # the secret and at least one turn of two guesses, each game


def test_conformance_along_bot_games_on_hard_with_the_lock_elsewhere() -> None:
    checked = check_conformance(
        GAME, NAMES[:3], {"difficulty": "hard", "lock": 2, "turn_limit": 3}, seeds=range(1),
        pick=bot_picker(GAME, [BOTS["hard"], BOTS["random"], BOTS["easy"]]), leak_check=no_leaks,
        illegal_examples=illegal, legal_sample=3,
    )
    assert checked >= 3
