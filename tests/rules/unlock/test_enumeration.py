"""all_codes yields every legal code of a level exactly once, checked against a brute force."""

from __future__ import annotations

import random
from itertools import islice, pairwise

import pytest

from rules.unlock import (
    Code,
    all_codes,
    code_masks,
    code_table,
    grid,
    is_enumerable,
    random_code,
    validate,
)
from rules.unlock.enumeration import search
from tests.rules.unlock.brute_force import LEVELS, LineSet, naive_codes

SETTINGS = [(level, auto) for level in LEVELS for auto in (True, False)]


def as_masks(codes: set[LineSet], size: int) -> set[int]:
    """The brute force's line sets as the engine's bitmasks (one bit per pair of dots)."""
    bit = grid(size).line_bit
    out = set()
    for lines in codes:
        mask = 0
        for line in lines:
            a, b = sorted(line)
            mask |= bit[a][b]
        out.add(mask)
    return out


@pytest.fixture(scope="module")
def naive_3x3() -> dict[tuple[str, bool], set[int]]:
    return {setting: as_masks(codes, 3) for setting, codes in naive_codes(3).items()}


@pytest.fixture(scope="module")
def naive_4x4_short() -> dict[tuple[str, bool], set[int]]:
    return {setting: as_masks(codes, 4) for setting, codes in naive_codes(4, 3).items()}


@pytest.mark.parametrize(("level", "auto_connect"), SETTINGS)
def test_all_codes_3x3_are_exactly_the_brute_force_codes(
    naive_3x3: dict[tuple[str, bool], set[int]], level: str, auto_connect: bool
) -> None:
    listed = [code.lines for code in all_codes(level, 3, auto_connect)]
    assert len(listed) == len(set(listed)), "some code was listed twice"
    expected = naive_3x3[level, auto_connect]
    assert set(listed) == expected, (
        f"missing {len(expected - set(listed))}, extra {len(set(listed) - expected)}"
    )


@pytest.mark.parametrize(("level", "auto_connect"), SETTINGS)
def test_all_codes_4x4_up_to_three_lines_are_exactly_the_brute_force_codes(
    naive_4x4_short: dict[tuple[str, bool], set[int]], level: str, auto_connect: bool
) -> None:
    listed = [code.lines for code in all_codes(level, 4, auto_connect, max_lines=3)]
    assert len(listed) == len(set(listed)), "some code was listed twice"
    assert set(listed) == naive_4x4_short[level, auto_connect]


@pytest.mark.parametrize(("level", "auto_connect"), SETTINGS)
def test_every_listed_code_is_legal_and_prints_canonically(level: str, auto_connect: bool) -> None:
    for code in islice(all_codes(level, 3, auto_connect), 0, None, 97):
        validate(code, level)
        bit = grid(3).line_bit
        assert code.lines == sum(bit[a][b] for a, b in pairwise(code.path))
        again = Code.parse(str(code), 3, auto_connect)
        assert again == code and again.path == code.path


@pytest.mark.parametrize(("level", "auto_connect"), SETTINGS)
def test_easier_levels_are_subsets_of_harder_ones(level: str, auto_connect: bool) -> None:
    harder = {"easy": "medium", "medium": "hard", "hard": "hard"}[level]
    mine = set(code_table(level, 3, auto_connect).masks)
    assert mine <= set(code_table(harder, 3, auto_connect).masks)


@pytest.mark.parametrize(("level", "auto_connect"), SETTINGS)
def test_lazy_search_masks_and_table_list_the_same_codes_in_order(
    level: str, auto_connect: bool
) -> None:
    table = code_table(level, 3, auto_connect)
    assert code_masks(level, 3, auto_connect) == table.masks
    lazily = list(search(level, 3, auto_connect))
    assert [mask for mask, _ in lazily] == list(table.masks)
    assert [path for _, path in lazily[::37]] == [table.path(i) for i in range(0, len(table), 37)]
    assert [table.text(i) for i in range(0, len(table), 41)] == [
        "-".join(map(str, path)) for _, path in lazily[::41]
    ]


def test_code_table_is_built_once_and_cached() -> None:
    assert code_table("medium", 3, True) is code_table("medium", 3, True)


def test_4x4_levels_are_searched_lazily_not_cached() -> None:
    assert not is_enumerable("easy", 4)
    with pytest.raises(ValueError, match="too many to list"):
        code_table("hard", 4)
    with pytest.raises(ValueError, match="too many to list"):
        code_masks("easy", 4)
    first = list(islice(all_codes("hard", 4), 1000))
    assert len({code.lines for code in first}) == 1000
    for code in first[::50]:
        validate(code, "hard")


def test_max_lines_keeps_only_short_codes() -> None:
    short = list(all_codes("medium", 3, max_lines=2))
    assert short and all(code.line_count <= 2 for code in short)
    everything = {c.lines for c in all_codes("medium", 3) if c.line_count <= 2}
    assert {c.lines for c in short} == everything


@pytest.mark.parametrize(("level", "auto_connect"), SETTINGS)
@pytest.mark.parametrize("size", [3, 4])
def test_random_code_is_legal_for_its_level(level: str, auto_connect: bool, size: int) -> None:
    rng = random.Random(f"{level}{auto_connect}{size}")
    for _ in range(200):
        code = random_code(rng, level, size, auto_connect)
        validate(code, level)
        assert Code.parse(str(code), size, auto_connect) == code


def test_random_code_makes_loops_on_hard() -> None:
    rng = random.Random(7)
    assert any(random_code(rng, "hard").is_closed for _ in range(200))


def test_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="nightmare"):
        next(all_codes("nightmare"))
    with pytest.raises(ValueError, match="easy, medium, hard"):
        validate(Code.parse("1-2"), "nightmare")
