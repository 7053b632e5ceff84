"""Club mode's pages (docs/club.md), registered only when the box is in club mode.

On a **box**: a seat's player gives their club code (``POST /api/games/<id>/club-code``, with
the seat's token) and the host sees the club connection. On the **hub**: the live tables of
every box, each game's league table, a player's games across boxes, one game with its post-game
analysis, the CSV export, and club profiles made and claimed from a phone. Everything here is
public except a profile's code, which only the phone that made or renewed it is shown, once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from web_panel.errors import ApiError
from web_panel.pages import game_names
from web_panel.panel_state import PinLimiter
from web_panel.security import require_seat

if TYPE_CHECKING:
    from firmware_host.club.hub import LiveTables
    from firmware_host.club.league import League
    from firmware_host.club.league_rows import Profile
    from firmware_host.club.publisher import ClubStatus
    from firmware_host.club.supervisor import BrokerStatus

EXTENSION = "tabletop_club"
PROFILE_COOKIE = "tt_club"
PROFILE_COOKIE_AGE = 60 * 60 * 24 * 365 * 2

bp = Blueprint("club", __name__)


@dataclass
class ClubPanel:
    """What the club's pages use: on a box, where a seat's club code goes and the connection's
    status; on the hub, the league, the live tables and, when the hub runs the broker, its
    status."""

    set_code: Callable[[int, int, str], None] | None = None
    status: Callable[[], ClubStatus] | None = None
    league: League | None = None
    live: LiveTables | None = None
    claims: PinLimiter | None = None
    broker: Callable[[], BrokerStatus] | None = None


def install(app: Flask, club: ClubPanel) -> None:
    """Register the club's pages on ``app``."""
    if club.claims is None:
        club.claims = PinLimiter(5, 30, 60.0, app.config.get("CLOCK", time.monotonic))
    app.extensions[EXTENSION] = club
    app.register_blueprint(bp)


def club() -> ClubPanel:
    found: ClubPanel = current_app.extensions[EXTENSION]
    return found


def league() -> League:
    found = club().league
    if found is None:
        raise ApiError(404, "not_the_hub", "This box is not the club's hub.")
    return found


@bp.app_context_processor
def _club_helpers() -> dict[str, Any]:
    panel = current_app.extensions.get(EXTENSION)
    status = panel.status() if panel is not None and panel.status is not None else None
    broker = panel.broker() if panel is not None and panel.broker is not None else None
    return {"club_hub": panel is not None and panel.league is not None,
            "club_box": panel is not None and panel.set_code is not None,
            "club_status": status,
            "club_broker_down": _down(broker["down_since"]) if broker is not None else None}


def _down(since: str | None) -> dict[str, str] | None:
    """Since when the hub's broker is down: the stamp, and the hub's clock time to show (with
    the date when it is not today's)."""
    if since is None:
        return None
    try:
        when = datetime.fromisoformat(since).astimezone()
    except ValueError:
        return {"since": since, "clock": since}
    today = when.date() == datetime.now(when.tzinfo).date()
    return {"since": since, "clock": when.strftime("%H:%M:%S" if today else "%Y-%m-%d %H:%M")}


# --- a box: a seat's club code -------------------------------------------------------------
@bp.post("/api/games/<int:game_id>/club-code")
def seat_code(game_id: int) -> Response:
    from firmware_host.club.codes import normalise

    panel = club()
    if panel.set_code is None:
        raise ApiError(404, "not_in_a_club", "This box is not in a club.")
    seat = require_seat(game_id)
    body = request.get_json(silent=True)
    text = body.get("code") if isinstance(body, dict) else None
    if not isinstance(text, str):
        raise ApiError(400, "bad_code", "Send the club code as {\"code\": \"K7QM-4XP1\"}.")
    try:
        code = normalise(text)
    except ValueError as error:
        raise ApiError(400, "bad_code", f"{error}.") from None
    panel.set_code(game_id, seat, code)
    return jsonify({"ok": True, "seat": seat})


# --- the hub: pages ------------------------------------------------------------------------
@bp.get("/club/")
def home() -> str:
    found = league()
    return render_template("club/home.html", boxes=_live(), games=found.games(),
                           recent=found.recent(), names=game_names(),
                           profile=_my_profile())


@bp.get("/club/games/<game>")
def standings(game: str) -> str:
    table = league().standings(game)
    if not table and game not in game_names():
        raise ApiError(404, "unknown_game", f"There is no game {game[:40]!r} in the league.")
    return render_template("club/standings.html", game=game, table=table, names=game_names())


@bp.get("/club/players/<path:player>")
def player(player: str) -> str:
    found = league().player(player)
    if found is None:
        raise ApiError(404, "no_such_player", "There is no such player in the league.")
    name, kind, games = found
    return render_template("club/player.html", player=player, name=name, kind=kind,
                           games=games, names=game_names())


@bp.get("/club/results/<int:result>")
def result(result: int) -> str:
    """One game the league holds: its players and outcome, and the post-game analysis its box
    sent with the record (docs/analysis.md; nothing when none came)."""
    from web_panel.analysis_view import shown
    from web_panel.i18n import current_language

    found = league().result(result)
    if found is None:
        raise ApiError(404, "no_such_result", "The league has no such game.")
    analysis = (shown(found.analysis, current_language(), players=found.line.players)
                if found.analysis is not None else None)
    return render_template("club/result.html", r=found.line, scores=found.scores,
                           names=game_names(), analysis=analysis,
                           analysis_state="ready" if analysis else "none")


@bp.get("/club/export.csv")
def export() -> Response:
    game = request.args.get("game") or None
    if game is not None and len(game) > 40:
        raise ApiError(400, "bad_game", "game names a game id such as 'unlock'.")
    text = league().to_csv(game)
    response = Response("\ufeff" + text, mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="league-{game or "all"}.csv"')
    return response


@bp.get("/club/me")
def me() -> str:
    league()
    return render_template("club/me.html", profile=_my_profile())


@bp.get("/api/club/live")
def live() -> Response:
    return jsonify({"boxes": _live()})


@bp.get("/api/club/results")
def results() -> Response:
    lines = sorted(league().recent(limit=1000), key=lambda line: line.id)
    return jsonify({"results": [asdict(line) for line in lines], "boxes": league().counts()})


# --- the hub: profiles ---------------------------------------------------------------------
@bp.post("/api/club/profiles")
def make_profile() -> Response:
    body = request.get_json(silent=True)
    name = body.get("name") if isinstance(body, dict) else None
    profile, code, token = league().create_profile(name)  # type: ignore[arg-type]
    return _with_profile(profile, token, code)


@bp.post("/api/club/profiles/claim")
def claim() -> Response:
    limiter = club().claims
    assert limiter is not None
    wait = limiter.attempt(request.remote_addr or "?")
    if wait is not None:
        raise ApiError(429, "too_many_tries",
                       f"Too many codes tried: try again in {int(wait) + 1} seconds.",
                       retry_after=int(wait) + 1)
    body = request.get_json(silent=True)
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str):
        raise ApiError(400, "bad_code", "Send the club code as {\"code\": \"K7QM-4XP1\"}.")
    profile, token = league().claim(code)
    return _with_profile(profile, token, None)


@bp.post("/api/club/profiles/me/code")
def renew() -> Response:
    profile = _my_profile()
    if profile is None:
        raise ApiError(401, "no_profile", "This phone has no club profile yet.")
    code = league().renew_code(profile)
    return jsonify({"code": code, "player": profile.player})


def _with_profile(profile: Profile, token: str, code: str | None) -> Response:
    from flask import url_for

    response = jsonify({"player": profile.player, "name": profile.name, "code": code,
                        "url": url_for("club.player", player=profile.player)})
    response.set_cookie(PROFILE_COOKIE, token, max_age=PROFILE_COOKIE_AGE, httponly=True,
                        samesite="Strict", path="/")
    return response


def _my_profile() -> Profile | None:
    return league().profile_of_phone(request.cookies.get(PROFILE_COOKIE))


def _live() -> list[dict[str, Any]]:
    live = club().live
    if live is None:
        return []
    names = game_names()
    boxes = []
    for box in live.snapshot():
        tables = [{"game_id": t.game_id, "game": t.game, "name": names.get(t.game, t.game),
                   "players": list(t.players), "turn": t.turn, "to_act": list(t.to_act),
                   "scores": list(t.scores) if t.scores is not None else None,
                   "updated": t.updated,
                   "watch": f"{box.panel.rstrip('/')}/games/{t.game_id}"
                   if box.panel and box.online else None}
                  for t in sorted(box.tables.values(), key=lambda t: t.game_id)]
        boxes.append({"box": box.box, "online": box.online, "panel": box.panel,
                      "tables": tables})
    return boxes


__all__ = ["ClubPanel", "bp", "install"]
