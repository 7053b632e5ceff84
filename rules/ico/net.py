"""The paper board: the icosahedron flattened around vertex ``N``, as drawing data.

As the article draws it: ``N`` in the middle with its five faces ``T0…T4`` around it, the upper
ring ``U0…U4`` on a first circle, the lower ring ``L0…L4`` on a second one turned half a step,
and the opposite vertex ``S`` stretched into the **outermost circle**. The edges ``S-Li`` are
radial segments from ``Li`` out to that circle, and the faces ``D0…D4`` touching ``S`` are the
regions between two of them, the chord ``Li-Li+1`` and the arc of the circle. The two faces of an
opposite pair share one of ten colours.

Coordinates are screen-like: origin at the centre, x to the right, **y downwards**, ``U0``
straight up. :func:`flat_net` is pure; :meth:`Net.to_json` is what a view or a page needs.

>>> net = flat_net(outer_radius=3.0)
>>> net.positions["N"], net.positions["U0"]
((0.0, 0.0), (0.0, -1.0))
>>> net.colours["T0"] == net.colours["D2"]
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.ico.geometry import EDGES, FACE_IDS, FACES, OPPOSITE_FACE

Point = tuple[float, float]

#: How finely the outer circle's arcs are sampled in ``outline`` (degrees per step).
ARC_STEP_DEGREES = 6.0


@dataclass(frozen=True)
class Arc:
    """A stretch of the outer circle, from angle ``start`` to ``end`` (degrees, screen angles)."""

    radius: float
    start: float
    end: float


@dataclass(frozen=True)
class NetFace:
    """How to draw one face: colour index, outline polygon, SVG path, label point.

    ``outline`` is a closed polygon (arcs sampled), every face's turning the same way; ``arc`` is
    set for the faces touching ``S``, whose ``path`` draws the arc exactly.
    """

    id: str
    colour: int
    outline: tuple[Point, ...]
    path: str
    label: Point
    arc: Arc | None


@dataclass(frozen=True)
class Net:
    """The flat board: vertex positions (``S`` is the outer circle), edge segments and faces."""

    outer_radius: float
    positions: Mapping[str, Point]
    segments: Mapping[str, tuple[Point, Point]]
    faces: Mapping[str, NetFace]

    @property
    def colours(self) -> dict[str, int]:
        """Face id → colour index 0…9 (opposite faces share one)."""
        return {f: face.colour for f, face in self.faces.items()}

    def to_json(self) -> dict[str, Any]:
        """JSON-safe drawing data (coordinates rounded to 4 places)."""
        return {
            "outer_radius": self.outer_radius,
            "colours": 10,
            "vertices": [
                {"id": v, "x": _r(x), "y": _r(y), **({"circle": self.outer_radius} if v == "S"
                                                      else {})}
                for v, (x, y) in self.positions.items()
            ],
            "edges": [
                {"id": e, "from": [_r(a[0]), _r(a[1])], "to": [_r(b[0]), _r(b[1])]}
                for e, (a, b) in self.segments.items()
            ],
            "faces": [
                {
                    "id": f.id,
                    "colour": f.colour,
                    "outline": [[_r(x), _r(y)] for x, y in f.outline],
                    "path": f.path,
                    "label": [_r(f.label[0]), _r(f.label[1])],
                    "arc": None if f.arc is None else {
                        "radius": f.arc.radius, "start": f.arc.start, "end": f.arc.end},
                }
                for f in self.faces.values()
            ],
        }


def _r(value: float) -> float:
    return round(value, 4) + 0.0


def _angle(v: str) -> float:
    """Screen angle of a ring vertex, degrees: U0 straight up, the L ring half a step on."""
    return -90.0 + 72.0 * int(v[1]) + (36.0 if v[0] == "L" else 0.0)


def _polar(radius: float, degrees: float) -> Point:
    a = math.radians(degrees)
    x, y = radius * math.cos(a), radius * math.sin(a)
    return (_r(x) if abs(x) < 1e-12 else x, _r(y) if abs(y) < 1e-12 else y)


def colour_indices() -> dict[str, int]:
    """Face id → colour 0…9: each opposite pair numbered in the order its first face appears."""
    colours: dict[str, int] = {}
    for f in FACE_IDS:
        if f not in colours:
            colours[f] = colours[OPPOSITE_FACE[f]] = len(colours) // 2
    return colours


def flat_net(outer_radius: float = 1.0, upper: float = 1 / 3, lower: float = 2 / 3) -> Net:
    """The board drawn in a disc of ``outer_radius``; the rings at those fractions of it."""
    if not (0 < upper < lower * math.cos(math.radians(36)) and lower < 1):
        raise ValueError("the rings must satisfy 0 < upper < lower·cos 36° and lower < 1")
    r1, r2, big = upper * outer_radius, lower * outer_radius, outer_radius
    positions: dict[str, Point] = {"N": (0.0, 0.0)}
    for i in range(5):
        positions[f"U{i}"] = _polar(r1, _angle(f"U{i}"))
    for i in range(5):
        positions[f"L{i}"] = _polar(r2, _angle(f"L{i}"))
    positions["S"] = (0.0, 0.0)

    segments: dict[str, tuple[Point, Point]] = {}
    for edge in EDGES:
        a, b = edge.ends
        if a == "S":
            segments[edge.id] = (_polar(big, _angle(b)), positions[b])
        else:
            segments[edge.id] = (positions[a], positions[b])

    colours = colour_indices()
    faces: dict[str, NetFace] = {}
    for face in FACES:
        if "S" not in face.vertices:
            outline = tuple(positions[v] for v in face.vertices)
            if _signed_area(outline) > 0:  # every outline turns the same way as the D faces'
                outline = outline[::-1]
            path = "M " + " L ".join(f"{_r(x)} {_r(y)}" for x, y in outline) + " Z"
            faces[face.id] = NetFace(face.id, colours[face.id], outline, path,
                                     _centroid(outline), None)
            continue
        _, li, lj = face.vertices  # (S, Li, Li+1)
        start, end = _angle(lj), _angle(li)
        if start < end:
            start += 360.0
        steps = max(1, math.ceil((start - end) / ARC_STEP_DEGREES))
        rim = tuple(_polar(big, start - (start - end) * k / steps) for k in range(steps + 1))
        outline = (positions[li], positions[lj], *rim)
        p_lj, p_li = rim[0], rim[-1]
        path = (
            f"M {_r(positions[li][0])} {_r(positions[li][1])} "
            f"L {_r(positions[lj][0])} {_r(positions[lj][1])} "
            f"L {_r(p_lj[0])} {_r(p_lj[1])} "
            f"A {_r(big)} {_r(big)} 0 0 0 {_r(p_li[0])} {_r(p_li[1])} Z"
        )
        faces[face.id] = NetFace(face.id, colours[face.id], outline, path,
                                 _centroid(outline), Arc(big, start % 360.0, end % 360.0))
    return Net(big, positions, segments, faces)


def _signed_area(polygon: tuple[Point, ...]) -> float:
    pairs = zip(polygon, (*polygon[1:], polygon[0]), strict=True)
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs) / 2


def _centroid(polygon: tuple[Point, ...]) -> Point:
    """The area centroid of a simple polygon (where a face's label goes)."""
    cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    area = _signed_area(polygon)
    return (cx / (6 * area), cy / (6 * area))


def net_json(outer_radius: float = 1.0) -> dict[str, Any]:
    """:meth:`Net.to_json` of the drawing, computed once per radius; the caller's own copy."""
    drawing: dict[str, Any] = json.loads(_cached_text(outer_radius))
    return drawing


@cache
def _cached_text(outer_radius: float) -> str:
    return json.dumps(flat_net(outer_radius).to_json())
