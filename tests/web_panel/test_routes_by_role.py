"""Every route against every role: spectator, the player of seat A (the Lock), the player of
seat B (a guesser), the host, a forged cookie, and a cross-origin request.

The table is checked against ``app.url_map``: a new route without a row here fails the suite.
Each case runs on a fresh companion (a journal file of its own), so POSTs cannot leak into each
other; every response is also searched for the Lock's secret, which only seat A may ever see.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from tests.web_panel.served import CSRF, HOST_PIN, data_dir, make_app
from web_panel.panel_state import EXTENSION, make_state, panel

ROLES = ("spectator", "seat_a", "seat_b", "host", "forged", "cross_origin")
SECRET = "1-5-9-6"


@dataclass
class World:
    """A companion with: game 1 UNLOCK (A = seat 0, the Lock, secret set; B = seat 1; seat 2
    free), game 2 a 2 1 6 game that was abandoned, game 3 the first game of tournament 1,
    game 4 a 2 1 6 game waiting for a die roll (A = seat 0, B = seat 1), and a pending
    hand-over of game 1's seat 2."""

    app: Flask
    companion: Companion
    tokens: dict[str, dict[int, str]]
    handover: str
    secret: str


@pytest.fixture(scope="module")
def shared_app() -> Iterator[Flask]:
    """One app for the module (its templates compile once); each case rebinds its state."""
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        yield make_app(companion)


@pytest.fixture
def world(shared_app: Flask) -> Iterator[World]:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        app = shared_app
        app.extensions[EXTENSION] = make_state(companion, panel(app).games, None, app.config)
        unlock = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
        a1, b1 = companion.claim_seat(unlock, 0), companion.claim_seat(unlock, 1)
        companion.act(unlock, 0, f"secret {SECRET}")
        ended = companion.create_game("dice216", ["Aiko", "Ben"])
        companion.abandon(ended)
        companion.create_tournament("unlock", ["Aiko", "Ben"])
        dice = companion.create_game("dice216", ["Aiko", "Ben"])
        a4, b4 = companion.claim_seat(dice, 0), companion.claim_seat(dice, 1)
        with app.app_context():
            handover = panel(app).handovers.offer(unlock, 2, companion.reissue_seat(unlock, 2))
        secret = companion.view(unlock, 0)["secret"]
        assert (unlock, ended, dice) == (1, 2, 4)
        yield World(app, companion, {"seat_a": {1: a1, 4: a4}, "seat_b": {1: b1, 4: b4}},
                    handover, secret)


def client_for(world: World, role: str) -> tuple[FlaskClient, dict[str, str]]:
    """A test client holding the role's cookies, and the headers its requests carry."""
    client = world.app.test_client()
    headers = dict(CSRF)
    if role in ("seat_a", "seat_b"):
        for game_id, token in world.tokens[role].items():
            client.set_cookie(f"tt_seat_{game_id}", token)
    if role in ("host", "cross_origin"):
        status = client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF).status_code
        assert status == 200
    if role == "cross_origin":
        for game_id, token in world.tokens["seat_a"].items():
            client.set_cookie(f"tt_seat_{game_id}", token)
        headers["Origin"] = "http://evil.example"
    if role == "forged":
        client.set_cookie("tt_seat_1", "forged-token-that-was-never-issued")
        client.set_cookie("tt_seat_4", "forged-token-that-was-never-issued")
        client.set_cookie("tt_host", "forged-host-session")
    return client, headers


def row(method: str, path: str, expected: dict[str, int] | int, body: Any = None,
        **overrides: int) -> dict[str, Any]:
    statuses = dict.fromkeys(ROLES, expected) if isinstance(expected, int) else dict(expected)
    statuses.update(overrides)
    if method == "POST":
        statuses.setdefault("cross_origin", 403)
        statuses["cross_origin"] = overrides.get("cross_origin", 403)
    return {"method": method, "path": path, "body": body, "expected": statuses}


#: The live streams: their first event is read, not the whole stream.
STREAMS = ("events.stream", "table.stream")
HOST_ONLY = {"spectator": 401, "seat_a": 401, "seat_b": 401, "host": 200, "forged": 401}
HOST_PAGE = {"spectator": 303, "seat_a": 303, "seat_b": 303, "host": 200, "forged": 303,
             "cross_origin": 200}

#: endpoint → the request to make and the status each role gets.
TABLE: dict[str, dict[str, Any]] = {
    "static": row("GET", "/static/panel.css", 200),
    "pages.home": row("GET", "/", 200),
    "pages.join": row("GET", "/join/1", 200),
    "pages.game": row("GET", "/games/1", 200),
    "pages.game_asset": row("GET", "/boards/unlock/board.js", 200),
    "pages.page_script": row("GET", "/boards/unlock/page.js", 200),
    "pages.texts_script": row("GET", "/texts/ja.js", 200),
    "pages.replay": row("GET", "/games/2/replay?step=1", 200),
    "pages.history": row("GET", "/history", 200),
    "pages.tournament": row("GET", "/tournaments/1", 200),
    "pages.standings": row("GET", "/standings?game=unlock", 200),
    "pages.handover": row("GET", "/handover/{handover}", 200),
    "pages.language": row("GET", "/lang/ja?next=/history", 303),
    "pages.favicon": row("GET", "/favicon.ico", 200),
    "api.status": row("GET", "/api/status", 200),
    "api.catalog": row("GET", "/api/catalog", 200),
    "api.games": row("GET", "/api/games", 200),
    "api.view": row("GET", "/api/games/1", 200),
    "api.history": row("GET", "/api/history", 200),
    "api.replay": row("GET", "/api/games/2/replay", 200),
    "api.moves": row("GET", "/api/games/1/moves", 200),
    "api.next_game": row("GET", "/api/games/2/next", 200),
    "api.follow": row("POST", "/api/games/2/follow", {"spectator": 401, "seat_a": 401,
                                                       "seat_b": 401, "host": 401,
                                                       "forged": 401}),
    "api.tournament": row("GET", "/api/tournaments/1", 200),
    "api.claim": row("POST", "/api/games/3/seats/0/claim", 200),
    "api.act": row("POST", "/api/games/1/act", {"spectator": 401, "seat_a": 409, "seat_b": 200,
                                                "host": 401, "forged": 403},
                   {"action": "guess 2-5-8"}),
    "api.chance": row("POST", "/api/games/4/chance", {"spectator": 401, "seat_a": 200,
                                                      "seat_b": 403, "host": 200,
                                                      "forged": 403}, {"roll": "random"}),
    # UNLOCK's hint: the Lock (seat_a) has none to get (400, in words), a guesser gets one
    "api.hint": row("POST", "/api/games/1/hint", {"spectator": 401, "seat_a": 400,
                                                  "seat_b": 200, "host": 401, "forged": 403}),
    "api.take_handover": row("POST", "/api/handover/{handover}", 200),
    "events.stream": row("GET", "/api/games/1/events", 200),
    "host.dashboard": row("GET", "/host", 200),
    "host.new_game": row("GET", "/host/new/unlock", HOST_PAGE),
    "host.reissued": row("GET", "/host/reissued/{handover}", HOST_PAGE),
    "host.login": row("POST", "/api/host/login", 200, {"pin": HOST_PIN}),
    "host.logout": row("POST", "/api/host/logout", 200),
    "host.create_game": row("POST", "/api/host/games", HOST_ONLY,
                            {"game": "ico", "players": ["Aiko", "Ben"]}),
    "host.create_tournament": row("POST", "/api/host/tournaments", HOST_ONLY,
                                  {"players": ["Aiko", "Ben", "Chie"]}),
    "host.lock_seats": row("POST", "/api/host/games/1/seats/lock", HOST_ONLY, {"locked": True}),
    "host.allow_hints": row("POST", "/api/host/games/1/hints", HOST_ONLY, {"allowed": False}),
    "host.seat_bot": row("POST", "/api/host/games/1/bots", HOST_ONLY, {"seat": 0, "level": None}),
    "host.undo": row("POST", "/api/host/games/1/undo", HOST_ONLY),
    "host.pad": row("POST", "/api/host/pad", HOST_ONLY, {"game_id": 4, "language": "ja"}),
    "host.play_again": row("POST", "/api/host/games/1/again", {**HOST_ONLY, "host": 409}),
    "host.abandon": row("POST", "/api/host/games/1/abandon", HOST_ONLY),
    "host.reissue": row("POST", "/api/host/games/1/seats/1/reissue", HOST_ONLY),
    # the table screen shows the pad's game (game 1) as a spectator sees it, to every role
    "table.page": row("GET", "/table", 200),
    "table.standings": row("GET", "/table/standings", 200),
    "table.follows": row("GET", "/api/table", 200),
    "table.stream": row("GET", "/api/table/events?game=1", 200),
    "table.choose": row("POST", "/api/host/table", HOST_ONLY, {"game_id": 4}),
    # smart dice: this app has none (no Bluetooth): the host is told so, in words
    "dice.listing": row("GET", "/api/host/dice", {**HOST_ONLY, "host": 404, "cross_origin": 404}),
    "dice.scan": row("POST", "/api/host/dice/scan", {**HOST_ONLY, "host": 404}),
    "dice.pair": row("POST", "/api/host/dice/pair", {**HOST_ONLY, "host": 404},
                     {"address": "C0:FF:EE:00:00:01", "owner": 0}),
    "dice.unpair": row("POST", "/api/host/dice/unpair", {**HOST_ONLY, "host": 404},
                       {"address": "C0:FF:EE:00:00:01"}),
    "device.page": row("GET", "/device", 404),
    "device.frame": row("GET", "/device/frame.png", 404),
    "device.tft": row("GET", "/device/tft.png", 404),
    # game 1 is being played: its analysis comes once it ends, to nobody before
    "analysis.analysis": row("GET", "/api/games/1/analysis", 409),
    "analysis.replay_part": row("GET", "/games/1/replay/analysis", 409),
    "device.state": row("GET", "/device/state", 404),
    "device.press": row("POST", "/device/input", 404, {"kind": "ok"}),
}


def test_every_route_has_a_row(app: Flask) -> None:
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert endpoints == set(TABLE), (
        f"routes without a row: {sorted(endpoints - set(TABLE))}; "
        f"rows without a route: {sorted(set(TABLE) - endpoints)}"
    )


def test_every_row_uses_its_routes_method(app: Flask) -> None:
    for rule in app.url_map.iter_rules():
        assert TABLE[rule.endpoint]["method"] in (rule.methods or set()), rule.endpoint


def _first_event(response: Any) -> dict[str, Any]:
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "\ndata: " in text and text.endswith("\n\n"):
            break
    response.close()
    data = text.split("\ndata: ", 1)[1].split("\n", 1)[0]
    parsed: dict[str, Any] = json.loads(data)
    return parsed


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", sorted(TABLE))
def test_route_answers_role(world: World, endpoint: str, role: str) -> None:
    case = TABLE[endpoint]
    client, headers = client_for(world, role)
    path = case["path"].format(handover=world.handover)
    if case["method"] == "GET":
        response = client.get(path, headers=headers, buffered=endpoint not in STREAMS)
    else:
        response = client.post(path, json=case["body"] or {}, headers=headers)
    expected = case["expected"][role]
    assert response.status_code == expected, (endpoint, role, response.get_data(as_text=True))
    if endpoint in STREAMS:
        event = _first_event(response)
        sees_secret = event["view"]["secret"] is not None
        # the table screen's stream is a spectator's, whoever's browser holds it
        assert sees_secret == (endpoint == "events.stream" and role in ("seat_a", "cross_origin"))
        return
    body = response.get_data().decode("utf-8", "replace")  # the icon is a PNG
    if response.status_code >= 400 and (case["method"] == "POST" or "/api/" in path
                                        or path.startswith("/device/")):
        assert response.is_json, (endpoint, role, body)
        error = response.get_json()
        assert set(error) >= {"error", "message"} and error["message"], error
    # Abandoning ends the game, and the rules make the secret public when the game is over.
    if role not in ("seat_a", "cross_origin") and endpoint != "host.abandon":
        assert world.secret not in body, (endpoint, role)
