"""How a guess would split the codes still possible: the sizes of its feedback classes.

A guess answers with its ``matches`` (how many of its lines the secret holds), so it splits the
codes still possible into classes by that number; a code equal to the guess is a class of its
own (the game would end). The hint engine scores guesses by these class sizes.

Counting is done for every candidate at once: the candidates become one bitset per line (bit
``i`` set when candidate ``i`` holds the line), a guess's matches are a bit-sliced sum of its
lines' bitsets, and each class size is one ``bit_count`` — a few dozen big-int operations per
guess instead of one popcount per candidate.

>>> from rules.unlock.codes import Code
>>> codes = [Code.parse(t).lines for t in ("1-2", "2-3", "1-2-3", "4-5")]
>>> split = Splitter(codes)
>>> split.classes(Code.parse("1-2-3").lines)   # {matches: codes}; -1: the guess itself
{0: 1, 1: 2, -1: 1}
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The class of the code equal to the guess (a hit ends the game).
HIT = -1


class Splitter:
    """The feedback classes of any guess over a fixed list of candidate line masks."""

    def __init__(self, candidates: Sequence[int]) -> None:
        self.candidates = list(candidates)
        self.positions = {mask: i for i, mask in enumerate(self.candidates)}
        self.everything = (1 << len(self.candidates)) - 1
        holders: dict[int, int] = {}
        for i, mask in enumerate(self.candidates):
            bit = 1 << i
            while mask:
                low = mask & -mask
                holders[low] = holders.get(low, 0) | bit
                mask ^= low
        self.holders = holders

    def planes(self, guess: int) -> list[int]:
        """Bit ``j`` of every candidate's matches with ``guess``: ``planes[j]`` (bit-sliced)."""
        planes: list[int] = []
        holders = self.holders
        while guess:
            low = guess & -guess
            guess ^= low
            carry = holders.get(low, 0)
            for j, plane in enumerate(planes):
                planes[j], carry = plane ^ carry, plane & carry
                if not carry:
                    break
            if carry:
                planes.append(carry)
        return planes

    def members(self, guess: int) -> dict[int, int]:
        """The candidates of each class as a bitset over positions: ``{matches: bits}``;
        the guess itself, if it is a candidate, under :data:`HIT`."""
        planes = self.planes(guess)
        out: dict[int, int] = {}
        self._fill(planes, 0, 0, self.everything, out)
        at = self.positions.get(guess)
        if at is not None:
            bit = 1 << at
            lines = guess.bit_count()
            out[lines] &= ~bit
            if not out[lines]:
                del out[lines]
            out[HIT] = bit
        return out

    def classes(self, guess: int) -> dict[int, int]:
        """The size of each class: ``{matches: count}``, :data:`HIT` for the guess itself."""
        return {key: bits.bit_count() for key, bits in self.members(guess).items()}

    def _fill(self, planes: list[int], j: int, value: int, alive: int,
              out: dict[int, int]) -> None:
        """Split ``alive`` by planes ``j…`` (a binary tree over the bits of the matches)."""
        if j == len(planes):
            out[value] = alive
            return
        plane = planes[j]
        ones, zeros = alive & plane, alive & ~plane
        if zeros:
            self._fill(planes, j + 1, value, zeros, out)
        if ones:
            self._fill(planes, j + 1, value | 1 << j, ones, out)

    def score(self, guess: int, parts: Sequence[int] = ()) -> float:
        """How much is left to tell apart after ``guess``, on average (lower is better):
        the sum of ``c·ln c`` over its classes, a hit counting nothing and a little less.
        With ``parts`` (:meth:`partition` of the other guesses of the same turn), over the
        classes the guesses make together."""
        total = 0.0
        for key, bits in self.members(guess).items():
            if key == HIT:
                total -= 1e-3
                continue
            for part in parts or (self.everything,):
                count = (bits & part).bit_count()
                if count > 1:
                    total += count * math.log(count)
        return total

    def partition(self, guesses: Sequence[int]) -> list[int]:
        """The candidates split by the feedback of every guess in ``guesses`` together, as
        bitsets (one per class that is not empty)."""
        parts = [self.everything]
        for guess in guesses:
            classes = list(self.members(guess).values())
            parts = [part & bits for part in parts for bits in classes if part & bits]
        return parts
