"""Live updates: a server-sent event stream per phone, each carrying that phone's own view (or a
delta of the view it already has; :mod:`web_panel.view_events`).

Each event's id is the game's version, so a phone that slept or reloaded resumes with
``Last-Event-ID`` (or ``?since=``) and gets what it missed at once. A stream waits on its own
game only: other games' changes never wake it. Keep-alive comments every ``SSE_KEEPALIVE``
seconds hold the connection open through proxies; served by waitress with
``channel_request_lookahead=1``, a stream also ends within a second of its phone hanging up. A
stream lives at most ``SSE_LIFETIME`` seconds: the phone reconnects by itself (``retry``) and
resumes, so no connection lives long enough to pile up what it sent. The seat is re-derived from
the token at every change, so a re-issued seat stops receiving at once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Blueprint, Response, request, stream_with_context

from web_panel.errors import ApiError
from web_panel.panel_state import panel
from web_panel.params import whole_number
from web_panel.security import seat_cookie_name, seat_holding

bp = Blueprint("events", __name__)

#: The longest single wait on the session, so a closing server ends its streams promptly.
WAIT_SLICE = 1.0
#: How soon a phone reconnects after the server ends a stream (milliseconds).
RETRY_MS = 1000
#: The event a phone gets when the host re-issued its seat to another phone.
REPLACED = ("event: replaced\ndata: " + json.dumps(
    {"message": "The host gave your seat to another phone; this one now watches the game."})
    + "\n\n").encode()
KEEP_ALIVE = b": keep-alive\n\n"


def _resume_from() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or ""
    number = whole_number(raw)
    return number if number is not None else -1


@bp.get("/api/games/<int:game_id>/events")
def stream(game_id: int) -> Response:
    state = panel()
    session = state.session
    session.game_version(game_id)  # a 404 now, before the stream starts, for an unknown game
    since = _resume_from()
    hung_up = request.environ.get("waitress.client_disconnected") or (lambda: False)
    if request.method == "HEAD":
        return Response(mimetype="text/event-stream")
    token = request.cookies.get(seat_cookie_name(game_id)) or ""
    clients = (f"address {request.remote_addr}",) + ((f"seat {token[:24]}",) if token else ())
    refused = state.stream_slots.take(clients)
    if refused == "full":
        raise ApiError(503, "too_many_streams",
                       "The companion is serving as many live pages as it can; this page will "
                       "refresh by polling and retry.")
    if refused is not None:
        raise ApiError(429, "too_many_streams_here",
                       "This phone already has as many live pages open as it may; close one, "
                       "this page will refresh by polling.", retry_after=5)

    def events() -> Iterator[bytes]:
        last, last_seat = since, seat_holding(game_id, token)
        yield f"retry: {RETRY_MS}\n\n".encode()
        started = sent_at = time.monotonic()
        while not state.closing.is_set() and time.monotonic() - started < state.lifetime:
            seat = seat_holding(game_id, token)  # again at every change: it may be re-issued
            version = session.game_version(game_id)
            if last_seat is not None and seat is None:
                # the host gave this seat to another phone: say so, then go on as a spectator
                yield REPLACED
                sent_at = time.monotonic()
            if version != last or seat != last_seat:
                if seat == last_seat and last >= 0:
                    version, event = state.events.since(game_id, seat, last)
                else:
                    version, event = state.events.current(game_id, seat)
                if version != last or seat != last_seat:
                    yield event
                    sent_at = time.monotonic()
                last, last_seat = version, seat
            # Wait for this game's next change; keep-alives count from this stream's last write.
            while not state.closing.is_set():
                if hung_up():
                    return
                remaining = sent_at + state.keepalive - time.monotonic()
                if remaining <= 0:
                    yield KEEP_ALIVE
                    sent_at = time.monotonic()
                    continue
                if time.monotonic() - started >= state.lifetime:
                    return
                if session.wait_for_game(game_id, last, min(remaining, WAIT_SLICE)) > last:
                    break

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.call_on_close(lambda: state.stream_slots.give_back(clients))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
