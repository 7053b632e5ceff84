"""Properties of codes and feedback that hold for every code (hypothesis)."""

from __future__ import annotations

import random
from functools import cache
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from rules import IllegalAction
from rules.unlock import DIFFICULTIES, Code, code_table, feedback, grid, random_code, validate
from tests.rules.unlock.brute_force import dots_on_segment, judge

SETTINGS = st.tuples(st.sampled_from(DIFFICULTIES), st.booleans())


@st.composite
def codes(draw: st.DrawFn, size: int | None = None) -> Code:
    """A legal code: any code of a 3×3 level, or a random walk on the 4×4 card."""
    level, auto_connect = draw(SETTINGS)
    size = size or draw(st.sampled_from([3, 4]))
    if size == 3:
        table = code_table(level, 3, auto_connect)
        return table.code(draw(st.integers(0, len(table) - 1)))
    return random_code(draw(st.randoms(use_true_random=False)), level, 4, auto_connect)


def auto_of(code: Code) -> bool:
    """Whether ``code`` can be written with auto-connection on (no line passes over a dot)."""
    between = grid(code.size).between
    return not any(between[a][b] for a, b in pairwise(code.path))


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Code, Code]:
    size = draw(st.sampled_from([3, 4]))
    return draw(codes(size)), draw(codes(size))


@given(pairs())
def test_feedback_is_symmetric_in_matches(pair: tuple[Code, Code]) -> None:
    a, b = pair
    assert feedback(a, b)[0] == feedback(b, a)[0]


@given(pairs())
def test_matches_plus_misses_is_the_number_of_guess_lines(pair: tuple[Code, Code]) -> None:
    secret, guess = pair
    matches, misses = feedback(secret, guess)
    assert matches + misses == guess.line_count
    assert 0 <= matches <= min(secret.line_count, guess.line_count)


@given(codes())
def test_a_code_matches_itself_fully(code: Code) -> None:
    assert feedback(code, code) == (code.line_count, 0)


@given(codes())
def test_a_code_equals_its_reverse(code: Code) -> None:
    backwards = "-".join(map(str, reversed(code.path)))
    again = Code.parse(backwards, code.size, auto_of(code))
    assert again == code
    assert str(again) == str(code)


@cache
def loop_positions(auto_connect: bool) -> list[int]:
    """Where the closed loops are in the 3×3 Hard table."""
    table = code_table("hard", 3, auto_connect)
    return [i for i in range(len(table)) if table.dots[table.offsets[i]] == table.path(i)[-1]]


@st.composite
def loops(draw: st.DrawFn) -> Code:
    auto_connect = draw(st.booleans())
    return code_table("hard", 3, auto_connect).code(
        draw(st.sampled_from(loop_positions(auto_connect)))
    )


@given(loops(), st.integers(0, 30), st.booleans())
def test_a_loop_equals_itself_from_any_dot_either_way(code: Code, turn: int, back: bool) -> None:
    assert code.is_closed
    ring = list(code.path[:-1])
    k = turn % len(ring)
    order = ring[k:] + ring[:k]
    if back:
        order.reverse()
    again = Code.parse("-".join(map(str, [*order, order[0]])), code.size, auto_of(code))
    assert again == code and str(again) == str(code)


@given(codes())
def test_canonical_printing_is_stable_under_reparsing(code: Code) -> None:
    again = Code.parse(str(code), code.size, auto_of(code))
    assert again == code
    assert str(again) == str(code)
    assert hash(again) == hash(code)


@given(codes())
def test_a_code_is_rebuilt_from_its_lines(code: Code) -> None:
    assert Code.from_lines(code.lines, code.size, auto_of(code)).path == code.path


def engine_accepts(sequence: tuple[int, ...], level: str, auto_connect: bool) -> bool:
    try:
        validate(Code.from_dots(sequence, 3, auto_connect), level)
    except IllegalAction:
        return False
    return True


@given(
    st.lists(st.integers(1, 9), min_size=2, max_size=9, unique=True),
    st.booleans(),
    st.sampled_from(DIFFICULTIES),
)
def test_parse_and_validate_agree_with_the_brute_force_judge(
    dots: list[int], close: bool, level: str
) -> None:
    """A sequence whose strokes pass over no dot is a drawing as it stands in both settings, and
    without auto-connection every sequence is: the engine and the brute force must agree."""
    sequence = (*dots, dots[0]) if close and len(dots) >= 3 else tuple(dots)
    naive = {(lvl, auto) for lvl, auto, _ in judge(sequence, 3)}
    assert engine_accepts(sequence, level, False) == ((level, False) in naive)
    if not any(dots_on_segment(a, b, 3) for a, b in pairwise(sequence)):
        assert engine_accepts(sequence, level, True) == ((level, True) in naive)


def test_random_codes_cover_every_level_on_4x4() -> None:
    rng = random.Random(4)
    for level in DIFFICULTIES:
        assert len({random_code(rng, level, 4).lines for _ in range(100)}) > 50
