"""A fifth game is one registration per package (docs/adding-a-game.md): tic-tac-toe from
``tests/data/tictactoe`` — its rules, its box registration (pad controller and OLED screen) and
its panel registration (board script and words) — is handed to the core and played through the
pad, the OLED and a phone, without a line of the core knowing it."""

from __future__ import annotations

import io
import random
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import Device, open_device
from firmware_host.games import builtin_games
from tests.data.tictactoe import box as ttt_box
from tests.data.tictactoe.panel import PANEL
from tests.e2e.conftest import PHONE, WAIT_MS
from tests.web_panel.served import HOST_PIN, Served, data_dir, serve
from web_panel import create_app
from web_panel.games import builtin_panel_games

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CORE = ("rules", "hardware", "firmware_host", "web_panel")


@dataclass
class Box:
    companion: Companion
    device: Device
    served: Served


@pytest.fixture
def box() -> Iterator[Box]:
    games = builtin_games().with_game(ttt_box.BOX)
    panels = builtin_panel_games().with_game(PANEL)
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN, games=games) as companion:
        device = open_device(DeviceSettings(url="http://127.0.0.1/"), companion,
                             games=games, mode="simulator", rng=random.Random(5))
        try:
            app = create_app(companion, simulator=device.simulator, games=panels)
            with serve(app) as served:
                yield Box(companion, device, served)
        finally:
            device.close()


def oled(box: Box) -> Image.Image:
    simulator = box.device.simulator
    assert simulator is not None and simulator.settle(5.0)
    return Image.open(io.BytesIO(simulator.frame_png())).convert("1")


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def phone_as(browser: Browser, box: Box, game_id: int, seat: int) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(f"{box.served.url}/join/{game_id}")
    page.locator(f'[data-claim$="/seats/{seat}/claim"]').click()
    page.wait_for_url(f"**/games/{game_id}")
    page.wait_for_selector("#board .ttt-grid")
    return page


def test_tic_tac_toe_plays_through_the_pad_the_oled_and_a_phone(box: Box,
                                                                browser: Browser) -> None:
    companion, simulator = box.companion, box.device.simulator
    assert simulator is not None
    assert "tictactoe" in [g["id"] for g in companion.catalog()]
    game_id = companion.create_game("tictactoe", ["Ann", "Bo"])
    # the pad takes up the new game and the OLED shows its own screen
    assert same(oled(box), ttt_box.board_screen(companion.view(game_id, None)))
    phone = phone_as(browser, box, game_id, 1)  # Bo plays O from the phone
    simulator.tap(5)  # Ann (X) on the box
    assert same(oled(box), ttt_box.board_screen(companion.view(game_id, None)))
    expect(phone.locator('[data-square="5"]')).to_have_text("X")
    phone.locator('button[data-action="mark 1"]').click()  # Bo marks square 1
    expect(phone.locator('[data-square="1"]')).to_have_text("O")
    simulator.tap(4)
    phone.locator('button[data-action="mark 2"]').click()
    expect(phone.locator('[data-square="2"]')).to_have_text("O")
    simulator.tap(6)  # X: 4, 5, 6 in a row
    assert simulator.settle(5.0)
    view = companion.view(game_id, None)
    assert view["outcome"]["winners"] == [0]
    assert same(oled(box), ttt_box.board_screen(view))
    expect(phone.locator(".outcome .reason")).to_have_text("Ann has three in a row.")
    actions = [a["action"] for a in companion.replay(game_id)[1:]]
    assert actions == ["mark 5", "mark 1", "mark 4", "mark 2", "mark 6"]
    phone.context.close()


def test_no_core_module_names_the_fifth_game() -> None:
    found = subprocess.run(["grep", "-rli", "--include=*.py", "--include=*.js",
                            "--include=*.html", "tictactoe", *CORE], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    assert found.stdout == "", f"the core knows the fifth game: {found.stdout}"
