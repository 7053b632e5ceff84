"""The package: nothing touches hardware at import, and every advertised name resolves."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

import hardware
from hardware import (
    DeviceNotFound,
    HardwareError,
    PadEvent,
    PadEventKind,
    PinMapError,
    ProtocolError,
)
from hardware.buttons import ButtonGrid
from hardware.pinmap import ButtonPins

pytestmark = pytest.mark.timeout(30)


def test_importing_every_module_touches_no_hardware() -> None:
    # A pin factory that cannot load makes any GPIO use at import time fail loudly, and no
    # thread may be started by an import.
    code = (
        "import threading\n"
        "import hardware, hardware.buttons, hardware.touch, hardware.oled, hardware.serial_die,"
        " hardware.probe, hardware.protocol, hardware.pico.main, hardware.pico.firmware,"
        " hardware.pico.board\n"
        "from gpiozero import Device\n"
        "assert Device.pin_factory is None, Device.pin_factory\n"
        "assert threading.active_count() == 1, threading.enumerate()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        env={"GPIOZERO_PIN_FACTORY": "no-such-factory", "PATH": "/usr/bin:/bin"},
        cwd=str(Path(hardware.__file__).parents[1]),
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", hardware.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    assert getattr(hardware, name) is not None


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        hardware.Nope  # noqa: B018


def test_error_hierarchy_follows_gpiozero_style() -> None:
    assert issubclass(DeviceNotFound, HardwareError) and issubclass(DeviceNotFound, OSError)
    assert issubclass(ProtocolError, HardwareError) and issubclass(ProtocolError, ValueError)
    assert issubclass(PinMapError, HardwareError) and issubclass(PinMapError, ValueError)
    error = DeviceNotFound("OLED", "I2C bus 1 address 0x3C", "check the wiring")
    assert str(error) == "OLED not found on I2C bus 1 address 0x3C: check the wiring"
    assert (error.device, error.where, error.advice) == ("OLED", "I2C bus 1 address 0x3C",
                                                         "check the wiring")


def test_default_timers_deliver_held_on_their_own_thread(mock_factory) -> None:
    # The real ThreadTimers, real clock: press, and wait (with a timeout) for the held event.
    held = threading.Event()
    events: list[PadEvent] = []

    def listener(event: PadEvent) -> None:
        events.append(event)
        if event.kind is PadEventKind.HELD:
            held.set()

    with ButtonGrid(ButtonPins(), listener=listener, hold_time=0.05, debounce=0.01):
        mock_factory.pin(5).drive_low()
        assert held.wait(5.0)
    assert [e.kind for e in events] == [PadEventKind.PRESSED, PadEventKind.HELD]


def test_default_timers_settle_a_tap_shorter_than_the_window(mock_factory) -> None:
    released = threading.Event()
    events: list[PadEvent] = []

    def listener(event: PadEvent) -> None:
        events.append(event)
        if event.kind is PadEventKind.RELEASED:
            released.set()

    with ButtonGrid(ButtonPins(), listener=listener, hold_time=None, debounce=0.05):
        mock_factory.pin(6).drive_low()
        mock_factory.pin(6).drive_high()  # within the window: only the settle can see it
        assert released.wait(5.0)
    assert [(e.kind, e.key) for e in events] == [(PadEventKind.PRESSED, 2),
                                                  (PadEventKind.RELEASED, 2)]
