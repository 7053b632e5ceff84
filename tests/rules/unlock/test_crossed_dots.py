"""Seed 002: "The path can't cross the same dot twice" — a dot a line passes over is crossed.

With auto-connection off a line may pass over a dot without joining it; that dot is then
crossed and can be neither landed on nor passed over again. The counts of codes per level come
from two enumerations written apart from the engine (``brute_force``: every sequence of dots
judged whole; ``walk_count``: paths walked stroke by stroke) and are checked against the table
in ``docs/rules-notes.md``.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from rules import IllegalAction
from rules.unlock import GAME, BadCode, Code, all_codes, dot_refusal, grid, validate
from rules.unlock.enumeration import search
from tests.rules.unlock.brute_force import LEVELS, naive_codes
from tests.rules.unlock.walk_count import count_codes

SEED = "The path can't cross the same dot twice"
NOTES = Path(__file__).resolve().parents[3] / "docs" / "rules-notes.md"


def raw_code(*dots: int) -> Code:
    """A code built straight from its dots, past every check ``Code.parse`` makes."""
    g = grid(3)
    lines = 0
    for a, b in pairwise(dots):
        lines |= g.line_bit[a][b]
    return Code(3, lines, dots)


# --- the rule, as the seed says it ------------------------------------------------------------


def test_two_lines_over_the_same_free_dot_are_refused() -> None:
    # Seed 002: "The path can't cross the same dot twice": 1-9 crosses dot 5, so 3-7 may not.
    with pytest.raises(BadCode) as refused:
        Code.parse("1-9-3-7", auto_connect=False)
    message = str(refused.value)
    assert "line 3-7 passes over dot 5, which line 1-9 already crossed" in message
    assert "can't cross the same dot twice" in message


def test_hard_without_auto_connection_refuses_1_9_3_7_in_the_game() -> None:
    # Seed 002: "The path can't cross the same dot twice" — also on Hard, where lines may cross.
    state = GAME.start(["Lock", "Aiko"], {"difficulty": "hard", "auto_connect": False})
    with pytest.raises(IllegalAction, match="dot 5, which line 1-9 already crossed"):
        GAME.apply(state, 0, "secret 1-9-3-7")
    state = GAME.apply(state, 0, "secret 1-2-3")
    with pytest.raises(IllegalAction, match="can't cross the same dot twice"):
        GAME.apply(state, 1, "guess 7-3-9-1")
    assert "guess 1-9-3-7" not in GAME.legal_actions(state, 1)
    assert "guess 1-9-3" in GAME.legal_actions(state, 1)


def test_a_crossed_dot_cannot_be_landed_on() -> None:
    # Seed 002: "The path can't cross the same dot twice": 1-9 crosses 5; 6-5 would reach it.
    with pytest.raises(BadCode, match="dot 5 was crossed by line 1-9"):
        Code.parse("1-9-6-5", auto_connect=False)
    with pytest.raises(BadCode, match="passes over dot 5"):
        Code.parse("5-6-9-1", auto_connect=False)  # the same code drawn the other way


def test_a_loop_may_not_close_over_a_crossed_dot() -> None:
    # Seed 002: "The path can't cross the same dot twice": 2-8 and then 9-1 both cross dot 5.
    with pytest.raises(BadCode, match="can't cross the same dot twice"):
        Code.parse("1-2-8-9-1", auto_connect=False)
    validate(Code.parse("1-2-6-9-1", auto_connect=False), "hard")  # 5 crossed once: legal


def test_validate_refuses_a_code_built_past_parse() -> None:
    # Seed 002: "The path can't cross the same dot twice", whatever built the code.
    for level in LEVELS:
        with pytest.raises(IllegalAction, match="lines 1-9 and 3-7 both pass over dot 5"):
            validate(raw_code(1, 9, 3, 7), level)
    with pytest.raises(IllegalAction, match="line 1-9 passes over dot 5, which the path uses"):
        validate(raw_code(1, 9, 6, 5), "hard")


def test_one_line_over_a_free_dot_is_still_allowed() -> None:
    code = Code.parse("1-9-3", auto_connect=False)
    validate(code, "hard")
    validate(code, "medium")
    assert code.line_texts == ("1-9", "3-9")


def test_the_enumeration_lists_no_code_that_crosses_a_dot_twice() -> None:
    # Seed 002: "The path can't cross the same dot twice".
    g = grid(3)
    for code in all_codes("hard", 3, False):
        seen: set[int] = set()
        for a, b in pairwise(code.path):
            over = set(g.dots_of_mask(g.between[a][b]))
            assert not over & seen and not over & set(code.path), str(code)
            seen |= over
    listed = {code.lines for code in all_codes("hard", 3, False)}
    assert raw_code(1, 9, 3, 7).lines not in listed
    assert raw_code(1, 2, 8, 9, 1).lines not in listed
    assert Code.parse("1-2-6-9-1", auto_connect=False).lines in listed


def test_4x4_bounded_search_respects_crossed_dots() -> None:
    # Seed 002: "The path can't cross the same dot twice": 2-10 and 5-7 both cross dot 6.
    g = grid(4)
    bad = g.line_bit[2][10] | g.line_bit[10][5] | g.line_bit[5][7]
    found = {mask for mask, _ in search("hard", 4, False, 3)}
    assert bad not in found
    assert g.line_bit[2][10] | g.line_bit[10][5] in found


# --- the pad's dot entry ------------------------------------------------------------------


def test_dot_refusal_says_why_a_dot_cannot_follow() -> None:
    # Seed 002: "The path can't cross the same dot twice".
    assert dot_refusal([1, 9], 3, auto_connect=False) is None
    assert "dot 5 was crossed by line 1-9" in str(dot_refusal([1, 9], 5, auto_connect=False))
    assert "already crossed" in str(dot_refusal([1, 9, 3], 7, auto_connect=False))
    assert dot_refusal([1, 9, 3], 7, auto_connect=True) is not None  # 3-7 would join used 5
    assert dot_refusal([1, 2], 2) is not None
    assert dot_refusal([], 5) is None
    assert "not on the 3×3 card" in str(dot_refusal([1], 10))
    assert "loop is closed" in str(dot_refusal([1, 2, 5, 1], 9))
    assert dot_refusal([1, 2, 5], 1) is None  # closing a loop is a path rule's business too


# --- how many codes each level has ----------------------------------------------------------


def documented_counts() -> dict[tuple[int, str, bool], int]:
    """The table "Codes per level" of docs/rules-notes.md."""
    counts = {}
    row = re.compile(r"^\| (\d)×\d \| (\w+) \| ([\d ]+) \| ([\d ]+) \|$")
    for line in NOTES.read_text(encoding="utf-8").splitlines():
        found = row.match(line)
        if found:
            size, level = int(found[1]), found[2]
            counts[size, level, True] = int(found[3].replace(" ", ""))
            counts[size, level, False] = int(found[4].replace(" ", ""))
    return counts


@pytest.fixture(scope="module")
def naive_3x3() -> dict[tuple[str, bool], int]:
    return {setting: len(codes) for setting, codes in naive_codes(3).items()}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("auto_connect", [True, False])
def test_documented_3x3_counts_match_two_independent_enumerations(
    naive_3x3: dict[tuple[str, bool], int], level: str, auto_connect: bool
) -> None:
    documented = documented_counts()[3, level, auto_connect]
    assert naive_3x3[level, auto_connect] == documented
    assert count_codes(3, level, auto_connect) == documented
    assert sum(1 for _ in all_codes(level, 3, auto_connect)) == documented


def test_hard_without_auto_connection_lost_the_codes_that_cross_a_dot_twice() -> None:
    # Seed 002: "The path can't cross the same dot twice". Before this rule: 109 382 codes.
    assert documented_counts()[3, "hard", False] == 103_102
    assert count_codes(3, "hard", False) == 103_102


def test_documented_4x4_easy_count_matches_an_independent_walk_and_the_engine() -> None:
    documented = documented_counts()
    assert documented[4, "easy", True] == documented[4, "easy", False]
    assert count_codes(4, "easy", False) == documented[4, "easy", False]
    assert sum(1 for _ in search("easy", 4, False)) == documented[4, "easy", False]
