"""``/device``: the simulated box in the browser, through the real mock pins and serial loop."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import Device, open_device
from tests.web_panel.served import CSRF, HOST_PIN
from web_panel import create_app


@pytest.fixture
def device(companion: Companion) -> Iterator[Device]:
    opened = open_device(DeviceSettings(url="http://192.168.1.23:8080/"), companion,
                         mode="simulator", rng=random.Random(8))
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def box(companion: Companion, device: Device) -> FlaskClient:
    """A client of the panel in simulator mode."""
    app: Flask = create_app(companion, simulator=device.simulator, config={"TESTING": True})
    client = app.test_client()  # the host: the simulated box is the host's (issue 16)
    assert client.post("/api/host/login", json={"pin": HOST_PIN},
                       headers=CSRF).status_code == 200
    return client


def frame(client: FlaskClient) -> Image.Image:
    reply = client.get("/device/frame.png")
    assert reply.status_code == 200 and reply.mimetype == "image/png"
    return Image.open(io.BytesIO(reply.data))


def press(client: FlaskClient, **body: object) -> tuple[int, dict[str, object]]:
    reply = client.post("/device/input", json=body, headers=CSRF)
    return reply.status_code, reply.get_json()


def test_device_page_shows_the_screen_and_nine_dots(box: FlaskClient) -> None:
    page = box.get("/device").get_data(as_text=True)
    assert page.count("data-dot=") == 9
    assert 'id="oled"' in page and 'data-key="ok"' in page and 'data-key="back"' in page


def test_the_pad_lights_show_on_the_device_page_and_never_where_the_lock_draws(
    box: FlaskClient, companion: Companion, device: Device
) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben"])
    assert device.simulator is not None and device.simulator.settle()
    red = "#b71c1c"  # seat 0's colour on every drawing
    assert 'data-light="ok" style="--light: ' + red in box.get("/device").get_data(as_text=True)
    press(box, kind="ok")
    lit: list[list[str]] = []
    for dot in (9, 5):
        status, reply = press(box, kind="tap", dot=dot)
        assert status == 200
        lights = reply["lights"]
        assert isinstance(lights, dict)
        lit.append([key for key, colour in lights.items() if colour == red and key.isdigit()])
    assert lit == [["1"], ["1", "2"]]  # a bar of how many dots, never dots 9 and 5
    state = box.get("/device/state").get_json()
    assert state["lights"]["ok"] == red  # two dots: the code can be sent
    press(box, kind="ok")
    assert companion.view(game_id, 0)["secret"] is not None


def test_the_device_page_shows_the_colour_tft_and_its_image_follows_the_game(
    box: FlaskClient, companion: Companion, device: Device
) -> None:
    assert device.simulator is not None and device.simulator.settle()
    page = box.get("/device").get_data(as_text=True)
    assert 'id="tft"' in page and "/device/tft.png" in page
    before = box.get("/device/state").get_json()["tft_version"]
    start = box.get("/device/tft.png")
    assert start.status_code == 200 and start.mimetype == "image/png"
    assert Image.open(io.BytesIO(start.data)).size == (320, 240)
    companion.create_game("ico", ["Aiko", "Ben"])
    assert device.simulator.settle()
    assert box.get("/device/state").get_json()["tft_version"] > before
    assert box.get("/device/tft.png").data != start.data  # the game, not the start screen


def test_frame_is_the_oled_image(box: FlaskClient) -> None:
    image = frame(box)
    assert image.size == (128, 64)


def test_drawing_on_the_pad_changes_the_screen(box: FlaskClient, companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben"])
    status, reply = press(box, kind="ok")  # the privacy screen opens the Lock's entry
    assert status == 200
    versions = [int(str(reply["frame_version"]))]
    frames = [frame(box).tobytes()]
    for dot in (1, 5, 9):
        status, reply = press(box, kind="tap", dot=dot)
        assert status == 200
        versions.append(int(str(reply["frame_version"])))
        frames.append(frame(box).tobytes())
    assert versions == sorted(set(versions)), "each dot drawn changes the screen"
    assert len(set(frames)) == 4
    status, _ = press(box, kind="ok")
    assert status == 200
    assert companion.view(game_id, 0)["secret"] is not None


def test_a_4x4_code_is_entered_on_the_keypad(box: FlaskClient, companion: Companion) -> None:
    page = box.get("/device").get_data(as_text=True)
    assert page.count("data-keypad=") == 16
    game_id = companion.create_game("unlock", ["Aiko", "Ben"], {"size": 4})
    assert press(box, kind="ok")[0] == 200  # the privacy screen opens the Lock's entry
    for key in ("1", "5", "9", "D"):  # the keys in the places of dots 1, 6, 11 and 16
        status, reply = press(box, kind="key", key=key)
        assert status == 200, reply
    assert press(box, kind="ok")[0] == 200
    assert companion.view(game_id, 0)["secret"] == "1-6-11-16"


def test_the_pad_enters_moves_into_the_game_the_host_put_on_it(
        box: FlaskClient, companion: Companion) -> None:
    first = companion.create_game("unlock", ["Aiko", "Ben"])  # the pad takes the first game
    chosen = companion.create_game("unlock", ["Chie", "Dan"])
    reply = box.post("/api/host/pad", json={"game_id": chosen}, headers=CSRF)
    assert reply.status_code == 200 and reply.get_json()["game"] == chosen
    assert press(box, kind="ok")[0] == 200  # the privacy screen opens Chie's entry
    for dot in (1, 5, 9):
        assert press(box, kind="tap", dot=dot)[0] == 200
    assert press(box, kind="ok")[0] == 200
    assert companion.view(chosen, 0)["secret"] == "1-5-9"
    assert companion.view(first, 0)["secret"] is None


def test_ok_and_back_and_die_are_accepted(box: FlaskClient, companion: Companion) -> None:
    companion.create_game("dice216", ["Aiko", "Ben"])
    for body in ({"kind": "ok"}, {"kind": "back"}, {"kind": "roll", "value": 4},
                 {"kind": "roll", "value": None}):
        status, reply = press(box, **body)
        assert status == 200, reply


def test_back_held_opens_the_games_menu(box: FlaskClient, companion: Companion) -> None:
    companion.create_game("dice216", ["Aiko", "Ben"])
    companion.create_game("ico", ["Aiko", "Ben"])
    status, reply = press(box, kind="menu")
    assert status == 200, reply
    for body in ({"kind": "tap", "dot": 8}, {"kind": "ok"}):  # down to ICO, pick it
        status, reply = press(box, **body)
        assert status == 200, reply
    assert companion.pad() == {"game": 2, "by": "pad", "language": None}


@pytest.mark.parametrize("body", [
    {"kind": "tap", "dot": 0}, {"kind": "tap", "dot": "5"}, {"kind": "tap"},
    {"kind": "tap", "dot": 12}, {"kind": "jump"}, {"kind": "roll", "value": 0},
    {"kind": "roll", "value": 7}, {"kind": "roll", "value": True},
    {"kind": "key", "key": "E"}, {"kind": "key"},
])
def test_bad_device_input_is_400(box: FlaskClient, body: dict[str, object]) -> None:
    status, reply = press(box, **body)
    assert status == 400
    assert reply["message"]


@pytest.mark.parametrize(("role", "expected"), [
    ("spectator", 401), ("player", 401), ("host", 200), ("forged", 401), ("cross_origin", 403),
])
def test_device_routes_by_role_in_simulator_mode(
    companion: Companion, device: Device, role: str, expected: int
) -> None:
    """The simulated box is the host's: its screen shows the PIN and its buttons play any seat
    (issue 16); its POSTs are CSRF-guarded like every other."""
    app = create_app(companion, simulator=device.simulator, config={"TESTING": True})
    client = app.test_client()
    game_id = companion.create_game("unlock", ["Aiko", "Ben"])
    headers = dict(CSRF)
    if role == "player":
        assert client.post(f"/api/games/{game_id}/seats/0/claim",
                           headers=CSRF).status_code == 200
    if role in ("host", "cross_origin"):
        assert client.post("/api/host/login", json={"pin": HOST_PIN},
                           headers=CSRF).status_code == 200
    if role == "forged":
        client.set_cookie("tt_host", "forged")
        client.set_cookie(f"tt_seat_{game_id}", "forged")
    if role == "cross_origin":
        headers["Origin"] = "http://evil.example"
    host = role in ("host", "cross_origin")
    assert client.get("/device", headers=headers).status_code == (200 if host else 303)
    for path in ("/device/frame.png", "/device/state"):
        assert client.get(path, headers=headers).status_code == (200 if host else 401)
    reply = client.post("/device/input", json={"kind": "back"}, headers=headers)
    assert reply.status_code == expected
