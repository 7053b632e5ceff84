"""Codes: continuous paths of straight lines between dots, compared as sets of lines.

A :class:`Code` is a small hashable value. Its text form is the dots in drawing order joined by
``-`` (a loop repeats its first dot at the end). :meth:`Code.parse` accepts any traversal of a
code; ``str(code)`` prints one canonical traversal, so equal codes print equally:

>>> str(Code.parse("9-5-1"))
'1-5-9'
>>> Code.parse("5-1-2-5") == Code.parse("1-2-5-1")
True
>>> str(Code.parse("1-3"))              # auto-connection joins the dot the stroke passes over
'1-2-3'
>>> str(Code.parse("1-3", auto_connect=False))
'1-3'
>>> feedback(Code.parse("1-2-3"), Code.parse("2-3-6"))
(1, 1)

The rules every code obeys whatever the level (a continuous path, no dot used twice except the
start of a closed loop, no line passing over a used dot) are checked here, when a code is made;
the level's own rules are checked by :func:`rules.unlock.validate`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from rules.errors import IllegalAction
from rules.unlock.grid import Grid, grid

#: Seed 002 ("The path can't cross the same dot twice"), as refusals quote it.
CROSS_TWICE = (
    "the path can't cross the same dot twice: a dot a line passes over is crossed, and no "
    "later line may land on it or pass over it"
)


class BadCode(IllegalAction):
    """Text that is not a code, or a path that breaks the rules every code obeys."""


@dataclass(frozen=True, slots=True)
class Code:
    """A code on an n×n card: the set of its lines, as a bitmask over every pair of dots.

    Make codes with :meth:`parse`, :meth:`from_dots` or :meth:`from_lines`; they check the
    path rules and compute the canonical traversal kept in ``path``. Two codes are equal when
    they are on the same size of card and have the same lines.
    """

    size: int
    lines: int
    path: tuple[int, ...] = field(compare=False)

    @classmethod
    def parse(cls, text: str, size: int = 3, auto_connect: bool = True) -> Code:
        """The code drawn by the traversal ``text`` (``1-5-9-6``; a loop: ``1-2-5-1``).

        Raises :class:`BadCode` (an ``IllegalAction``) naming what is wrong.
        """
        if not isinstance(text, str):
            raise BadCode(f"a code is text like 1-5-9, not {text!r}")
        parts = [part.strip() for part in text.strip().split("-")]
        if parts == [""]:
            raise BadCode("no code given; write the dots joined by '-', e.g. 1-5-9")
        dots = []
        for part in parts:
            if not part.isdigit() or not part.isascii():
                raise BadCode(
                    f"{part!r} in {text.strip()!r} is not a dot number; "
                    "write the dots joined by '-', e.g. 1-5-9"
                )
            dots.append(int(part))
        return cls.from_dots(dots, size, auto_connect)

    @classmethod
    def from_dots(cls, dots: Sequence[int], size: int = 3, auto_connect: bool = True) -> Code:
        """The code drawn by strokes through ``dots`` in order (as the pad reports them)."""
        g = grid(size)
        traced = _trace(list(dots), g, auto_connect)
        return cls(size, _mask_of(traced, g), canonical_path(traced))

    @classmethod
    def from_lines(cls, lines: int, size: int = 3, auto_connect: bool = True) -> Code:
        """The code whose lines are the bits of ``lines``, if they form one path or loop."""
        g = grid(size)
        if not 0 < lines < 1 << g.line_count:
            raise BadCode(f"{lines} is not a set of lines on the {size}×{size} card")
        code = cls.from_dots(_walk_lines(lines, g), size, auto_connect)
        if code.lines != lines:
            raise BadCode(
                f"lines {', '.join(g.line_text(i) for i in g.lines_of_mask(lines))} pass over "
                "a dot, which auto-connection would join; they are not one code with it on"
            )
        return code

    def __str__(self) -> str:
        return "-".join(map(str, self.path))

    def __repr__(self) -> str:
        extra = "" if self.size == 3 else f", size={self.size}"
        g = grid(self.size)
        if any(g.between[a][b] for a, b in pairwise(self.path)):
            extra += ", auto_connect=False"
        return f"Code.parse({str(self)!r}{extra})"

    @property
    def is_closed(self) -> bool:
        """True for a closed loop (the path ends on the dot where it started)."""
        return self.path[0] == self.path[-1]

    @property
    def line_count(self) -> int:
        """How many lines the code has."""
        return self.lines.bit_count()

    @property
    def line_texts(self) -> tuple[str, ...]:
        """The lines as players write them (``1-5``), in bit order."""
        g = grid(self.size)
        return tuple(g.line_text(i) for i in g.lines_of_mask(self.lines))

    @property
    def dots_used(self) -> frozenset[int]:
        """The dots the path visits."""
        return frozenset(self.path)


def feedback(secret: Code, guess: Code) -> tuple[int, int]:
    """``(matches, misses)``: lines of ``guess`` that are lines of ``secret``, and those not.

    Lines of the secret missing from the guess do not count.
    """
    if secret.size != guess.size:
        raise ValueError(
            f"cannot compare a {secret.size}×{secret.size} code with a "
            f"{guess.size}×{guess.size} one"
        )
    matches = (secret.lines & guess.lines).bit_count()
    return matches, guess.lines.bit_count() - matches


def dot_refusal(
    dots: Sequence[int], dot: int, size: int = 3, auto_connect: bool = True
) -> str | None:
    """Why ``dot`` may not be drawn next after ``dots`` (None when it may), for inputs that take
    a code dot by dot (the pad): the rules every code obeys, applied as the path grows.

    >>> dot_refusal([1, 9], 5, auto_connect=False)
    "dot 5 was crossed by line 1-9; the path can't cross the same dot twice: ..."
    >>> dot_refusal([1, 9], 3, auto_connect=False) is None
    True
    """
    g = grid(size)
    if not 1 <= dot <= g.dot_count:
        return f"dot {dot} is not on the {size}×{size} card (dots are 1…{g.dot_count})"
    if len(dots) >= 4 and dots[0] == dots[-1]:
        return "the loop is closed; nothing can follow it (Back removes its last dot)"
    if not dots:
        return None
    try:
        _trace([*dots, dot], g, auto_connect)
    except BadCode as refusal:
        return str(refusal)
    return None


def canonical_path(dots: Sequence[int]) -> tuple[int, ...]:
    """The one traversal printed for the code that ``dots`` (a legal traversal) draws.

    An open path starts at its smaller end. A loop starts at its smallest dot and goes first
    towards the smaller of that dot's two neighbours.
    """
    if dots[0] != dots[-1]:
        return tuple(dots) if dots[0] < dots[-1] else tuple(reversed(dots))
    ring = list(dots[:-1])
    start = ring.index(min(ring))
    ring = ring[start:] + ring[:start]
    if ring[-1] < ring[1]:
        ring = [ring[0], *reversed(ring[1:])]
    return (*ring, ring[0])


def _mask_of(dots: Sequence[int], g: Grid) -> int:
    mask = 0
    for a, b in pairwise(dots):
        mask |= g.line_bit[a][b]
    return mask


def _trace(dots: list[int], g: Grid, auto_connect: bool) -> list[int]:
    """The dots of the path the strokes draw, after auto-connection; checks the path rules."""
    label = "-".join(map(str, dots))
    for dot in dots:
        if not 1 <= dot <= g.dot_count:
            raise BadCode(
                f"dot {dot} is not on the {g.size}×{g.size} card (dots are 1…{g.dot_count})"
            )
    if len(dots) < 2:
        raise BadCode(f"{label} has no line; a code needs at least one line, e.g. 1-5")
    path = [dots[0]]
    used = 1 << dots[0]
    #: Dots a line passed over without joining them (auto-connection off): crossed, for good.
    crossed: dict[int, str] = {}
    last = len(dots) - 2
    for stroke, (a, b) in enumerate(pairwise(dots)):
        if a == b:
            raise BadCode(f"dot {a} follows itself in {label}; a line joins two different dots")
        over = g.between[a][b]
        if over & used:
            dot = g.dots_of_mask(over & used)[0]
            raise BadCode(
                f"the stroke {a}-{b} passes over dot {dot}, which is already used; "
                "a stroke may not pass over a used dot"
            )
        again = [dot for dot in g.dots_of_mask(over) if dot in crossed]
        if again and not auto_connect:
            raise BadCode(
                f"line {a}-{b} passes over dot {again[0]}, which line {crossed[again[0]]} "
                f"already crossed; {CROSS_TWICE}"
            )
        if b in crossed:
            raise BadCode(f"dot {b} was crossed by line {crossed[b]}; {CROSS_TWICE}")
        if not auto_connect:
            crossed.update((dot, f"{min(a, b)}-{max(a, b)}") for dot in g.dots_of_mask(over))
        for dot in _dots_along(a, b, g) if auto_connect else [b]:
            if used >> dot & 1:
                closes = stroke == last and dot == b == path[0]
                if not closes:
                    raise BadCode(f"dot {dot} is used twice in {label}; a dot may be used once")
                if len(path) < 3:
                    raise BadCode(
                        f"{label} closes a loop of {len(path)} lines; "
                        "a closed loop needs at least 3 lines"
                    )
            used |= 1 << dot
            path.append(dot)
    if not auto_connect:
        for a, b in pairwise(path):
            over = g.between[a][b] & used
            if over:
                raise BadCode(
                    f"line {a}-{b} passes over dot {g.dots_of_mask(over)[0]}, which the path "
                    "uses; a line may not pass over a used dot"
                )
    return path


def _dots_along(a: int, b: int, g: Grid) -> list[int]:
    """The dots a straight stroke a→b meets after a, in order, ending with b."""
    inside = g.dots_of_mask(g.between[a][b])
    return [*sorted(inside, key=lambda d: abs(d - a)), b]


def _walk_lines(lines: int, g: Grid) -> list[int]:
    """A traversal of the lines in ``lines``, if they form one path or one loop."""
    ends = [g.line_ends[i] for i in g.lines_of_mask(lines)]
    links: dict[int, list[int]] = {}
    for a, b in ends:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    texts = ", ".join(f"{a}-{b}" for a, b in ends)
    branching = sorted(d for d, near in links.items() if len(near) > 2)
    if branching:
        raise BadCode(
            f"lines {texts} meet {len(links[branching[0]])} times at dot {branching[0]}; "
            "a code is one path, using each dot once"
        )
    loose = sorted(d for d, near in links.items() if len(near) == 1)
    start = loose[0] if loose else min(links)
    walk, previous = [start], 0
    while True:
        here = walk[-1]
        onward = [d for d in links[here] if d != previous]
        if not onward or (len(walk) > 2 and here == start):
            break
        previous = here
        walk.append(onward[0])
    if len(walk) - 1 != len(ends):
        raise BadCode(f"lines {texts} do not form one continuous path")
    return walk
