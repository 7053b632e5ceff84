"""Filtering codes by the clue board: every way gives the codes the feedback rule allows."""

from __future__ import annotations

import random

import pytest

from rules.unlock import (
    DIFFICULTIES,
    GAME,
    Clue,
    Code,
    all_codes,
    clues_from_view,
    code_table,
    codes_remaining,
    consistent_codes,
    consistent_indices,
    consistent_masks,
    count_consistent,
    feedback,
    line_index,
    random_code,
)

SETTINGS = [(level, auto) for level in DIFFICULTIES for auto in (True, False)]


def board_for(secret: Code, guesses: list[Code]) -> list[Clue]:
    return [Clue(guess, feedback(secret, guess)[0]) for guess in guesses]


def expected(board: list[Clue], codes: list[Code]) -> set[int]:
    """The codes that would have produced every clue, and are not a card already played."""
    return {
        code.lines
        for code in codes
        if all(feedback(code, clue.code)[0] == clue.matches and code != clue.code for clue in board)
    }


@pytest.mark.parametrize(("level", "auto_connect"), SETTINGS)
def test_every_filter_keeps_exactly_the_codes_consistent_with_the_board(
    level: str, auto_connect: bool
) -> None:
    rng = random.Random(f"{level}{auto_connect}")
    table = code_table(level, 3, auto_connect)
    index = line_index(level, 3, auto_connect)
    codes = list(all_codes(level, 3, auto_connect))
    for cards in (3, 10) if level != "hard" else (10,):  # Hard: one board keeps this quick
        secret = random_code(rng, level, 3, auto_connect)
        guesses = [random_code(rng, level, 3, auto_connect) for _ in range(cards)]
        board = board_for(secret, [g for g in guesses if g != secret])
        want = expected(board, codes)
        assert secret.lines in want
        assert {c.lines for c in consistent_codes(codes, board)} == want
        assert set(consistent_masks(table.masks, board)) == want
        positions = consistent_indices(index, board)
        assert positions == sorted(positions)
        assert {index.masks[i] for i in positions} == want
        assert count_consistent(board, level, 3, auto_connect) == len(want)


def test_empty_board_keeps_every_code() -> None:
    assert count_consistent([], "hard") == len(code_table("hard"))
    assert len(consistent_indices(line_index("easy"), [])) == len(code_table("easy"))


def test_a_card_already_played_is_not_the_secret() -> None:
    # 1-2 scored 1 match: 1-2 itself agrees with that, but would have ended the game.
    board = [Clue(Code.parse("1-2"), 1)]
    remaining = {str(c) for c in consistent_codes(all_codes("easy"), board)}
    assert "1-2" not in remaining and "1-2-3" in remaining
    assert count_consistent(board, "easy") == len(remaining)


def test_impossible_board_leaves_nothing() -> None:
    board = [Clue(Code.parse("1-2"), 0), Clue(Code.parse("1-2-3"), 2)]
    assert count_consistent(board, "medium") == 0
    assert consistent_indices(line_index("medium"), board) == []


def test_counting_is_refused_gracefully_on_the_4x4_card() -> None:
    assert count_consistent([], "easy", size=4) is None


def test_clues_can_be_read_from_a_spectator_view() -> None:
    state = GAME.start(["Lock", "Aiko", "Ben"], {"repeats": "score_zero", "auto_connect": False})
    state = GAME.apply(state, 0, "secret 1-3-6")
    for turn in (["1-3", "4-6"], ["4-6", "2-5-8"]):  # the second 4-6 is a repeat
        for seat, code in zip((1, 2), turn, strict=True):
            state = GAME.apply(state, seat, f"guess {code}")
    clues = clues_from_view(GAME.view(state, None))
    assert clues == state.clues
    assert [str(clue.code) for clue in clues] == ["1-3", "4-6", "2-5-8"]
    assert count_consistent(clues, "medium", 3, False) == codes_remaining(state)
