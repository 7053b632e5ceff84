"""Pad events shared by the button grid and the touch grid, and their fan-out with hold timing."""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass

from hardware.pinmap import Key
from hardware.timers import Cancellable, ThreadTimers, Timers

log = logging.getLogger(__name__)


class PadEventKind(enum.Enum):
    """What happened to a key."""

    PRESSED = "pressed"
    RELEASED = "released"
    HELD = "held"


@dataclass(frozen=True)
class PadEvent:
    """One key event: ``key`` is a dot 1–9 or ``"ok"`` / ``"back"``; ``source`` the input."""

    kind: PadEventKind
    key: Key
    source: str = "buttons"

    def __str__(self) -> str:
        return f"{self.source}:{self.key}:{self.kind.value}"


PadListener = Callable[[PadEvent], None]


class PadEmitter:
    """Turns debounced press/release of keys into events, adds ``held`` after ``hold_time``
    (for the keys in ``hold_keys`` only, when given: no timer runs for the others).

    Listener exceptions are logged and swallowed: they run on gpiozero's callback threads, and
    one bad listener must not silence the pad.
    """

    def __init__(
        self, source: str, *, hold_time: float | None = 1.0, timers: Timers | None = None,
        hold_keys: Collection[Key] | None = None,
    ) -> None:
        if hold_time is not None and not hold_time > 0:
            raise ValueError(f"hold_time must be > 0 seconds or None, got {hold_time!r}")
        self.source = source
        self.hold_time = hold_time
        self.hold_keys = frozenset(hold_keys) if hold_keys is not None else None
        self.timers: Timers = timers if timers is not None else ThreadTimers()
        self._listeners: list[PadListener] = []
        self._holds: dict[Key, tuple[object, Cancellable]] = {}
        self._pressed: set[Key] = set()
        self._lock = threading.RLock()

    @property
    def pressed(self) -> frozenset[Key]:
        """Keys currently down."""
        with self._lock:
            return frozenset(self._pressed)

    def add_listener(self, listener: PadListener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: PadListener) -> None:
        with self._lock:
            self._listeners.remove(listener)

    def press(self, key: Key) -> None:
        with self._lock:
            if key in self._pressed:
                return
            self._pressed.add(key)
            if self.hold_time is not None and (self.hold_keys is None or key in self.hold_keys):
                token = object()
                handle = self.timers.call_later(
                    self.hold_time, lambda: self._hold_fired(key, token)
                )
                self._holds[key] = (token, handle)
        self._emit(PadEvent(PadEventKind.PRESSED, key, self.source))

    def release(self, key: Key) -> None:
        with self._lock:
            if key not in self._pressed:
                return
            self._pressed.discard(key)
            hold = self._holds.pop(key, None)
        if hold is not None:
            hold[1].cancel()
        self._emit(PadEvent(PadEventKind.RELEASED, key, self.source))

    def close(self) -> None:
        """Cancel pending hold timers; no further events."""
        with self._lock:
            holds = list(self._holds.values())
            self._holds.clear()
            self._listeners.clear()
            self._pressed.clear()
        for _token, handle in holds:
            handle.cancel()

    def _hold_fired(self, key: Key, token: object) -> None:
        with self._lock:
            hold = self._holds.get(key)
            if hold is None or hold[0] is not token:
                return
            del self._holds[key]
        self._emit(PadEvent(PadEventKind.HELD, key, self.source))

    def _emit(self, event: PadEvent) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception:
                log.exception("pad listener %r failed on %s", listener, event)


KeyCallback = Callable[[Key], None]


class PadInput:
    """What both grids offer on top of their `PadEmitter`: listeners, the keys down, and
    gpiozero-style ``when_pressed`` / ``when_released`` / ``when_held`` (each called with the
    key, or None to unset)."""

    _events: PadEmitter
    _aliases: dict[PadEventKind, KeyCallback | None]

    def _init_input(self, listener: PadListener | None) -> None:
        self._aliases = dict.fromkeys(PadEventKind)
        self._events.add_listener(self._call_alias)
        if listener is not None:
            self._events.add_listener(listener)

    def _call_alias(self, event: PadEvent) -> None:
        callback = self._aliases.get(event.kind)
        if callback is not None:
            callback(event.key)

    def add_listener(self, listener: PadListener) -> None:
        """Call ``listener(event)`` for every `PadEvent` (on the driver's thread)."""
        self._events.add_listener(listener)

    def remove_listener(self, listener: PadListener) -> None:
        self._events.remove_listener(listener)

    @property
    def pressed(self) -> frozenset[Key]:
        """Keys currently down."""
        return self._events.pressed

    def is_pressed(self, key: Key) -> bool:
        return key in self._events.pressed

    @property
    def when_pressed(self) -> KeyCallback | None:
        return self._aliases[PadEventKind.PRESSED]

    @when_pressed.setter
    def when_pressed(self, callback: KeyCallback | None) -> None:
        self._aliases[PadEventKind.PRESSED] = callback

    @property
    def when_released(self) -> KeyCallback | None:
        return self._aliases[PadEventKind.RELEASED]

    @when_released.setter
    def when_released(self, callback: KeyCallback | None) -> None:
        self._aliases[PadEventKind.RELEASED] = callback

    @property
    def when_held(self) -> KeyCallback | None:
        return self._aliases[PadEventKind.HELD]

    @when_held.setter
    def when_held(self, callback: KeyCallback | None) -> None:
        self._aliases[PadEventKind.HELD] = callback
