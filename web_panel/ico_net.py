"""The ICO board drawn like the paper one, from the rules' flat-board geometry.

The catalogue (``describe()["board"]``) carries the net in unit coordinates (centre vertex at
the origin, the opposite vertex as the outer circle of radius ``outer_radius``, each face's path
and its pair colour index); this module adds what the page needs on top: the active face, the
legal edges, and a dot for every marker, in each seat's colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from web_panel.rendering import seat_colour

#: One fill per pair of opposite faces (the view gives each face its pair's index).
PAIR_COLOURS = ("#f4c7c3", "#c6dcf5", "#f6e7a8", "#c8ebcf", "#dccbf0", "#f8d3b0", "#bfe8e6",
                "#f1c6dd", "#dedede", "#e2eec0")


def _marker_seats(markers: Any) -> list[int]:
    """One seat per marker: the view gives a count per seat (``[1, 0, 2]``)."""
    if isinstance(markers, Sequence) and not isinstance(markers, str):
        return [seat for seat, count in enumerate(markers) for _ in range(int(count or 0))]
    return []


def net_drawing(
    view: Mapping[str, Any], board: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """Faces, edges and markers to draw; ``None`` when there is no net to draw.

    The geometry (faces with ``path``, ``label``, ``colour``; edges with ``from``, ``to``; the
    ``outer_radius``) comes from the game's catalogue entry (``board``), else from the view.
    """
    net = board if isinstance(board, Mapping) else view.get("net")
    source: Mapping[str, Any] = net if isinstance(net, Mapping) else view
    face_list = [f for f in source.get("faces", []) if isinstance(f, Mapping) and "path" in f]
    edge_list = [e for e in source.get("edges", []) if isinstance(e, Mapping) and "from" in e]
    if not face_list or not edge_list:
        return None
    outer = float(source.get("outer_radius", 1.0))
    active = view.get("active_face")
    legal = {str(e) for e in view.get("legal_edges") or []}
    markers = {str(e["id"]): _marker_seats(e.get("markers")) for e in view.get("edges", [])}
    faces = [
        {
            "id": face["id"],
            "path": face["path"],
            "fill": PAIR_COLOURS[int(face.get("colour", 0)) % len(PAIR_COLOURS)],
            "active": face["id"] == active,
            "label": face.get("label") or [0.0, 0.0],
        }
        for face in face_list
    ]
    edges = []
    for edge in edge_list:
        (x1, y1), (x2, y2) = edge["from"], edge["to"]
        seats = markers.get(str(edge["id"]), [])
        dots = []
        for n, seat in enumerate(seats):
            t = 0.5 + (n - (len(seats) - 1) / 2) * 0.2
            dots.append({"x": x1 + (x2 - x1) * t, "y": y1 + (y2 - y1) * t,
                         "colour": seat_colour(seat), "seat": seat})
        edges.append({"id": edge["id"], "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                      "legal": edge["id"] in legal, "markers": dots})
    # Legal edges last, so they are drawn on top and easy to tap.
    edges.sort(key=lambda e: e["legal"])
    margin = outer * 0.06
    box = f"{-outer - margin:.3f} {-outer - margin:.3f} {2 * (outer + margin):.3f} " \
          f"{2 * (outer + margin):.3f}"
    # Vertex names, so an edge such as "U4-U0" can be found; the outer circle's vertex is named
    # on the circle itself.
    vertices = []
    for vertex in source.get("vertices", []):
        if not isinstance(vertex, Mapping) or "x" not in vertex:
            continue
        on_circle = vertex.get("circle") is not None
        x, y = (outer * 0.72, outer * 0.72) if on_circle else (vertex["x"], vertex["y"])
        vertices.append({"id": vertex["id"], "x": x, "y": y, "outer": on_circle})
    return {"outer": outer, "faces": faces, "edges": edges, "vertices": vertices,
            "view_box": box, "unit": outer / 100}
