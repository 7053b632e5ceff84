"""Server-rendered pages: home, join, a game, its replay, history, standings, language toggle."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for

from web_panel.errors import ApiError
from web_panel.i18n import LANGUAGES
from web_panel.join_qr import qr_svg
from web_panel.panel_state import panel
from web_panel.params import whole_number
from web_panel.score_chart import chart_for_replay, chart_for_view
from web_panel.security import LANG_COOKIE, seat_of

bp = Blueprint("pages", __name__)


def public_url() -> str:
    """The panel's address for phones (config ``PUBLIC_URL``, else the address asked for)."""
    configured = current_app.config.get("PUBLIC_URL")
    return str(configured).rstrip("/") + "/" if configured else request.host_url


def game_names() -> dict[str, str]:
    """Game id → its display name, from the catalogue."""
    return {entry["id"]: entry["name"] for entry in panel().companion.catalog()}


def summary_of(game_id: int) -> dict[str, Any]:
    """The summary of one game (current or ended), or a 404."""
    companion = panel().companion
    for summary in companion.games():
        if summary["id"] == game_id:
            return dict(summary)
    raise ApiError(404, "no_such_game", f"There is no game {game_id}.")


def board_context(game_id: int) -> dict[str, Any]:
    """What the board templates need: the requester's own view and its seat."""
    seat = seat_of(game_id)
    companion = panel().companion
    view = companion.view(game_id, seat)
    tournament = next((g["tournament"] for g in companion.games() if g["id"] == game_id), None)
    return {"view": view, "seat": seat, "game_id": game_id, "chart": chart_for_view(view),
            "tournament": tournament}


def render_board(game_id: int, context: dict[str, Any] | None = None) -> str:
    """The board fragment (the part live updates replace) for the requester's seat."""
    context = context or board_context(game_id)
    return render_template(f"boards/{context['view']['game']}.html", **context)


@bp.get("/")
def home() -> str:
    companion = panel().companion
    games = [g for g in companion.games() if g["status"] == "active"]
    url = public_url()
    return render_template(
        "home.html", games=games, names=game_names(), join_url=url, qr=qr_svg(url),
        status=companion.status(),
    )


@bp.get("/join/<int:game_id>")
def join(game_id: int) -> str:
    summary = summary_of(game_id)
    url = public_url() + f"join/{game_id}"
    return render_template(
        "join.html", game=summary, names=game_names(), my_seat=seat_of(game_id),
        join_url=url, qr=qr_svg(url),
    )


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    context = board_context(game_id)
    return render_template(
        "game.html", board=render_board(game_id, context), names=game_names(), **context
    )


@bp.get("/games/<int:game_id>/board")
def board(game_id: int) -> str:
    return render_board(game_id)


@bp.get("/games/<int:game_id>/replay")
def replay(game_id: int) -> str:
    steps = panel().companion.replay(game_id)
    if not steps:
        raise ApiError(404, "no_replay", f"Game {game_id} has no steps to replay.")
    raw = request.args.get("step", str(len(steps) - 1))
    number = whole_number(raw)
    if number is None:
        raise ApiError(400, "bad_step", f"step must be a whole number, not {raw[:20]!r}.")
    index = min(max(number, 0), len(steps) - 1)
    step = steps[index]
    view = step["view"]
    context = {"view": view, "seat": None, "game_id": game_id, "chart": chart_for_replay(steps),
               "tournament": None}
    return render_template(
        "replay.html", step=step, index=index, count=len(steps), names=game_names(),
        board=render_template(f"boards/{view['game']}.html", replay=True, **context),
        **context,
    )


@bp.get("/history")
def history() -> str:
    return render_template(
        "history.html", games=panel().companion.history(limit=100), names=game_names()
    )


@bp.get("/tournaments/<int:tid>")
def tournament(tid: int) -> str:
    return render_template("tournament.html", tour=panel().companion.tournament(tid))


@bp.get("/handover/<code>")
def handover(code: str) -> str:
    found = panel().handovers.peek(code)
    if found is None:
        raise ApiError(404, "no_such_handover", "This seat link was used already or has expired.")
    game_id, seat = found
    return render_template(
        "handover.html", code=code, game=summary_of(game_id), seat=seat, names=game_names()
    )


@bp.get("/lang/<code>")
def language(code: str) -> Response:
    if code not in LANGUAGES:
        raise ApiError(404, "no_such_language", f"Unknown language {code!r}.")
    target = request.args.get("next", "/")
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = url_for("pages.home")
    response = redirect(target, code=303)
    response.set_cookie(LANG_COOKIE, code, max_age=60 * 60 * 24 * 365, samesite="Lax",
                        httponly=True)
    return response
