"""The 3×3 button grid plus OK / Back: nine gpiozero `Button`s and two more, debounced by us.

Not a ``ButtonBoard``: its events are board-wide, and we need the key in each event.

>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> events = []
>>> with ButtonGrid(listener=events.append, pin_factory=factory, debounce=0, hold_time=None):
...     factory.pin(13).drive_low()       # dot 3 pressed (buttons pull to ground)
...     factory.pin(13).drive_high()
>>> [str(e) for e in events]
['buttons:3:pressed', 'buttons:3:released']
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection

from gpiozero import Button
from gpiozero.exc import BadPinFactory, GPIOPinInUse, GPIOZeroError, PinInvalidPin
from gpiozero.pins import Factory

from hardware.closing import Closing
from hardware.debounce import DebounceGuard
from hardware.errors import DeviceNotFound
from hardware.events import PadEmitter, PadInput, PadListener
from hardware.pinmap import ButtonPins, Key
from hardware.timers import Cancellable, Timers

GPIO_ADVICE = (
    "check the pin map, that no other program holds the pin, that you are in the 'gpio' "
    "group, and that GPIOZERO_PIN_FACTORY=lgpio (python3-lgpio installed)"
)


def open_button(
    pin: int, role: str, *, pull_up: bool, pin_factory: Factory | None
) -> Button:
    """A gpiozero `Button` on ``pin`` with its bounce handling off, or `DeviceNotFound`."""
    try:
        return Button(pin, pull_up=pull_up, bounce_time=None,
                      pin_factory=pin_factory)
    except BadPinFactory as exc:
        raise DeviceNotFound(role, f"GPIO{pin}", f"no usable GPIO pin factory ({exc}); "
                             + GPIO_ADVICE) from exc
    except (GPIOPinInUse, PinInvalidPin, GPIOZeroError, OSError) as exc:
        raise DeviceNotFound(role, f"GPIO{pin}", f"{exc}; " + GPIO_ADVICE) from exc


class ButtonGrid(PadInput, Closing):
    """Dots 1–9 and OK / Back as pressed / released / held `PadEvent` s.

    ``debounce`` is our guard's window in seconds (``clock`` is its time source);
    ``hold_time`` is when a still-pressed key reports ``held`` (None: never; only the keys in
    ``hold_keys`` when given); ``timers`` runs
    the hold and settle delays. ``pin_factory`` is passed to every gpiozero device.
    """

    source = "buttons"

    def __init__(
        self,
        pins: ButtonPins | None = None,
        *,
        listener: PadListener | None = None,
        debounce: float = 0.02,
        hold_time: float | None = 1.0,
        hold_keys: Collection[Key] | None = None,
        clock: Callable[[], float] = time.monotonic,
        timers: Timers | None = None,
        pin_factory: Factory | None = None,
    ) -> None:
        self.pins = pins if pins is not None else ButtonPins()
        self._guard = DebounceGuard(debounce, clock)
        self._events = PadEmitter(self.source, hold_time=hold_time, timers=timers,
                                  hold_keys=hold_keys)
        self._timers = self._events.timers
        self._settles: dict[Key, Cancellable] = {}
        self._lock = threading.RLock()
        self._buttons: dict[Key, Button] = {}
        self._closed = False
        self._init_input(listener)
        try:
            for key, pin in self.pins.keys().items():
                role = f"dot {key} button" if isinstance(key, int) else f"{key} button"
                button = open_button(pin, role, pull_up=self.pins.pull_up,
                                     pin_factory=pin_factory)
                self._buttons[key] = button
                self._guard.reset(key, button.is_pressed)
                button.when_pressed = self._callback(key, True)
                button.when_released = self._callback(key, False)
        except BaseException:
            self.close()
            raise

    # gpiozero calls these from its own threads (synchronously for MockPin).
    def _callback(self, key: Key, level: bool) -> Callable[[], None]:
        def edge() -> None:
            self._edge(key, level)

        return edge

    def _edge(self, key: Key, level: bool) -> None:
        with self._lock:
            if self._closed:
                return
            accepted = self._guard.edge(key, level)
            if accepted is None:
                self._arm_settle(key)
                return
        self._deliver(key, accepted)

    def _arm_settle(self, key: Key) -> None:
        delay = self._guard.remaining(key)
        if delay is None or key in self._settles:
            return
        self._settles[key] = self._timers.call_later(delay, lambda: self._settle(key))

    def _settle(self, key: Key) -> None:
        with self._lock:
            self._settles.pop(key, None)
            button = self._buttons.get(key)
            if self._closed or button is None:
                return
            accepted = self._guard.settle(key, button.is_pressed)
            if accepted is None:
                self._arm_settle(key)
                return
        self._deliver(key, accepted)

    def _deliver(self, key: Key, pressed: bool) -> None:
        if pressed:
            self._events.press(key)
        else:
            self._events.release(key)

    @property
    def suppressed_edges(self) -> int:
        """Raw edges the debounce guard has ignored so far."""
        return self._guard.suppressed

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release every pin; safe to call more than once."""
        with self._lock:
            self._closed = True
            settles = list(self._settles.values())
            self._settles.clear()
            buttons = list(self._buttons.values())
            self._buttons.clear()
        for settle in settles:
            settle.cancel()
        self._events.close()
        # Each gpiozero Button owns a hold thread that notices a stop request only every
        # 0.1 s: closing the buttons side by side (through their public close) lets those
        # threads finish together rather than one after another.
        closers = [threading.Thread(target=button.close, name="button-close", daemon=True)
                   for button in buttons]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"keys={list(self.pins.keys())}"
        return f"<ButtonGrid {state}>"


__all__ = ["ButtonGrid", "open_button"]
