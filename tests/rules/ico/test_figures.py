"""The winning figures of each level are what ico.md describes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from rules.ico.figures import (
    EXTENDED_LEVELS,
    LEVELS,
    belt_figures,
    double_triangle_figures,
    face_figures,
    figures_for,
    opposite_face_figures,
    perpendicular_figures,
)
from rules.ico.geometry import (
    EDGE,
    EDGE_IDS,
    FACE,
    FACE_NEIGHBOURS,
    OPPOSITE_EDGE,
    OPPOSITE_FACE,
    OPPOSITE_VERTEX,
    POSITIONS,
    VERTICES,
)


def _vertices(edges: frozenset[str]) -> Counter[str]:
    return Counter(v for e in edges for v in EDGE[e].ends)


def test_level_3_is_not_a_level() -> None:
    assert "3" not in LEVELS
    assert set(EXTENDED_LEVELS) == {"2", "2+", "4"}


def test_level_1_figures_are_the_twenty_faces() -> None:
    figures = face_figures()
    assert sorted(f.edges for f in figures) == sorted(frozenset(FACE[f].edges) for f in FACE)


def test_level_1_plus_figures_are_a_face_with_its_opposite() -> None:
    figures = opposite_face_figures()
    assert len(figures) == 10
    for figure in figures:
        first, second = figure.faces
        assert OPPOSITE_FACE[first] == second
        assert len(figure.edges) == 6
        assert figure.edges == set(FACE[first].edges) | set(FACE[second].edges)


def test_level_2_belts_are_six_zigzags_of_ten_edges() -> None:
    belts = belt_figures()
    assert len(belts) == 6
    for belt in belts:
        assert len(belt.edges) == 10
        # a closed zig-zag: ten vertices, each on two of the belt's edges
        assert set(_vertices(belt.edges).values()) == {2}
        assert len(_vertices(belt.edges)) == 10
    assert set(Counter(e for b in belts for e in b.edges).values()) == {2}


def test_north_south_belt_joins_the_two_rings() -> None:
    belt = next(b for b in belt_figures() if "N" in b.name and "S" in b.name)
    assert belt.edges == {f"U{i}-L{i}" for i in range(5)} | {f"U{(i + 1) % 5}-L{i}"
                                                             for i in range(5)}


def test_each_belt_avoids_its_two_opposite_vertices() -> None:
    for v in VERTICES:
        w = OPPOSITE_VERTEX[v]
        belt = next(b for b in belt_figures() if f" {v} " in b.name + " " or f" {w} " in
                    b.name + " ")
        assert v not in _vertices(belt.edges) and w not in _vertices(belt.edges)


def test_level_2_plus_double_triangles_ring_a_face_and_its_neighbours() -> None:
    figures = double_triangle_figures()
    assert len(figures) == 20
    for figure in figures:
        centre, *neighbours = figure.faces
        assert set(neighbours) == set(FACE_NEIGHBOURS[centre])
        assert len(figure.edges) == 6
        assert not figure.edges & set(FACE[centre].edges)
        assert figure.edges <= {e for n in neighbours for e in FACE[n].edges}
        # the outline of a big triangle: a closed cycle through six vertices
        assert set(_vertices(figure.edges).values()) == {2}
        assert len(_vertices(figure.edges)) == 6


def test_harder_level_2_plus_adds_the_opposite_double_triangle() -> None:
    single = {f.faces[0]: f.edges for f in double_triangle_figures()}
    harder = double_triangle_figures(with_opposite=True)
    assert len(harder) == 10
    for figure in harder:
        first, second = figure.faces[0], figure.faces[4]
        assert OPPOSITE_FACE[first] == second
        assert figure.edges == single[first] | single[second]
        assert len(figure.edges) == 12


def _dot(a: str, b: str) -> float:
    (p, q), (r, s) = (tuple(POSITIONS[v] for v in EDGE[e].ends) for e in (a, b))
    return sum((q[i] - p[i]) * (s[i] - r[i]) for i in range(3))


def test_level_4_sets_split_the_edges_into_five_perpendicular_triples_of_pairs() -> None:
    sets = perpendicular_figures()
    assert len(sets) == 5
    assert sorted(e for s in sets for e in s.edges) == sorted(EDGE_IDS)
    for figure in sets:
        assert len(figure.edges) == 6
        assert {OPPOSITE_EDGE[e] for e in figure.edges} == figure.edges
        pairs = {frozenset((e, OPPOSITE_EDGE[e])) for e in figure.edges}
        assert len(pairs) == 3
        for first, second in combinations(pairs, 2):
            assert abs(_dot(min(first), min(second))) < 1e-9
        # six edges, twelve ends: every vertex exactly once
        assert set(_vertices(figure.edges).values()) == {1}


def test_figures_for_picks_the_level() -> None:
    assert len(figures_for("1")) == 20
    assert len(figures_for("1+")) == 10
    assert len(figures_for("2")) == 6
    assert len(figures_for("2+")) == 20
    assert len(figures_for("2+", double_opposite=True)) == 10
    assert len(figures_for("4")) == 5
