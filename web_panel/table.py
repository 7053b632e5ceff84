"""The table screen: ``/table``, a page for a screen the whole table reads (a tablet stood on the
table, a TV's browser, a monitor on the box's HDMI in kiosk mode; docs/table.md).

It shows the game the pad plays, or the one the host put on it (:mod:`web_panel.table_game`),
as a spectator sees it — never a seat's view — drawn by the game page's own scripts, big: the
board, the scores, whose turn, the last move, a join QR code, and once the game has ended its
results and the standings. Its live stream (:mod:`web_panel.table_stream`) tells it when to show
another game, so it moves by itself.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from web_panel.errors import ApiError
from web_panel.events import resume_from, streamed, take_slot
from web_panel.i18n import translate
from web_panel.join_qr import qr_svg
from web_panel.pages import game_names, game_page, public_url, summary_of
from web_panel.panel_state import panel
from web_panel.params import whole_number
from web_panel.security import json_body, require_host
from web_panel.table_stream import TableStream

bp = Blueprint("table", __name__)

#: The standings' rows the screen shows (the leaders).
STANDINGS_ROWS = 8
#: The reads of a game page, as a spectator reads them whoever asks (``web_panel.api``).
AS_SPECTATOR = "?as=spectator"
#: The links of a game page the screen has no use for (no one taps a screen across the room).
NO_LINKS = ("act", "chance", "hint", "hints", "undo", "abandon", "home", "next", "again",
            "replay")


@bp.get("/table")
def page() -> str:
    state = panel()
    follows = state.table.followed(state)
    game_id = follows.game_id
    events = url_for("table.stream", game=game_id if game_id is not None else "")
    context: dict[str, Any] = {"game_id": game_id, "follows": follows, "names": game_names(),
                               "events_url": events, "view": None}
    free = False
    if game_id is not None:
        summary = summary_of(game_id)
        context.update(game_page(game_id, state.session.view(game_id, None), replay=False,
                                 summary=summary))
        data = context["page_data"]
        data.update(is_host=False, table=True)
        data["urls"].update(dict.fromkeys(NO_LINKS), events=events,
                            view=url_for("api.view", game_id=game_id) + AS_SPECTATOR,
                            moves=url_for("api.moves", game_id=game_id) + AS_SPECTATOR)
        free = summary["status"] == "active" and not all(summary["claimed"])
    url = public_url() + (f"join/{game_id}" if free else "")
    playing = context["view"] is not None and context["view"].get("status") == "active"
    return render_template(
        "table.html", join_url=url, join_game=free, qr=qr_svg(url, translate("qr_label", url=url)),
        standings=None if playing else state.session.standings()[:STANDINGS_ROWS], **context)


@bp.get("/table/standings")
def standings() -> str:
    """The standings as the screen shows them beside an ended game: fetched alone when its game
    ends (a few hundred bytes, not the whole page again)."""
    return render_template("table_standings.html",
                           standings=panel().session.standings()[:STANDINGS_ROWS])


@bp.get("/api/table")
def follows() -> Response:
    """The game the table screen shows, why, and the host's choice (``null``: the pad's)."""
    state = panel()
    return jsonify(state.table.followed(state).answer())


@bp.get("/api/table/events")
def stream() -> Response:
    """The table screen's live stream of the game it shows (``?game=N``; empty: none): that
    game's events as a spectator gets them, and ``moved`` when it is to show another."""
    state = panel()
    raw = request.args.get("game", "")
    showing = whole_number(raw) if raw else None
    if raw and showing is None:
        raise ApiError(400, "malformed", f"game must be a game number (or empty for none), "
                                         f"not {raw[:20]!r}.")
    if showing is not None:
        state.session.game_version(showing)  # a 404 now for an unknown game
    if request.method == "HEAD":
        return Response(mimetype="text/event-stream")
    clients = (f"address {request.remote_addr}",)
    take_slot(state, clients)
    return streamed(TableStream(state.session, state.events, showing,
                                lambda: state.table.followed(state).game_id, resume_from(),
                                keepalive=state.keepalive, lifetime=state.lifetime,
                                now=time.monotonic(),
                                on_end=lambda: state.stream_slots.give_back(clients)), state)


@bp.post("/api/host/table")
def choose() -> Response:
    """The host puts a game on the table screen (``{"game_id": 3}``: any game, being played or
    ended) or lets it follow the pad again (``{"game_id": null}``)."""
    require_host()
    body = json_body()
    if "game_id" not in body:
        raise ApiError(400, "malformed", "give game_id: a game number, or null to follow the "
                                         "pad's game.")
    game_id = body["game_id"]
    if game_id is not None and (isinstance(game_id, bool) or not isinstance(game_id, int)):
        raise ApiError(400, "malformed", "game_id must be a game number or null.")
    state = panel()
    if game_id is not None:
        state.session.summary(game_id)  # a 404 for a game there is not
    state.table.chosen = game_id
    return jsonify(state.table.followed(state).answer())
