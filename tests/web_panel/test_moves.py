"""The move log over HTTP (``/api/games/<id>/moves``): every move's player, time and public
figures; a private action's text (UNLOCK's codes) only for its author while the game goes on,
and for everyone once it has ended."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from rules import CHANCE
from tests.web_panel.served import CSRF


def seated(app: Flask, game_id: int, seat: int) -> FlaskClient:
    client = app.test_client()
    reply = client.post(f"/api/games/{game_id}/seats/{seat}/claim", json={}, headers=CSRF)
    assert reply.status_code == 200
    return client


def actions(client: FlaskClient, game_id: int, since: int = 0) -> list[str | None]:
    reply = client.get(f"/api/games/{game_id}/moves?since={since}")
    assert reply.status_code == 200
    return [move["action"] for move in reply.get_json()]


def test_a_code_is_read_only_by_its_author_until_the_game_ends(
        app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    lock, ben, chie = (seated(app, game_id, seat) for seat in range(3))
    companion.act(game_id, 0, "secret 1-5-9")
    companion.act(game_id, 1, "guess 2-5-8")
    assert actions(lock, game_id) == ["secret 1-5-9", None]
    assert actions(ben, game_id) == [None, "guess 2-5-8"]
    assert actions(chie, game_id) == [None, None]
    assert actions(app.test_client(), game_id) == [None, None]
    companion.abandon(game_id)
    assert actions(app.test_client(), game_id) == ["secret 1-5-9", "guess 2-5-8"]


def test_public_moves_carry_their_text_and_the_figures_after_them(
        app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    companion.act(game_id, CHANCE, "roll 4", "test")
    companion.act(game_id, 0, "place 1 1")
    reply = app.test_client().get(f"/api/games/{game_id}/moves").get_json()
    assert [(m["step"], m["seat"], m["action"]) for m in reply] == [
        (1, CHANCE, "roll 4"), (2, 0, "place 1 1")]
    assert reply[1]["scores"] == companion.view(game_id, None)["totals"]
    assert actions(app.test_client(), game_id, since=1) == ["place 1 1"]


def test_a_bad_since_is_refused_naming_it(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    reply = app.test_client().get(f"/api/games/{game_id}/moves?since=-2")
    assert reply.status_code == 400
    assert "since must be a whole number" in reply.get_json()["message"]
