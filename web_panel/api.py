"""The JSON API: games, views (the polling fallback), seats, actions, history and standings.

A player acts only for the seat their token holds: the seat never comes from the request body.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from rules import CHANCE
from web_panel.errors import ApiError
from web_panel.move_log import readable
from web_panel.panel_state import panel, private_moves
from web_panel.params import whole_number
from web_panel.security import (
    is_host,
    json_body,
    phone_description,
    require_seat,
    seat_of,
    set_seat_cookie,
)

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_ACTION = 200


def _action_text(body: dict[str, Any]) -> str:
    action = body.get("action")
    if not isinstance(action, str) or not action.strip():
        raise ApiError(400, "malformed", "Send the action as text: {\"action\": \"guess 1-5-9\"}.")
    if len(action) > MAX_ACTION:
        raise ApiError(400, "malformed", f"An action is at most {MAX_ACTION} characters.")
    return action.strip()


@bp.get("/status")
def status() -> Response:
    return jsonify(panel().session.status())


@bp.get("/catalog")
def catalog() -> Response:
    return jsonify(panel().session.catalog())


@bp.get("/games")
def games() -> Response:
    return jsonify(panel().session.games(status="active"))


def reader_seat(game_id: int) -> int | None:
    """The seat whose view a read answers with: the requester's, or none with
    ``?as=spectator`` (the table screen, which shows no seat's view whoever holds it)."""
    as_whom = request.args.get("as")
    if as_whom is None:
        return seat_of(game_id)
    if as_whom != "spectator":
        raise ApiError(400, "malformed", f"as can only be \"spectator\", not {as_whom[:20]!r}.")
    return None


@bp.get("/games/<int:game_id>")
def view(game_id: int) -> Response:
    """The requester's own view (the polling fallback of the live stream); a spectator's with
    ``?as=spectator``."""
    return jsonify(panel().session.view(game_id, reader_seat(game_id)))


@bp.post("/games/<int:game_id>/seats/<int:seat>/claim")
def claim(game_id: int, seat: int) -> Response:
    companion = panel().session
    held = seat_of(game_id)
    if held is not None:
        raise ApiError(409, "already_seated", f"This phone already holds seat {held + 1}.")
    code = json_body().get("code")
    if code is not None and (not isinstance(code, str) or len(code) > 40):
        raise ApiError(400, "malformed", "code must be the seat's join code, a short text.")
    token = companion.claim_seat(game_id, seat, code, phone_description())
    response = jsonify({"game_id": game_id, "seat": seat,
                        "url": url_for("pages.game", game_id=game_id)})
    set_seat_cookie(response, game_id, token)
    return response


@bp.get("/games/<int:game_id>/next")
def next_game(game_id: int) -> Response:
    """The game that follows this ended one (a tournament's next, the host's "play again"):
    its id and page, and — for a phone that held a seat here — where to take the same seat
    there without joining again."""
    state = panel()
    following = state.next_game(game_id) if state.session.summary(game_id)["status"] != "active" \
        else None
    if following is None:
        return jsonify({"game_id": None})
    answer: dict[str, Any] = {"game_id": following,
                              "url": url_for("pages.game", game_id=following)}
    if seat_of(game_id) is not None:
        answer["follow"] = url_for("api.follow", game_id=game_id)
    return jsonify(answer)


@bp.post("/games/<int:game_id>/follow")
def follow(game_id: int) -> Response:
    """Take this phone's seat of ``game_id`` (ended) in the game that follows it: the same
    player's seat, with the seat's join code when the host locked the seats."""
    state = panel()
    seat = require_seat(game_id)
    following = state.next_game(game_id)
    if following is None:
        raise ApiError(409, "no_next_game", "This game has no next game yet.")
    url = url_for("pages.game", game_id=following)
    held = seat_of(following)
    if held is not None:
        return jsonify({"game_id": following, "seat": held, "url": url})
    before, after = state.session.summary(game_id), state.session.summary(following)
    if seat >= len(after["seats"]) or after["seats"][seat] != before["seats"][seat]:
        raise ApiError(409, "not_in_next_game", "This player is not in the next game.")
    codes = state.session.seats(following)["join_codes"]
    token = state.session.claim_seat(following, seat, codes[seat] if codes else None,
                                     phone_description())
    response = jsonify({"game_id": following, "seat": seat, "url": url})
    set_seat_cookie(response, following, token)
    return response


@bp.post("/games/<int:game_id>/act")
def act(game_id: int) -> Response:
    action = _action_text(json_body())
    seat = require_seat(game_id)
    return jsonify(panel().session.act(game_id, seat, action))


@bp.post("/games/<int:game_id>/hint")
def hint(game_id: int) -> Response:
    """A hint for the requester's seat, from the public board alone (UNLOCK: how many codes
    are still possible and a suggested guess); the journal counts it before it is answered."""
    json_body()  # a state-changing request: the same checks as every other
    seat = require_seat(game_id)
    return jsonify(panel().session.hint(game_id, seat))


@bp.post("/games/<int:game_id>/chance")
def chance(game_id: int) -> Response:
    """A die roll for a game waiting on chance: a value read off a real die, or one rolled here.

    A roll comes from the host, or from the phone of the seat whose roll it is (the view's
    ``roll_for``) — never from another player. ``{"action": "roll 4"}`` enters a physical die's
    value, ``{"roll": "random"}`` lets the companion roll a fair die. Who entered it is kept in
    the journal (``host``, ``seat N``, with ``random`` when the companion rolled).
    """
    body = json_body()
    companion = panel().session
    view = companion.view(game_id, None)
    if is_host():
        by = "host"
    else:
        seat = require_seat(game_id)
        roll_for = view.get("roll_for")
        if not isinstance(roll_for, dict) or roll_for.get("seat") != seat:
            raise ApiError(403, "not_your_roll",
                           "This roll is not yours: the player whose roll it is, the host or "
                           "the box rolls it.")
        by = f"seat {seat}"
    if body.get("roll") == "random":
        faces = view.get("die_faces")
        if not isinstance(faces, int) or faces < 1:
            raise ApiError(409, "no_die", "This game does not roll a die.")
        action, by = f"roll {secrets.randbelow(faces) + 1}", f"{by} random"
    else:
        action = _action_text(body)
    companion.act(game_id, CHANCE, action, by)
    return jsonify(companion.view(game_id, seat_of(game_id)))


@bp.post("/handover/<code>")
def take_handover(code: str) -> Response:
    taken = panel().handovers.take(code)
    if taken is None:
        raise ApiError(404, "no_such_handover", "This seat link was used already or has expired.")
    game_id, seat, token = taken
    response = jsonify({"game_id": game_id, "seat": seat,
                        "url": url_for("pages.game", game_id=game_id)})
    set_seat_cookie(response, game_id, token)
    return response


@bp.get("/history")
def history() -> Response:
    return jsonify(panel().session.history(limit=100))


#: The most moves one answer carries (a phone asks again from where it got to).
MOVES_PAGE = 400


@bp.get("/games/<int:game_id>/moves")
def moves(game_id: int) -> Response:
    """The game's move log from step ``since`` on, as the requester may read it: every move's
    player, time and public figures; an action's text only when it is public — a private
    action (UNLOCK's codes) only for its author while the game goes on (``?as=spectator``: as a
    spectator reads it, whoever asks)."""
    state = panel()
    raw = request.args.get("since", "0")
    since = whole_number(raw)
    if since is None or since < 0:
        raise ApiError(400, "bad_step", f"since must be a whole number ≥ 0, not {raw[:20]!r}.")
    summary = state.session.summary(game_id)
    private = private_moves(state.games, summary["game"])
    ended = summary["status"] != "active"
    return jsonify(readable(state.session.moves(game_id, since)[:MOVES_PAGE], private,
                            reader_seat(game_id), ended))


@bp.get("/games/<int:game_id>/replay")
def replay(game_id: int) -> Response:
    return jsonify(panel().session.replay(game_id))


@bp.get("/tournaments/<int:tid>")
def tournament(tid: int) -> Response:
    return jsonify(panel().session.tournament(tid))
