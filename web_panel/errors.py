"""Errors as JSON ``{error, message}`` with 4xx codes; never a 500 for bad input.

The companion refuses with ``ValueError`` subclasses whose messages are fit for a user; each maps to
one status here. API routes and POSTs answer JSON; pages answer a small HTML page with the same
message.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from firmware_host.errors import NoSuchGame, NoSuchTournament, NotAllowed, SeatTaken, SessionError
from rules import IllegalAction, OptionError, UnknownGame

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A refusal raised by the panel itself, with its status and error name."""

    def __init__(self, status: int, error: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message


#: Companion and rules refusals → (status, error name). Order matters: first match wins.
REFUSALS: tuple[tuple[type[Exception], int, str], ...] = (
    (NoSuchGame, 404, "no_such_game"),
    (NoSuchTournament, 404, "no_such_tournament"),
    (SeatTaken, 409, "seat_taken"),
    (NotAllowed, 409, "not_allowed"),
    (SessionError, 409, "refused"),
    (IllegalAction, 409, "illegal_action"),
    (OptionError, 400, "bad_option"),
    (UnknownGame, 400, "unknown_game"),
    (ValueError, 400, "bad_request"),
)


def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return (
        request.path.startswith("/api/")
        or request.method != "GET"
        or request.path.startswith("/device/")
        or best == "application/json"
    )


def error_response(status: int, error: str, message: str, **extra: Any) -> Response:
    """The error as JSON for the API and POSTs, as a page for browsers' page loads."""
    if _wants_json():
        response = jsonify({"error": error, "message": message, **extra})
    else:
        response = Response(
            render_template("error.html", status=status, error=error, message=message),
            mimetype="text/html",
        )
    response.status_code = status
    return response


def register_error_handlers(app: Flask) -> None:
    """Install the handlers: panel refusals, companion/rules refusals, HTTP errors, the rest."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        response = error_response(exc.status, exc.error, exc.message)
        if exc.status == 503:
            response.headers["Retry-After"] = "5"
        if exc.status == 429:
            retry = getattr(exc, "retry_after", None)
            if retry is not None:
                response.headers["Retry-After"] = str(retry)
        return response

    @app.errorhandler(ValueError)
    def _refused(exc: ValueError) -> Response:
        for kind, status, name in REFUSALS:
            if isinstance(exc, kind):
                return error_response(status, name, str(exc))
        return error_response(400, "bad_request", str(exc))  # pragma: no cover - ValueError above

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        name = (exc.name or "error").lower().replace(" ", "_")
        response = error_response(status, name, exc.description or exc.name or "")
        for key, value in exc.get_headers():
            if key.lower() == "allow":
                response.headers[key] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal", "Something went wrong on the companion.")
