"""Codes: text form, canonical printing, auto-connection, the path rules, crossing geometry."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.unlock import BadCode, Code, feedback, grid, segments_cross


def lines(text: str, size: int = 3, auto_connect: bool = True) -> set[str]:
    return set(Code.parse(text, size, auto_connect).line_texts)


# --- text form and canonical printing -------------------------------------------------------


def test_code_prints_its_dots_in_drawing_order_joined_by_dashes() -> None:
    assert str(Code.parse("1-5-9-6")) == "1-5-9-6"


def test_a_path_and_its_reverse_are_the_same_code_and_print_equally() -> None:
    assert Code.parse("6-9-5-1") == Code.parse("1-5-9-6")
    assert str(Code.parse("6-9-5-1")) == str(Code.parse("1-5-9-6")) == "1-5-9-6"


def test_open_path_prints_from_its_smaller_end() -> None:
    assert str(Code.parse("8-4-2")) == "2-4-8"


def test_loop_is_the_same_code_from_any_dot_in_either_direction() -> None:
    traversals = ["1-2-5-1", "2-5-1-2", "5-1-2-5", "1-5-2-1", "5-2-1-5", "2-1-5-2"]
    codes = {Code.parse(text) for text in traversals}
    assert len(codes) == 1
    assert {str(Code.parse(text)) for text in traversals} == {"1-2-5-1"}


def test_loop_prints_from_its_smallest_dot_towards_the_smaller_neighbour() -> None:
    assert str(Code.parse("9-8-4-9")) == "4-8-9-4"
    assert str(Code.parse("9-4-8-9")) == "4-8-9-4"


def test_same_code_means_same_set_of_lines() -> None:
    assert lines("1-2-3-6") == {"1-2", "2-3", "3-6"}
    assert Code.parse("1-2-3-6").lines == Code.parse("6-3-2-1").lines


def test_rotations_and_mirror_images_are_different_codes() -> None:
    assert Code.parse("1-2-3") != Code.parse("1-4-7")  # rotated a quarter turn
    assert Code.parse("1-5-6") != Code.parse("3-5-4")  # mirrored left to right


def test_text_may_have_spaces_around_the_dashes() -> None:
    assert Code.parse(" 1 - 5 - 9 ") == Code.parse("1-5-9")


def test_repr_is_something_you_could_type() -> None:
    assert repr(Code.parse("3-2-1")) == "Code.parse('1-2-3')"
    assert repr(Code.parse("1-6", size=4)) == "Code.parse('1-6', size=4)"
    assert repr(Code.parse("1-3", auto_connect=False)) == "Code.parse('1-3', auto_connect=False)"


def test_codes_on_different_cards_are_different() -> None:
    assert Code.parse("1-2", size=3) != Code.parse("1-2", size=4)


# --- auto-connection ------------------------------------------------------------------------


def test_auto_connect_joins_the_dot_a_stroke_passes_over() -> None:
    assert str(Code.parse("1-3")) == "1-2-3"
    assert lines("1-3") == {"1-2", "2-3"}


def test_auto_connect_joins_every_dot_on_a_long_4x4_stroke() -> None:
    assert str(Code.parse("1-16", size=4)) == "1-6-11-16"
    assert str(Code.parse("13-4", size=4)) == "4-7-10-13"


def test_auto_connected_stroke_equals_the_code_drawn_dot_by_dot() -> None:
    assert Code.parse("7-1-3") == Code.parse("7-4-1-2-3")


def test_without_auto_connect_a_stroke_over_a_dot_is_one_line() -> None:
    assert lines("1-3", auto_connect=False) == {"1-3"}
    assert Code.parse("1-3", auto_connect=False) != Code.parse("1-2-3", auto_connect=False)


def test_stroke_may_not_pass_over_a_used_dot_with_auto_connect() -> None:
    with pytest.raises(BadCode, match="stroke 1-3 passes over dot 2, which is already used"):
        Code.parse("2-1-3")


def test_stroke_may_not_pass_over_a_used_dot_without_auto_connect() -> None:
    with pytest.raises(BadCode, match="passes over dot 2"):
        Code.parse("2-1-3", auto_connect=False)


def test_without_auto_connect_a_line_may_not_pass_over_a_dot_used_later() -> None:
    # Drawn forwards, 2 is still free when 1-3 is drawn; drawn backwards it is not. A code must
    # not depend on its direction, so both are refused.
    with pytest.raises(BadCode, match="dot 2 was crossed by line 1-3"):
        Code.parse("1-3-5-2", auto_connect=False)
    with pytest.raises(BadCode, match="passes over dot 2"):
        Code.parse("2-5-3-1", auto_connect=False)


def test_with_auto_connect_a_dot_joined_by_a_stroke_is_used() -> None:
    with pytest.raises(BadCode, match="dot 2 is used twice"):
        Code.parse("1-3-5-2")


# --- the path rules every code obeys --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no code given"),
        ("5", "a code needs at least one line"),
        ("1-1", "dot 1 follows itself"),
        ("1-x-3", "'x' in '1-x-3' is not a dot number"),
        ("1--3", "'' in '1--3' is not a dot number"),
        ("1-٣", "is not a dot number"),
        ("0-1", "dot 0 is not on the 3×3 card"),
        ("1-10", "dot 10 is not on the 3×3 card"),
        ("1-5-9-5", "dot 5 is used twice"),
        ("1-2-5-2-3", "dot 2 is used twice"),
        ("1-2-1", "closes a loop of 2 lines; a closed loop needs at least 3 lines"),
        ("1-2-5-1-4", "dot 1 is used twice"),
    ],
)
def test_bad_code_is_refused_naming_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadCode, match=message):
        Code.parse(text)


def test_bad_code_is_an_illegal_action() -> None:
    assert issubclass(BadCode, IllegalAction)


def test_dot_16_exists_only_on_the_4x4_card() -> None:
    assert str(Code.parse("12-16", size=4)) == "12-16"
    with pytest.raises(BadCode, match="dot 16 is not on the 3×3 card"):
        Code.parse("9-16")


def test_not_every_dot_must_be_used() -> None:
    assert Code.parse("1-2").line_count == 1


def test_closed_loop_may_revisit_only_its_start_as_the_last_dot() -> None:
    code = Code.parse("1-2-5-4-1")
    assert code.is_closed and code.line_count == 4


def test_closing_stroke_may_not_pass_over_a_used_dot() -> None:
    with pytest.raises(BadCode, match="passes over dot 2"):
        Code.parse("1-2-3-1", auto_connect=False)


def test_closing_stroke_auto_connects_free_dots() -> None:
    assert str(Code.parse("1-5-9-7-1")) == "1-4-7-8-9-5-1"


# --- from_dots / from_lines ---------------------------------------------------------------


def test_from_dots_draws_the_pad_strokes() -> None:
    assert Code.from_dots([3, 1, 7]) == Code.parse("3-2-1-4-7")


def test_from_lines_rebuilds_a_path_or_loop() -> None:
    for text in ("2-4-8-6", "1-2-5-1", "1-6-7"):
        code = Code.parse(text)
        assert Code.from_lines(code.lines) == code
        assert Code.from_lines(code.lines).path == code.path


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        (["1-2", "5-9"], "do not form one continuous path"),
        (["1-5", "2-5", "4-5"], "meet 3 times at dot 5"),
    ],
)
def test_from_lines_refuses_what_is_not_one_path(texts: list[str], message: str) -> None:
    mask = 0
    for text in texts:
        mask |= Code.parse(text).lines
    with pytest.raises(BadCode, match=message):
        Code.from_lines(mask)


def test_from_lines_refuses_a_line_over_a_dot_when_auto_connect_is_on() -> None:
    long_line = Code.parse("1-3", auto_connect=False).lines
    assert Code.from_lines(long_line, auto_connect=False) == Code.parse("1-3", auto_connect=False)
    with pytest.raises(BadCode, match="auto-connection"):
        Code.from_lines(long_line)


# --- lines as a bitmask; feedback --------------------------------------------------------


def test_lines_is_a_bitmask_with_one_bit_per_line() -> None:
    code = Code.parse("1-5-9-6")
    assert isinstance(code.lines, int)
    assert code.lines.bit_count() == code.line_count == 3


def test_3x3_card_has_28_lines_without_a_dot_on_them() -> None:
    g = grid(3)
    assert g.line_count == 36
    assert sum(1 for a, b in g.line_ends if not g.between[a][b]) == 28


def test_feedback_counts_matching_and_missing_lines_of_the_guess() -> None:
    secret = Code.parse("1-2-3-6")  # lines 1-2, 2-3, 3-6
    assert feedback(secret, Code.parse("2-3-5")) == (1, 1)
    assert feedback(secret, Code.parse("1-2-3-6-9")) == (3, 1)
    assert feedback(secret, Code.parse("4-5")) == (0, 1)


def test_secret_lines_missing_from_the_guess_do_not_count() -> None:
    assert feedback(Code.parse("1-2-3-6-9-8-7"), Code.parse("1-2")) == (1, 0)


def test_feedback_refuses_codes_of_different_cards() -> None:
    with pytest.raises(ValueError, match="4×4"):
        feedback(Code.parse("1-2"), Code.parse("1-2", size=4))


# --- crossing ----------------------------------------------------------------------------


def test_diagonals_of_a_square_cross() -> None:
    assert segments_cross((0, 0), (1, 1), (0, 1), (1, 0))


def test_lines_meeting_at_a_shared_dot_never_cross() -> None:
    assert not segments_cross((0, 0), (1, 1), (1, 1), (0, 2))
    assert not segments_cross((0, 0), (2, 2), (0, 0), (2, 1))


def test_line_ending_on_another_line_does_not_cross_it() -> None:
    # 1-3 (through 2) and 2-8: they touch at dot 2, an endpoint; no crossing.
    assert not segments_cross((0, 0), (0, 2), (0, 1), (2, 1))


def test_collinear_overlapping_lines_do_not_cross() -> None:
    # They meet in infinitely many points, not one; a code can never hold both (one would pass
    # over a dot of the other), see docs/decisions.md.
    assert not segments_cross((0, 0), (0, 2), (0, 1), (0, 3))


def test_parallel_lines_do_not_cross() -> None:
    assert not segments_cross((0, 0), (0, 2), (1, 0), (1, 2))


def test_knight_lines_can_cross() -> None:
    # 1-6 and 3-4 on 3×3 cross between the dots.
    assert segments_cross((0, 0), (1, 2), (0, 2), (1, 0))


def test_lines_crossing_over_a_free_dot_cross_without_auto_connect() -> None:
    g = grid(3)
    i, j = g.line_index(1, 9), g.line_index(3, 7)
    assert g.crossing[i] >> j & 1
