"""Only refusals are 4xx: the panel's own, the rules' and the session's; anything else is a bug,
logged with its traceback and answered 500 (issue 14, "Honest errors")."""

from __future__ import annotations

import logging

import pytest
from flask import Flask

from firmware_host.errors import NotAllowed, SessionBusy
from rules import IllegalAction


def _route_raising(app: Flask, error: Exception) -> None:
    def boom() -> str:
        raise error

    app.add_url_rule("/api/boom", "boom", boom)


def test_a_bug_is_a_500_with_its_traceback_logged(app: Flask,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    # a plain ValueError is not a refusal: before, every ValueError became a 400
    _route_raising(app, ValueError("int() of a bad value deep in the panel"))
    with caplog.at_level(logging.ERROR, logger="web_panel.errors"):
        reply = app.test_client().get("/api/boom")
    assert reply.status_code == 500
    assert reply.get_json()["error"] == "internal"
    assert "int() of a bad value" not in reply.get_data(as_text=True)
    assert any(record.exc_info for record in caplog.records)


@pytest.mark.parametrize(("error", "status", "name"), [
    (IllegalAction("that card is not in your hand"), 409, "illegal_action"),
    (NotAllowed("game 3 is finished"), 409, "not_allowed"),
    (SessionBusy("busy"), 503, "busy"),
])
def test_refusals_keep_their_status_and_message(app: Flask, error: Exception, status: int,
                                                name: str) -> None:
    _route_raising(app, error)
    reply = app.test_client().get("/api/boom")
    assert reply.status_code == status
    assert reply.get_json() == {"error": name, "message": str(error)}
