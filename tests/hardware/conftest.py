"""Fixtures for the hardware tests: gpiozero's MockFactory (installed, reset, restored, as in
gpiozero's own suite), a bouncy MockPin, a manual clock and manual timers."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterator, Sequence

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin


class ManualClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ManualTimers:
    """`hardware.timers.Timers` driven by a `ManualClock`: `advance` runs what falls due."""

    class _Handle:
        def __init__(self) -> None:
            self.cancelled = False

        def cancel(self) -> None:
            self.cancelled = True

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self._queue: list[tuple[float, int, ManualTimers._Handle, Callable[[], None]]] = []
        self._order = itertools.count()

    def call_later(self, delay: float, fn: Callable[[], None]) -> ManualTimers._Handle:
        handle = self._Handle()
        heapq.heappush(self._queue, (self.clock.now + delay, next(self._order), handle, fn))
        return handle

    @property
    def pending(self) -> int:
        return sum(1 for _, _, handle, _ in self._queue if not handle.cancelled)

    def advance(self, seconds: float) -> None:
        end = self.clock.now + seconds
        while self._queue and self._queue[0][0] <= end:
            due, _, handle, fn = heapq.heappop(self._queue)
            self.clock.now = max(self.clock.now, due)
            if not handle.cancelled:
                fn()
        self.clock.now = end


class BouncyPin(MockPin):
    """A MockPin that can chatter like a real contact, moving the test clock between edges."""

    clock: ManualClock | None = None

    def chatter(self, levels: Sequence[bool], step: float = 0.001) -> None:
        """Drive the given levels in turn, ``step`` seconds apart on the shared clock."""
        for level in levels:
            if self.clock is not None:
                self.clock.now += step
            if level:
                self.drive_high()
            else:
                self.drive_low()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def timers(clock: ManualClock) -> ManualTimers:
    return ManualTimers(clock)


@pytest.fixture
def mock_factory(clock: ManualClock) -> Iterator[MockFactory]:
    """Install a MockFactory of `BouncyPin`s as the default, then reset and restore."""
    saved = Device.pin_factory
    factory = MockFactory(pin_class=BouncyPin)
    BouncyPin.clock = clock
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = saved
        BouncyPin.clock = None
