"""The simulator drives the real pins, serial loop and luma dummy device."""

from __future__ import annotations

import io
import time

from PIL import Image

from firmware_host.games.unlock import screens as screens
from hardware.pinmap import ButtonPins
from tests.firmware_host.ui.conftest import Box, same


def test_press_holds_the_pin_low_until_release(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"])
    box.sim.ok()
    pin = box.sim.factory.pin(ButtonPins().dots[4])  # dot 5
    box.sim.press(5)
    assert pin.state is False  # buttons pull the line to ground
    assert box.device.grid is not None and box.device.grid.is_pressed(5)
    box.sim.release(5)
    assert pin.state is True
    view = box.companion.view(gid, 0)
    assert same(box.screen(), screens.entry_screen(view, 0, [5], secret=True))


def test_frame_png_is_the_dummy_oled_and_version_moves_only_on_change(box: Box) -> None:
    box.settle()
    version = box.sim.frame_version()
    png = box.sim.frame_png()
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (128, 64)
    assert same(image, box.device.pad.frame())
    box.sim.back()  # nothing to go back from on the start screen: the frame stays
    box.settle()
    assert box.sim.frame_version() == version
    box.companion.create_game("unlock", ["Kenji", "Aiko"])
    assert box.device.pad.wait_frame(version, 5.0) > version
    assert box.sim.frame_png() != png


def test_back_acts_when_let_go_and_held_it_opens_the_games_menu(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"])
    box.sim.ok()
    box.sim.tap(1)
    box.sim.tap(2)
    view = box.companion.view(gid, 0)
    back = box.sim.factory.pin(ButtonPins().back)
    back.drive_low()
    box.settle()  # pressed: nothing yet (it may become a hold)
    assert same(box.screen(), screens.entry_screen(view, 0, [1, 2], secret=True))
    back.drive_high()  # let go before the hold: Back removes the last dot
    assert same(box.screen(), screens.entry_screen(view, 0, [1], secret=True))
    back.drive_low()
    deadline = time.monotonic() + 5.0
    while not box.device.pad.menu_open:  # the hold (0.3 s here) opens the menu by itself
        assert time.monotonic() < deadline, "holding Back never opened the games menu"
        box.device.pad.wait_frame(box.device.pad.frame_version, 0.1)
    back.drive_high()  # letting go of a hold does nothing more
    box.settle()
    assert box.device.pad.menu_open
    box.sim.back()  # Back closes the menu: the code drawn so far is still there
    assert same(box.screen(), screens.entry_screen(view, 0, [1], secret=True))
