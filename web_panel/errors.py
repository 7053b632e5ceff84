"""Errors as JSON ``{error, message}`` with 4xx codes; never a 500 for bad input.

Only three kinds of error are refusals: the panel's own :class:`ApiError`, the rules'
``rules.RulesError`` and the session's ``firmware_host.errors.SessionError`` — each maps to one
status here. Any other exception is a bug: it is logged with its traceback and answered 500.
API routes and POSTs answer JSON; pages answer a small HTML page with the same message.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from firmware_host.errors import (
    BluetoothMissing,
    DeviceRefusal,
    JoinCodeNeeded,
    JournalDamaged,
    NoSuchGame,
    NoSuchTournament,
    NotAllowed,
    SeatTaken,
    SessionBusy,
    SessionError,
    StorageError,
)
from rules import IllegalAction, OptionError, RulesError, UnknownGame
from web_panel.messages import MESSAGES

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A refusal raised by the panel itself, with its status and error name."""

    def __init__(self, status: int, error: str, message: str, *,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        #: Seconds before trying again (a 429 or 503), sent as ``Retry-After``.
        self.retry_after = retry_after


#: Session and rules refusals → (status, error name). Order matters: first match wins.
REFUSALS: tuple[tuple[type[Exception], int, str], ...] = (
    (NoSuchGame, 404, "no_such_game"),
    (NoSuchTournament, 404, "no_such_tournament"),
    (SeatTaken, 409, "seat_taken"),
    (JoinCodeNeeded, 403, "join_code"),
    (NotAllowed, 409, "not_allowed"),
    (SessionBusy, 503, "busy"),
    (JournalDamaged, 503, "journal_damaged"),
    (StorageError, 503, "storage"),
    (DeviceRefusal, 400, "bad_input"),
    (BluetoothMissing, 503, "no_bluetooth"),
    (SessionError, 409, "refused"),
    (IllegalAction, 409, "illegal_action"),
    (OptionError, 400, "bad_option"),
    (UnknownGame, 400, "unknown_game"),
    (RulesError, 400, "bad_request"),
)


def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return (
        request.path.startswith("/api/")
        or request.method != "GET"
        or request.path.startswith("/device/")
        or best == "application/json"
    )


def _option_labels() -> dict[str, str]:
    """The options of the game a request names, by identifier → label in the page's words."""
    from web_panel.i18n import current_language
    from web_panel.panel_state import panel

    body = request.get_json(silent=True) if request.is_json else None
    game = body.get("game") if isinstance(body, dict) else None
    registration = panel().panel_game(game) if isinstance(game, str) else None
    if registration is None:
        return {}
    lang = current_language()
    return {key.removeprefix("option."): words[lang]
            for key, words in registration.texts.items() if key.startswith("option.")}


def error_response(status: int, error: str, message: str, *, own: bool = False,
                   **extra: Any) -> Response:
    """The error as JSON for the API and POSTs, as a page for browsers' page loads; its words
    in the page's language, seats named from 1, without internal identifiers
    (:mod:`web_panel.refusals`; ``own``: the panel's own words, see there)."""
    from web_panel.i18n import current_language
    from web_panel.refusals import phrase

    said = phrase(error, message, current_language(), own=own,
                  option_label=_option_labels() if error == "bad_option" else None)
    if said.detail:
        extra = {**extra, "detail": said.detail}
    if _wants_json():
        response = jsonify({"error": error, "message": said.message, **extra})
    else:
        response = Response(
            render_template("error.html", status=status, error=error, message=said.message,
                            detail=said.detail),
            mimetype="text/html",
        )
    response.status_code = status
    return response


def register_error_handlers(app: Flask) -> None:
    """Install the handlers: panel refusals, companion/rules refusals, HTTP errors, the rest."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        response = error_response(exc.status, exc.error, exc.message, own=True)
        retry = exc.retry_after if exc.retry_after is not None else (
            5 if exc.status == 503 else None)
        if retry is not None:
            response.headers["Retry-After"] = str(retry)
        return response

    def _refused(exc: RulesError | SessionError) -> Response:
        status, name = next((s, n) for kind, s, n in REFUSALS if isinstance(exc, kind))
        response = error_response(status, name, str(exc))
        if status == 503:
            response.headers["Retry-After"] = "2"
        return response

    app.register_error_handler(RulesError, _refused)
    app.register_error_handler(SessionError, _refused)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        # a 400 of Flask's own is a body it could not read ("bad_request" is the rules' name)
        name = "malformed" if status == 400 else (exc.name or "error").lower().replace(" ", "_")
        # werkzeug's own wording of a kind of error is not the players'; one it was given (a bad
        # Host header) says what was wrong
        told = exc.description if exc.description != type(exc).description else None
        words = MESSAGES.get("error." + name, MESSAGES["error.http"])
        response = error_response(status, name, told or words["en"], own=True)
        for key, value in exc.get_headers():
            if key.lower() == "allow":
                response.headers[key] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal", "Something went wrong on the companion.")
