"""The button grid: nine dots plus OK/Back through gpiozero, with our own debounce guard."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory

from hardware import DeviceNotFound, HardwareError, PadEvent, PadEventKind
from hardware.buttons import ButtonGrid
from hardware.pinmap import ButtonPins
from tests.hardware.conftest import BouncyPin, ManualClock, ManualTimers

pytestmark = pytest.mark.timeout(20)

PINS = ButtonPins()
PRESSED, RELEASED, HELD = PadEventKind.PRESSED, PadEventKind.RELEASED, PadEventKind.HELD


def pin(factory: MockFactory, gpio: int) -> BouncyPin:
    result = factory.pin(gpio)
    assert isinstance(result, BouncyPin)
    return result


@pytest.fixture
def grid(mock_factory: MockFactory, clock: ManualClock, timers: ManualTimers):
    events: list[PadEvent] = []
    with ButtonGrid(PINS, listener=events.append, debounce=0.02, hold_time=1.0,
                    clock=clock, timers=timers) as grid:
        grid.events = events  # type: ignore[attr-defined]
        yield grid


@pytest.mark.parametrize("dot", range(1, 10))
def test_each_dot_reports_its_own_number(grid, mock_factory, clock, dot: int) -> None:
    pin(mock_factory, PINS.dots[dot - 1]).drive_low()
    clock.now += 0.1
    pin(mock_factory, PINS.dots[dot - 1]).drive_high()
    assert grid.events == [PadEvent(PRESSED, dot), PadEvent(RELEASED, dot)]


@pytest.mark.parametrize(("key", "gpio"), [("ok", PINS.ok), ("back", PINS.back)])
def test_ok_and_back_report_their_names(grid, mock_factory, clock, key: str, gpio: int) -> None:
    pin(mock_factory, gpio).drive_low()
    assert grid.events == [PadEvent(PRESSED, key)]
    assert grid.is_pressed(key)


def test_pressing_pulls_the_pin_low_so_idle_high_is_released(grid, mock_factory) -> None:
    assert grid.pressed == frozenset()
    assert all(pin(mock_factory, gpio).state for gpio in PINS.keys().values())


def test_contact_bounce_on_press_gives_one_press(grid, mock_factory, clock) -> None:
    pin(mock_factory, PINS.dots[4]).chatter([False, True, False, True, False])
    assert grid.events == [PadEvent(PRESSED, 5)]
    assert grid.suppressed_edges == 4


def test_contact_bounce_on_release_gives_one_release(grid, mock_factory, clock, timers) -> None:
    dot5 = pin(mock_factory, PINS.dots[4])
    dot5.drive_low()
    clock.now += 0.2
    dot5.chatter([True, False, True, False, True])
    timers.advance(0.05)
    assert grid.events == [PadEvent(PRESSED, 5), PadEvent(RELEASED, 5)]


def test_bounce_ending_in_other_level_is_settled_after_the_window(
    grid, mock_factory, clock, timers
) -> None:
    # A very short tap: the release falls inside the window and is only seen on settling.
    dot1 = pin(mock_factory, PINS.dots[0])
    dot1.chatter([False, True, False, True], step=0.002)
    assert grid.events == [PadEvent(PRESSED, 1)]
    timers.advance(0.03)
    assert grid.events == [PadEvent(PRESSED, 1), PadEvent(RELEASED, 1)]
    assert not grid.is_pressed(1)


def test_debounce_window_is_configurable(mock_factory, clock, timers) -> None:
    events: list[PadEvent] = []
    with ButtonGrid(PINS, listener=events.append, debounce=0.0005, hold_time=None,
                    clock=clock, timers=timers):
        pin(mock_factory, PINS.dots[2]).chatter([False, True, False], step=0.001)
    assert [e.kind for e in events] == [PRESSED, RELEASED, PRESSED]


def test_presses_after_the_window_all_count(grid, mock_factory, clock) -> None:
    dot9 = pin(mock_factory, PINS.dots[8])
    for _ in range(3):
        dot9.chatter([False, True], step=0.05)
    assert [e.kind for e in grid.events] == [PRESSED, RELEASED] * 3


def test_held_after_hold_time_while_still_pressed(grid, mock_factory, clock, timers) -> None:
    pin(mock_factory, PINS.ok).drive_low()
    timers.advance(0.99)
    assert grid.events == [PadEvent(PRESSED, "ok")]
    timers.advance(0.02)
    assert grid.events == [PadEvent(PRESSED, "ok"), PadEvent(HELD, "ok")]


def test_release_before_hold_time_gives_no_held(grid, mock_factory, clock, timers) -> None:
    back = pin(mock_factory, PINS.back)
    back.drive_low()
    timers.advance(0.5)
    back.drive_high()
    timers.advance(2.0)
    assert grid.events == [PadEvent(PRESSED, "back"), PadEvent(RELEASED, "back")]


def test_two_keys_at_once_are_tracked_separately(grid, mock_factory, clock) -> None:
    pin(mock_factory, PINS.dots[0]).drive_low()
    pin(mock_factory, PINS.dots[8]).drive_low()
    assert grid.pressed == frozenset({1, 9})


def test_a_failing_listener_does_not_stop_the_others(mock_factory, clock, timers) -> None:
    seen: list[PadEvent] = []

    def broken(event: PadEvent) -> None:
        raise RuntimeError("listener bug")

    with ButtonGrid(PINS, listener=broken, clock=clock, timers=timers) as grid:
        grid.add_listener(seen.append)
        pin(mock_factory, PINS.dots[1]).drive_low()
    assert seen == [PadEvent(PRESSED, 2)]


def test_close_is_idempotent_and_releases_the_pins(mock_factory, clock, timers) -> None:
    grid = ButtonGrid(PINS, clock=clock, timers=timers)
    grid.close()
    grid.close()
    assert grid.closed
    # The pins are free again: a new grid can take them.
    ButtonGrid(PINS, clock=clock, timers=timers).close()


def test_no_events_after_close(mock_factory, clock, timers) -> None:
    events: list[PadEvent] = []
    grid = ButtonGrid(PINS, listener=events.append, clock=clock, timers=timers)
    grid.close()
    pin(mock_factory, PINS.dots[0]).drive_low()
    assert events == []


def test_injected_pin_factory_is_used_instead_of_the_default(mock_factory, clock) -> None:
    own = MockFactory(pin_class=BouncyPin)
    events: list[PadEvent] = []
    with ButtonGrid(PINS, listener=events.append, pin_factory=own, clock=clock):
        pin(mock_factory, PINS.dots[0]).drive_low()
        assert events == []
        pin(own, PINS.dots[0]).drive_low()
    assert events == [PadEvent(PRESSED, 1)]


def test_pin_already_in_use_names_the_button_and_pin(mock_factory, clock) -> None:
    with ButtonGrid(PINS, clock=clock), pytest.raises(DeviceNotFound) as info:
        ButtonGrid(PINS, clock=clock)
    message = str(info.value)
    assert "dot 1 button" in message and "GPIO5" in message and "gpio" in message
    assert isinstance(info.value, HardwareError) and isinstance(info.value, OSError)


def test_no_pin_factory_names_the_pin_and_lgpio(monkeypatch, clock) -> None:
    def no_factory(*args: object, **kwargs: object) -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    try:
        with pytest.raises(DeviceNotFound) as info:
            ButtonGrid(PINS, clock=clock)
    finally:
        Device.pin_factory = saved
    assert "GPIO5" in str(info.value) and "lgpio" in str(info.value)


def test_a_failed_start_releases_the_pins_it_took(mock_factory, clock) -> None:
    from gpiozero import Button

    blocker = Button(PINS.back)  # the last pin the grid opens
    with pytest.raises(DeviceNotFound):
        ButtonGrid(PINS, clock=clock)
    blocker.close()
    ButtonGrid(PINS, clock=clock).close()


def test_gpiozero_style_aliases_get_the_key(grid, mock_factory, clock, timers) -> None:
    seen: list[tuple[str, object]] = []
    grid.when_pressed = lambda key: seen.append(("pressed", key))
    grid.when_released = lambda key: seen.append(("released", key))
    grid.when_held = lambda key: seen.append(("held", key))
    dot7 = pin(mock_factory, PINS.dots[6])
    dot7.drive_low()
    timers.advance(1.5)
    dot7.drive_high()
    grid.when_pressed = None
    clock.now += 0.1
    dot7.drive_low()
    assert seen == [("pressed", 7), ("held", 7), ("released", 7)]
    assert grid.when_pressed is None and grid.when_held is not None


def test_hold_keys_limit_the_hold_timer_to_those_keys(mock_factory, clock, timers) -> None:
    events: list[PadEvent] = []
    with ButtonGrid(PINS, listener=events.append, debounce=0.0, hold_time=1.0,
                    hold_keys=("back",), clock=clock, timers=timers):
        pin(mock_factory, PINS.dots[4]).drive_low()
        pin(mock_factory, PINS.ok).drive_low()
        assert timers.pending == 0  # no timer runs for a key that reports no hold
        pin(mock_factory, PINS.back).drive_low()
        assert timers.pending == 1
        timers.advance(1.01)
    assert events == [PadEvent(PRESSED, 5), PadEvent(PRESSED, "ok"), PadEvent(PRESSED, "back"),
                      PadEvent(HELD, "back")]
