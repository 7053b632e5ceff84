"""The simulator drives the real pins, serial loop and luma dummy device."""

from __future__ import annotations

import io

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
