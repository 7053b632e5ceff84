"""What the templates need besides the view: translation, roles, and small view readers.

Nothing here hides or reveals anything: templates only ever receive the view the companion gave
for the requester's own seat, and draw it.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask, request
from markupsafe import Markup

from web_panel.i18n import LANGUAGES, client_messages, current_language, translate
from web_panel.panel_state import panel
from web_panel.security import is_host

SEAT_COLOURS = ("#d93838", "#2f6fd6", "#e0b000", "#2e9e4f", "#8e44ad", "#e67e22", "#16a0a0",
                "#c2185b")


def seat_colour(seat: int | None) -> str:
    """The colour of a seat on every drawing (red, blue, yellow, green, …)."""
    if seat is None or seat < 0:
        return "#777777"
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def per_seat(value: Any, seats: Sequence[str]) -> dict[int, Any]:
    """A per-seat value (a list by seat, or a mapping with int or text keys) as ``{seat: v}``."""
    if isinstance(value, Mapping):
        out: dict[int, Any] = {}
        for key, item in value.items():
            try:
                out[int(key)] = item
            except (TypeError, ValueError):
                continue
        return out
    if isinstance(value, Sequence) and not isinstance(value, str):
        return dict(enumerate(value))
    return {}


def code_dots(code: Any) -> list[int]:
    """The dots of a code's text form (``"1-5-9-6"`` → ``[1, 5, 9, 6]``); ``[]`` if not a code."""
    if not isinstance(code, str):
        return []
    dots: list[int] = []
    for part in code.replace(" ", "").split("-"):
        if not part.isdigit():
            return []
        dots.append(int(part))
    return dots


def code_segments(code: Any, size: int, cell: float = 20.0, pad: float = 10.0) -> dict[str, Any]:
    """Coordinates to draw a code on a ``size``×``size`` card: its dots and lines."""
    def point(dot: int) -> tuple[float, float]:
        row, col = divmod(dot - 1, size)
        return pad + col * cell, pad + row * cell

    dots = [dot for dot in code_dots(code) if 1 <= dot <= size * size]
    lines = [(*point(a), *point(b)) for a, b in itertools.pairwise(dots)]
    grid = [point(d) for d in range(1, size * size + 1)]
    used = {point(d) for d in dots}
    return {
        "grid": [(x, y, (x, y) in used) for x, y in grid],
        "lines": lines,
        "start": point(dots[0]) if dots else None,
        "extent": 2 * pad + (size - 1) * cell,
    }


def score_track(view: Mapping[str, Any]) -> dict[str, Any]:
    """UNLOCK's score track: −10…100 in rows of ten, extended to any score outside that range.

    Each cell holds the seats of the guessers standing on it (the Lock does not score).
    """
    seats = list(view.get("seats") or [])
    scores = per_seat(view.get("scores"), seats)
    guessers = {s: v for s, v in scores.items() if s != view.get("lock") and isinstance(v, int)}
    low = min([-10, *guessers.values()])
    high = max([100, *guessers.values()])
    low -= low % 10  # round down to a multiple of ten (Python's % keeps this right below zero)
    rows = []
    for start in range(low, high + 1, 10):
        rows.append([
            {"value": value, "seats": [s for s, v in guessers.items() if v == value]}
            for value in range(start, min(start + 10, high + 1))
        ])
    return {"rows": rows, "low": low, "high": high, "extended": low < -10 or high > 100,
            "scores": guessers}


def clue_columns(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The clue board as laid on the table: one column per ``matches`` value, cards in turn order.

    Columns 0…5 are always there (as on the table); higher values appear when a card has them.
    """
    cards = [c for c in view.get("clue_board") or [] if isinstance(c, Mapping)]
    top = max([5, *(int(c.get("matches") or 0) for c in cards)])
    return [
        {"matches": m, "cards": [c for c in cards if int(c.get("matches") or 0) == m]}
        for m in range(top + 1)
    ]


def card_moves(legal: Sequence[str]) -> dict[str, Any]:
    """Hacktrick's legal actions grouped by card (``play 3 …``, ``lead 3``) and the rest.

    >>> card_moves(["play 3", "play 3 x2 declare=guard", "draw"])["cards"][0]["actions"][1]
    {'action': 'play 3 x2 declare=guard', 'verb': 'play', 'x2': True, 'declare': 'guard'}
    """
    cards: dict[str, list[dict[str, Any]]] = {}
    others: list[str] = []
    for action in legal:
        words = action.split()
        if len(words) >= 2 and words[0] in ("play", "lead") and words[1].isdigit():
            declare = next((w.partition("=")[2] for w in words if w.startswith("declare=")), None)
            cards.setdefault(words[1], []).append(
                {"action": action, "verb": words[0], "x2": "x2" in words, "declare": declare}
            )
        else:
            others.append(action)
    return {"cards": [{"value": int(v), "actions": a} for v, a in sorted(cards.items())],
            "others": others}


def page_json(data: Any) -> Markup:
    """``data`` as JSON safe to embed in a ``<script type="application/json">`` element."""
    text = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(text.replace("&", "\\u0026"))


def install_template_helpers(app: Flask) -> None:
    """Give templates ``t``, the language, the roles and the drawing helpers."""

    from web_panel.ico_net import net_drawing  # it draws with this module's seat colours

    def game_board(game: str) -> Any:
        """The game's board drawing from the catalogue (``describe()["board"]``), if it has one."""
        for entry in panel().companion.catalog():
            if entry["id"] == game:
                return entry.get("board")
        return None

    @app.context_processor
    def _helpers() -> dict[str, Any]:
        lang = current_language()
        return {
            "t": translate,
            "lang": lang,
            "languages": LANGUAGES,
            "is_host": is_host,
            "simulator_mode": panel().simulator is not None,
            "js_messages": lambda: page_json(client_messages(lang)),
            "seat_colour": seat_colour,
            "per_seat": per_seat,
            "code_segments": code_segments,
            "score_track": score_track,
            "clue_columns": clue_columns,
            "card_moves": card_moves,
            "ico_net": net_drawing,
            "game_board": game_board,
            "replay": False,
            "page_json": page_json,
            "current_path": request.full_path.rstrip("?"),
        }
