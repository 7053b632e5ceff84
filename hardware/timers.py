"""Delayed calls for hold and debounce-settle timing, injectable so tests run without waiting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol


class Cancellable(Protocol):
    """Something scheduled that can be called off."""

    def cancel(self) -> None: ...


class Timers(Protocol):
    """Runs ``fn`` once, ``delay`` seconds from now, on some thread."""

    def call_later(self, delay: float, fn: Callable[[], None]) -> Cancellable: ...


class ThreadTimers:
    """`Timers` on daemon `threading.Timer` threads (the default on a real box)."""

    def call_later(self, delay: float, fn: Callable[[], None]) -> Cancellable:
        timer = threading.Timer(max(delay, 0.0), fn)
        timer.daemon = True
        timer.start()
        return timer
