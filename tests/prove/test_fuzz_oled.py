"""I²C errors injected into the OLED's bus at random moments of a game: the game goes on (every
press and every phone's action is taken), and once the bus is sound again the panel shows the
pad's current frame, byte for byte, without anyone pressing a key.

The display is luma's real ``ssd1306`` driver on its real ``i2c`` interface, over a recording
bus whose writes fail with EIO at random (as a loose cable or electrical noise does).
"""

from __future__ import annotations

import errno
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from hardware.oled import OledConfig
from hardware.pinmap import ButtonPins
from hardware.serial_die import SerialConfig
from tests.firmware_host.ui.oled_bus import RecordingBus

WAIT = 10.0
PINS = ButtonPins()


class NoisyBus(RecordingBus):
    """A recording bus whose writes fail with EIO with probability ``rate`` (seeded)."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rate = 0.0
        self.injected = 0
        self._rng = random.Random(seed)

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        with self.lock:
            fail = self._rng.random() < self.rate
            if fail:
                self.injected += 1
        if fail:
            raise OSError(errno.EIO, "Input/output error (injected)")
        super().write_i2c_block_data(address, control, data)


def wait_until(predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
    """Wait for a state that has no signal of its own (the OLED's health), on an event's
    timed wait."""
    deadline = time.monotonic() + timeout
    tick = threading.Event()
    while not predicate():
        if time.monotonic() > deadline:
            return False
        tick.wait(0.02)
    return True


def press(factory: MockFactory, key: int | str) -> None:
    pin = factory.pin(PINS.keys()[key])  # type: ignore[index]
    pin.drive_low()
    pin.drive_high()


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    with Companion.open(tmp_path / "data", host_pin="1357") as opened:
        yield opened


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_i2c_errors_mid_game_lose_no_move_and_the_display_recovers(
    tmp_path: Path, companion: Companion, seed: int
) -> None:
    bus = NoisyBus(seed)
    factory = MockFactory()
    settings = DeviceSettings(
        oled=OledConfig(), url="http://10.0.0.5:8080/", retry_interval=0.05, debounce=0.0,
        serial=SerialConfig(port=str(tmp_path / "no-die"), backoff_initial=0.05,
                            backoff_max=0.1))
    device = open_device(settings, companion, mode="pi", pin_factory=factory,
                         oled=lambda: ssd1306(i2c(bus=bus, address=0x3C)))
    try:
        assert device.pad.wait_idle(WAIT)
        gid = companion.create_game("unlock", ["Kenji", "Aiko", "Ben"], {"difficulty": "easy"})
        press(factory, "ok")
        assert device.pad.wait_idle(WAIT)
        bus.rate = 0.3
        for key in (1, 2, 3, 6, "ok"):  # the Lock draws 1-2-3-6 on the pad
            press(factory, key)
            assert device.pad.wait_idle(WAIT)
        assert companion.view(gid, 0)["secret"] == "1-2-3-6"
        for turn, (a, b) in enumerate((("guess 4-5", "guess 7-8-9"),
                                       ("guess 1-2", "guess 5-6-9")), start=1):
            companion.act(gid, 1, a)  # the guessers play from their phones
            assert device.pad.wait_idle(WAIT)
            companion.act(gid, 2, b)
            assert device.pad.wait_idle(WAIT)
            assert len(companion.view(gid, None)["clue_board"]) == 2 * turn
        assert bus.injected > 0 and device.pad.display is not None
        assert device.pad.display.errors > 0
        bus.rate = 0.0
        assert wait_until(lambda: device.status()["oled"] == "ok"), device.status()
        assert device.pad.wait_idle(WAIT)
        assert bus.image().tobytes() == device.pad.frame().convert("1").tobytes()
    finally:
        device.close()
