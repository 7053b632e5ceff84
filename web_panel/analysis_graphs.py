"""The post-game analysis's graphs (issue 34), as inline SVG for the pages
(``web_panel/analysis_view.py`` builds the rest), and the numbers as they show them.

- UNLOCK's codes: a bar per turn of the codes still fitting the clue board after it, on a log
  scale (each grid line ten times the one below), the level's count dashed at the top, ✓ over
  the turn the code became certain and ★ over the turn it was found;
- an evaluation: every weighed move's evaluation from its mover's side (+1 won for the mover,
  −1 lost), a point in the mover's colour and shape (as ``static/kit.js`` draws seats), a
  dashed drop from the bot's best where the move lost, the turning points ringed with their
  move's number, each seat's points joined faintly.

Each shape has a ``<title>`` (the move or turn and its figure) and the drawing an accessible
name; the page lists every figure in words besides.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from firmware_host.seat_colours import seat_colour
from web_panel.i18n import translate

#: A loss below this is "as good as the bot's best" (``rules.evaluation.NOTICEABLE``).
NOTICEABLE = 0.02
#: Marker shapes by seat, as the pages' charts draw seats (``static/kit.js``).
SHAPES = ("circle", "square", "triangle", "diamond")


# --- numbers ------------------------------------------------------------------------------
def count(value: object) -> str:
    """A count or an average of codes: ``3,560``, ``240.5``."""
    figure = number(value)
    if abs(figure - round(figure)) < 0.05:
        return f"{round(figure):,}"
    return f"{figure:,.1f}"


def signed(value: object) -> str:
    """An evaluation: ``+0.12``, ``−0.35``, ``0.00``."""
    figure = number(value)
    if abs(figure) < 0.005:
        return "0.00"
    return f"+{figure:.2f}" if figure > 0 else f"−{-figure:.2f}"


def loss_text(value: object) -> str:
    """A loss: ``0.08`` (never below 0)."""
    return f"{max(number(value), 0.0):.2f}"


def number(value: object) -> float:
    """A finite number of the analysis (``ValueError`` for anything else)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"not a number: {value!r}")
    return float(value)


def whole(value: object) -> int | None:
    """A whole number of the analysis, or ``None`` (``ValueError`` for anything else)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"not a whole number: {value!r}")
    return value


def words(key: str, lang: str, /, **values: object) -> str:
    """The panel's text ``key`` in ``lang``, blanks filled."""
    return translate(key, lang, None, **values)


def name_of(seat: int, players: Sequence[str]) -> str:
    """A seat's player (``#3`` for a seat the names do not cover)."""
    return players[seat] if 0 <= seat < len(players) else f"#{seat + 1}"


def evaluation_graph(raw: Sequence[Mapping[str, Any]], lang: str, names: Sequence[str],
                     view: Mapping[str, Any] | None) -> Markup:
    """Every weighed move's evaluation from its mover's side: a point in the mover's colour and
    shape, a dashed drop from the bot's best where the move lost, the turning points ringed
    with their move's number; each seat's points joined faintly."""
    width, height, left, right, top, bottom = 340, 200, 30, 10, 14, 24
    moves = len(raw)
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(index: int) -> float:
        return left + (index + 0.5) * plot_w / moves

    def y(value: float) -> float:
        return top + (1 - max(-1.0, min(1.0, value))) / 2 * plot_h

    out = [_svg_open(width, height, words("analysis_eval_graph", lang))]
    for value, label in ((1.0, "+1"), (0.5, ""), (0.0, "0"), (-0.5, ""), (-1.0, "−1")):
        out.append(f'<line class="{"axis" if value == 0 else "grid"}" x1="{left}" '
                   f'x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>')
        if label:
            out.append(f'<text class="tick" x="{left - 4}" y="{y(value) + 3.5:.1f}" '
                       f'text-anchor="end">{label}</text>')
    every = max(1, math.ceil(moves / 8))
    for index, item in enumerate(raw):
        if index % every == 0 or index == moves - 1:
            n = whole(item.get("n")) or whole(item["step"])
            out.append(f'<text class="tick" x="{x(index):.1f}" y="{height - 8}" '
                       f'text-anchor="middle">{n}</text>')
    seats = sorted({whole(item["seat"]) or 0 for item in raw})
    for seat in seats:
        points = " ".join(f"{x(i):.1f},{y(number(item['value'])):.1f}"
                          for i, item in enumerate(raw) if item["seat"] == seat)
        out.append(f'<polyline class="trend" points="{points}" '
                   f'stroke="{seat_colour(seat, view)}"/>')
    radius = 3.4 if moves <= 60 else 2.4
    for index, item in enumerate(raw):
        value, best = number(item["value"]), number(item.get("best", item["value"]))
        seat = whole(item["seat"]) or 0
        if best - value >= NOTICEABLE:
            out.append(f'<line class="drop" x1="{x(index):.1f}" x2="{x(index):.1f}" '
                       f'y1="{y(best):.1f}" y2="{y(value):.1f}"/>')
        n = whole(item.get("n")) or whole(item["step"])
        title = escape(f"{words('analysis_move_n', lang, n=n)} · {name_of(seat, names)} · "
                       f"{signed(value)}")
        out.append(_marker(seat, view, x(index), y(value), radius, str(title)))
        if item.get("turning_point"):
            out.append(f'<circle class="turning" cx="{x(index):.1f}" cy="{y(value):.1f}" '
                       f'r="{radius + 4:.1f}"/>')
            above = y(value) - radius - 7 if y(value) > top + 14 else y(value) + radius + 14
            out.append(f'<text class="turning-label" x="{x(index):.1f}" y="{above:.1f}" '
                       f'text-anchor="middle">{n}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def _svg_open(width: int, height: int, label: str) -> str:
    return (f'<svg viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">')


def _marker(seat: int, view: Mapping[str, Any] | None, cx: float, cy: float, r: float,
            title: str) -> str:
    """A point in the seat's colour and shape (as ``kit.js``'s ``markerShape``)."""
    fill = seat_colour(seat, view)
    shape = SHAPES[seat % len(SHAPES)]
    base = f'class="point" data-seat="{seat}" fill="{fill}"'
    if shape == "square":
        body = (f'<rect {base} x="{cx - r * 0.85:.1f}" y="{cy - r * 0.85:.1f}" '
                f'width="{r * 1.7:.1f}" height="{r * 1.7:.1f}">')
        end = "</rect>"
    elif shape == "triangle":
        body = (f'<path {base} d="M{cx:.1f},{cy - r * 1.1:.1f}L{cx + r:.1f},{cy + r * 0.75:.1f}'
                f'L{cx - r:.1f},{cy + r * 0.75:.1f}Z">')
        end = "</path>"
    elif shape == "diamond":
        d = r * 1.15
        body = (f'<path {base} d="M{cx:.1f},{cy - d:.1f}L{cx + d:.1f},{cy:.1f}'
                f'L{cx:.1f},{cy + d:.1f}L{cx - d:.1f},{cy:.1f}Z">')
        end = "</path>"
    else:
        body = f'<circle {base} cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}">'
        end = "</circle>"
    return f"{body}<title>{title}</title>{end}"


def codes_graph(raw: Sequence[Mapping[str, Any]], total: int | None, certain: int | None,
                found: int | None, lang: str) -> Markup:
    """The codes still fitting after each turn: a bar per turn on a log scale (each grid line
    ten times the one below), the level's count dashed at the top, ✓ over the turn it became
    certain and ★ over the turn it was found."""
    width, height, left, right, top, bottom = 340, 190, 40, 8, 18, 24
    afters = [max(whole(item["codes_after"]) or 1, 1) for item in raw]
    highest = max([total or 1, *afters, *(whole(item["codes_before"]) or 1 for item in raw)])
    decades = max(1, math.ceil(math.log10(max(highest, 2)) - 1e-9))
    plot_w, plot_h = width - left - right, height - top - bottom
    base = top + plot_h

    def y(value: float) -> float:
        return base - math.log10(max(value, 1)) / decades * plot_h

    out = [_svg_open(width, height, words("analysis_codes_graph", lang))]
    for power in range(decades + 1):
        value = 10 ** power
        label = f"{value // 1000}k" if value >= 10_000 else f"{value:,}"
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(value):.1f}" '
                   f'y2="{y(value):.1f}"/>')
        out.append(f'<text class="tick" x="{left - 4}" y="{y(value) + 3.5:.1f}" '
                   f'text-anchor="end">{label}</text>')
    if total is not None:
        out.append(f'<line class="level" x1="{left}" x2="{width - right}" '
                   f'y1="{y(total):.1f}" y2="{y(total):.1f}"/>')
        out.append(f'<text class="tick" x="{width - right}" y="{y(total) - 3:.1f}" '
                   f'text-anchor="end">{escape(words("analysis_level_mark", lang, n=count(total)))}'
                   '</text>')
    slot = plot_w / len(raw)
    bar = min(slot * 0.7, 36)
    for index, (item, after) in enumerate(zip(raw, afters, strict=True)):
        turn = whole(item["turn"]) or index + 1
        cx = left + (index + 0.5) * slot
        top_y = min(y(after), base - 2)
        kind = "bar found" if turn == found else "bar certain" if turn == certain else "bar"
        title = escape(f"{words('analysis_turn_n', lang, n=turn)}: {count(after)}")
        out.append(f'<rect class="{kind}" x="{cx - bar / 2:.1f}" y="{top_y:.1f}" '
                   f'width="{bar:.1f}" height="{base - top_y:.1f}"><title>{title}</title>'
                   '</rect>')
        mark = "★" if turn == found else "✓" if turn == certain else ""
        label = count(after) if slot >= 27 else ""
        text = " ".join(p for p in (mark, label) if p)
        if text:
            out.append(f'<text class="bar-label" x="{cx:.1f}" y="{top_y - 4:.1f}" '
                       f'text-anchor="middle">{text}</text>')
        out.append(f'<text class="tick" x="{cx:.1f}" y="{height - 8}" '
                   f'text-anchor="middle">{turn}</text>')
    out.append(f'<line class="axis" x1="{left}" x2="{width - right}" y1="{base}" '
               f'y2="{base}"/></svg>')
    return Markup("".join(out))
