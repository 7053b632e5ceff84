"""The paper board drawing: centred on N, S as the outer circle, planar, opposite faces alike."""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import combinations

import pytest

from rules.ico.geometry import EDGES, FACE, FACES, OPPOSITE_FACE
from rules.ico.net import Point, flat_net, net_json

RADIUS = 3.0
NET = flat_net(outer_radius=RADIUS)


def _angle(p: Point) -> float:
    return math.degrees(math.atan2(p[1], p[0])) % 360


def test_centre_vertex_is_n_and_rings_sit_on_circles_turned_half_a_step() -> None:
    assert NET.positions["N"] == (0.0, 0.0)
    upper = {round(math.hypot(*NET.positions[f"U{i}"]), 9) for i in range(5)}
    lower = {round(math.hypot(*NET.positions[f"L{i}"]), 9) for i in range(5)}
    assert len(upper) == 1 and len(lower) == 1 and 0 < min(upper) < min(lower) < RADIUS
    for i in range(5):
        u, l_, u_next = (NET.positions[v] for v in (f"U{i}", f"L{i}", f"U{(i + 1) % 5}"))
        assert math.isclose((_angle(l_) - _angle(u)) % 360, 36)
        assert math.isclose((_angle(u_next) - _angle(u)) % 360, 72)


def test_edges_to_s_are_radial_segments_reaching_the_outer_circle() -> None:
    for i in range(5):
        outer, inner = NET.segments[f"S-L{i}"]
        assert inner == NET.positions[f"L{i}"]
        assert math.isclose(math.hypot(*outer), RADIUS)
        assert math.isclose(_angle(outer), _angle(inner))


def test_other_edges_join_their_vertices() -> None:
    for edge in EDGES:
        if "S" not in edge.ends:
            assert NET.segments[edge.id] == tuple(NET.positions[v] for v in edge.ends)


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _cross(s: tuple[Point, Point], t: tuple[Point, Point]) -> bool:
    """Whether two segments meet anywhere (touching counts)."""
    (a, b), (c, d) = s, t
    d1, d2, d3, d4 = _orient(c, d, a), _orient(c, d, b), _orient(a, b, c), _orient(a, b, d)
    eps = 1e-12
    if ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and (
        (d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)
    ):
        return True
    def on(p: Point, q: Point, r: Point) -> bool:
        return abs(_orient(p, q, r)) <= eps and min(p[0], q[0]) - eps <= r[0] <= max(
            p[0], q[0]) + eps and min(p[1], q[1]) - eps <= r[1] <= max(p[1], q[1]) + eps
    return on(c, d, a) or on(c, d, b) or on(a, b, c) or on(a, b, d)


def test_drawing_is_planar_edges_meet_only_at_shared_vertices() -> None:
    for first, second in combinations(EDGES, 2):
        s, t = NET.segments[first.id], NET.segments[second.id]
        shared = set(first.ends) & set(second.ends)
        if shared and shared != {"S"}:
            (v,) = shared
            point = NET.positions[v]
            # they touch at the shared vertex and nowhere else: shorten both a little
            def trim(seg: tuple[Point, Point], at: Point = point) -> tuple[Point, Point]:
                a, b = seg
                far = b if a == at else a
                near = (at[0] + (far[0] - at[0]) * 1e-6, at[1] + (far[1] - at[1]) * 1e-6)
                return (near, far)
            assert not _cross(trim(s), trim(t)), (first.id, second.id)
        else:
            assert not _cross(s, t), (first.id, second.id)


def test_segment_crossing_check_sees_a_crossing() -> None:
    assert _cross(((0, 0), (1, 1)), ((0, 1), (1, 0)))
    assert not _cross(((0, 0), (1, 0)), ((0, 1), (1, 1)))


def test_opposite_faces_share_one_of_ten_colours() -> None:
    colours = NET.colours
    assert set(colours.values()) == set(range(10))
    assert set(Counter(colours.values()).values()) == {2}
    for face in FACES:
        assert colours[face.id] == colours[OPPOSITE_FACE[face.id]]


def _area(polygon: tuple[Point, ...]) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in
               zip(polygon, (*polygon[1:], polygon[0]), strict=True)) / 2


def _inside(point: Point, polygon: tuple[Point, ...]) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_faces_tile_the_disc_without_overlap() -> None:
    areas = [_area(face.outline) for face in NET.faces.values()]
    signs = {math.copysign(1, a) for a in areas}
    assert len(signs) == 1, "faces are not all drawn with the same orientation"
    for face in NET.faces.values():
        assert all(math.hypot(*p) <= RADIUS + 1e-9 for p in face.outline)
    rim_steps = sum(len(face.outline) - 3 for face in NET.faces.values() if face.arc)
    polygon_disc = 0.5 * rim_steps * RADIUS**2 * math.sin(2 * math.pi / rim_steps)
    assert math.isclose(sum(abs(a) for a in areas), polygon_disc, rel_tol=1e-9)


def test_each_label_lies_in_its_own_face_only() -> None:
    for face in NET.faces.values():
        holders = [f.id for f in NET.faces.values() if _inside(face.label, f.outline)]
        assert holders == [face.id]


def test_triangles_are_drawn_on_their_vertices_and_s_faces_reach_the_circle() -> None:
    for face in NET.faces.values():
        vertices = FACE[face.id].vertices
        if "S" in vertices:
            assert face.arc is not None and face.arc.radius == RADIUS
            assert set(face.outline[:2]) == {NET.positions[v] for v in vertices[1:]}
            assert all(math.isclose(math.hypot(*p), RADIUS) for p in face.outline[2:])
            assert f" A {RADIUS} {RADIUS} 0 0 0 " in face.path
        else:
            assert face.arc is None
            assert set(face.outline) == {NET.positions[v] for v in vertices}


def test_json_form_is_json_and_complete() -> None:
    drawing = net_json(RADIUS)
    json.dumps(drawing)
    assert (len(drawing["vertices"]), len(drawing["edges"]), len(drawing["faces"])) == (12, 30, 20)
    assert next(v for v in drawing["vertices"] if v["id"] == "S")["circle"] == RADIUS
    drawing["faces"].clear()
    assert len(net_json(RADIUS)["faces"]) == 20, "a caller's change reached the cached drawing"


def test_rings_that_would_cross_are_refused() -> None:
    with pytest.raises(ValueError, match="rings"):
        flat_net(upper=0.6, lower=0.65)
