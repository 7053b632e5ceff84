"""The pad & OLED loop: one thread that takes key, die and session events from a queue, lets
the current game's controller act, and redraws the OLED from the companion's published views.

- Inputs arrive from gpiozero's and the serial reader's threads; the companion's listener
  (called on the session thread after each commit) only enqueues a redraw. Nothing here runs
  on those threads but a ``queue.put``.
- Each game's pad controller is a pure step function (:mod:`firmware_host.pad.steps`), found in
  the game's registration; this loop is its shell: it feeds the controller keys and the session's
  answers, sends the actions it asks for, and shows its screen.
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
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from firmware_host.errors import SessionError
from firmware_host.games import Registry
from firmware_host.pad.inputs import Input
from firmware_host.pad.steps import (
    Accepted,
    Act,
    Changed,
    Command,
    PadEvent,
    PadGame,
    PadState,
    Refused,
    RollDie,
    Table,
    pad_start,
    pad_step,
)
from firmware_host.screens.message import message_screen
from firmware_host.screens.start import start_screen
from firmware_host.session_api import SessionApi
from rules import CHANCE, RulesError

log = logging.getLogger(__name__)


class Screen(Protocol):
    """What the loop needs of `hardware.oled.Display`."""

    @property
    def problem(self) -> str | None: ...
    def show(self, image: Image.Image) -> Any: ...
    def retry(self) -> Any: ...
    def close(self) -> None: ...


@dataclass
class _OnGame:
    """The game the pad is on: its id, its controller and the controller's state."""

    game_id: int
    controller: PadGame[Any]
    state: PadState[Any]


_STOP = object()
_REDRAW = object()


class PadLoop:
    """The loop described in the module docstring."""

    def __init__(
        self,
        session: SessionApi,
        games: Registry,
        display: Screen | None,
        *,
        url: str,
        open_display: Callable[[], Screen] | None = None,
        note: Callable[[], str | None] | None = None,
        rng: random.Random | None = None,
        retry_interval: float = 5.0,
    ) -> None:
        self.session = session
        self.games = games
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
        self._on: _OnGame | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._frame_listeners: list[Callable[[Image.Image], None]] = []

    # --- other threads ------------------------------------------------------------------------
    def start(self) -> None:
        """Registers with the session and starts the loop (draws the first frame)."""
        self.session.add_listener(self._changed)
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
    def game_id(self) -> int | None:
        """The game the pad is on (None on the start screen)."""
        on = self._on
        return on.game_id if on is not None else None

    @property
    def refusal(self) -> str | None:
        """The refusal on the OLED, if one is shown."""
        on = self._on
        return on.state.refusal if on is not None else None

    def oled_status(self) -> str:
        """``ok``, ``missing`` (with why) or ``error: ...`` for `Device.status`."""
        if self.display is None:
            return self.display_problem or "missing"
        problem = self.display.problem
        return "ok" if problem is None else f"error: {problem} (retrying)"

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
                self.display is not None and self.display.problem is not None)
            try:
                item = self._queue.get(timeout=self.retry_interval if needs_retry else None)
            except queue.Empty:
                self._retry_display()
                continue
            if item is _STOP:
                return
            try:
                if isinstance(item, Input):
                    self._feed(item)
                self._redraw()
            except Exception:  # a bug in one screen must not stop the pad
                log.exception("pad: failed on %r", item)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def _table(self, game_id: int) -> Table:
        return Table(game_id, lambda seat: self.session.view(game_id, seat))

    def _current(self) -> _OnGame | None:
        """The game the pad is on: a finished game until OK on its last screen (a
        tournament's next game waits behind it), else the game put on the pad
        (``session.pad_game()``), else the newest active game, else None."""
        active = {g["id"]: g["game"] for g in self.session.games(status="active")}
        on = self._on
        # a finished game's last screens wait for OK; an abandoned game just goes
        if (on is not None and on.game_id not in active and not on.state.done
                and self.session.summary(on.game_id)["status"] == "finished"):
            return on
        if not active:
            self._on = None
            return None
        chosen = self.session.pad_game()  # the host's or the OLED menu's choice, if any
        newest = chosen if chosen in active else max(active)
        if on is None or on.game_id != newest:
            registration = self.games.get(active[newest])
            if registration is None or registration.pad is None:
                self._on = None
                return None
            controller = registration.pad
            on = _OnGame(newest, controller, pad_start(controller, self._table(newest)))
            self._on = on
        return on

    def _feed(self, event: PadEvent) -> None:
        """One event through the current game's controller, then the actions it asks for,
        each answered back to it (accepted or refused)."""
        on = self._current()
        if on is None:
            return
        step = pad_step(on.controller, on.state, event, self._table(on.game_id))
        on.state = step.state
        for command in step.commands:
            answer = self._send(on.game_id, command)
            step = pad_step(on.controller, on.state, answer, self._table(on.game_id))
            on.state = step.state

    def _send(self, game_id: int, command: Command) -> Accepted | Refused:
        act = command if isinstance(command, Act) else Act(
            CHANCE, f"roll {self._rng.randint(1, command.faces)}", by="box random")
        assert isinstance(command, Act | RollDie)
        try:
            self.session.act(game_id, act.seat, act.action, act.by)
        except (RulesError, SessionError) as error:
            log.info("pad: %s for seat %s refused: %s", act.action, act.seat, error)
            return Refused(act, str(error))
        return Accepted(act)

    def _draw(self) -> Image.Image:
        on = self._current()
        if on is None:
            note = self._note() if self._note is not None else None
            return start_screen(self.url, self.session.host_pin, note=note)
        try:
            step = pad_step(on.controller, on.state, Changed(), self._table(on.game_id))
            on.state = step.state
            return step.screen()
        except Exception as error:
            log.exception("pad: drawing game %s failed", on.game_id)
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
