"""The balance rules: on which edges of the active face the mover may place, and why.

Levels 1, 1+, 2 and 2+: **colour balance** first — let ``U`` be the face's edges without the
mover's colour; one such edge must be used; of two, the one carrying fewer markers. Then **count
balance** — with all three free of the mover's colour, an edge carrying the fewest markers. Ties
leave the choice to the mover. At Levels 1/1+ an edge holds at most one marker of a colour, so an
empty ``U`` means no placement (a move-only turn). At Levels 2/2+ an empty ``U`` allows
**redoubling**: a second marker of the colour on an edge with the fewest markers. Level 4 has no
colour balance and one marker per edge in total: count balance picks the empty edges.

>>> ruling = allowed_placements("1", {"N-U0": (1, 0), "U0-U1": (0, 0), "N-U1": (1, 0)},
...                             ("N-U0", "U0-U1", "N-U1"), seat=0, markers_left=29)
>>> ruling.edges, ruling.rule
(('U0-U1',), 'colour balance')
>>> ruling.reason
'you must use edge U0-U1: it is the only edge of this face without your colour'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: How many markers of one colour an edge may hold, per level ("a second marker" at 2/2+).
MAX_OWN_PER_EDGE: Mapping[str, int] = {"1": 1, "1+": 1, "2": 2, "2+": 2, "4": 1}


@dataclass(frozen=True)
class Ruling:
    """The edges the mover may place on (empty: a move-only turn), the rule, and why."""

    edges: tuple[str, ...]
    rule: str
    reason: str


def allowed_placements(
    level: str,
    markers: Mapping[str, Sequence[int]],
    face_edges: Sequence[str],
    seat: int,
    markers_left: int,
) -> Ruling:
    """Where ``seat`` may place on the face with ``face_edges``; ``markers`` maps edge → counts.

    ``markers[edge][seat]`` is how many markers of ``seat``'s colour lie on ``edge``.
    """
    total = {e: sum(markers[e]) for e in face_edges}
    mine = {e: markers[e][seat] for e in face_edges}
    if markers_left <= 0:
        return Ruling((), "no markers left",
                      "you have no markers left: roll the face across an edge of your choice")
    if level == "4":
        free = tuple(e for e in face_edges if total[e] == 0)
        if not free:
            return Ruling((), "one marker per edge",
                          "every edge of this face already holds a marker (Level 4 allows one "
                          "per edge): roll the face across an edge of your choice")
        return _fewest(free, total, "count balance",
                       "it is the only empty edge of this face (Level 4: one marker per edge)",
                       "they are the empty edges of this face (Level 4: one marker per edge)")
    without = tuple(e for e in face_edges if mine[e] == 0)
    if len(without) == 1:
        return Ruling(without, "colour balance",
                      f"you must use edge {without[0]}: it is the only edge of this face "
                      "without your colour")
    if len(without) == 2:
        return _fewest(without, total, "colour balance",
                       "of the two edges without your colour it carries fewer markers",
                       "they are the two edges without your colour and carry equally many "
                       "markers")
    if len(without) == 3:
        return _fewest(without, total, "count balance",
                       "it carries the fewest markers of this face",
                       "they carry the fewest markers of this face")
    cap = MAX_OWN_PER_EDGE[level]
    open_edges = tuple(e for e in face_edges if mine[e] < cap)
    if not open_edges:
        if cap == 1:
            return Ruling((), "move only",
                          "all three edges of this face carry your colour: you place nothing "
                          "and roll the face across an edge of your choice")
        return Ruling((), "move only",
                      "all three edges of this face carry two of your markers: you place "
                      "nothing and roll the face across an edge of your choice")
    return _fewest(open_edges, total, "redoubling",
                   "every edge of this face carries your colour, so you put a second marker "
                   "on the edge with the fewest markers",
                   "every edge of this face carries your colour, so you put a second marker "
                   "on one of the edges with the fewest markers")


def _fewest(candidates: tuple[str, ...], total: Mapping[str, int], rule: str,
            why_one: str, why_several: str) -> Ruling:
    least = min(total[e] for e in candidates)
    edges = tuple(e for e in candidates if total[e] == least)
    if len(edges) == 1:
        return Ruling(edges, rule, f"you must use edge {edges[0]}: {why_one}")
    return Ruling(edges, rule, f"use {_either(edges)}: {why_several} ({least})")


def _either(edges: tuple[str, ...]) -> str:
    if len(edges) == 2:
        return f"{edges[0]} or {edges[1]}"
    return f"any of {', '.join(edges[:-1])} or {edges[-1]}"
