"""The pad's OLED and the frame the pad loop last drew, with its version.

The OLED is optional: without one the loop still runs and asks :meth:`PadOled.retry` to open it
every ``retry_interval`` seconds; after a bus error the display resends the full frame at the
next redraw or retry. The frame is kept either way, so the panel's /device page and the tests
see what the OLED shows, or would show. Only the pad loop's thread opens, retries and draws;
any thread reads the frame.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

from PIL import Image

log = logging.getLogger(__name__)


class Screen(Protocol):
    """What the pad needs of `hardware.oled.Display`."""

    @property
    def problem(self) -> str | None: ...
    def show(self, image: Image.Image) -> Any: ...
    def retry(self) -> Any: ...
    def close(self) -> None: ...


class PadOled:
    """The display (``None`` while missing), why it is missing, and the current frame."""

    def __init__(self, display: Screen | None, *, open_display: Callable[[], Screen] | None,
                 retry_interval: float) -> None:
        self.display = display
        #: Why there is no display (``None`` when there is one).
        self.problem: str | None = None if display is not None else "missing"
        self._open_display = open_display
        self.retry_interval = retry_interval
        self._changed = threading.Condition()
        self._frame = Image.new("1", (128, 64), 0)
        self._version = 0
        self._listeners: list[Callable[[Image.Image], None]] = []

    def add_listener(self, listener: Callable[[Image.Image], None]) -> None:
        """``listener(image)`` is called on the loop thread with every new frame, before the
        frame version moves on (it must not block)."""
        self._listeners.append(listener)

    def retry_after(self) -> float | None:
        """Seconds until :meth:`retry` is due: while the display is missing (and can be
        opened) or failing; ``None`` while it works."""
        needs_retry = (self.display is None and self._open_display is not None) or (
            self.display is not None and self.display.problem is not None)
        return self.retry_interval if needs_retry else None

    def retry(self) -> None:
        """Opens a missing display, or lets a failing one try again."""
        if self.display is None and self._open_display is not None:
            try:
                self.display = self._open_display()
            except Exception as error:
                self.problem = f"missing: {error}"
                return
            self.problem = None
            log.info("OLED found")
        if self.display is not None:
            self.display.retry()

    def show(self, image: Image.Image) -> None:
        """Sends ``image`` to the display, then makes it the frame if its pixels changed."""
        # the display first, then the version: whoever sees the new version (the simulator's
        # /device page) finds the new image on the OLED
        if self.display is not None:
            self.display.show(image)
        with self._changed:
            if image.tobytes() != self._frame.tobytes():
                for listener in self._listeners:
                    listener(image.copy())
                self._frame = image
                self._version += 1
                self._changed.notify_all()

    @property
    def version(self) -> int:
        """Bumped each time the frame's pixels change."""
        with self._changed:
            return self._version

    def frame(self) -> Image.Image:
        """A copy of the current frame."""
        with self._changed:
            return self._frame.copy()

    def wait_frame(self, since: int, timeout: float) -> int:
        """Waits until the frame version exceeds ``since``; returns the current version."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > since, timeout)
            return self._version

    def status(self) -> str:
        """``ok``, ``missing`` (with why) or ``error: ...``."""
        if self.display is None:
            return self.problem or "missing"
        problem = self.display.problem
        return "ok" if problem is None else f"error: {problem} (retrying)"
