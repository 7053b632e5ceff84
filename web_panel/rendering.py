"""What the page templates need besides the view: translation, roles, colours and JSON.

Boards are not rendered here: each game's board script draws it on the phone from the view
(``web_panel/games/<game>/board.js``); the templates are the pages around it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request, url_for
from markupsafe import Markup

from firmware_host import seat_colours
from web_panel.i18n import LANGUAGES, current_language, translate
from web_panel.page_bundles import panel_texts
from web_panel.panel_state import panel
from web_panel.security import is_host
from web_panel.times import time_tag


def seat_colour(seat: int | None) -> str:
    """The colour of a seat on every drawing (red, blue, yellow, green, …:
    :mod:`firmware_host.seat_colours`, which ``static/kit.js`` holds too)."""
    return seat_colours.seat_colour(seat)


ink_on = seat_colours.ink_on


def seat_style(seat: int | None) -> str:
    """The CSS variables of a seat's chip on a page: its colour and its ink."""
    colour = seat_colour(seat)
    return f"--seat: {colour}; --seat-ink: {ink_on(colour)}"


def per_seat(value: object, seats: Sequence[str]) -> dict[int, object]:
    """A per-seat value (a list by seat, or a mapping with int or text keys) as ``{seat: v}``."""
    if isinstance(value, Mapping):
        out: dict[int, object] = {}
        for key, item in value.items():
            if isinstance(key, int) or (isinstance(key, str) and key.isascii()
                                        and key.isdigit()):
                out[int(key)] = item
        return out
    if isinstance(value, Sequence) and not isinstance(value, str):
        return dict(enumerate(value))
    return {}


def page_json(data: object) -> Markup:
    """``data`` as JSON safe to embed in a ``<script type="application/json">`` element."""
    text = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(text.replace("&", "\\u0026"))


@cache
def content_hash(path: Path) -> str:
    """A short hash of a file's content (computed once per run)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def asset_url(filename: str) -> str:
    """The URL of a static file, with its content's hash so phones may cache it for long."""
    folder = current_app.static_folder
    assert folder is not None
    return url_for("static", filename=filename, v=content_hash(Path(folder) / filename))


def texts_url() -> str:
    """The URL of the panel's texts in the request's language, with their content's hash."""
    lang = current_language()
    return url_for("pages.texts_script", lang=lang, v=panel_texts(lang).version)


def install_template_helpers(app: Flask) -> None:
    """Give templates ``t``, the language, the roles, colours and JSON."""

    @app.context_processor
    def _helpers() -> dict[str, Any]:
        return {
            "t": translate,
            "lang": current_language(),
            "languages": LANGUAGES,
            "is_host": is_host,
            "simulator_mode": panel().simulator is not None,
            "seat_colour": seat_colour,
            "seat_style": seat_style,
            "per_seat": per_seat,
            "page_json": page_json,
            "asset_url": asset_url,
            "texts_url": texts_url,
            "current_path": request.full_path.rstrip("?"),
            "when": lambda stamp: time_tag(stamp, current_language()),
        }
