"""Graceful degradation: no OLED, an OLED that fails mid-game, a die that is unplugged."""

from __future__ import annotations

import os
import pty
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from firmware_host.screens.start import start_screen
from hardware.oled import OledConfig
from hardware.pinmap import ButtonPins
from hardware.protocol import DieRoll, KeyPress, encode
from hardware.serial_die import LinkState, SerialConfig
from hardware.touch import TouchConfig
from rules import CHANCE
from tests.firmware_host.ui.conftest import same, shows
from tests.firmware_host.ui.oled_bus import RecordingBus

WAIT = 5.0
URL = "http://10.0.0.5:8080/"
PINS = ButtonPins()


def press(factory: MockFactory, key: int | str) -> None:
    pin = factory.pin(PINS.keys()[key])  # type: ignore[index]
    pin.drive_low()
    pin.drive_high()


def wait_until(predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
    """Waits until ``predicate()`` holds, for states that have no signal of their own (the
    OLED's health): checks it every 20 ms on an event wait, never a sleep."""
    deadline = time.monotonic() + timeout
    tick = threading.Event()
    while not predicate():
        if time.monotonic() > deadline:
            return False
        tick.wait(0.02)
    return True


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    with Companion.open(tmp_path / "data", host_pin="1357") as c:
        yield c


def settings(tmp_path: Path, **serial: object) -> DeviceSettings:
    port = str(serial.pop("port", tmp_path / "no-die"))
    return DeviceSettings(
        oled=OledConfig(port=99), url=URL, retry_interval=0.05,
        debounce=0.0,  # mock pins do not bounce; the guard has its own tests
        serial=SerialConfig(port=port, backoff_initial=0.02, backoff_max=0.1),
    )


def test_without_oled_the_box_runs_says_so_and_plays(tmp_path: Path, companion: Companion) -> None:
    factory = MockFactory()
    device = open_device(settings(tmp_path), companion, mode="pi", pin_factory=factory)
    try:
        status = device.status()
        assert status["oled"].startswith("missing") and "I2C bus 99" in status["oled"]
        gid = companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
        for key in ("ok", 1, 2, "ok"):
            press(factory, key)
        assert device.pad.wait_idle(WAIT)
        assert companion.view(gid, 0)["secret"] == "1-2"
    finally:
        device.close()
        device.close()  # idempotent


def test_missing_touch_grid_is_reported_and_the_keypad_still_plays(
    tmp_path: Path, companion: Companion
) -> None:
    link = tmp_path / "die"
    master, slave = pty.openpty()
    link.symlink_to(os.ttyname(slave))
    # the daemon's [touch] section: the bus has no MPR121 (no /dev/i2c-99)
    touch = TouchConfig(bus=99, address=0x5A, irq_pin=22)
    config = replace(settings(tmp_path, port=link), input="touch", touch=touch)
    device = open_device(config, companion, mode="pi", pin_factory=MockFactory())
    try:
        assert device.grid is None
        assert "MPR121" in device.status()["pad"] and "i2c-99" in device.status()["pad"]
        assert device.die is not None and device.die.wait_connected(WAIT)
        gid = companion.create_game("dice216", ["Aiko", "Ben"])
        version = companion.version()
        os.write(master, encode(KeyPress("3")))  # the keypad's digit is the roll
        companion.wait_for_change(version, WAIT)
        assert companion.view(gid, None)["pending_roll"] == 3
    finally:
        device.close()
        os.close(master)
        os.close(slave)


def test_oled_error_mid_game_keeps_playing_and_the_frame_comes_back(
    tmp_path: Path, companion: Companion
) -> None:
    factory = MockFactory()
    bus = RecordingBus()
    device = open_device(settings(tmp_path), companion, mode="pi", pin_factory=factory,
                         oled=lambda: ssd1306(i2c(bus=bus, address=0x3C)))
    try:
        gid = companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
        press(factory, "ok")
        assert device.pad.wait_idle(WAIT)
        assert same(bus.image(), device.pad.frame())
        bus.unplugged = True
        for key in (4, 5, 6, "ok"):
            press(factory, key)
        assert device.pad.wait_idle(WAIT)
        # the game went on: the secret is committed although the OLED could not show it
        assert companion.view(gid, 0)["secret"] == "4-5-6"
        assert bus.failures > 0
        assert device.status()["oled"].startswith("error")
        bus.unplugged = False
        # the pad retries on its own (no key pressed) and resends the whole frame
        assert wait_until(lambda: device.status()["oled"] == "ok")
        assert same(bus.image(), device.pad.frame())
    finally:
        device.close()


def test_die_missing_at_start_is_waited_for_then_read(tmp_path: Path, companion: Companion) -> None:
    link = tmp_path / "die"
    device = open_device(settings(tmp_path, port=link), companion, mode="pi",
                         pin_factory=MockFactory())
    master = slave = -1
    try:
        assert device.pad.wait_idle(WAIT)
        assert device.status()["die"] is False
        assert same(device.pad.frame(), start_screen(URL, "1357", note="no die"))
        assert device.die is not None
        master, slave = pty.openpty()
        link.symlink_to(os.ttyname(slave))  # the die is plugged in
        assert device.die.wait_connected(WAIT)
        assert device.status()["die"] is True
        assert shows(device.pad, start_screen(URL, "1357"))
        gid = companion.create_game("dice216", ["Aiko", "Ben"])
        version = companion.version()
        os.write(master, encode(DieRoll(6, 5)))
        companion.wait_for_change(version, WAIT)
        view = companion.view(gid, None)
        assert view["pending_roll"] == 5 and CHANCE not in view["to_act"]
    finally:
        device.close()
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)


def test_die_unplugged_mid_game_is_noticed_and_waited_for(
    tmp_path: Path, companion: Companion
) -> None:
    link = tmp_path / "die"
    master, slave = pty.openpty()
    link.symlink_to(os.ttyname(slave))
    device = open_device(settings(tmp_path, port=link), companion, mode="pi",
                         pin_factory=MockFactory())
    fds = [master, slave]
    try:
        assert device.die is not None and device.die.wait_connected(WAIT)
        gid = companion.create_game("dice216", ["Aiko", "Ben"])
        for fd in fds:
            os.close(fd)
        fds = []
        link.unlink()  # the cable is pulled
        assert device.die.wait_state(LinkState.DISCONNECTED, WAIT)
        assert device.status()["die"] is False
        master, slave = pty.openpty()
        fds = [master, slave]
        link.symlink_to(os.ttyname(slave))  # and plugged in again
        assert device.die.wait_connected(WAIT)
        version = companion.version()
        os.write(master, encode(DieRoll(6, 2)))
        companion.wait_for_change(version, WAIT)
        assert companion.view(gid, None)["pending_roll"] == 2
    finally:
        device.close()
        for fd in fds:
            os.close(fd)
