"""The clue board as a filter: which codes are still consistent with every card on it.

A code could be the secret only if every card on the board would have scored the matches it did
against it, and it is not a card already played (that card would have ended the game). This is
the hint engine's basic step and what the panel counts as "codes still possible".

>>> from rules.unlock import Code, all_codes
>>> board = [Clue(Code.parse("1-2-3"), 1)]
>>> sorted(map(str, consistent_codes(all_codes("easy", max_lines=1), board)))
['1-2', '2-3']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rules.unlock.codes import Code
from rules.unlock.enumeration import code_table, is_enumerable


@dataclass(frozen=True)
class Clue:
    """One card on the clue board: the code played and how many of its lines matched."""

    code: Code
    matches: int


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
    """Line masks from ``masks`` consistent with ``clues``: the fast path over a code table.

    Filters clue by clue, most selective first, each pass a list comprehension over the
    survivors, so a board of ten cards costs little more than its first card.
    """
    tests = _tests(clues)
    played = {lines for lines, _ in tests}
    survivors = [mask for mask in masks if mask not in played]
    for lines, matches in tests:
        survivors = [mask for mask in survivors if (mask & lines).bit_count() == matches]
        if not survivors:
            break
    return survivors


def count_consistent(
    clues: Sequence[Clue], difficulty: str, size: int = 3, auto_connect: bool = True
) -> int | None:
    """How many codes of the level agree with the clue board; ``None`` where too many to list.

    Uses the cached code table (3×3); on 4×4 the levels cannot be listed and this is ``None``.
    """
    if not is_enumerable(difficulty, size):
        return None
    return len(consistent_masks(code_table(difficulty, size, auto_connect).masks, clues))


def _tests(clues: Iterable[Clue]) -> list[tuple[int, int]]:
    """The clues as (lines mask, matches), fewest-matches-per-line first (most selective)."""
    tests = [(clue.code.lines, clue.matches) for clue in clues]
    tests.sort(key=lambda t: t[1] / t[0].bit_count())
    return tests
