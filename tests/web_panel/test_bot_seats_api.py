"""The host seats bots over the JSON API; phones see which seats the box plays."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from firmware_host.companion import Companion
from tests.web_panel.served import CSRF
from tests.web_panel.test_hardening import host_client, joined


def test_the_host_creates_a_game_with_a_bot_seat(app: Flask, companion: Companion) -> None:
    host = host_client(app)
    reply = host.post("/api/host/games", json={"game": "hacktrick", "players": ["Aiko", "Box"],
                                               "bots": {"1": "hard"}}, headers=CSRF)
    assert reply.status_code == 200, reply.get_json()
    game_id = reply.get_json()["game_id"]
    assert companion.summary(game_id)["bots"] == [None, "hard"]
    assert companion.view(game_id, None)["claimed"] == [False, True]
    phone = joined(app, game_id, 0)
    assert phone.get(f"/api/games/{game_id}").get_json()["bots"] == [None, "hard"]
    refused = app.test_client().post(f"/api/games/{game_id}/seats/1/claim", json={},
                                     headers=CSRF)
    assert refused.status_code == 409
    assert "played by the box" in refused.get_json()["message"]


def test_the_catalogue_names_each_games_bot_levels(app: Flask) -> None:
    catalogue = {g["id"]: g for g in app.test_client().get("/api/catalog").get_json()}
    assert catalogue["ico"]["bots"] == ["random", "easy", "hard"]
    assert catalogue["ico"]["hints"] is False


@pytest.mark.parametrize(("bots", "status", "names"), [
    ({"one": "hard"}, 400, "'one' is not a seat number"),
    ({"1": 3}, 400, "seat 1's level must be text"),
    (["hard"], 400, "bots must be an object"),
    ({"5": "hard"}, 409, "a number from 0 to 1, got 5"),
    ({"1": "expert"}, 409, "unknown bot level 'expert'"),
])
def test_a_bad_bot_seat_is_refused_naming_it(app: Flask, companion: Companion, bots: Any,
                                              status: int, names: str) -> None:
    reply = host_client(app).post("/api/host/games", json={
        "game": "ico", "players": ["Aiko", "Ben"], "bots": bots}, headers=CSRF)
    assert reply.status_code == status
    assert names in reply.get_json()["message"]
    assert companion.games() == []
