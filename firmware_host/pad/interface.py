"""The pad & OLED loop: one thread that takes key, die and session events from a queue, lets
the current game's controller act, and redraws the OLED from the companion's published views.

- Inputs arrive from gpiozero's and the serial reader's threads; the companion's listener
  (called on the session thread after each commit) only enqueues a redraw. Nothing here runs
  on those threads but a ``queue.put``.
- The pad follows the newest active game; an ended game stays on the OLED (reveal, scores)
  until OK is pressed on its last screen, even when a tournament's next game has started; with
  no game it shows the start screen (address, QR code, host PIN).
- The OLED is optional: without one the loop still runs (inputs still act) and tries to open
  it again every ``retry_interval`` seconds; after a bus error the display resends the full
  frame at the next redraw or retry.
"""

from __future__ import annotations

import io
import logging
import queue
import random
import threading
from collections.abc import Callable
from typing import Any, Protocol

from PIL import Image

from firmware_host.pad.controller import Controller, Session
from firmware_host.pad.dice216 import Dice216Pad
from firmware_host.pad.hacktrick import HacktrickPad
from firmware_host.pad.ico import IcoPad
from firmware_host.pad.inputs import Input
from firmware_host.pad.unlock import UnlockPad
from firmware_host.screens.message import message_screen
from firmware_host.screens.start import start_screen

log = logging.getLogger(__name__)


class CompanionApi(Session, Protocol):
    """What the loop needs of the companion."""

    host_pin: str

    def games(self, status: str | None = None) -> list[dict[str, Any]]: ...
    def add_listener(self, listener: Callable[[int | None, int], None]) -> None: ...


class Screen(Protocol):
    """What the loop needs of `hardware.oled.Display`."""

    @property
    def state(self) -> Any: ...
    def show(self, image: Image.Image) -> Any: ...
    def retry(self) -> Any: ...
    def close(self) -> None: ...


def controller_for(session: Session, game: str, game_id: int, rng: random.Random) -> Controller:
    """The pad controller of ``game``."""
    if game == "unlock":
        return UnlockPad(session, game_id)
    if game == "dice216":
        return Dice216Pad(session, game_id, rng=rng)
    if game == "hacktrick":
        return HacktrickPad(session, game_id)
    if game == "ico":
        return IcoPad(session, game_id)
    raise ValueError(f"no pad controller for game {game!r}")


_STOP = object()
_REDRAW = object()


class PadInterface:
    """The loop described in the module docstring."""

    def __init__(
        self,
        companion: CompanionApi,
        display: Screen | None,
        *,
        url: str,
        open_display: Callable[[], Screen] | None = None,
        note: Callable[[], str | None] | None = None,
        rng: random.Random | None = None,
        retry_interval: float = 5.0,
    ) -> None:
        self.companion = companion
        self.display = display
        self.url = url
        self.display_problem: str | None = None if display is not None else "missing"
        self._open_display = open_display
        self._note = note
        self._rng = rng if rng is not None else random.SystemRandom()
        self.retry_interval = retry_interval
        self._queue: queue.Queue[object] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._frame = Image.new("1", (128, 64), 0)
        self._frame_version = 0
        self._controller: Controller | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._frame_listeners: list[Callable[[Image.Image], None]] = []

    # --- other threads ------------------------------------------------------------------------
    def start(self) -> None:
        """Registers with the companion and starts the loop (draws the first frame)."""
        self.companion.add_listener(self._changed)
        self._thread = threading.Thread(target=self._run, name="pad-oled", daemon=True)
        self._thread.start()
        self._put(_REDRAW)

    def add_frame_listener(self, listener: Callable[[Image.Image], None]) -> None:
        """``listener(image)`` is called on the loop thread with every new frame, before the
        frame version moves on (it must not block)."""
        self._frame_listeners.append(listener)

    def submit(self, event: Input) -> None:
        """Queues one input (from any thread)."""
        self._put(event)

    def submit_redraw(self) -> None:
        """Queues a redraw (e.g. the die came or went: the start screen says so)."""
        self._put(_REDRAW)

    def _changed(self, game_id: int | None, version: int) -> None:
        self._put(_REDRAW)

    def _put(self, item: object) -> None:
        with self._idle:
            self._pending += 1
        self._queue.put(item)

    def wait_idle(self, timeout: float) -> bool:
        """Waits until every queued item was handled and drawn; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    @property
    def frame_version(self) -> int:
        """Bumped each time the frame's pixels change."""
        with self._idle:
            return self._frame_version

    def frame(self) -> Image.Image:
        """A copy of the current frame (what the OLED shows, or would show)."""
        with self._idle:
            return self._frame.copy()

    def frame_png(self) -> bytes:
        out = io.BytesIO()
        self.frame().save(out, format="PNG")
        return out.getvalue()

    def wait_frame(self, since: int, timeout: float) -> int:
        """Waits until the frame version exceeds ``since``; returns the current version."""
        with self._idle:
            self._idle.wait_for(lambda: self._frame_version > since, timeout)
            return self._frame_version

    @property
    def controller(self) -> Controller | None:
        """The controller of the game the pad is on (None on the start screen)."""
        return self._controller

    def oled_status(self) -> str:
        """``ok``, ``missing`` (with why) or ``error: ...`` for `Device.status`."""
        if self.display is None:
            return self.display_problem or "missing"
        state = getattr(self.display.state, "value", str(self.display.state))
        if state == "error":
            return f"error: {getattr(self.display, 'last_error', None)} (retrying)"
        return str(state)

    def close(self) -> None:
        """Stops the loop; idempotent. The display is closed by its owner."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(5.0)

    # --- the loop thread ----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            needs_retry = (self.display is None and self._open_display is not None) or (
                self.display is not None and self.oled_status().startswith("error"))
            try:
                item = self._queue.get(timeout=self.retry_interval if needs_retry else None)
            except queue.Empty:
                self._retry_display()
                continue
            if item is _STOP:
                return
            try:
                if isinstance(item, Input):
                    self._handle(item)
                self._redraw()
            except Exception:  # a bug in one screen must not stop the pad
                log.exception("pad: failed on %r", item)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def _current(self) -> Controller | None:
        """The game the pad is on: a finished game until OK on its last screen (a
        tournament's next game waits behind it), else the newest active game, else None."""
        active = {int(g["id"]): str(g["game"]) for g in self.companion.games(status="active")}
        current = self._controller
        finished = current is not None and current.game_id not in active and not current.done
        # a finished game's last screens wait for OK; an abandoned game just goes
        if finished and current is not None and current.view().get("status") != "abandoned":
            return current
        if not active:
            self._controller = None
            return None
        newest = max(active)
        if current is None or current.game_id != newest:
            current = controller_for(self.companion, active[newest], newest, self._rng)
            self._controller = current
        return current

    def _handle(self, event: Input) -> None:
        controller = self._current()
        if controller is not None:
            controller.handle(event)

    def _draw(self) -> Image.Image:
        controller = self._current()
        if controller is None:
            note = self._note() if self._note is not None else None
            return start_screen(self.url, self.companion.host_pin, note=note)
        try:
            return controller.frame()
        except Exception as error:
            log.exception("pad: drawing game %s failed", controller.game_id)
            return message_screen("Error", str(error))

    def _redraw(self) -> None:
        image = self._draw()
        # the display first, then the version: whoever sees the new version (the simulator's
        # /device page) finds the new image on the OLED
        if self.display is not None:
            self.display.show(image)
        with self._idle:
            if image.tobytes() != self._frame.tobytes():
                for listener in self._frame_listeners:
                    listener(image.copy())
                self._frame = image
                self._frame_version += 1
                self._idle.notify_all()

    def _retry_display(self) -> None:
        if self.display is None and self._open_display is not None:
            try:
                self.display = self._open_display()
            except Exception as error:
                self.display_problem = f"missing: {error}"
                return
            self.display_problem = None
            log.info("OLED found")
        if self.display is not None:
            self.display.retry()
