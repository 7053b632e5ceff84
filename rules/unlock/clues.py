"""The clue board as a filter: which codes are still consistent with every card on it.

A code could be the secret only if every card on the board would have scored the matches it did
against it, and it is not a card already played (that card would have ended the game). This is
the hint engine's basic step and what the panel counts as "codes still possible".

>>> from rules.unlock import Code, all_codes
>>> board = [Clue(Code.parse("1-2-3"), 1)]
>>> sorted(map(str, consistent_codes(all_codes("easy", max_lines=1), board)))
['1-2', '2-3']

Two ways to filter: :func:`consistent_codes` / :func:`consistent_masks` test code by code (any
codes you give them), and :func:`consistent_indices` filters a whole cached level at once with
one bitset per line (bit ``i`` set when code ``i`` of the table holds the line): a clue becomes a
bit-sliced count of the guess's lines over every code together, a few dozen big-int operations
instead of one popcount per code (see docs/benchmarks.md).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from rules.unlock.codes import Code
from rules.unlock.enumeration import code_masks, is_enumerable
from rules.unlock.grid import grid


@dataclass(frozen=True)
class Clue:
    """One card on the clue board: the code played and how many of its lines matched."""

    code: Code
    matches: int


def clues_from_view(view: Mapping[str, Any]) -> list[Clue]:
    """The clues of an UNLOCK view's ``clue_board`` (repeats are not clues), so a hint engine
    working from views alone can filter: ``count_consistent(clues_from_view(v), ...)``."""
    auto_connect = bool(view["options"]["auto_connect"])
    return [
        Clue(Code.parse(card["code"], int(view["size"]), auto_connect), int(card["matches"]))
        for card in view["clue_board"]
        if not card["repeat"]
    ]


def consistent_codes(codes: Iterable[Code], clues: Iterable[Clue]) -> Iterator[Code]:
    """The ``codes`` that agree with every clue (and are not themselves a played card)."""
    tests = _tests(clues)
    played = {lines for lines, _ in tests}
    for code in codes:
        if code.lines in played:
            continue
        if all((code.lines & lines).bit_count() == matches for lines, matches in tests):
            yield code


def consistent_masks(masks: Iterable[int], clues: Iterable[Clue]) -> list[int]:
    """Line masks from ``masks`` consistent with ``clues``, clue by clue over the survivors."""
    tests = _tests(clues)
    played = {lines for lines, _ in tests}
    survivors = [mask for mask in masks if mask not in played]
    for lines, matches in tests:
        survivors = [mask for mask in survivors if (mask & lines).bit_count() == matches]
        if not survivors:
            break
    return survivors


@dataclass(frozen=True, eq=False)
class LineIndex:
    """For each line, the codes of a level holding it, as one bitset (an int; bit i: code i,
    the i-th of ``masks``, which is :func:`code_masks` order, the same as :func:`code_table`)."""

    size: int
    masks: array[int]
    holders: tuple[int, ...]
    everything: int


@cache
def line_index(difficulty: str, size: int = 3, auto_connect: bool = True) -> LineIndex:
    """The :class:`LineIndex` of a level (built once; about 0.5 MB on 3×3 Hard; 3×3 only)."""
    masks = code_masks(difficulty, size, auto_connect)
    count = len(masks)
    planes = [bytearray((count + 7) // 8) for _ in range(grid(size).line_count)]
    for index, mask in enumerate(masks):
        byte, bit = index >> 3, 1 << (index & 7)
        while mask:
            low = mask & -mask
            planes[low.bit_length() - 1][byte] |= bit
            mask ^= low
    holders = tuple(int.from_bytes(plane, "little") for plane in planes)
    return LineIndex(size, masks, holders, (1 << count) - 1)


def consistent_indices(index: LineIndex, clues: Iterable[Clue]) -> list[int]:
    """Positions in ``index.masks`` of the codes consistent with ``clues``, in order."""
    tests = _tests(clues)
    played = {lines for lines, _ in tests}
    masks = index.masks
    return [i for i in _bit_positions(_agreeing(index, tests)) if masks[i] not in played]


def _agreeing(index: LineIndex, tests: list[tuple[int, int]]) -> int:
    """The bitset of table codes that score every test's matches (played cards included)."""
    g = grid(index.size)
    alive = index.everything
    for lines, matches in tests:
        # Count, for every code at once, how many of the card's lines it holds: ``planes[j]``
        # is bit j of that count (a ripple-carry adder over bitsets).
        planes: list[int] = []
        for line in g.lines_of_mask(lines):
            carry = index.holders[line]
            for j, plane in enumerate(planes):
                planes[j], carry = plane ^ carry, plane & carry
                if not carry:
                    break
            if carry:
                planes.append(carry)
        if matches >> len(planes):
            return 0
        for j, plane in enumerate(planes):
            alive &= plane if matches >> j & 1 else ~plane
        if not alive:
            return 0
    return alive


def count_consistent(
    clues: Sequence[Clue], difficulty: str, size: int = 3, auto_connect: bool = True
) -> int | None:
    """How many codes of the level agree with the clue board; ``None`` where too many to list.

    Uses the cached code table (3×3); on 4×4 the levels cannot be listed and this is ``None``.
    The count of a board is kept (a board changes only when a turn ends, while every guess
    entered asks again).
    """
    if not is_enumerable(difficulty, size):
        return None
    return _count(tuple(_tests(clues)), difficulty, size, auto_connect)


@lru_cache(maxsize=64)
def _count(tests: tuple[tuple[int, int], ...], difficulty: str, size: int,
           auto_connect: bool) -> int:
    agreeing = _agreeing(line_index(difficulty, size, auto_connect), list(tests))
    # Played cards agreeing with every clue are in the bitset too (they are codes of the level)
    # but cannot be the secret: take them out by count rather than by position.
    played = {lines for lines, _ in tests}
    return agreeing.bit_count() - sum(
        all((card & lines).bit_count() == matches for lines, matches in tests) for card in played
    )


def _tests(clues: Iterable[Clue]) -> list[tuple[int, int]]:
    """The clues as (lines mask, matches), fewest-matches-per-line first (most selective)."""
    tests = [(clue.code.lines, clue.matches) for clue in clues]
    tests.sort(key=lambda t: t[1] / t[0].bit_count())
    return tests


def _bit_positions(bits: int) -> list[int]:
    """The positions of the set bits of ``bits``, lowest first."""
    if bits.bit_count() <= 64:
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out
    text = format(bits, "b")[::-1]
    out, at = [], text.find("1")
    while at >= 0:
        out.append(at)
        at = text.find("1", at + 1)
    return out
