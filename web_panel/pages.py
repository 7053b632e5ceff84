"""Server-rendered pages: home, join, a game, its replay, history, standings across games, a
tournament, language toggle; and each game's own client scripts and styles.

A game page is the page around the board: it carries the seat's view and the game's
description as JSON, and the game's board script draws the board from them on the phone — the
same drawing that live updates make (``web_panel/games/<game>/board.js``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)

from firmware_host.session_api import GameInfo, GameSummary, View
from web_panel.analysis import replay_analysis
from web_panel.errors import ApiError
from web_panel.games import PanelGame
from web_panel.i18n import (
    LANG_COOKIE,
    LANGUAGES,
    current_language,
    game_messages,
    game_text,
    translate,
)
from web_panel.join_qr import qr_svg
from web_panel.page_bundles import Bundle, joined, panel_texts
from web_panel.panel_state import panel
from web_panel.params import whole_number
from web_panel.rendering import content_hash
from web_panel.security import is_host, safe_next, seat_of

bp = Blueprint("pages", __name__)

#: The core scripts of a game page, in order; the game's own follow.
GAME_SCRIPTS = ("panel.js", "kit.js", "generic.js", "game.js")


def public_url() -> str:
    """The panel's address for phones (config ``PUBLIC_URL``, else the address asked for)."""
    configured = current_app.config.get("PUBLIC_URL")
    return str(configured).rstrip("/") + "/" if configured else request.host_url


def game_names() -> dict[str, str]:
    """Game id → its display name, from the catalogue."""
    return {entry["id"]: entry["name"] for entry in panel().session.catalog()}


#: What of a game's catalogue entry only the host's form reads.
FORM_ONLY = ("options", "notes")


def game_info(game: str) -> GameInfo:
    """The catalogue entry of ``game`` (its rules' description), or a 404."""
    for entry in panel().session.catalog():
        if entry["id"] == game:
            return entry
    raise ApiError(404, "unknown_game", f"There is no game {game!r}.")


def summary_of(game_id: int) -> GameSummary:
    """The summary of one game (current or ended)."""
    return panel().session.summary(game_id)


def game_page(game_id: int, view: View, *, replay: bool,
              summary: GameSummary) -> dict[str, Any]:
    """What the game and replay templates need: the view, the page's data for the scripts, and
    the game's scripts and styles."""
    registration = panel().panel_game(summary["game"])
    urls = {
        "events": url_for("events.stream", game_id=game_id),
        "view": url_for("api.view", game_id=game_id),
        "act": url_for("api.act", game_id=game_id),
        "chance": url_for("api.chance", game_id=game_id),
        "hint": url_for("api.hint", game_id=game_id),
        "hints": url_for("host.allow_hints", game_id=game_id),
        "undo": url_for("host.undo", game_id=game_id),
        "abandon": url_for("host.abandon", game_id=game_id),
        "home": url_for("pages.home"),
        "moves": url_for("api.moves", game_id=game_id),
        "next": url_for("api.next_game", game_id=game_id),
        "again": url_for("host.play_again", game_id=game_id),
        "replay": url_for("pages.replay", game_id=game_id),
        "analysis": url_for("analysis.analysis", game_id=game_id),
        "tournament": (url_for("pages.tournament", tid=summary["tournament"])
                       if summary["tournament"] is not None else None),
    }
    # no form on a game's page: its description without what only the host's form reads
    info = {key: value for key, value in game_info(summary["game"]).items()
            if key not in FORM_ONLY}
    data = {"game_id": game_id, "game": summary["game"], "info": info,
            "is_host": is_host(), "replay": replay, "tournament": summary["tournament"],
            "urls": urls}
    return {
        "view": view, "game_id": game_id, "page_data": data,
        "messages": game_messages(current_language(), registration),
        "page_script": url_for("pages.page_script", game=summary["game"],
                               v=page_bundle(summary["game"]).version),
        "game_styles": _styles(registration),
        "names": game_names(),
        "rules_help": game_text(registration, "rules_help"),
    }


def _styles(registration: PanelGame | None) -> list[str]:
    if registration is None:
        return []
    return [url_for("pages.game_asset", game=registration.id, name=name,
                    v=content_hash(registration.folder / name)) for name in registration.styles]


def page_bundle(game: str) -> Bundle:
    """The scripts of ``game``'s pages after ``panel.js`` (which every page has), as one: the
    core ones (:data:`GAME_SCRIPTS`), then the game's own (none for a game the panel has no
    registration for: the generic board draws it)."""
    folder = current_app.static_folder
    assert folder is not None
    registration = panel().panel_game(game)
    own = registration.scripts if registration is not None else ()
    return joined((*(Path(folder) / name for name in GAME_SCRIPTS[1:]),
                   *(registration.folder / name for name in own if registration is not None)))


@bp.get("/")
def home() -> str:
    session = panel().session
    url = public_url()
    return render_template(
        "home.html", games=session.games(status="active"), names=game_names(), join_url=url,
        qr=qr_svg(url, translate("qr_label", url=url)), status=session.status(),
    )


@bp.get("/join/<int:game_id>")
def join(game_id: int) -> str:
    summary = summary_of(game_id)
    url = public_url() + f"join/{game_id}"
    return render_template(
        "join.html", game=summary, names=game_names(), my_seat=seat_of(game_id),
        join_url=url, qr=qr_svg(url, translate("qr_label", url=url)),
    )


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    seat = seat_of(game_id)
    summary = summary_of(game_id)
    view = panel().session.view(game_id, seat)
    return render_template("game.html", seat=seat,
                           **game_page(game_id, view, replay=False, summary=summary))


@bp.get("/games/<int:game_id>/replay")
def replay(game_id: int) -> str:
    steps = panel().session.replay(game_id)
    raw = request.args.get("step", str(len(steps) - 1))
    number = whole_number(raw)
    if number is None:
        raise ApiError(400, "bad_step", f"step must be a whole number, not {raw[:20]!r}.")
    index = min(max(number, 0), len(steps) - 1)
    step = steps[index]
    page = game_page(game_id, step["view"], replay=True, summary=summary_of(game_id))
    page["page_data"]["steps"] = [
        {"seat": s["seat"], "action": s["action"], "by": s["by"], "scores": _scores(s["view"])}
        for s in steps]
    return render_template("replay.html", step=step, index=index, count=len(steps), **page,
                           **replay_analysis(game_id, steps[-1]["view"]))


def _scores(view: View) -> object:
    """The per-seat scores a step's view shows, for the replay's chart."""
    return next((view[key] for key in ("scores", "points", "totals") if view.get(key) is not None),
                None)


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The icon browsers ask for by themselves, the one pages name (``favicon.png``, drawn by
    ``scripts/favicon.py``)."""
    folder = current_app.static_folder
    assert folder is not None
    return send_file(f"{folder}/favicon.png", mimetype="image/png", max_age=86400)


@bp.get("/boards/<game>/page.js")
def page_script(game: str) -> Response:
    """A game page's scripts as one (:func:`page_bundle`); a game the catalogue does not know
    is a 404."""
    if game not in game_names():
        raise ApiError(404, "unknown_game", f"There is no game {game!r}.")
    return _script(page_bundle(game))


@bp.get("/texts/<lang>.js")
def texts_script(lang: str) -> Response:
    """The panel's texts in ``lang`` (:func:`panel_texts`); a language it does not speak is a
    404."""
    if lang not in LANGUAGES:
        raise ApiError(404, "unknown_language", f"There are no texts in {lang!r}.")
    return _script(panel_texts(lang))


def _script(bundle: Bundle) -> Response:
    """A script made by the panel, kept by the phone for a day (its URL names its version)."""
    response = current_app.response_class(bundle.body, mimetype="text/javascript")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response


@bp.get("/boards/<game>/<name>")
def game_asset(game: str, name: str) -> Response:
    """A game's own script or style sheet (from its registration's folder)."""
    registration = panel().panel_game(game)
    path = registration.asset(name) if registration is not None else None
    if path is None or not path.is_file():
        raise ApiError(404, "no_such_file", f"Game {game!r} has no file {name!r}.")
    return send_file(path, max_age=86400)


@bp.get("/history")
def history() -> str:
    return render_template(
        "history.html", games=panel().session.history(limit=100), names=game_names()
    )


@bp.get("/standings")
def standings() -> str:
    """Every player over the finished games — of every game, or of one (``?game=ico``): games
    played and won, and (for one game) the points they scored."""
    game = request.args.get("game") or None
    names = game_names()
    if game is not None and game not in names:
        raise ApiError(404, "unknown_game", f"There is no game {game[:40]!r}.")
    return render_template("standings.html", rows=panel().session.standings(game), game=game,
                           names=names)


@bp.get("/tournaments/<int:tid>")
def tournament(tid: int) -> str:
    """A tournament's standings, its result (a tie names everyone who tied) and its games,
    each with who led it (UNLOCK: the Lock)."""
    tour = panel().session.tournament(tid)
    registration = panel().panel_game(tour["game"])
    leader = game_text(registration, "tournament_leader", translate("led_by"))
    leaders = [leader.format(name=tour["players"][seat]) for seat in tour["locks"]]
    winners = [tour["players"][seat] for seat in tour["winners"]]
    return render_template("tournament.html", tour=tour, names=game_names(), leaders=leaders,
                           winner_names=winners)


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
    response = redirect(safe_next(request.args.get("next"), url_for("pages.home")), code=303)
    response.set_cookie(LANG_COOKIE, code, max_age=60 * 60 * 24 * 365, samesite="Lax",
                        httponly=True)
    return response  # type: ignore[return-value]

