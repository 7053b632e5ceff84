"""Live updates: a server-sent event stream per phone, each carrying that phone's own view.

Each event's id is the game's version, so a phone that slept or reloaded resumes with
``Last-Event-ID`` (or ``?since=``) and gets the current view at once if it missed a change.
Keep-alive comments every ``SSE_KEEPALIVE`` seconds hold the connection open through proxies and
let the server notice a phone that has gone. The seat is re-derived from the token on every event,
so a re-issued seat stops receiving at once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, request, stream_with_context

from web_panel.pages import board_context, render_board
from web_panel.panel_state import panel

bp = Blueprint("events", __name__)

#: The longest single wait on the companion, so a closing server ends its streams promptly.
WAIT_SLICE = 1.0


def _resume_from() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or ""
    return int(raw) if raw.lstrip("-").isdigit() else -1


def event_text(version: int, data: dict[str, Any]) -> str:
    """One SSE event: its id (the game's version) and its JSON data on one line."""
    return f"id: {version}\nevent: view\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@bp.get("/api/games/<int:game_id>/events")
def stream(game_id: int) -> Response:
    state = panel()
    companion = state.companion
    companion.view(game_id, None)  # a 404 now, before the stream starts, for an unknown game
    since = _resume_from()
    with_html = request.args.get("html", "1") != "0"

    def events() -> Iterator[str]:
        last = since
        yield "retry: 2000\n\n"
        while not state.closing.is_set():
            seen = companion.version()
            context = board_context(game_id)
            view = context["view"]
            if view["version"] != last:
                last = view["version"]
                data: dict[str, Any] = {"version": last, "seat": context["seat"], "view": view}
                if with_html:
                    data["html"] = render_board(game_id, context)
                yield event_text(last, data)
            deadline = time.monotonic() + state.keepalive
            while not state.closing.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    yield ": keep-alive\n\n"
                    break
                if companion.wait_for_change(seen, min(remaining, WAIT_SLICE)) > seen:
                    break
        return

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
