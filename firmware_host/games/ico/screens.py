"""ICO screens: the active face as a big triangle with its three edges numbered 1–3 (the pad's
buttons), legal edges drawn solid and labelled in a box, the others dotted; the markers of each
edge listed by seat number; a compact status line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from firmware_host.games.ico.words import WORDS
from firmware_host.screens.text import CHAR_W, HEIGHT, LINE_H, WIDTH, Pen, blank, clip, shown_name
from firmware_host.screens.words import WORDS as BOX_WORDS
from firmware_host.screens.words import say

#: Corners of the drawn triangle: top, bottom-left, bottom-right.
CORNERS = ((32, 3), (3, 60), (61, 60))
CENTRE = (32, 41)


def face_edges(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The active face's three edges (view dicts) in the face's order: buttons 1, 2, 3."""
    faces = {str(f["id"]): f for f in view.get("faces") or []}
    edges = {str(e["id"]): e for e in view.get("edges") or []}
    face = faces.get(str(view.get("active_face")))
    if face is None:
        return []
    return [edges[str(e)] for e in face.get("edges", []) if str(e) in edges]


def edge_seats(edge: Mapping[str, Any]) -> list[int]:
    """The seats with a marker on ``edge``, once per marker (the view holds counts by seat)."""
    return [seat for seat, count in enumerate(edge.get("markers") or []) for _ in range(count)]


def _corner_of(face: Sequence[str], vertex: str) -> tuple[int, int]:
    return CORNERS[face.index(vertex)] if vertex in face else CORNERS[0]


def board_screen(view: Mapping[str, Any], *, prompt: str = "",
                 lang: str = "en") -> Image.Image:
    """The active face with its edges 1–3, legal ones marked, and the status, under ICO's
    name and the mover's."""
    image = blank()
    pen = Pen(image, lang)
    faces = {str(f["id"]): f for f in view.get("faces") or []}
    face = faces.get(str(view.get("active_face")), {})
    vertices = [str(v) for v in face.get("vertices", [])]
    legal = {str(e) for e in view.get("legal_edges") or []}
    x0 = 66
    chars = (WIDTH - x0) // CHAR_W
    for number, edge in enumerate(face_edges(view), start=1):
        a, b = (str(v) for v in edge.get("vertices", ("", ""))[:2])
        p, q = _corner_of(vertices, a), _corner_of(vertices, b)
        is_legal = str(edge["id"]) in legal
        if is_legal:
            pen.draw.line((p, q), fill=1, width=3)
        else:
            _dotted(pen, p, q)
        mx, my = (p[0] + q[0]) // 2, (p[1] + q[1]) // 2
        # the label sits inside the triangle, half way to its centre
        lx, ly = mx + (CENTRE[0] - mx) // 2 - 2, my + (CENTRE[1] - my) // 2 - 4
        if is_legal:
            pen.draw.rectangle((lx - 1, ly, lx + CHAR_W, ly + LINE_H - 1), fill=1)
        else:
            pen.draw.rectangle((lx - 1, ly, lx + CHAR_W, ly + LINE_H - 1), fill=0)
        pen.text(lx, ly, str(number), fill=0 if is_legal else 1)
        seats = "".join(str(s + 1) for s in edge_seats(edge)) or "-"
        pen.text(x0, number * LINE_H + 1, clip(f"{number} {edge['id']} {seats}", chars))
    seats_names = list(view.get("seats") or [])
    to_act = [s for s in view.get("to_act") or [] if 0 <= s < len(seats_names)]
    title = say(WORDS, "name", lang)
    mover = ""
    if to_act and not view.get("outcome"):
        name = shown_name(str(seats_names[to_act[0]]), to_act[0])
        mover = pen.fit(f"{to_act[0] + 1}:{name}",
                        WIDTH - x0 - pen.width(title) - CHAR_W - 1)
    pen.header(title, mover, left=x0 - 1)
    width = WIDTH - x0
    if view.get("outcome"):
        pen.text(x0, 4 * LINE_H + 1, pen.fit(say(BOX_WORDS, "game_over", lang), width))
        prompt = say(BOX_WORDS, "ok_results", lang)
    else:
        status = say(WORDS, "status", lang, turn=view.get("turn", 1),
                     face=view.get("active_face", ""))
        pen.text(x0, 4 * LINE_H + 1, pen.fit(status, width))
    left = list(view.get("markers_left") or [])
    if to_act and to_act[0] < len(left) and not view.get("outcome"):
        pen.text(x0, 5 * LINE_H + 1, pen.fit(say(WORDS, "left", lang, n=left[to_act[0]]), width))
    if prompt:
        pen.text(x0, HEIGHT - LINE_H, pen.fit(prompt, width))
    return image


def _dotted(pen: Pen, p: tuple[int, int], q: tuple[int, int]) -> None:
    steps = max(abs(q[0] - p[0]), abs(q[1] - p[1]))
    for i in range(0, steps + 1, 3):
        pen.draw.point((p[0] + (q[0] - p[0]) * i // steps, p[1] + (q[1] - p[1]) * i // steps),
                       fill=1)
