"""The three difficulty levels and :func:`validate`, which names the rule a code breaks.

>>> from rules.unlock.codes import CROSS_TWICE, Code
>>> validate(Code.parse("1-5-9"), "easy")
>>> validate(Code.parse("1-5-2-4"), "easy")
Traceback (most recent call last):
...
rules.errors.IllegalAction: lines 1-5 and 2-4 cross; crossing is not allowed on Easy
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Literal, get_args

from rules.errors import IllegalAction
from rules.unlock.codes import CROSS_TWICE, BadCode, Code, dot_refusal
from rules.unlock.grid import grid

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)


def check_difficulty(difficulty: str) -> Difficulty:
    """``difficulty`` as a :data:`Difficulty`; ``ValueError`` naming the levels otherwise."""
    for level in DIFFICULTIES:
        if difficulty == level:
            return level
    raise ValueError(f"unknown difficulty {difficulty!r} (levels: {', '.join(DIFFICULTIES)})")


def check_crossed_dots(code: Code) -> None:
    """Raise :class:`rules.IllegalAction` if a dot is crossed twice, or crossed and used.

    A line that passes over a dot without joining it (auto-connection off) crosses that dot;
    seed 002: "The path can't cross the same dot twice". :meth:`Code.parse` already refuses
    such paths; this guards codes built from raw masks and paths.
    """
    g = grid(code.size)
    seen: dict[int, str] = {}
    used = code.dots_used
    for a, b in pairwise(code.path):
        line = f"{min(a, b)}-{max(a, b)}"
        for dot in g.dots_of_mask(g.between[a][b]):
            if dot in used:
                raise IllegalAction(
                    f"line {line} passes over dot {dot}, which the path uses; {CROSS_TWICE}"
                )
            if dot in seen:
                raise IllegalAction(
                    f"lines {seen[dot]} and {line} both pass over dot {dot}; {CROSS_TWICE}"
                )
            seen[dot] = line


def validate(code: Code, difficulty: str) -> None:
    """Raise :class:`rules.IllegalAction` if ``code`` breaks a rule of ``difficulty``.

    Every level: no dot crossed twice (:func:`check_crossed_dots`). Easy: only neighbouring
    dots, no crossing, start ≠ end. Medium: any dots, no crossing, start ≠ end. Hard: crossings
    and closed loops (of at least 3 lines) allowed.
    """
    level = check_difficulty(difficulty)
    name = level.capitalize()
    check_crossed_dots(code)
    if level == "hard":
        return
    if code.is_closed:
        raise IllegalAction(
            f"{code} starts and ends on dot {code.path[0]}; the path must end on a different "
            f"dot on {name} (closed loops are allowed only on Hard)"
        )
    g = grid(code.size)
    if level == "easy":
        for a, b in pairwise(code.path):
            if not g.is_adjacent(a, b):
                first, second = sorted((a, b))
                raise IllegalAction(
                    f"line {first}-{second} joins dots that are not neighbours; on Easy a line "
                    "joins horizontally, vertically or diagonally adjacent dots"
                )
    lines = g.lines_of_mask(code.lines)
    for i in lines:
        crossed = g.crossing[i] & code.lines
        if crossed:
            j = g.lines_of_mask(crossed)[0]
            raise IllegalAction(
                f"lines {g.line_text(i)} and {g.line_text(j)} cross; "
                f"crossing is not allowed on {name}"
            )


def next_dots(dots: Sequence[int], difficulty: str, size: int = 3,
              auto_connect: bool = True) -> frozenset[int]:
    """The dots that may be drawn after ``dots`` on ``difficulty``: those the path rules allow
    next (:func:`~rules.unlock.codes.dot_refusal`) whose code so far keeps the level's rules
    (:func:`validate`; a code that breaks one cannot be mended by drawing on). Any dot starts.

    >>> sorted(next_dots([1], "easy", auto_connect=False))  # Easy: neighbours only
    [2, 4, 5]
    >>> sorted(next_dots([1], "easy"))  # auto-connection: 3 after 1 draws 1-2-3
    [2, 3, 4, 5, 7, 9]
    """
    g = grid(size)
    if not dots:
        return frozenset(g.dots)
    allowed = set()
    for dot in g.dots:
        if dot_refusal(dots, dot, size, auto_connect) is not None:
            continue
        try:
            validate(Code.from_dots([*dots, dot], size, auto_connect), difficulty)
        except (IllegalAction, BadCode):
            continue
        allowed.add(dot)
    return frozenset(allowed)
