"""Our own contact-debounce guard: the first edge counts at once, bounce inside the window doesn't.

gpiozero's ``bounce_time`` differs between pin factories and its ``MockPin`` ignores it, so the
grid debounces in software with an injected clock. After a suppressed edge the caller asks
`DebounceGuard.settle` (once the window has passed) with the pin's level at that moment, which
catches a genuine change that happened inside the window.

>>> now = [0.0]
>>> guard = DebounceGuard(window=0.02, clock=lambda: now[0])
>>> guard.edge(5, True)        # press: accepted at once
True
>>> now[0] = 0.001; guard.edge(5, False) is None   # contact bounce: ignored
True
>>> now[0] = 0.002; guard.edge(5, True) is None
True
>>> guard.level(5)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass
class _KeyState:
    level: bool = False
    since: float = float("-inf")
    pending: bool = False


class DebounceGuard:
    """Accepts a level change per key only if ``window`` seconds passed since the last one."""

    def __init__(self, window: float = 0.02, clock: Callable[[], float] = time.monotonic) -> None:
        if not window >= 0:
            raise ValueError(f"debounce window must be >= 0 seconds, got {window!r}")
        self.window = float(window)
        self._clock = clock
        self._keys: dict[Hashable, _KeyState] = {}
        self.suppressed = 0

    def reset(self, key: Hashable, level: bool) -> None:
        """Start tracking ``key`` at ``level`` without an event (e.g. at start-up)."""
        self._keys[key] = _KeyState(level=level)

    def level(self, key: Hashable) -> bool:
        """The debounced level of ``key``."""
        return self._keys.setdefault(key, _KeyState()).level

    def edge(self, key: Hashable, level: bool) -> bool | None:
        """Report a raw edge; returns the new debounced level, or None if nothing changed."""
        state = self._keys.setdefault(key, _KeyState())
        now = self._clock()
        if level == state.level:
            if not self._elapsed(state, now):
                self.suppressed += 1
            return None
        if not self._elapsed(state, now):
            state.pending = True
            self.suppressed += 1
            return None
        state.level, state.since, state.pending = level, now, False
        return level

    def _elapsed(self, state: _KeyState, now: float) -> bool:
        # A nanosecond of slack: a timer set for exactly the remaining time must count.
        return now - state.since >= self.window - 1e-9

    def remaining(self, key: Hashable) -> float | None:
        """Seconds until a suppressed edge of ``key`` may be settled; None if none is pending."""
        state = self._keys.setdefault(key, _KeyState())
        if not state.pending:
            return None
        return max(0.0, state.since + self.window - self._clock())

    def settle(self, key: Hashable, level: bool) -> bool | None:
        """After the window, accept the pin's current ``level`` if it differs; else None."""
        state = self._keys.setdefault(key, _KeyState())
        now = self._clock()
        if not state.pending or not self._elapsed(state, now):
            return None
        state.pending = False
        if level == state.level:
            return None
        state.level, state.since = level, now
        return level
