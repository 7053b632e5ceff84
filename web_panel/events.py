"""Live updates: a server-sent event stream per phone, each carrying that phone's own view.

Each event's id is the game's version, so a phone that slept or reloaded resumes with
``Last-Event-ID`` (or ``?since=``) and gets the current view at once if it missed a change.
Keep-alive comments every ``SSE_KEEPALIVE`` seconds hold the connection open through proxies and
let the server notice a phone that has gone; served by waitress with
``channel_request_lookahead=1``, a stream also ends within a second of its phone hanging up.
The seat is re-derived from the token on every event, so a re-issued seat stops receiving at
once. Phones that would receive the same event (same game, seat, version, language and role —
typically the spectators) share one rendering of it.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, request, stream_with_context

from web_panel.errors import ApiError
from web_panel.i18n import current_language
from web_panel.pages import board_context, render_board
from web_panel.panel_state import panel
from web_panel.params import whole_number
from web_panel.security import is_host, seat_of

bp = Blueprint("events", __name__)

#: The longest single wait on the companion, so a closing server ends its streams promptly.
WAIT_SLICE = 1.0


def _resume_from() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or ""
    number = whole_number(raw)
    return number if number is not None else -1


def event_text(version: int, data: dict[str, Any]) -> str:
    """One SSE event: its id (the game's version) and its JSON data on one line."""
    return f"id: {version}\nevent: view\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def _version_of(game_id: int, seat: int | None) -> int:
    """The game's version as ``seat`` sees it now."""
    version: int = panel().companion.view(game_id, seat)["version"]
    return version


def _event(game_id: int, with_html: bool) -> str:
    """The event for the requester's own view now (its board rendered in their language)."""
    context = board_context(game_id)
    view = context["view"]
    data: dict[str, Any] = {"version": view["version"], "seat": context["seat"], "view": view}
    if with_html:
        data["html"] = render_board(game_id, context)
    return event_text(view["version"], data)


@bp.get("/api/games/<int:game_id>/events")
def stream(game_id: int) -> Response:
    state = panel()
    companion = state.companion
    companion.view(game_id, None)  # a 404 now, before the stream starts, for an unknown game
    since = _resume_from()
    with_html = request.args.get("html", "1") != "0"

    # waitress (with channel_request_lookahead >= 1) tells a running request its client hung up.
    hung_up = request.environ.get("waitress.client_disconnected") or (lambda: False)

    def events() -> Iterator[str]:
        last = since
        yield "retry: 2000\n\n"
        sent_at = time.monotonic()
        while not state.closing.is_set():
            seen = companion.version()
            seat = seat_of(game_id)
            version = state.version_cache.get(
                (game_id, seat, seen), functools.partial(_version_of, game_id, seat)
            )
            if version != last:
                last = version
                yield state.event_cache.get(
                    (game_id, seat, version, current_language(), is_host(), with_html),
                    lambda: _event(game_id, with_html),
                )
                sent_at = time.monotonic()
            # Wait for the next change anywhere; keep-alives count from this stream's last write,
            # so a quiet game's phone gets them even while other games change all the time.
            while not state.closing.is_set():
                if hung_up():
                    return
                remaining = sent_at + state.keepalive - time.monotonic()
                if remaining <= 0:
                    yield ": keep-alive\n\n"
                    sent_at = time.monotonic()
                    continue
                if companion.wait_for_change(seen, min(remaining, WAIT_SLICE)) > seen:
                    break

    if request.method == "HEAD":
        return Response(mimetype="text/event-stream")
    if not state.stream_slots.take():
        raise ApiError(503, "too_many_streams",
                       "The companion is serving as many live pages as it can; this page will "
                       "refresh by polling and retry.")
    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.call_on_close(state.stream_slots.give_back)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
