"""The winning figures of each level: which sets of edges a colour must cover to win.

- Level 1: the three edges of a face (20 figures).
- Level 1+: a face and its opposite face, six edges (10 figures).
- Level 2: a zig-zag belt, the ten edges joining the neighbours of a vertex to the neighbours of
  its opposite vertex (6 figures).
- Level 2+: the six outer edges of a double-size triangle, a face plus its three neighbours
  (20 figures); the harder variant adds the opposite double triangle (10 figures of 12 edges).
- Level 4: three mutually perpendicular pairs of opposite edges (the 30 edges split into 5).

All are derived from :mod:`rules.ico.geometry`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rules.ico.geometry import (
    EDGE_IDS,
    FACE,
    FACE_IDS,
    FACE_NEIGHBOURS,
    NEIGHBOURS,
    OPPOSITE_EDGE,
    OPPOSITE_FACE,
    OPPOSITE_VERTEX,
    VERTICES,
    direction,
    edge_id,
)

LEVELS: tuple[str, ...] = ("1", "1+", "2", "2+", "4")
#: Levels whose rules are known only in part (later articles of the series).
EXTENDED_LEVELS: tuple[str, ...] = ("2", "2+", "4")


@dataclass(frozen=True)
class Figure:
    """A set of edges that wins when one colour covers all of them; ``name`` says which."""

    name: str
    edges: frozenset[str]
    faces: tuple[str, ...] = ()


def face_figures() -> tuple[Figure, ...]:
    """Level 1: every face."""
    return tuple(Figure(f"face {f}", frozenset(FACE[f].edges), (f,)) for f in FACE_IDS)


def opposite_face_figures() -> tuple[Figure, ...]:
    """Level 1+: every face together with its opposite face."""
    figures = []
    for f in FACE_IDS:
        g = OPPOSITE_FACE[f]
        if FACE_IDS.index(f) < FACE_IDS.index(g):
            edges = frozenset(FACE[f].edges) | frozenset(FACE[g].edges)
            figures.append(Figure(f"faces {f} and {g}", edges, (f, g)))
    return tuple(figures)


def belt(v: str) -> frozenset[str]:
    """The zig-zag belt between the neighbours of ``v`` and those of its opposite vertex."""
    near, far = NEIGHBOURS[v], NEIGHBOURS[OPPOSITE_VERTEX[v]]
    edges = set()
    for a in near:
        for b in NEIGHBOURS[a] & far:
            edges.add(edge_id(a, b))
    return frozenset(edges)


def belt_figures() -> tuple[Figure, ...]:
    """Level 2: the six belts, one per pair of opposite vertices."""
    figures = []
    for v in VERTICES:
        w = OPPOSITE_VERTEX[v]
        if VERTICES.index(v) < VERTICES.index(w):
            figures.append(Figure(f"belt between {v} and {w}", belt(v)))
    return tuple(figures)


def double_triangle(face: str) -> frozenset[str]:
    """The six outer edges of ``face`` and its three neighbours (a double-size triangle)."""
    edges: set[str] = set()
    for g in FACE_NEIGHBOURS[face]:
        edges |= set(FACE[g].edges)
    return frozenset(edges - set(FACE[face].edges))


def double_triangle_figures(with_opposite: bool = False) -> tuple[Figure, ...]:
    """Level 2+: every double triangle, or (harder) every double triangle with its opposite."""
    if not with_opposite:
        return tuple(
            Figure(f"double triangle around {f}", double_triangle(f), (f, *FACE_NEIGHBOURS[f]))
            for f in FACE_IDS
        )
    figures = []
    for f in FACE_IDS:
        g = OPPOSITE_FACE[f]
        if FACE_IDS.index(f) < FACE_IDS.index(g):
            figures.append(
                Figure(
                    f"double triangles around {f} and {g}",
                    double_triangle(f) | double_triangle(g),
                    (f, *FACE_NEIGHBOURS[f], g, *FACE_NEIGHBOURS[g]),
                )
            )
    return tuple(figures)


def perpendicular(a: str, b: str) -> bool:
    """Whether edges ``a`` and ``b`` are perpendicular on the solid."""
    da, db = direction(a), direction(b)
    return abs(sum(x * y for x, y in zip(da, db, strict=True))) < 1e-9


def perpendicular_figures() -> tuple[Figure, ...]:
    """Level 4: the five sets of three mutually perpendicular pairs of opposite edges."""
    pairs = []
    for e in EDGE_IDS:
        o = OPPOSITE_EDGE[e]
        if EDGE_IDS.index(e) < EDGE_IDS.index(o):
            pairs.append((e, o))
    figures: list[Figure] = []
    used: set[str] = set()
    for first in pairs:
        if first[0] in used:
            continue
        group = [p for p in pairs if p == first or perpendicular(p[0], first[0])]
        edges = frozenset(e for p in group for e in p)
        used |= edges
        figures.append(Figure(f"perpendicular set {len(figures) + 1}", edges))
    return tuple(figures)


def figures_for(level: str, double_opposite: bool = False) -> tuple[Figure, ...]:
    """The winning figures of ``level`` (``double_opposite``: the harder Level 2+ variant)."""
    return _FIGURES[(level, double_opposite and level == "2+")]


_FIGURES: Mapping[tuple[str, bool], tuple[Figure, ...]] = MappingProxyType(
    {
        ("1", False): face_figures(),
        ("1+", False): opposite_face_figures(),
        ("2", False): belt_figures(),
        ("2+", False): double_triangle_figures(),
        ("2+", True): double_triangle_figures(with_opposite=True),
        ("4", False): perpendicular_figures(),
    }
)
