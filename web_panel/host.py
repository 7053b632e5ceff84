"""The host's pages and actions, behind the PIN: new games and tournaments, undo, abandon, and
re-issuing a lost seat (through a one-time hand-over link the player's phone opens)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for

from web_panel.errors import ApiError
from web_panel.i18n import game_text, translate
from web_panel.join_qr import qr_svg
from web_panel.pages import game_info, game_names, public_url
from web_panel.panel_state import panel
from web_panel.params import whole_number
from web_panel.security import HOST_COOKIE, check_pin, is_host, json_body, require_host

bp = Blueprint("host", __name__)

MAX_PLAYERS_TEXT = 40
#: How long a host stays logged in (seconds); sessions survive a restart of the box.
HOST_SESSION = 60 * 60 * 12


def _players(body: dict[str, Any]) -> list[str]:
    players = body.get("players")
    if not isinstance(players, list) or not players:
        raise ApiError(400, "malformed", "players must be a list of names.")
    names = []
    for n, name in enumerate(players, start=1):
        if not isinstance(name, str) or not name.strip():
            raise ApiError(400, "malformed", f"player {n} needs a name.")
        if len(name.strip()) > MAX_PLAYERS_TEXT:
            raise ApiError(400, "malformed", f"player {n}'s name is longer than "
                                             f"{MAX_PLAYERS_TEXT} characters.")
        names.append(name.strip())
    return names


def _options(body: dict[str, Any]) -> dict[str, Any] | None:
    options = body.get("options")
    if options is None:
        return None
    if not isinstance(options, dict):
        raise ApiError(400, "malformed", "options must be an object of option names to values.")
    return options


def _bots(body: dict[str, Any]) -> dict[int, str] | None:
    """``bots``: the seats the box plays, ``{"1": "hard"}`` (seat numbers from 0, as text or
    numbers) to the bot's level."""
    bots = body.get("bots")
    if bots is None:
        return None
    if not isinstance(bots, dict):
        raise ApiError(400, "malformed", "bots must be an object of seat numbers to bot levels, "
                                         "e.g. {\"1\": \"hard\"}.")
    seats: dict[int, str] = {}
    for key, level in bots.items():
        seat = whole_number(key) if isinstance(key, str) else None
        if seat is None:
            raise ApiError(400, "malformed", f"bots: {key!r} is not a seat number.")
        if not isinstance(level, str):
            raise ApiError(400, "malformed", f"bots: seat {key}'s level must be text such as "
                                             "\"hard\".")
        seats[seat] = level
    return seats


def _int_or_none(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is None or value == "":
        return None
    number = value if isinstance(value, int) and not isinstance(value, bool) else (
        whole_number(value))
    if number is None or number < 0:
        raise ApiError(400, "malformed", f"{key} must be a whole number ≥ 0.")
    return number


@bp.get("/host")
def dashboard() -> str:
    if not is_host():
        return render_template("host_login.html")
    state = panel()
    session = state.session
    games = session.games(status="active")
    catalog = session.catalog()
    on_pad = {entry["id"] for entry in catalog if entry.get("pad")}
    padded = [g["id"] for g in games if g["game"] in on_pad]
    chosen = session.pad()["game"]
    on_the_pad = chosen if chosen in padded else None
    with_hints = {entry["id"] for entry in catalog if entry.get("hints")}
    hints = {g["id"]: session.view(g["id"], None).get("hints") for g in games
             if g["game"] in with_hints}
    dice = state.dice
    return render_template(
        "host.html", catalog=catalog, games=games, names=game_names(),
        dice=None if dice is None else {"rows": dice.rows(), "game": dice.game(),
                                        "problem": dice.problem},
        status=session.status(), seats={g["id"]: session.seats(g["id"]) for g in games},
        pad_game=on_the_pad, pad_games=set(padded), pad_url=url_for("host.pad"), hints=hints,
        bot_levels={entry["id"]: entry.get("bots") or [] for entry in catalog},
        table=state.table.followed(state), table_address=public_url() + "table",
    )


@bp.get("/host/new/<game>")
def new_game(game: str) -> Response | str:
    if not is_host():
        return _to_dashboard()
    entry = game_info(game)
    registration = panel().panel_game(game)
    return render_template("host_new.html", game=entry,
                           label=lambda key, default: game_text(registration, key, default))


def _to_dashboard() -> Response:
    response = redirect(url_for("host.dashboard"), code=303)
    return response  # type: ignore[return-value]


@bp.get("/host/reissued/<code>")
def reissued(code: str) -> Response | str:
    if not is_host():
        return _to_dashboard()
    found = panel().handovers.peek(code)
    if found is None:
        raise ApiError(404, "no_such_handover", "This seat link was used already or has expired.")
    url = public_url() + f"handover/{code}"
    return render_template("host_reissued.html", url=url,
                           qr=qr_svg(url, translate("qr_label", url=url)), game_id=found[0],
                           seat=found[1])


@bp.post("/api/host/login")
def login() -> Response:
    check_pin(json_body().get("pin"))
    response = jsonify({"host": True})
    response.set_cookie(HOST_COOKIE, panel().session.open_host_session(HOST_SESSION),
                        httponly=True, samesite="Strict", path="/", max_age=HOST_SESSION)
    return response


@bp.post("/api/host/logout")
def logout() -> Response:
    panel().session.close_host_session(request.cookies.get(HOST_COOKIE))
    response = jsonify({"host": False})
    response.delete_cookie(HOST_COOKIE, path="/", samesite="Strict", httponly=True)
    return response


@bp.post("/api/host/games")
def create_game() -> Response:
    require_host()
    body = json_body()
    game = body.get("game")
    if not isinstance(game, str):
        raise ApiError(400, "malformed", "game must be a game id such as \"unlock\".")
    game_id = panel().session.create_game(
        game, _players(body), _options(body), seed=_int_or_none(body, "seed"), bots=_bots(body)
    )
    return jsonify({"game_id": game_id, "url": url_for("pages.join", game_id=game_id)})


@bp.post("/api/host/games/<int:game_id>/again")
def play_again(game_id: int) -> Response:
    """A new game of the same game with the same players and options; the phones that held
    seats follow into it (``/api/games/<id>/follow``)."""
    require_host()
    state = panel()
    summary = state.session.summary(game_id)
    if summary["status"] == "active":
        raise ApiError(409, "still_playing", "This game is still being played.")
    if summary["tournament"] is not None:
        raise ApiError(409, "in_tournament", "The tournament starts its own next game.")
    options = state.session.view(game_id, None).get("options")
    bots = {seat: level for seat, level in enumerate(summary.get("bots") or []) if level}
    again = state.session.create_game(summary["game"], list(summary["seats"]),
                                      dict(options) if isinstance(options, dict) else None,
                                      bots=bots or None)
    state.successors.add(game_id, again)
    return jsonify({"game_id": again, "url": url_for("pages.game", game_id=again)})


@bp.post("/api/host/tournaments")
def create_tournament() -> Response:
    require_host()
    body = json_body()
    order = body.get("order")
    if order is not None and (not isinstance(order, list)
                              or not all(isinstance(s, int) and not isinstance(s, bool)
                                         for s in order)):
        raise ApiError(400, "malformed", "order must be a list of seat numbers.")
    game = body.get("game", "unlock")
    if not isinstance(game, str):
        raise ApiError(400, "malformed", "game must be a game id such as \"unlock\".")
    tid = panel().session.create_tournament(game, _players(body), _options(body), order=order,
                                            bots=_bots(body))
    return jsonify({"tournament": tid, "url": url_for("pages.tournament", tid=tid)})


@bp.post("/api/host/games/<int:game_id>/seats/lock")
def lock_seats(game_id: int) -> Response:
    """Lock the game's seats (each then needs its join code) or open them."""
    require_host()
    locked = json_body().get("locked", True)
    if not isinstance(locked, bool):
        raise ApiError(400, "malformed", "locked must be true or false.")
    codes = panel().session.lock_seats(game_id, locked)
    return jsonify({"game_id": game_id, "locked": locked, "join_codes": codes})


@bp.post("/api/host/games/<int:game_id>/hints")
def allow_hints(game_id: int) -> Response:
    """Turn the game's hints on or off (``{"allowed": false}``)."""
    require_host()
    allowed = json_body().get("allowed")
    if not isinstance(allowed, bool):
        raise ApiError(400, "malformed", "allowed must be true or false.")
    panel().session.allow_hints(game_id, allowed)
    return jsonify({"game_id": game_id, "hints": allowed})


@bp.post("/api/host/games/<int:game_id>/bots")
def seat_bot(game_id: int) -> Response:
    """During the game, the box takes over a seat with a bot (``{"seat": 1, "level": "hard"}``;
    seats from 0) or gives it back to a person (``"level": null``)."""
    require_host()
    body = json_body()
    seat, level = body.get("seat"), body.get("level")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ApiError(400, "malformed", "seat must be a seat number (from 0).")
    if level is not None and not isinstance(level, str):
        raise ApiError(400, "malformed", "level must be a bot level (e.g. \"easy\") or null.")
    panel().session.seat_bot(game_id, seat, level)
    return jsonify({"game_id": game_id, "seat": seat, "level": level})


@bp.post("/api/host/pad")
def pad() -> Response:
    """Which game the box's pad and OLED follow (``{"game_id": 3}``, ``null`` for none) and/or
    the OLED's language (``{"language": "ja"}``, ``null`` for the config's); answers the pad's
    settings (``SessionApi.pad``)."""
    require_host()
    body = json_body()
    session = panel().session
    if "game_id" not in body and "language" not in body:
        raise ApiError(400, "malformed", "give game_id (a game being played, or null) and/or "
                                         "language (\"en\", \"ja\" or null).")
    game_id, language = body.get("game_id"), body.get("language")
    if game_id is not None and (isinstance(game_id, bool) or not isinstance(game_id, int)):
        raise ApiError(400, "malformed", "game_id must be a game number or null.")
    if language not in (None, "en", "ja"):
        raise ApiError(400, "malformed", "language must be \"en\", \"ja\" or null.")
    if "game_id" in body:
        session.set_pad_game(game_id, "host")
    if "language" in body:
        session.set_box_language(language)
    return jsonify(session.pad())


@bp.post("/api/host/games/<int:game_id>/undo")
def undo(game_id: int) -> Response:
    require_host()
    panel().session.undo(game_id)
    return jsonify(panel().session.view(game_id, None))


@bp.post("/api/host/games/<int:game_id>/abandon")
def abandon(game_id: int) -> Response:
    require_host()
    panel().session.abandon(game_id)
    return jsonify(panel().session.view(game_id, None))


@bp.post("/api/host/games/<int:game_id>/seats/<int:seat>/reissue")
def reissue(game_id: int, seat: int) -> Response:
    require_host()
    token = panel().session.reissue_seat(game_id, seat)
    code = panel().handovers.offer(game_id, seat, token)
    return jsonify({"game_id": game_id, "seat": seat,
                    "url": url_for("host.reissued", code=code),
                    "handover": public_url() + f"handover/{code}"})
