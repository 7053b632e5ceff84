"""Live updates: a server-sent event stream per phone, each carrying that phone's own view (or a
delta of the view it already has; :mod:`web_panel.view_events`).

Each event's id is the game's version, so a phone that slept or reloaded resumes with
``Last-Event-ID`` (or ``?since=``) and gets what it missed at once. A stream is woken by its own
game only. Keep-alive comments every ``SSE_KEEPALIVE`` seconds hold the connection open through
proxies. A stream lives at most ``SSE_LIFETIME`` seconds: the phone reconnects by itself
(``retry``) and resumes. The seat is re-derived from the token at every change, so a re-issued
seat stops receiving at once. What a stream sends, and when, is
:class:`web_panel.live_streams.LiveStream`.

Served by the panel's own server (``web_panel.serving``), the request is handed over once its
first event is written: the one thread feeding every handed-over stream writes it from then
on, and it holds no request thread. Under
any other WSGI server the response is a generator that holds its thread (with waitress and
``channel_request_lookahead=1`` it also ends within a second of its phone hanging up).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, request, stream_with_context

from web_panel.errors import ApiError
from web_panel.live_streams import LiveStream, writes
from web_panel.panel_state import PanelState, panel
from web_panel.params import whole_number
from web_panel.security import seat_cookie_name
from web_panel.serving import HAND_OVER

bp = Blueprint("events", __name__)


def resume_from() -> int:
    """The version the client says it has (``Last-Event-ID``, else ``?since=``; ``-1``: none)."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or ""
    number = whole_number(raw)
    return number if number is not None else -1


@bp.get("/api/games/<int:game_id>/events")
def stream(game_id: int) -> Response:
    state = panel()
    session = state.session
    session.game_version(game_id)  # a 404 now, before the stream starts, for an unknown game
    since = resume_from()
    if request.method == "HEAD":
        return Response(mimetype="text/event-stream")
    token = request.cookies.get(seat_cookie_name(game_id)) or ""
    clients = (f"address {request.remote_addr}",) + ((f"seat {token[:24]}",) if token else ())
    take_slot(state, clients)
    return streamed(LiveStream(session, state.events, game_id, token, since,
                               keepalive=state.keepalive, lifetime=state.lifetime,
                               now=time.monotonic(),
                               on_end=lambda: state.stream_slots.give_back(clients)), state)


def take_slot(state: PanelState, clients: tuple[str, ...]) -> None:
    """Hold a stream slot for ``clients`` (the keys it counts against), or refuse: 503 when
    the box serves all the live pages it can, 429 when this client has its share."""
    refused = state.stream_slots.take(clients)
    if refused == "full":
        raise ApiError(503, "too_many_streams",
                       "The companion is serving as many live pages as it can; this page will "
                       "refresh by polling and retry.")
    if refused is not None:
        raise ApiError(429, "too_many_streams_here",
                       "This phone already has as many live pages open as it may; close one, "
                       "this page will refresh by polling.", retry_after=5)


def streamed(live: LiveStream, state: PanelState) -> Response:
    """The response that sends ``live``: its opening now, then (on the panel's own server) the
    feeding thread's writes, or (any other server) a generator holding this request's
    thread. ``live`` ends (its slot given back) if its opening fails."""
    try:
        first = live.opening(time.monotonic())
    except BaseException:
        live.end()
        raise
    hand_over = request.environ.get(HAND_OVER)
    if hand_over is not None:  # the panel's server: its feeding thread from here on
        hand_over(state.live.handover(live))
        body: Iterator[bytes] = iter((first,))
    else:
        hung_up = request.environ.get("waitress.client_disconnected") or (lambda: False)
        body = stream_with_context(_held(live, first, state, hung_up))
    response = Response(body, mimetype="text/event-stream")
    if hand_over is None:
        response.call_on_close(live.end)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _held(live: LiveStream, first: bytes, state: PanelState,
          hung_up: Callable[[], bool]) -> Iterator[bytes]:
    """The stream on its request's own thread (a server that cannot take it over)."""
    yield first
    yield from writes(live, state.closing, hung_up)
