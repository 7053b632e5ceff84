"""The icosahedron as data: 12 vertices, 30 edges ("rods"), 20 faces, and what is opposite what.

Everything is derived from :data:`FACE_PATTERN`, the labelling of ``docs/rules/ico.md``:
vertices ``N``, ``U0…U4`` (upper ring), ``L0…L4`` (lower ring, offset half a step) and ``S``;
faces ``Ti=(N,Ui,Ui+1)``, ``Ai=(Ui,Ui+1,Li)``, ``Bi=(Li,Li+1,Ui+1)``, ``Di=(S,Li,Li+1)``.
Edges are the faces' sides; the opposite (antipodal) vertex is the one three steps away; the
opposite face and edge are the ones on the opposite vertices.

>>> across("T0", "U0-U1")
'A0'
>>> OPPOSITE_VERTEX["U0"], OPPOSITE_FACE["T0"], OPPOSITE_EDGE["N-U0"]
('L2', 'D2', 'S-L2')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

#: One face per letter, as three vertex patterns: a ring letter and an index offset mod 5.
FACE_PATTERN: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("T", (("N", 0), ("U", 0), ("U", 1))),
    ("A", (("U", 0), ("U", 1), ("L", 0))),
    ("B", (("L", 0), ("L", 1), ("U", 1))),
    ("D", (("S", 0), ("L", 0), ("L", 1))),
)

_RANK = {"N": 0, "U": 1, "L": 2, "S": 3}


def _vertex(letter: str, index: int) -> str:
    return letter if letter in ("N", "S") else f"{letter}{index % 5}"


VERTICES: tuple[str, ...] = ("N", *(f"U{i}" for i in range(5)), *(f"L{i}" for i in range(5)), "S")


def edge_id(a: str, b: str) -> str:
    """The canonical id of the edge joining ``a`` and ``b``, in the ico.md order.

    Across rings the upper vertex comes first (``N-U0``, ``U1-L0``, ``S-L0`` keeps S first as
    ico.md writes it); within a ring the vertex whose successor is the other comes first
    (``U4-U0``).

    >>> edge_id("L0", "U1"), edge_id("U0", "U4"), edge_id("L3", "S")
    ('U1-L0', 'U4-U0', 'S-L3')
    """
    if a == b or a not in _INDEX or b not in _INDEX:
        raise ValueError(f"no edge joins {a!r} and {b!r}")
    if "S" in (a, b):
        other = b if a == "S" else a
        return f"S-{other}"
    ra, rb = _RANK[a[0]], _RANK[b[0]]
    if ra != rb:
        return f"{a}-{b}" if ra < rb else f"{b}-{a}"
    if (int(a[1]) + 1) % 5 == int(b[1]):
        return f"{a}-{b}"
    return f"{b}-{a}"


_INDEX = {v: i for i, v in enumerate(VERTICES)}


@dataclass(frozen=True)
class Face:
    """A triangular face: its id, its three vertices and its three edges (in matching order)."""

    id: str
    vertices: tuple[str, str, str]
    edges: tuple[str, str, str]


@dataclass(frozen=True)
class Edge:
    """An edge ("rod"): its id, its two end vertices and the two faces it borders."""

    id: str
    ends: tuple[str, str]
    faces: tuple[str, str]


def _build_faces() -> tuple[Face, ...]:
    faces = []
    for letter, pattern in FACE_PATTERN:
        for i in range(5):
            a, b, c = (_vertex(ring, i + step) for ring, step in pattern)
            faces.append(
                Face(f"{letter}{i}", (a, b, c), (edge_id(a, b), edge_id(b, c), edge_id(c, a)))
            )
    return tuple(faces)


FACES: tuple[Face, ...] = _build_faces()
FACE_IDS: tuple[str, ...] = tuple(f.id for f in FACES)
FACE: Mapping[str, Face] = MappingProxyType({f.id: f for f in FACES})


def _build_edges() -> tuple[Edge, ...]:
    sides: dict[str, list[str]] = {}
    for face in FACES:
        for side in face.edges:
            sides.setdefault(side, []).append(face.id)
    edges = []
    for side, on in sides.items():
        if len(on) != 2:
            raise AssertionError(f"edge {side} borders {len(on)} faces")
        a, b = side.split("-")
        edges.append(Edge(side, (a, b), (on[0], on[1])))
    return tuple(sorted(edges, key=_edge_order))


def _edge_order(edge: Edge) -> tuple[int, int, int, int]:
    # N-Ui, Ui-Ui+1, Ui-Li and Ui+1-Li, Li-Li+1, S-Li: each family in index order.
    a, b = edge.ends
    ia = int(a[1:] or 0)
    ib = int(b[1:] or 0)
    if a[0] == b[0]:
        return (_RANK[a[0]], _RANK[b[0]], ia, 0)
    return (_RANK[a[0]], _RANK[b[0]], ib, (ia - ib) % 5)


EDGES: tuple[Edge, ...] = _build_edges()
EDGE_IDS: tuple[str, ...] = tuple(e.id for e in EDGES)
EDGE: Mapping[str, Edge] = MappingProxyType({e.id: e for e in EDGES})
#: Edge id → its position in :data:`EDGES` (the index used by marker tables).
EDGE_INDEX: Mapping[str, int] = MappingProxyType({e: i for i, e in enumerate(EDGE_IDS)})

NEIGHBOURS: Mapping[str, frozenset[str]] = MappingProxyType(
    {v: frozenset(b if a == v else a for a, b in (e.ends for e in EDGES) if v in (a, b))
     for v in VERTICES}
)


def _distances(start: str) -> dict[str, int]:
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in NEIGHBOURS[v]:
                if w not in seen:
                    seen[w] = seen[v] + 1
                    nxt.append(w)
        frontier = nxt
    return seen


def _antipode(v: str) -> str:
    far = [w for w, d in _distances(v).items() if d == 3]
    if len(far) != 1:
        raise AssertionError(f"{v} has {len(far)} vertices three steps away")
    return far[0]


OPPOSITE_VERTEX: Mapping[str, str] = MappingProxyType({v: _antipode(v) for v in VERTICES})
_FACE_BY_VERTICES = {frozenset(f.vertices): f.id for f in FACES}
OPPOSITE_FACE: Mapping[str, str] = MappingProxyType(
    {f.id: _FACE_BY_VERTICES[frozenset(OPPOSITE_VERTEX[v] for v in f.vertices)] for f in FACES}
)
OPPOSITE_EDGE: Mapping[str, str] = MappingProxyType(
    {e.id: edge_id(OPPOSITE_VERTEX[e.ends[0]], OPPOSITE_VERTEX[e.ends[1]]) for e in EDGES}
)
def _neighbours(face: Face) -> tuple[str, str, str]:
    a, b, c = (next(g for g in EDGE[side].faces if g != face.id) for side in face.edges)
    return (a, b, c)


#: Face id → the three faces sharing an edge with it, in the order of its edges.
FACE_NEIGHBOURS: Mapping[str, tuple[str, str, str]] = MappingProxyType(
    {f.id: _neighbours(f) for f in FACES}
)


def across(face: str, edge: str) -> str:
    """The face on the other side of ``edge`` from ``face`` (where the active face rolls to)."""
    if edge not in FACE[face].edges:
        raise ValueError(f"edge {edge} is not an edge of face {face}")
    first, second = EDGE[edge].faces
    return second if first == face else first


def _position(v: str) -> tuple[float, float, float]:
    # A regular icosahedron of circumradius 1: poles at ±1, rings at height ±1/√5 and radius
    # 2/√5, the lower ring turned half a step (36°) against the upper one.
    if v == "N":
        return (0.0, 0.0, 1.0)
    if v == "S":
        return (0.0, 0.0, -1.0)
    angle = math.radians(72 * int(v[1]) + (36 if v[0] == "L" else 0))
    z = 1 / math.sqrt(5) * (1 if v[0] == "U" else -1)
    r = 2 / math.sqrt(5)
    return (r * math.cos(angle), r * math.sin(angle), z)


#: Each vertex's position on the solid (for the Level 4 perpendicular edges).
POSITIONS: Mapping[str, tuple[float, float, float]] = MappingProxyType(
    {v: _position(v) for v in VERTICES}
)


def direction(edge: str) -> tuple[float, float, float]:
    """The 3-D direction of ``edge`` (from its first end to its second), unnormalised."""
    a, b = (POSITIONS[v] for v in EDGE[edge].ends)
    return (b[0] - a[0], b[1] - a[1], b[2] - a[2])
