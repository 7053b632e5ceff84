"""Every legal code of a level, each exactly once, by a depth-first search over bitmasks.

The search walks paths dot by dot with the rules as mask tests (a dot is neither used nor
crossed, no line passes over a used or crossed dot — seed 002: "The path can't cross the same
dot twice" —, no line crosses an earlier one below Hard) and emits each code only in its
canonical traversal: an open path when it ends on a larger dot than it started, a loop when it
starts on its smallest dot and leaves it towards the smaller neighbour. So nothing is emitted
twice and nothing needs deduplicating.

>>> sum(1 for _ in all_codes("easy", max_lines=1))    # every pair of neighbouring dots
20

On 3×3 the codes of a level are kept, once built, in a compact :class:`CodeTable` (masks, paths,
texts: for the games and ``all_codes``) and as bare masks (:func:`code_masks`: for the clue
filter). On 4×4 the levels are too large to keep (Easy
alone has millions of codes) and are searched lazily (see docs/benchmarks.md for the figures).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from rules.unlock.codes import Code
from rules.unlock.grid import Grid, grid
from rules.unlock.levels import Difficulty, check_difficulty

#: A move from a dot: (next dot, line bit, mask of dots passed over, mask of crossing lines).
Move = tuple[int, int, int, int]


@cache
def _moves(size: int, level: Difficulty, auto_connect: bool) -> tuple[tuple[Move, ...], ...]:
    """Per dot, the strokes the level allows from it, with their masks."""
    g = grid(size)
    table: list[tuple[Move, ...]] = [()]
    for a in g.dots:
        moves = []
        for b in g.dots:
            if b == a:
                continue
            if level == "easy" and not g.is_adjacent(a, b):
                continue
            if auto_connect and g.between[a][b]:
                continue  # auto-connection splits this stroke into shorter lines
            bit = g.line_bit[a][b]
            moves.append((b, bit, g.between[a][b], g.crossing[bit.bit_length() - 1]))
        table.append(tuple(moves))
    return tuple(table)


def search(
    difficulty: str, size: int = 3, auto_connect: bool = True, max_lines: int | None = None
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """``(lines mask, canonical path)`` of every legal code with at most ``max_lines`` lines."""
    level = check_difficulty(difficulty)
    g = grid(size)
    moves = _moves(size, level, auto_connect)
    closing = [dict((m[0], m) for m in moves[a]) for a in range(g.dot_count + 1)]
    hard = level == "hard"
    limit = g.dot_count if max_lines is None else max_lines
    for start in g.dots:
        path = [start]
        start_bit = 1 << start
        # Each frame: the moves still to try from the path's end, and the masks to restore.
        frames: list[tuple[Iterator[Move], int, int, int]] = [(iter(moves[start]), start_bit, 0, 0)]
        while frames:
            options, visited, covered, lines = frames[-1]
            for dot, bit, over, cross in options:
                if (visited | covered) >> dot & 1 or over & (visited | covered):
                    continue
                if lines & cross and not hard:
                    continue
                now_visited = visited | 1 << dot
                now_lines = lines | bit
                path.append(dot)
                if start < dot:
                    yield now_lines, tuple(path)
                if hard and len(path) >= 3 and len(path) <= limit and path[1] < dot:
                    back = closing[dot].get(start)
                    if (
                        back is not None
                        and not back[2] & (now_visited | covered | over)
                        and now_visited & -now_visited == start_bit
                    ):
                        yield now_lines | back[1], (*path, start)
                if len(path) - 1 < limit:
                    frames.append((iter(moves[dot]), now_visited, covered | over, now_lines))
                else:
                    path.pop()
                break
            else:
                frames.pop()
                if frames:
                    path.pop()


@dataclass(frozen=True, eq=False)
class CodeTable:
    """Every legal code of one level, compactly: line masks, canonical paths and texts, in order.

    About 40 bytes a code (4 MB for the largest 3×3 level), against ~200 for a list of
    :class:`Code` objects.
    """

    difficulty: Difficulty
    size: int
    auto_connect: bool
    masks: array[int]
    #: Canonical paths back to back; code ``i`` is ``dots[offsets[i]:offsets[i + 1]]``.
    dots: bytes
    offsets: array[int]
    #: Canonical texts back to back; code ``i`` is ``texts[text_offsets[i]:text_offsets[i + 1]]``.
    texts: str
    text_offsets: array[int]

    def __len__(self) -> int:
        return len(self.masks)

    def path(self, index: int) -> tuple[int, ...]:
        """The canonical path of code ``index``."""
        return tuple(self.dots[self.offsets[index] : self.offsets[index + 1]])

    def text(self, index: int) -> str:
        """The canonical text of code ``index``."""
        return self.texts[self.text_offsets[index] : self.text_offsets[index + 1]]

    def code(self, index: int) -> Code:
        """Code ``index`` as a :class:`Code`."""
        return Code(self.size, self.masks[index], self.path(index))

    def __iter__(self) -> Iterator[Code]:
        size, masks, dots, offsets = self.size, self.masks, self.dots, self.offsets
        for index, mask in enumerate(masks):
            yield Code(size, mask, tuple(dots[offsets[index] : offsets[index + 1]]))


def _too_many(level: Difficulty, size: int) -> ValueError:
    return ValueError(
        f"the {level} codes of the {size}×{size} card are too many to list; "
        "use all_codes() lazily or random_code()"
    )


def _collect(level: Difficulty, size: int, auto_connect: bool, keep_paths: bool) -> CodeTable:
    """Every code of a level, by the same search as :func:`search` but recursive and writing
    straight into arrays (about twice as fast); paths and texts only if ``keep_paths``."""
    g = grid(size)
    moves = _moves(size, level, auto_connect)
    closing = [dict((m[0], m) for m in moves[a]) for a in range(g.dot_count + 1)]
    hard = level == "hard"
    names = [str(d) for d in range(g.dot_count + 1)]
    masks, offsets, text_offsets = array("Q"), array("L", [0]), array("L", [0])
    dots, path, texts = bytearray(), bytearray(), []
    length = 0

    def keep(mask: int, text: str, closed: bool) -> None:
        nonlocal length
        masks.append(mask)
        if keep_paths:
            dots.extend(path)
            if closed:
                dots.append(path[0])
            offsets.append(len(dots))
            texts.append(text)
            length += len(text)
            text_offsets.append(length)

    def extend(
        start: int, here: int, second: int, visited: int, covered: int, lines: int, text: str
    ) -> None:
        for dot, bit, over, cross in moves[here]:
            if (
                (visited | covered) >> dot & 1
                or over & (visited | covered)
                or (lines & cross and not hard)
            ):
                continue
            now_visited, now_lines = visited | 1 << dot, lines | bit
            if keep_paths:
                path.append(dot)
                text_now = f"{text}-{names[dot]}"
            else:
                text_now = ""
            if start < dot:  # an open path, in its canonical direction
                keep(now_lines, text_now, False)
            if hard and second and second < dot:  # a loop, from its smallest dot, towards
                back = closing[dot].get(start)  # the smaller neighbour (see search())
                if (
                    back is not None
                    and not back[2] & (now_visited | covered | over)
                    and now_visited & -now_visited == 1 << start
                ):
                    keep(now_lines | back[1], f"{text_now}-{names[start]}", True)
            extend(start, dot, second or dot, now_visited, covered | over, now_lines, text_now)
            if keep_paths:
                path.pop()

    for start in g.dots:
        path.append(start)
        extend(start, start, 0, 1 << start, 0, 0, names[start])
        path.pop()
    return CodeTable(
        level, size, auto_connect, masks, bytes(dots), offsets, "".join(texts), text_offsets
    )


@cache
def code_masks(difficulty: str, size: int = 3, auto_connect: bool = True) -> array[int]:
    """The line masks of every code of a level, in :func:`code_table` order (cached; 3×3 only).

    Only what the clue filter needs: about half the time and a fifth of the memory of
    :func:`code_table`, which also keeps paths and texts.
    """
    level = check_difficulty(difficulty)
    if not is_enumerable(level, size):
        raise _too_many(level, size)
    return _collect(level, size, auto_connect, keep_paths=False).masks


def is_enumerable(difficulty: str, size: int) -> bool:
    """True when every code of the level can be listed at start-up (3×3; not 4×4)."""
    check_difficulty(difficulty)
    return size <= 3


@cache
def code_table(difficulty: str, size: int = 3, auto_connect: bool = True) -> CodeTable:
    """Every legal code of a level as a :class:`CodeTable`, built once and then cached.

    Raises ``ValueError`` on 4×4, whose levels are too large to keep (see docs/benchmarks.md).
    """
    level = check_difficulty(difficulty)
    if not is_enumerable(level, size):
        raise _too_many(level, size)
    return _collect(level, size, auto_connect, keep_paths=True)


def all_codes(
    difficulty: str = "medium",
    size: int = 3,
    auto_connect: bool = True,
    *,
    max_lines: int | None = None,
) -> Iterator[Code]:
    """Every distinct legal code of the level, each exactly once (lazily where not cached).

    ``max_lines`` keeps only codes with at most that many lines.
    """
    level = check_difficulty(difficulty)
    if max_lines is None and is_enumerable(level, size):
        yield from code_table(level, size, auto_connect)
        return
    for mask, path in search(level, size, auto_connect, max_lines):
        yield Code(size, mask, path)


def random_code(
    rng: random.Random,
    difficulty: str = "medium",
    size: int = 3,
    auto_connect: bool = True,
    stop: float = 0.25,
) -> Code:
    """A random legal code: a random walk that stops after each line with chance ``stop``.

    Not uniform over codes (short codes come more often); meant for playouts and tests.
    On Hard the walk closes into a loop when it can, half of the times it stops.
    """
    level = check_difficulty(difficulty)
    g: Grid = grid(size)
    moves = _moves(size, level, auto_connect)
    hard = level == "hard"
    start = rng.choice(g.dots)
    path, visited, covered, lines = [start], 1 << start, 0, 0
    while True:
        here = path[-1]
        options = [
            m
            for m in moves[here]
            if not ((visited | covered) >> m[0] & 1 or m[2] & (visited | covered))
            and (hard or not lines & m[3])
        ]
        if len(path) >= 2 and (not options or rng.random() < stop):
            if hard and len(path) >= 3 and rng.random() < 0.5:
                back = next((m for m in moves[here] if m[0] == start), None)
                if back is not None and not back[2] & (visited | covered):
                    path.append(start)
                    lines |= back[1]
            break
        if not options:  # boxed in before the first line: cannot happen on a real card
            raise AssertionError(f"no stroke from dot {here}")
        dot, bit, over, _ = rng.choice(options)
        path.append(dot)
        visited |= 1 << dot
        covered |= over
        lines |= bit
    return Code.from_dots(path, size, auto_connect)
