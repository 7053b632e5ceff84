"""Score-over-time charts (inline SVG geometry) from what views already show.

An UNLOCK game in play charts its clue board (every card's points, turn by turn), a Hacktrick game
its round results; an ended game of any kind charts its replay (the spectator view's scores after
each step).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from web_panel.rendering import per_seat, seat_colour

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 320.0, 170.0, 34.0, 8.0, 10.0, 22.0
SCORE_KEYS = ("scores", "points", "totals")


def chart_for_view(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The chart of a game in play, where its view holds the history: UNLOCK's clue board
    (turn by turn), Hacktrick's round results (round by round)."""
    if view.get("game") == "hacktrick":
        return _rounds_chart(view)
    if view.get("game") != "unlock":
        return None
    seats = list(view.get("seats") or [])
    board = view.get("clue_board") or []
    turns = sorted({int(card.get("turn", 0)) for card in board})
    if not turns:
        return None
    guessers = [s for s in range(len(seats)) if s != view.get("lock")]
    running = dict.fromkeys(guessers, 0)
    series: dict[int, list[float]] = {s: [0.0] for s in guessers}
    for turn in turns:
        for card in board:
            if int(card.get("turn", 0)) == turn and card.get("seat") in running:
                running[card["seat"]] += int(card.get("points") or 0)
        for s in guessers:
            series[s].append(float(running[s]))
    return chart(series, seats, ["0", *[str(t) for t in turns]])


def _rounds_chart(view: Mapping[str, Any]) -> dict[str, Any] | None:
    seats = list(view.get("seats") or [])
    rounds = [r for r in view.get("rounds") or [] if isinstance(r, Mapping)]
    if not rounds:
        return None
    series: dict[int, list[float]] = {s: [0.0] for s in range(len(seats))}
    for result in rounds:
        for seat, values in series.items():
            gained = int(result.get("points") or 0) if result.get("winner") == seat else 0
            values.append(values[-1] + gained)
    return chart(series, seats, ["0", *[str(r.get("round", i + 1)) for i, r in
                                        enumerate(rounds)]])


def chart_for_replay(steps: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The chart of an ended game: the scores in the view after each step."""
    series: dict[int, list[float]] = {}
    seats: list[str] = []
    for step in steps:
        view = step.get("view") or {}
        seats = list(view.get("seats") or seats)
        scores = next((view[k] for k in SCORE_KEYS if view.get(k) is not None), None)
        values = per_seat(scores, seats)
        for seat, value in values.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                series.setdefault(seat, []).append(float(value))
    if not series or max(len(v) for v in series.values()) < 2:
        return None
    length = max(len(v) for v in series.values())
    for values in series.values():
        values[:0] = [values[0]] * (length - len(values))
    return chart(series, seats, [str(i) for i in range(length)])


def chart(
    series: Mapping[int, Sequence[float]], seats: Sequence[str], labels: Sequence[str]
) -> dict[str, Any]:
    """Polylines for each seat's series in a ``WIDTH``×``HEIGHT`` box, with axis ticks."""
    everything = [v for values in series.values() for v in values]
    low, high = min([0.0, *everything]), max([1.0, *everything])
    length = max(len(v) for v in series.values())
    span_x = max(length - 1, 1)

    def x_at(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * i / span_x

    def y_at(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)

    lines = [
        {
            "seat": seat,
            "name": seats[seat] if seat < len(seats) else str(seat),
            "colour": seat_colour(seat),
            "points": " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(values)),
            "last": values[-1] if values else 0,
        }
        for seat, values in sorted(series.items())
    ]
    ticks = sorted({low, 0.0, high})
    every = max(1, len(labels) // 8)
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "bottom": HEIGHT - BOTTOM,
        "lines": lines,
        "y_ticks": [{"y": y_at(v), "label": f"{v:g}"} for v in ticks],
        "x_ticks": [{"x": x_at(i), "label": label}
                    for i, label in enumerate(labels) if i % every == 0 or i == len(labels) - 1],
    }
