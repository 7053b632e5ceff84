"""Easy, Medium and Hard: what each level allows, and refusals that name the rule and lines."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.unlock import DIFFICULTIES, Code, validate


def refusal(text: str, level: str, size: int = 3, auto_connect: bool = True) -> str:
    with pytest.raises(IllegalAction) as refused:
        validate(Code.parse(text, size, auto_connect), level)
    return str(refused.value)


def test_levels_are_easy_medium_hard() -> None:
    assert DIFFICULTIES == ("easy", "medium", "hard")


@pytest.mark.parametrize("text", ["1-5-9", "1-2-3-6-9-8-7-4", "5-1", "7-5-3"])
def test_easy_allows_neighbouring_dots_without_crossing(text: str) -> None:
    validate(Code.parse(text), "easy")


def test_easy_refuses_a_line_between_dots_that_are_not_neighbours() -> None:
    assert refusal("1-6", "easy") == (
        "line 1-6 joins dots that are not neighbours; on Easy a line joins horizontally, "
        "vertically or diagonally adjacent dots"
    )


def test_easy_accepts_a_long_stroke_that_auto_connection_splits() -> None:
    validate(Code.parse("1-9"), "easy")  # 1-5-9


def test_easy_refuses_a_long_line_without_auto_connection() -> None:
    assert "line 1-9 joins dots that are not neighbours" in refusal("1-9", "easy", 3, False)


def test_easy_refuses_crossing_lines_naming_both() -> None:
    assert refusal("1-5-2-4", "easy") == "lines 1-5 and 2-4 cross; crossing is not allowed on Easy"


def test_easy_refuses_a_closed_loop() -> None:
    message = refusal("1-2-5-1", "easy")
    assert "starts and ends on dot 1" in message
    assert "closed loops are allowed only on Hard" in message


def test_medium_allows_lines_between_dots_further_apart() -> None:
    validate(Code.parse("1-6"), "medium")  # knight-like
    validate(Code.parse("1-8-3"), "medium")


def test_medium_refuses_crossing_lines_naming_both() -> None:
    assert refusal("1-6-3-4", "medium") == (
        "lines 1-6 and 3-4 cross; crossing is not allowed on Medium"
    )


def test_medium_refuses_a_closed_loop() -> None:
    assert "closed loops are allowed only on Hard" in refusal("1-6-8-1", "medium")


def test_lines_crossing_between_dots_are_refused_without_auto_connect() -> None:
    # 1-6 and 2-4 cross between dots; (1-9 and 3-7, meeting on dot 5, cross that dot twice,
    # which no level allows: see test_crossed_dots.py)
    assert "lines 1-6 and 2-4 cross" in refusal("1-6-2-4", "medium", 3, False)
    validate(Code.parse("1-6-2-4", auto_connect=False), "hard")


def test_lines_meeting_at_a_used_dot_do_not_cross() -> None:
    validate(Code.parse("1-5-3"), "easy")
    validate(Code.parse("4-5-2"), "easy")


def test_hard_allows_crossing_lines() -> None:
    validate(Code.parse("1-5-2-4"), "hard")
    validate(Code.parse("1-6-3-4"), "hard")


def test_hard_allows_a_closed_loop_of_three_or_more_lines() -> None:
    validate(Code.parse("1-2-5-1"), "hard")
    validate(Code.parse("1-3-9-7-1"), "hard")  # auto-connected: eight lines round the edge


def test_hard_loop_may_cross_itself() -> None:
    validate(Code.parse("1-5-2-4-1"), "hard")


def test_levels_apply_on_the_4x4_card() -> None:
    validate(Code.parse("1-6-11-16", size=4), "easy")
    assert "line 1-7" in refusal("1-7", "easy", 4)
    assert "lines 1-6 and 2-5 cross" in refusal("1-6-2-5", "medium", 4)
    validate(Code.parse("1-6-2-5", size=4), "hard")


def test_unknown_level_is_refused_naming_the_levels() -> None:
    with pytest.raises(ValueError, match=r"'expert'.*easy, medium, hard"):
        validate(Code.parse("1-2"), "expert")
