"""A deliberately naive second enumeration of legal codes, written apart from the engine.

It shares no code with ``rules.unlock``: dots are (row, column) points, geometry is exact
rational arithmetic (a point on a segment, two segments meeting), and a code is a frozenset of
lines, each a frozenset of two dot numbers. It tries every sequence of distinct dots from
``itertools.permutations`` (and each as a closed loop) and judges it as the rules text reads:

- with auto-connection on, a sequence whose stroke passes over any dot is not a drawing of its
  own (the stroke would pick that dot up, which another sequence spells out), and no stroke may
  pass over a dot the path uses;
- with it off, a line may pass over unused dots, but never over a dot the path uses, and a dot
  passed over is *crossed*: no other line may pass over it (seed 002: "The path can't cross the
  same dot twice"; landing on it is "a dot the path uses" above);
- Easy: neighbouring dots only; Easy and Medium: no two lines cross, and no loops;
- Hard: crossings allowed; a loop of at least 3 lines.
Each sequence's reverse (and each loop's rotations) draws the same lines; the set removes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from itertools import combinations, pairwise, permutations

Line = frozenset[int]
Pair = tuple[int, int]
LineSet = frozenset[Line]
LEVELS = ("easy", "medium", "hard")


def point(dot: int, size: int) -> tuple[int, int]:
    return ((dot - 1) // size, (dot - 1) % size)


@cache
def dots_on_segment(a: int, b: int, size: int) -> frozenset[int]:
    """The dots strictly between a and b on the straight segment a–b (exact arithmetic)."""
    (ya, xa), (yb, xb) = point(a, size), point(b, size)
    inside = set()
    for dot in range(1, size * size + 1):
        if dot in (a, b):
            continue
        y, x = point(dot, size)
        # y = ya + t (yb - ya), x = xa + t (xb - xa) for one t in (0, 1)?
        candidates = set()
        if yb != ya:
            candidates.add(Fraction(y - ya, yb - ya))
        elif y != ya:
            continue
        if xb != xa:
            candidates.add(Fraction(x - xa, xb - xa))
        elif x != xa:
            continue
        if len(candidates) == 1 and 0 < next(iter(candidates)) < 1:
            inside.add(dot)
    return frozenset(inside)


@cache
def lines_cross(first: Line, second: Line, size: int) -> bool:
    """True when the lines share no dot and meet at exactly one point inside both."""
    if first & second:
        return False
    (a, b), (c, d) = sorted(first), sorted(second)
    (ya, xa), (yb, xb) = point(a, size), point(b, size)
    (yc, xc), (yd, xd) = point(c, size), point(d, size)
    # Solve a + t (b - a) = c + u (d - c) by Cramer's rule.
    det = (yb - ya) * (-(xd - xc)) - (-(yd - yc)) * (xb - xa)
    if det == 0:
        return False  # parallel or collinear: never a single meeting point
    t = Fraction((yc - ya) * (-(xd - xc)) - (-(yd - yc)) * (xc - xa), det)
    u = Fraction((yb - ya) * (xc - xa) - (yc - ya) * (xb - xa), det)
    return 0 < t < 1 and 0 < u < 1


def neighbours(a: int, b: int, size: int) -> bool:
    (ya, xa), (yb, xb) = point(a, size), point(b, size)
    return abs(ya - yb) <= 1 and abs(xa - xb) <= 1


@cache
def geometry(size: int) -> tuple[dict[Pair, frozenset[int]], dict[Pair, Line]]:
    """For every ordered pair of dots: the dots the segment passes over, and the line itself."""
    pairs = [(a, b) for a in range(1, size * size + 1) for b in range(1, size * size + 1) if a != b]
    return (
        {pair: dots_on_segment(*pair, size) for pair in pairs},
        {pair: frozenset(pair) for pair in pairs},
    )


def judge(sequence: tuple[int, ...], size: int) -> Iterator[tuple[str, bool, LineSet]]:
    """``(level, auto_connect, lines)`` for every setting under which ``sequence`` is legal."""
    over, line_of = geometry(size)
    used = set(sequence)
    strokes = list(pairwise(sequence))
    passes_any = False
    crossed: set[int] = set()
    for stroke in strokes:
        inside = over[stroke]
        if inside:
            if not inside.isdisjoint(used):
                return  # a stroke over a used dot: illegal in every setting
            if not inside.isdisjoint(crossed):
                return  # "The path can't cross the same dot twice" (seed 002)
            crossed |= inside
            passes_any = True
    settings = [False] if passes_any else [True, False]
    lines = [line_of[stroke] for stroke in strokes]
    line_set = frozenset(lines)
    for auto in settings:
        yield "hard", auto, line_set
    if sequence[0] == sequence[-1]:
        return
    if any(lines_cross(p, q, size) for p, q in combinations(lines, 2)):
        return
    for auto in settings:
        yield "medium", auto, line_set
    if all(neighbours(a, b, size) for a, b in strokes):
        for auto in settings:
            yield "easy", auto, line_set


def naive_codes(size: int, max_lines: int | None = None) -> dict[tuple[str, bool], set[LineSet]]:
    """Every legal code (as a line set, at most ``max_lines`` lines) of every level and setting."""
    found: dict[tuple[str, bool], set[LineSet]] = {
        (level, auto): set() for level in LEVELS for auto in (True, False)
    }
    dots = range(1, size * size + 1)
    most = size * size if max_lines is None else max_lines
    for count in range(2, min(most + 1, size * size) + 1):
        for sequence in permutations(dots, count):
            # A sequence and its reverse draw the same lines: judging one of them is enough.
            if sequence[0] < sequence[-1] and count - 1 <= most:
                for level, auto, lines in judge(sequence, size):
                    found[level, auto].add(lines)
            # As a loop: one rotation and direction of each is enough, for the same reason.
            if 3 <= count <= most and sequence[1] < sequence[-1] and sequence[0] == min(sequence):
                for level, auto, lines in judge((*sequence, sequence[0]), size):
                    found[level, auto].add(lines)
    return found
