"""The host chooses the game the box's pad and OLED follow, and the OLED's language, over the
JSON API (``POST /api/host/pad``); only the host may."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from firmware_host.companion import Companion
from tests.web_panel.served import CSRF
from tests.web_panel.test_hardening import host_client


def test_the_host_puts_the_pad_on_a_game_and_the_oled_in_japanese(
        app: Flask, companion: Companion) -> None:
    first = companion.create_game("unlock", ["Kenji", "Aiko"])
    second = companion.create_game("ico", ["Aiko", "Ben"])
    assert companion.pad()["game"] == first
    host = host_client(app)
    reply = host.post("/api/host/pad", json={"game_id": second}, headers=CSRF)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json() == {"game": second, "by": "host", "language": None}
    reply = host.post("/api/host/pad", json={"language": "ja"}, headers=CSRF)
    assert reply.get_json() == {"game": second, "by": "host", "language": "ja"}
    reply = host.post("/api/host/pad", json={"game_id": None, "language": None}, headers=CSRF)
    assert reply.get_json() == {"game": None, "by": "none", "language": None}
    assert companion.pad() == {"game": None, "by": "none", "language": None}


@pytest.mark.parametrize(("body", "status", "says"), [
    ({}, 400, "give game_id"),
    ({"game_id": "2"}, 400, "game_id must be a game number or null"),
    ({"game_id": True}, 400, "game_id must be a game number or null"),
    ({"language": "fr"}, 400, "language must be \"en\", \"ja\" or null"),
    ({"game_id": 99}, 404, "there is no game 99"),
    ({"game_id": 1, "language": "ja"}, 409, "game 1 is abandoned: the pad follows games being"),
])
def test_a_bad_pad_choice_is_refused_naming_it(app: Flask, companion: Companion, body: Any,
                                               status: int, says: str) -> None:
    game = companion.create_game("dice216", ["Aiko", "Ben"])
    companion.abandon(game)
    reply = host_client(app).post("/api/host/pad", json=body, headers=CSRF)
    assert reply.status_code == status
    assert says in reply.get_json()["message"]
    assert companion.pad()["language"] is None  # nothing was half-applied


def test_only_the_host_moves_the_pad(app: Flask, companion: Companion) -> None:
    game = companion.create_game("ico", ["Aiko", "Ben"])
    companion.set_pad_game(None)
    reply = app.test_client().post("/api/host/pad", json={"game_id": game}, headers=CSRF)
    assert reply.status_code == 401
    assert companion.pad()["game"] is None
