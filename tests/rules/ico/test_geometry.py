"""The icosahedron's tables prove themselves: counts, Euler, adjacency, opposites, the labelling."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from itertools import combinations

import pytest

from rules.ico.geometry import (
    EDGE,
    EDGE_IDS,
    EDGES,
    FACE,
    FACE_IDS,
    FACE_NEIGHBOURS,
    FACES,
    NEIGHBOURS,
    OPPOSITE_EDGE,
    OPPOSITE_FACE,
    OPPOSITE_VERTEX,
    POSITIONS,
    VERTICES,
    across,
    edge_id,
)


def test_counts_are_those_of_an_icosahedron() -> None:
    assert (len(VERTICES), len(EDGES), len(FACES)) == (12, 30, 20)
    assert len(set(VERTICES)) == 12 and len(set(EDGE_IDS)) == 30 and len(set(FACE_IDS)) == 20


def test_euler_formula_holds() -> None:
    assert len(VERTICES) - len(EDGES) + len(FACES) == 2


def test_every_edge_lies_on_exactly_two_faces() -> None:
    for edge in EDGES:
        on = [f.id for f in FACES if edge.id in f.edges]
        assert sorted(on) == sorted(edge.faces), edge.id
        assert len(set(on)) == 2


def test_face_edges_join_its_vertices() -> None:
    for face in FACES:
        assert len(set(face.vertices)) == 3
        joined = {frozenset(EDGE[e].ends) for e in face.edges}
        assert joined == {frozenset(pair) for pair in combinations(face.vertices, 2)}


def test_every_face_has_three_distinct_neighbours_sharing_one_edge_each() -> None:
    for face in FACES:
        neighbours = FACE_NEIGHBOURS[face.id]
        assert len(set(neighbours)) == 3 and face.id not in neighbours
        for other in neighbours:
            shared = set(face.edges) & set(FACE[other].edges)
            assert len(shared) == 1


def test_every_vertex_meets_five_edges_and_five_faces() -> None:
    for v in VERTICES:
        assert len(NEIGHBOURS[v]) == 5
        assert sum(v in f.vertices for f in FACES) == 5


def test_edges_are_the_ones_ico_md_lists() -> None:
    listed = set()
    for i in range(5):
        j = (i + 1) % 5
        listed |= {f"N-U{i}", f"U{i}-U{j}", f"U{i}-L{i}", f"U{j}-L{i}", f"L{i}-L{j}", f"S-L{i}"}
    assert set(EDGE_IDS) == listed


def test_faces_are_the_ones_ico_md_lists() -> None:
    for i in range(5):
        j = (i + 1) % 5
        assert set(FACE[f"T{i}"].vertices) == {"N", f"U{i}", f"U{j}"}
        assert set(FACE[f"A{i}"].vertices) == {f"U{i}", f"U{j}", f"L{i}"}
        assert set(FACE[f"B{i}"].vertices) == {f"L{i}", f"L{j}", f"U{j}"}
        assert set(FACE[f"D{i}"].vertices) == {"S", f"L{i}", f"L{j}"}


def test_opposite_vertices_are_those_of_ico_md() -> None:
    assert OPPOSITE_VERTEX["N"] == "S"
    for i in range(5):
        assert OPPOSITE_VERTEX[f"U{i}"] == f"L{(i + 2) % 5}"


@pytest.mark.parametrize(
    ("opposite", "ends"),
    [
        (OPPOSITE_VERTEX, lambda v: {v}),
        (OPPOSITE_EDGE, lambda e: set(EDGE[e].ends)),
        (OPPOSITE_FACE, lambda f: set(FACE[f].vertices)),
    ],
    ids=["vertices", "edges", "faces"],
)
def test_opposite_map_is_an_involution_without_fixed_points_sharing_no_vertex(
    opposite: Mapping[str, str], ends: Callable[[str], set[str]]
) -> None:
    assert len(opposite) in (12, 30, 20)
    for item, other in opposite.items():
        assert other != item
        assert opposite[other] == item
        assert not ends(item) & ends(other)


def test_opposite_face_is_made_of_the_opposite_vertices() -> None:
    for face in FACES:
        opposite = FACE[OPPOSITE_FACE[face.id]]
        assert set(opposite.vertices) == {OPPOSITE_VERTEX[v] for v in face.vertices}


def test_rolling_across_an_edge_and_back_returns() -> None:
    for face in FACES:
        for edge in face.edges:
            other = across(face.id, edge)
            assert other != face.id and edge in FACE[other].edges
            assert across(other, edge) == face.id


def test_rolling_across_an_edge_of_another_face_is_refused() -> None:
    with pytest.raises(ValueError, match="not an edge of face T0"):
        across("T0", "S-L0")


def test_edge_ids_are_canonical_in_either_vertex_order() -> None:
    for edge in EDGES:
        a, b = edge.ends
        assert edge_id(a, b) == edge_id(b, a) == edge.id
    with pytest.raises(ValueError):
        edge_id("N", "N")


def _distance(a: str, b: str) -> float:
    return math.dist(POSITIONS[a], POSITIONS[b])


def test_positions_form_a_regular_icosahedron() -> None:
    lengths = [_distance(*e.ends) for e in EDGES]
    assert max(lengths) - min(lengths) < 1e-12
    for a, b in combinations(VERTICES, 2):
        if b not in NEIGHBOURS[a]:
            assert _distance(a, b) > lengths[0] + 0.1
    for v in VERTICES:
        assert math.isclose(math.dist(POSITIONS[v], (0, 0, 0)), 1.0)


def test_opposite_vertices_are_antipodal_points() -> None:
    for v, w in OPPOSITE_VERTEX.items():
        assert all(abs(p + q) < 1e-12 for p, q in zip(POSITIONS[v], POSITIONS[w], strict=True))
