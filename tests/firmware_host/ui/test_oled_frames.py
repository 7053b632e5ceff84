"""The OLED's own pixels, decoded from the bytes luma's real ssd1306 driver put on the I²C bus,
follow an UNLOCK game drawn on the pad; pattern-entry steps send only what changed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import Device, open_device
from firmware_host.games.unlock import screens as screens
from firmware_host.screens.message import pass_pad_screen
from firmware_host.screens.start import start_screen
from hardware.pinmap import ButtonPins
from hardware.serial_die import SerialConfig
from tests.firmware_host.ui.conftest import same
from tests.firmware_host.ui.oled_bus import RecordingBus

WAIT = 5.0
URL = "http://10.0.0.7:8080/"
FULL_FRAME = 128 * 64 // 8
KEYS = ButtonPins().keys()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[Companion, Device, MockFactory, RecordingBus]]:
    factory = MockFactory()
    bus = RecordingBus()
    companion = Companion.open(tmp_path / "data", host_pin="8642")
    settings = DeviceSettings(url=URL, debounce=0.0,
                              serial=SerialConfig(port=str(tmp_path / "no-die")))
    device = open_device(settings, companion, mode="pi", pin_factory=factory,
                         oled=lambda: ssd1306(i2c(bus=bus, address=0x3C)))
    try:
        yield companion, device, factory, bus
    finally:
        device.close()
        companion.close()


def test_unlock_frames_on_the_bus_and_partial_updates(
    rig: tuple[Companion, Device, MockFactory, RecordingBus],
) -> None:
    companion, device, factory, bus = rig

    def press(key: int | str) -> int:
        """Presses a key; returns the data bytes the OLED received for it."""
        before = bus.data_bytes
        pin = factory.pin(KEYS[key])  # type: ignore[index]
        pin.drive_low()
        pin.drive_high()
        assert device.pad.wait_idle(WAIT)
        assert same(bus.image(), device.pad.frame()), "the panel shows another frame"
        return bus.data_bytes - before

    assert device.pad.wait_idle(WAIT)
    assert same(bus.image(), start_screen(URL, "8642", note="no die"))
    gid = companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "medium"})
    assert device.pad.wait_idle(WAIT)
    assert same(bus.image(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    press("ok")
    dots: list[int] = []
    for dot in (1, 5, 9, 6):
        sent = press(dot)
        dots.append(dot)
        assert same(bus.image(), screens.entry_screen(companion.view(gid, 0), 0, dots,
                                                      secret=True))
        assert 0 < sent <= 0.4 * FULL_FRAME, f"dot {dot} cost {sent} bytes"
    before = bus.data_bytes
    device.pad.submit_redraw()  # a redraw that changes nothing sends nothing
    assert device.pad.wait_idle(WAIT) and bus.data_bytes == before
    assert press(5) > 0  # a used dot is refused in words on the OLED
    assert device.pad.refusal is not None and "dot 5" in device.pad.refusal
    press("back")  # the refusal closes: the drawing is back
    assert same(bus.image(), screens.entry_screen(companion.view(gid, 0), 0, dots,
                                                  secret=True))
    assert 0 < press("back") <= 0.4 * FULL_FRAME
    press("ok")
    assert companion.view(gid, 0)["secret"] is not None
    assert same(bus.image(), pass_pad_screen("Aiko", 1, title="UNLOCK"))
