"""The host's smart dice over the JSON API (``/api/host/dice``, docs/dice.md): scan, pair with a
seat or the table, refusals in words (never a 500), unpair; and the host page's card. The box
is the simulator's, its dice the fake Bluetooth backend's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import Device, open_device
from hardware.smart_dice.link import DieState
from tests.web_panel.served import CSRF, HOST_PIN, data_dir
from tests.web_panel.test_hardening import host_client
from web_panel import create_app

pytestmark = pytest.mark.timeout(120)

RED_GODICE = "C0:FF:EE:00:00:01"
GREEN_GODICE = "C0:FF:EE:00:00:03"
PIXEL_ADA = "C0:FF:EE:00:01:01"
PIXEL_DEE = "C0:FF:EE:00:01:04"


@pytest.fixture
def box() -> Iterator[tuple[Companion, Device, Flask]]:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        device = open_device(DeviceSettings(url="http://127.0.0.1/"), companion,
                             mode="simulator", rng=random.Random(1))
        try:
            app = create_app(companion, simulator=device.simulator, dice=device.dice,
                             config={"TESTING": True})
            yield companion, device, app
        finally:
            device.close()


def post(client: FlaskClient, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    reply = client.post(path, json=body or {}, headers=CSRF)
    return reply.status_code, reply.get_json()


def test_scan_pair_move_and_unpair(box: tuple[Companion, Device, Flask]) -> None:
    companion, device, app = box
    host = host_client(app)
    listing = host.get("/api/host/dice").get_json()
    assert listing["dice"] == [] and listing["game"] is None and listing["problem"] is None
    status, scanned = post(host, "/api/host/dice/scan")
    assert status == 200
    heard = {d["address"]: d for d in scanned["dice"]}
    assert len(heard) == 8 and not any(d["paired"] for d in heard.values())
    assert (heard[RED_GODICE]["colour"], heard[RED_GODICE]["shells"]) == ("red",
                                                                          [4, 6, 8, 12, 20])
    assert (heard[PIXEL_ADA]["faces"], heard[PIXEL_ADA]["colour"]) == (6, "onyx black")
    gid = companion.create_game("dice216", ["Aiko", "Ben"])
    status, paired = post(host, "/api/host/dice/pair", {"address": RED_GODICE, "owner": 0})
    assert status == 200, paired
    assert paired["game"] == {"id": gid, "title": "2 1 6", "seats": ["Aiko", "Ben"],
                              "die_faces": 6}
    assert paired["dice"][0]["address"] == RED_GODICE and paired["dice"][0]["owner"] == 0
    assert companion.dice() == [{"address": RED_GODICE, "vendor": "godice",
                                 "name": "GoDice_000001_K_v04", "faces": 6, "owner": 0,
                                 "colour": "red"}]
    link = device.dice.link if device.dice is not None else None
    assert link is not None and link.wait_state(RED_GODICE, DieState.CONNECTED, 5.0)
    status, moved = post(host, "/api/host/dice/pair", {"address": RED_GODICE, "owner": None})
    assert status == 200 and moved["dice"][0]["owner"] is None
    status, left = post(host, "/api/host/dice/unpair", {"address": RED_GODICE})
    assert status == 200 and companion.dice() == []
    assert not any(d["paired"] for d in left["dice"])


@pytest.mark.parametrize(("body", "status", "says"), [
    ({}, 400, "address must be a die's Bluetooth address"),
    ({"address": 5}, 400, "address must be a die's Bluetooth address"),
    ({"address": RED_GODICE, "owner": "Aiko"}, 400, "owner must be a seat number"),
    ({"address": RED_GODICE, "owner": True}, 400, "owner must be a seat number"),
    ({"address": RED_GODICE, "owner": 7}, 400, "a die belongs to a player (1 to 4) or to the"),
    ({"address": RED_GODICE, "faces": 10}, 400, "a GoDice wears a shell of 4, 6, 8, 12, 20"),
    ({"address": "C0:FF:EE:99:99:99"}, 400, "no die at C0:FF:EE:99:99:99 was heard: scan"),
    ({"address": PIXEL_DEE, "owner": 1}, 409, "Pixel Dee is a d20, but 2 1 6 #1 rolls a d6"),
    ({"address": GREEN_GODICE, "owner": 1, "faces": 8}, 409, "is a d8, but 2 1 6 #1 rolls a d6"),
    ({"address": PIXEL_ADA, "owner": 3}, 409, "2 1 6 #1 has 2 players: there is no player 4 to"),
])
def test_a_die_that_cannot_be_paired_is_refused_in_words(box: tuple[Companion, Device, Flask],
                                                         body: Any, status: int,
                                                         says: str) -> None:
    companion, _, app = box
    host = host_client(app)
    post(host, "/api/host/dice/scan")
    companion.create_game("dice216", ["Aiko", "Ben"])
    got, reply = post(host, "/api/host/dice/pair", body)
    assert (got, reply["error"] != "internal") == (status, True), reply
    assert says in reply["message"]
    assert companion.dice() == []


def test_unpairing_a_die_not_paired_is_refused(box: tuple[Companion, Device, Flask]) -> None:
    _, _, app = box
    status, reply = post(host_client(app), "/api/host/dice/unpair", {"address": RED_GODICE})
    assert status == 409 and "no die at 'C0:FF:EE:00:00:01' is paired" in reply["message"]


def test_only_the_host_pairs(box: tuple[Companion, Device, Flask]) -> None:
    companion, _, app = box
    anyone = app.test_client()
    assert anyone.get("/api/host/dice").status_code == 401
    status, _ = post(anyone, "/api/host/dice/scan")
    assert status == 401
    status, _ = post(anyone, "/api/host/dice/pair", {"address": RED_GODICE, "owner": 0})
    assert status == 401 and companion.dice() == []


def test_the_host_page_lists_the_dice_and_a_low_battery(
        box: tuple[Companion, Device, Flask]) -> None:
    companion, device, app = box
    host = host_client(app)
    page = host.get("/host").get_data(as_text=True)
    assert 'id="dice"' in page and "No die is paired yet." in page
    post(host, "/api/host/dice/scan")
    companion.create_game("dice216", ["Aiko", "Ben"])
    assert post(host, "/api/host/dice/pair", {"address": PIXEL_ADA, "owner": 1})[0] == 200
    assert device.dice is not None and device.dice.link is not None
    assert device.dice.link.wait_state(PIXEL_ADA, DieState.CONNECTED, 5.0)
    assert device.simulator is not None
    device.simulator.smart_die(PIXEL_ADA).set_battery(9)
    assert device.dice.link.wait_until(
        lambda link: link.status()[PIXEL_ADA].battery == 9, 5.0)
    page = host.get("/host").get_data(as_text=True)
    assert "onyx black Pixels d6" in page and "battery 9%: charge it soon" in page
    assert "The dice roll for 2 1 6 #1, whose die has 6 faces." in page
    host.set_cookie("tt_lang", "ja")
    page = host.get("/host").get_data(as_text=True)
    assert "オニキスブラック Pixels 6面" in page and "電池 9%:早めに充電してください" in page


def test_a_box_without_smart_dice_says_so(companion: Companion) -> None:
    app = create_app(companion, config={"TESTING": True})
    host = host_client(app)
    reply = host.get("/api/host/dice")
    assert reply.status_code == 404
    assert reply.get_json()["message"].startswith("This box has no smart dice")
    assert 'id="dice"' not in host.get("/host").get_data(as_text=True)


def test_the_device_page_rolls_a_simulated_smart_die(box: tuple[Companion, Device, Flask]) -> None:
    companion, device, app = box
    host = host_client(app)
    post(host, "/api/host/dice/scan")
    gid = companion.create_game("dice216", ["Aiko", "Ben"])
    assert post(host, "/api/host/dice/pair", {"address": RED_GODICE, "owner": 0})[0] == 200
    assert device.dice is not None and device.dice.link is not None
    assert device.dice.link.wait_state(RED_GODICE, DieState.CONNECTED, 5.0)
    page = host.get("/device").get_data(as_text=True)
    assert f'data-smart-roll="{RED_GODICE}"' in page and "Roll GoDice_000001_K_v04 (d6)" in page
    status, _ = post(host, "/device/input", {"kind": "smart_roll", "address": RED_GODICE})
    assert status == 200
    version = companion.version()
    while companion.view(gid, None)["pending_roll"] is None:
        version = companion.wait_for_change(version, 5.0)
    assert 1 <= companion.view(gid, None)["pending_roll"] <= 6
    status, reply = post(host, "/device/input", {"kind": "smart_roll", "address": "nope"})
    assert status == 400 and "no simulated smart die at 'nope'" in reply["message"]
