"""The die's firmware version: asked for with PING on connecting, shown on the OLED's start
screen and in the status, forgotten when the die is unplugged."""

from __future__ import annotations

import os
import pty
import select
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from firmware_host.companion import Companion
from firmware_host.device import DeviceSettings, open_device
from firmware_host.screens.start import start_screen
from hardware.protocol import Hello, Ping, encode
from hardware.serial_die import LinkState, SerialConfig
from tests.firmware_host.ui.conftest import shows

WAIT = 5.0
URL = "http://10.0.0.7:8080/"
PIN = "2468"


def read_line(fd: int) -> bytes:
    line = b""
    while not line.endswith(b"\n"):
        assert select.select([fd], [], [], WAIT)[0], f"no line from the box (got {line!r})"
        line += os.read(fd, 1)
    return line


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    with Companion.open(tmp_path / "data", host_pin=PIN) as c:
        yield c


def test_firmware_version_is_asked_for_shown_and_forgotten_on_unplug(
    tmp_path: Path, companion: Companion
) -> None:
    link = tmp_path / "die"
    master, slave = pty.openpty()
    link.symlink_to(os.ttyname(slave))
    settings = DeviceSettings(url=URL, retry_interval=0.05, debounce=0.0,
                              serial=SerialConfig(port=str(link), backoff_initial=0.02,
                                                  backoff_max=0.1))
    device = open_device(settings, companion, mode="pi", pin_factory=MockFactory(),
                         oled=lambda: dummy(width=128, height=64, mode="1"))
    companion.attach_status(device.status)  # as the composition root does
    try:
        assert device.die is not None and device.die.wait_connected(WAIT)
        assert read_line(master) == encode(Ping())  # the box asks on connecting
        assert companion.status()["firmware"] is None
        assert shows(device.pad, start_screen(URL, PIN))  # connected, not yet introduced
        os.write(master, encode(Hello("pico-keypad", "1.1")))
        assert shows(device.pad, start_screen(URL, PIN, note="die v1.1"))
        assert companion.status()["firmware"] == {"device": "pico-keypad", "version": "1.1"}
        os.close(master)
        os.close(slave)
        master = slave = -1
        link.unlink()  # the cable is pulled
        assert device.die.wait_state(LinkState.DISCONNECTED, WAIT)
        assert companion.status()["firmware"] is None
        assert shows(device.pad, start_screen(URL, PIN, note="no die"))
    finally:
        device.close()
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)
