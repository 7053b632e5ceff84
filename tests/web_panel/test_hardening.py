"""Issue 16: nobody at the table can cheat through the panel, and bad input gets a 4xx that names
what was wrong — never a 500. Each test failed on the panel before the fix it proves."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import Device, open_device
from rules import CHANCE
from tests.web_panel.served import CSRF, HOST_PIN, make_app
from web_panel import create_app


def host_client(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF).status_code == 200
    return client


def joined(app: Flask, game_id: int, seat: int, **body: object) -> FlaskClient:
    phone = app.test_client()
    reply = phone.post(f"/api/games/{game_id}/seats/{seat}/claim", json=body, headers=CSRF)
    assert reply.status_code == 200, reply.get_json()
    return phone


# --- the simulator page -------------------------------------------------------------------------

@pytest.fixture
def device(companion: Companion) -> Iterator[Device]:
    opened = open_device(DeviceSettings(url="http://127.0.0.1/"), companion, mode="simulator",
                         rng=random.Random(8))
    try:
        yield opened
    finally:
        opened.close()


def test_every_device_route_needs_the_host(companion: Companion, device: Device) -> None:
    # The simulated box's frame shows the host PIN and its input plays any seat.
    app = create_app(companion, simulator=device.simulator, config={"TESTING": True})
    stranger = app.test_client()
    page = stranger.get("/device")
    assert page.status_code == 303 and page.headers["Location"].startswith("/host")
    for method, path in (("GET", "/device/frame.png"), ("GET", "/device/state"),
                         ("POST", "/device/input")):
        reply = stranger.open(path, method=method, json={"kind": "ok"}, headers=CSRF)
        assert reply.status_code == 401, (path, reply.status_code)
        assert reply.get_json()["error"] == "host_only"
    host = host_client(app)
    assert host.get("/device").status_code == 200
    assert host.get("/device/frame.png").status_code == 200
    assert host.post("/device/input", json={"kind": "ok"}, headers=CSRF).status_code == 200


# --- dice ---------------------------------------------------------------------------------------

def test_only_the_seat_whose_roll_it_is_or_the_host_enters_a_roll(app: Flask,
                                                                    companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"first_player": 0})
    aiko, ben = joined(app, game_id, 0), joined(app, game_id, 1)
    assert companion.view(game_id, None)["roll_for"]["seat"] == 0
    # Ben may not decide Aiko's roll, neither a value nor a random one
    for body in ({"action": "roll 6"}, {"roll": "random"}):
        reply = ben.post(f"/api/games/{game_id}/chance", json=body, headers=CSRF)
        assert reply.status_code == 403 and reply.get_json()["error"] == "not_your_roll"
    assert companion.view(game_id, None)["to_act"] == [CHANCE]
    assert aiko.post(f"/api/games/{game_id}/chance", json={"action": "roll 3"},
                     headers=CSRF).status_code == 200
    aiko.post(f"/api/games/{game_id}/act", json={"action": "place 1 1"}, headers=CSRF)
    host = host_client(app)
    assert host.post(f"/api/games/{game_id}/chance", json={"roll": "random"},
                     headers=CSRF).status_code == 200
    companion.abandon(game_id)
    steps = companion.replay(game_id)
    # who entered each roll is in the journal and the history
    assert [s["by"] for s in steps if s["seat"] == CHANCE] == ["seat 0", "host random"]


# --- seats --------------------------------------------------------------------------------------

def test_the_host_locks_seats_and_a_phone_then_needs_the_seats_join_code(
    app: Flask, companion: Companion
) -> None:
    game_id = companion.create_game("unlock", ["Lock", "Aiko", "Ben"])
    host = host_client(app)
    reply = host.post(f"/api/host/games/{game_id}/seats/lock", json={"locked": True},
                      headers=CSRF)
    assert reply.status_code == 200
    codes = reply.get_json()["join_codes"]
    assert len(codes) == 3 and len(set(codes)) == 3
    guesser = app.test_client()
    refused = guesser.post(f"/api/games/{game_id}/seats/0/claim", json={}, headers=CSRF)
    assert refused.status_code == 403 and refused.get_json()["error"] == "join_code"
    wrong = guesser.post(f"/api/games/{game_id}/seats/0/claim", json={"code": codes[1]},
                         headers=CSRF)
    assert wrong.status_code == 403
    joined(app, game_id, 0, code=codes[0])
    # the codes are no view's business
    for seat in (None, 0, 1, 2):
        assert not any(code in json.dumps(companion.view(game_id, seat)) for code in codes)
    page = host.get("/host").get_data(as_text=True)
    assert codes[1] in page and '<time datetime="' in page  # held since, relative to now


def test_a_replaced_phone_is_told_so_on_its_stream(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Lock", "Aiko"])
    old = joined(app, game_id, 1)
    stream = old.get(f"/api/games/{game_id}/events", buffered=False)
    chunks = iter(stream.response)
    text = ""
    while "event: view" not in text:
        text += next(chunks).decode() if isinstance(text, str) else ""
    host_client(app).post(f"/api/host/games/{game_id}/seats/1/reissue", headers=CSRF)
    while "event: replaced" not in text:
        text += next(chunks).decode()
    stream.close()


# --- the host PIN -------------------------------------------------------------------------------

def test_a_pin_in_other_digits_is_refused_not_a_server_error(companion: Companion) -> None:
    client = make_app(companion, PIN_TRIES=100, PIN_TRIES_ALL=100).test_client()
    for pin in ("٢٤٦٨١٣", "２４６８１３", "²⁴⁶⁸¹³", "246813\x00", "é" * 10000, 246813, None,
                ["246813"]):
        reply = client.post("/api/host/login", json={"pin": pin}, headers=CSRF)
        assert reply.status_code in (400, 403), (pin, reply.status_code)
        assert "pin" in reply.get_json()["message"].lower()


def test_pin_tries_are_limited_per_address_and_for_everyone(companion: Companion) -> None:
    app = make_app(companion, PIN_TRIES=3, PIN_TRIES_ALL=6, PIN_WINDOW=60.0)
    client = app.test_client()
    statuses = []
    for n in range(8):  # eight phones (addresses), two tries each
        for _ in range(2):
            reply = client.post("/api/host/login", json={"pin": "000000"}, headers=CSRF,
                                environ_base={"REMOTE_ADDR": f"10.0.0.{n}"})
            statuses.append(reply.status_code)
    assert statuses[:6] == [403] * 6 and set(statuses[6:]) == {429}


def test_host_sessions_survive_a_restart(tmp_path: object) -> None:
    from pathlib import Path

    data = Path(str(tmp_path)) / "data"
    with Companion.open(data, host_pin=HOST_PIN) as first:
        cookie = host_client(make_app(first)).get_cookie("tt_host")
        assert cookie is not None
        token = cookie.value
    with Companion.open(data, host_pin=HOST_PIN) as again:
        client = make_app(again).test_client()
        client.set_cookie("tt_host", token)
        assert 'id="logout"' in client.get("/host").get_data(as_text=True)


# --- open redirect ------------------------------------------------------------------------------

@pytest.mark.parametrize("target", [
    "//evil.example/", "/\\evil.example", "\\\\evil.example", "/\t/evil.example",
    "/%2F%2Fevil.example", "%2F%2Fevil.example", "/%5Cevil.example", "https://evil.example",
    "/\n/evil.example", " //evil.example", "/./\\evil.example", "javascript:alert(1)",
    "/%09/evil.example",
])
def test_the_language_switch_only_redirects_within_the_panel(client: FlaskClient,
                                                             target: str) -> None:
    reply = client.get("/lang/ja", query_string={"next": target})
    assert reply.status_code == 303
    location = reply.headers["Location"]
    parts = urlsplit(location)
    assert parts.scheme == "" and parts.netloc == "", location
    assert location.startswith("/") and not location.startswith(("//", "/\\"))
    assert not any(c in location for c in "\t\n\r\\"), location


def test_the_language_switch_keeps_a_page_of_the_panel(client: FlaskClient) -> None:
    reply = client.get("/lang/ja", query_string={"next": "/games/3?x=1"})
    assert reply.headers["Location"] == "/games/3?x=1"


# --- live stream slots --------------------------------------------------------------------------

def test_one_client_cannot_take_every_stream_slot() -> None:
    from web_panel.panel_state import StreamSlots

    slots = StreamSlots(limit=10, per_client=3)
    greedy = ("address 10.0.0.9",)
    assert [slots.take(greedy) for _ in range(4)] == [None, None, None, "client"]
    assert slots.take(("address 10.0.0.10",)) is None  # room is kept for others
    # a seat token counts on its own too: one seat cannot hog streams from many addresses
    seat = ("address 10.0.0.11", "seat abc")
    assert [slots.take(seat) for _ in range(3)] == [None, None, None]
    assert slots.take(("address 10.0.0.12", "seat abc")) == "client"
    slots.give_back(greedy)
    assert slots.take(greedy) is None


def test_a_phone_past_its_share_of_streams_is_told_to_poll(companion: Companion) -> None:
    from tests.web_panel.served import EventStream, Phone, serve

    game_id = companion.create_game("unlock", ["Lock", "Aiko"])
    with serve(make_app(companion, MAX_STREAMS_PER_CLIENT=2)) as served:
        phone = Phone(served)
        streams = [EventStream(phone, f"/api/games/{game_id}/events") for _ in range(2)]
        try:
            status, headers, body = phone.request("GET", f"/api/games/{game_id}/events")
            assert status == 429 and headers["Retry-After"] == "5"
            assert json.loads(body)["error"] == "too_many_streams_here"
        finally:
            for stream in streams:
                stream.close()


# --- bad input ----------------------------------------------------------------------------------

def refused(client: FlaskClient, path: str, data: bytes | None = None,
            body: object = None) -> dict[str, str]:
    if body is not None:
        data = json.dumps(body).encode()
    reply = client.post(path, data=data, headers={**CSRF, "Content-Type": "application/json"})
    assert 400 <= reply.status_code < 500, (path, reply.status_code, reply.get_data()[:200])
    answer: dict[str, str] = reply.get_json()
    return answer


def test_deeply_nested_json_is_a_400(client: FlaskClient) -> None:
    answer = refused(client, "/api/host/login", data=b"[" * 20000 + b"]" * 20000)
    assert "JSON" in answer["message"]


def test_invalid_utf8_is_a_400(client: FlaskClient) -> None:
    answer = refused(client, "/api/host/login", data=b'{"pin": "\xff\xfe"}')
    assert "UTF-8" in answer["message"]


def test_huge_numbers_name_their_field(app: Flask) -> None:
    host = host_client(app)
    answer = refused(host, "/api/host/games",
                     body={"game": "dice216", "players": ["A", "B"], "seed": 10**40})
    assert "seed" in answer["message"]
    answer = refused(host, "/api/host/games",
                     body={"game": "unlock", "players": ["A", "B"],
                           "options": {"turn_limit": 10**40}})
    assert "turn_limit" in answer["message"]
    answer = refused(host, "/api/host/games",
                     body={"game": "dice216", "players": ["A", "B"],
                           "options": {"first_player": 10**30}})
    assert "first_player" in answer["message"]


def test_long_names_and_too_many_players_name_their_field(app: Flask) -> None:
    host = host_client(app)
    answer = refused(host, "/api/host/games", body={"game": "ico", "players": ["A" * 5000, "B"]})
    assert "player" in answer["message"] and len(answer["message"]) < 300
    answer = refused(host, "/api/host/games",
                     body={"game": "ico", "players": [f"P{n}" for n in range(5000)]})
    assert "players" in answer["message"] and len(answer["message"]) < 300
