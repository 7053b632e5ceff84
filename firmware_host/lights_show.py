"""The pad's lights as the pad loop drives them: the current frame, a refusal's flash, and the
frame kept for the simulator's ``/device`` page whether or not lights are fitted.

The pad loop calls :meth:`LightsShow.show` after each redraw of the OLED, with what the lights
should show (:meth:`~firmware_host.pad_follower.PadFollower.lighting`) and, when the input it
just handled was refused, the key to flash. A flash shows for :data:`FLASH_SECONDS`, then the
lights go back to the newest frame (a frame shown meanwhile is never overwritten by an older
one). The flash's end runs on a timer thread (``hardware.timers``: tests give their own).
"""

from __future__ import annotations

import threading

from firmware_host.pad.inputs import Input
from firmware_host.pad_lighting import Lighting, flash_frame
from hardware.pad_lights import Colour, Frame, PadLights
from hardware.pinmap import KEYS, Key
from hardware.timers import Cancellable, ThreadTimers, Timers

#: How long a refusal's flash lasts.
FLASH_SECONDS = 0.35


def refused_key(event: Input) -> Key | None:
    """The pad key an input came from, to flash when it is refused (``None``: not one of the
    pad's keys — a die, a keypad letter —, so every key flashes)."""
    if event.kind == "dot" and event.value is not None and 1 <= event.value <= 9 and (
            event.key is None or event.key.isdigit()):
        return event.value
    if event.kind in ("ok", "back"):
        return event.kind
    return None


class LightsShow:
    """The lights (``None`` when none are fitted), what they show, and the flash's timer."""

    def __init__(self, lights: PadLights | None, *, timers: Timers | None = None,
                 flash_seconds: float = FLASH_SECONDS) -> None:
        self.lights = lights
        self._timers = timers if timers is not None else ThreadTimers()
        self.flash_seconds = flash_seconds
        self._lock = threading.Lock()
        self._frame: dict[Key, Colour] = {}
        self._settled: dict[Key, Colour] = {}
        self._generation = 0
        self._pending: Cancellable | None = None
        self._version = 0

    def show(self, lighting: Lighting, *, flash: bool = False, refused: Key | None = None) -> None:
        """Shows ``lighting``; with ``flash``, first a refusal's flash of ``refused`` (every key
        when ``None``, or while the secret is drawn) for :attr:`flash_seconds`."""
        settled = _whole(lighting.frame)
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._settled = settled
            if self._pending is not None:
                self._pending.cancel()
                self._pending = None
            shown = _whole(flash_frame(lighting, refused)) if flash else settled
            self._put(shown)
            if flash:
                self._pending = self._timers.call_later(
                    self.flash_seconds, lambda: self._end_flash(generation))

    def _end_flash(self, generation: int) -> None:
        with self._lock:
            if generation == self._generation:
                self._pending = None
                self._put(self._settled)

    def _put(self, frame: dict[Key, Colour]) -> None:
        if frame != self._frame:
            self._frame = frame
            self._version += 1
        if self.lights is not None:
            self.lights.show(frame)

    def frame(self) -> dict[Key, Colour]:
        """What the lights show now (every key; dark ones ``(0, 0, 0)``), before the
        brightness setting: the simulator's /device page draws it."""
        with self._lock:
            return dict(self._frame) if self._frame else _whole({})

    @property
    def flashing(self) -> bool:
        """Whether a refusal's flash is on the lights now."""
        with self._lock:
            return self._pending is not None

    @property
    def version(self) -> int:
        """Bumped each time the frame changes."""
        with self._lock:
            return self._version

    def status(self) -> str:
        """``none`` (no lights fitted), ``ok``, ``missing: …`` (the config's lights could not
        be opened), or ``error: …`` (retried with each frame)."""
        if self.lights is None:
            return "none"
        problem = self.lights.problem
        if problem is None:
            return "ok"
        return problem if problem.startswith("missing") else f"error: {problem} (retrying)"

    def close(self) -> None:
        """Cancels a flash's end and darkens and releases the lights."""
        with self._lock:
            if self._pending is not None:
                self._pending.cancel()
                self._pending = None
        if self.lights is not None:
            self.lights.close()


def _whole(frame: Frame) -> dict[Key, Colour]:
    return {key: frame.get(key, (0, 0, 0)) for key in KEYS}
