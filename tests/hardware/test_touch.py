"""The MPR121 touch grid, against a register-level model of the chip and gpiozero's mock IRQ."""

from __future__ import annotations

import errno

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import DeviceNotFound, PadEvent, PadEventKind, PinMapError
from hardware.touch import TouchConfig, TouchGrid
from tests.hardware.conftest import ManualTimers
from tests.hardware.mpr121_model import Mpr121Model

pytestmark = pytest.mark.timeout(20)

PRESSED, RELEASED, HELD = PadEventKind.PRESSED, PadEventKind.RELEASED, PadEventKind.HELD
CONFIG = TouchConfig()


def touch_event(kind: PadEventKind, key: int | str) -> PadEvent:
    return PadEvent(kind, key, "touch")


@pytest.fixture
def chip(mock_factory: MockFactory) -> Mpr121Model:
    return Mpr121Model(irq=mock_factory.pin(CONFIG.irq_pin))


@pytest.fixture
def grid(chip: Mpr121Model, timers: ManualTimers):
    events: list[PadEvent] = []
    with TouchGrid(chip, CONFIG, listener=events.append, timers=timers) as grid:
        grid.events = events  # type: ignore[attr-defined]
        yield grid


def test_start_configures_nine_dots_plus_ok_and_back_running(grid, chip) -> None:
    assert chip.running == 11  # electrodes 0-10: dots 1-9, OK, Back
    assert chip.registers[0x5E] & 0xC0 == 0x80  # baseline tracking on


def test_thresholds_are_written_while_stopped_so_the_chip_keeps_them(grid, chip) -> None:
    assert chip.ignored_writes == []
    for electrode in range(12):
        assert chip.threshold(electrode) == (CONFIG.touch_threshold, CONFIG.release_threshold)
    assert chip.registers[0x5B] == 0x11  # one-sample debounce on touch and release


@pytest.mark.parametrize("dot", range(1, 10))
def test_touching_an_electrode_presses_its_dot(grid, chip, dot: int) -> None:
    chip.touch(CONFIG.electrodes[dot - 1])
    chip.release(CONFIG.electrodes[dot - 1])
    assert grid.events == [touch_event(PRESSED, dot), touch_event(RELEASED, dot)]


def test_ok_and_back_electrodes(grid, chip) -> None:
    chip.touch(9)
    chip.touch(10)
    assert grid.events == [touch_event(PRESSED, "ok"), touch_event(PRESSED, "back")]
    assert grid.pressed == frozenset({"ok", "back"})


def test_status_is_read_on_the_irq_edge_and_the_read_releases_irq(grid, chip,
                                                                   mock_factory) -> None:
    irq = mock_factory.pin(CONFIG.irq_pin)
    chip.touch(4)
    assert irq.state  # driver read the status, so the chip let go of IRQ
    assert grid.pressed == frozenset({5})


def test_nothing_is_read_without_an_irq(grid, chip) -> None:
    # Status changes behind the driver's back (no IRQ edge): no events — we are not polling.
    chip.irq = None
    chip.touch(0)
    assert grid.events == []


def test_several_electrodes_changing_in_one_read(grid, chip, mock_factory) -> None:
    irq, chip.irq = chip.irq, None
    chip.touch(0)
    chip.touch(8)
    chip.irq = irq
    irq.drive_low()
    assert grid.events == [touch_event(PRESSED, 1), touch_event(PRESSED, 9)]


def test_unused_electrode_gives_no_event(chip, timers) -> None:
    events: list[PadEvent] = []
    config = TouchConfig(ok_electrode=None, back_electrode=None)
    with TouchGrid(chip, config, listener=events.append, timers=timers):
        assert chip.running == 9
        chip.touch(10)  # not scanned at all
        assert events == []


def test_held_after_hold_time(grid, chip, timers) -> None:
    chip.touch(4)
    timers.advance(1.01)
    assert grid.events == [touch_event(PRESSED, 5), touch_event(HELD, 5)]


def test_bus_error_on_read_is_counted_and_retried_while_irq_stays_low(grid, chip,
                                                                       timers) -> None:
    chip.fail_reads = 1
    chip.touch(2)
    assert grid.events == [] and grid.read_errors == 1
    timers.advance(0.06)
    assert grid.events == [touch_event(PRESSED, 3)]


def test_overcurrent_flag_is_reported(grid, chip) -> None:
    chip.overcurrent = True
    chip.touch(0)
    assert grid.overcurrent


def test_starting_with_a_finger_down_reports_no_press_until_it_changes(chip, timers,
                                                                        mock_factory) -> None:
    events: list[PadEvent] = []
    with TouchGrid(chip, CONFIG, listener=events.append, timers=timers) as grid:
        chip.touch(1)
        assert grid.pressed == frozenset({2})
    # The grid reset the chip and read it at start-up: pending status cleared.
    assert mock_factory.pin(CONFIG.irq_pin).state


def test_close_stops_the_chip_and_is_idempotent(chip, timers) -> None:
    grid = TouchGrid(chip, CONFIG, timers=timers)
    grid.close()
    grid.close()
    assert chip.running == 0 and grid.closed


def test_no_chip_at_the_address_names_bus_address_and_what_to_check(chip, timers) -> None:
    with pytest.raises(DeviceNotFound) as info:
        TouchGrid(chip, TouchConfig(address=0x5B), timers=timers)
    message = str(info.value)
    assert "touch grid (MPR121)" in message and "I2C bus 1 address 0x5B" in message
    assert "i2cdetect -y 1" in message and "IRQ GPIO22" in message


def test_another_chip_at_the_address_is_not_taken_for_an_mpr121(timers) -> None:
    class NotAnMpr121(Mpr121Model):
        def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
            self._check(i2c_addr)  # ignores the reset

    other = NotAnMpr121()
    other.registers[0x5D] = 0x00
    with pytest.raises(DeviceNotFound, match="not an MPR121"):
        TouchGrid(other, CONFIG, timers=timers)


def test_missing_bus_device_is_device_not_found() -> None:
    with pytest.raises(DeviceNotFound, match="I2C bus 97"):
        TouchGrid.open(TouchConfig(bus=97))


def test_irq_pin_in_use_names_the_pin(chip, timers, mock_factory) -> None:
    from gpiozero import Button

    with Button(CONFIG.irq_pin), pytest.raises(DeviceNotFound, match="GPIO22"):
        TouchGrid(chip, CONFIG, timers=timers)
    assert chip.running == 0  # the half-started grid stopped the chip again


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"address": 0x3C}, "touch.address"),
        ({"electrodes": (0, 1, 2)}, "need 9"),
        ({"electrodes": (0, 1, 2, 3, 4, 5, 6, 7, 7)}, "used twice"),
        ({"ok_electrode": 12}, "not an electrode"),
        ({"touch_threshold": 5, "release_threshold": 6}, "release < touch"),
    ],
)
def test_bad_touch_config_names_the_key(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(PinMapError, match=words):
        TouchConfig(**kwargs)  # type: ignore[arg-type]


def test_bus_errors_during_setup_are_device_not_found(chip, timers) -> None:
    class Flaky(Mpr121Model):
        def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
            if register == 0x41:
                raise OSError(errno.EIO, "Input/output error")
            super().write_byte_data(i2c_addr, register, value)

    with pytest.raises(DeviceNotFound, match="Input/output error"):
        TouchGrid(Flaky(), CONFIG, timers=timers)


def test_touch_grid_has_the_same_aliases_as_buttons(grid, chip) -> None:
    seen: list[object] = []
    grid.when_pressed = seen.append
    chip.touch(6)
    assert seen == [7]
