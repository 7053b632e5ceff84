"""The pad & OLED loop: one thread that takes key, die and session events from a queue, lets
the current game's controller act, and redraws the OLED from the companion's published views.

- Inputs arrive from gpiozero's and the serial reader's threads; the companion's listener
  (called on the session thread after each commit) only enqueues a redraw. Nothing here runs
  on those threads but a ``queue.put``.
- On the loop's thread, what the pad is on (the session's pad game and its controller, the
  games menu, the start screen, a notice) is :class:`~firmware_host.pad_follower.PadFollower`'s
  to keep; :class:`~firmware_host.pad_reads.PadReads` reads the session for it, and
  :class:`~firmware_host.pad_oled.PadOled` holds the OLED and the frame.
- The OLED is optional: without one the loop still runs (inputs still act) and tries to open
  it again every ``retry_interval`` seconds.
- After each frame the pad's lights are set (:class:`~firmware_host.lights_show.LightsShow`):
  what the pad is on lit, and a refused input flashed; and the colour TFT shows the pad's game
  to the table (:class:`~firmware_host.pad_tft.PadTft`).
- An ended game's results show its post-game analysis in a line; while the analysis is being
  computed (on its own thread, which tells nobody when it is kept) the loop draws the results
  again every :data:`ANALYSIS_POLL` seconds, at most :data:`ANALYSIS_TRIES` times per game.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable

from PIL import Image

from firmware_host.games import Registry
from firmware_host.lights_show import LightsShow, refused_key
from firmware_host.pad.inputs import Input
from firmware_host.pad_follower import PadFollower
from firmware_host.pad_oled import PadOled, Screen
from firmware_host.pad_reads import PadReads
from firmware_host.pad_tft import PadTft
from firmware_host.session_api import SessionApi
from hardware.pad_lights import PadLights
from hardware.tft import TftScreen
from hardware.timers import Cancellable, ThreadTimers, Timers

log = logging.getLogger(__name__)

_STOP = object()
_REDRAW = object()

#: Seconds between two redraws of results whose analysis is being computed, and how many.
ANALYSIS_POLL = 2.0
ANALYSIS_TRIES = 150


class _Notice:
    """A note for the OLED from outside the pad (a smart die's battery is low, a die went out
    of reach): its text in the OLED's language when shown."""

    def __init__(self, text: Callable[[str], str]) -> None:
        self.text = text


class PadLoop:
    """The loop thread and its queue (see the module docstring); what other modules ask of
    the pad goes through here."""

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
        lang: str = "en",
        lights: PadLights | None = None,
        timers: Timers | None = None,
        tft: TftScreen | None = None,
    ) -> None:
        self.session = session
        #: The panel's address, on the start screen (the CLI moves it when the address does).
        self.url = url
        self.reads = PadReads(session, games, lang)
        self.follower = PadFollower(session, self.reads, note=note,
                                    rng=rng if rng is not None else random.SystemRandom())
        self.follower.redraw = self.submit_redraw
        self.oled = PadOled(display, open_display=open_display, retry_interval=retry_interval)
        #: The pad's lights (:mod:`firmware_host.lights_show`), drawn after each OLED frame.
        self.lights = LightsShow(lights, timers=timers)
        self._timers: Timers = timers if timers is not None else ThreadTimers()
        #: The redraw waiting for an analysis being computed, and the tries left per game.
        self._analysis_wait: Cancellable | None = None
        self._analysis_tries: dict[int, int] = {}
        #: The colour TFT (:mod:`firmware_host.pad_tft`): the pad's game for the whole table.
        self.tft = PadTft(tft, session)
        self._queue: queue.Queue[object] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        #: A redraw is in the queue (redraws are not queued twice).
        self._redraw_queued = False
        self._thread: threading.Thread | None = None
        self._closed = False

    # --- other threads ------------------------------------------------------------------------
    def start(self) -> None:
        """Registers with the session and starts the loop (draws the first frame)."""
        self.session.add_listener(self._changed)
        self._thread = threading.Thread(target=self._run, name="pad-oled", daemon=True)
        self._thread.start()
        self._put(_REDRAW)

    def submit(self, event: Input) -> None:
        """Queues one input (from any thread)."""
        self._put(event)

    def notify(self, text: Callable[[str], str]) -> None:
        """Shows ``text(lang)`` over whatever the OLED shows, until the next key (from any
        thread)."""
        self._put(_Notice(text))

    def _changed(self, game_id: int | None, version: int) -> None:
        """A committed change (on the session thread): redrawn unless the OLED cannot show
        it (:meth:`PadFollower.unseen`)."""
        if not self.follower.unseen(game_id):
            self.submit_redraw()

    def submit_redraw(self) -> None:
        """Queues a redraw (e.g. the die came or went: the start screen says so), unless one
        is already waiting: a redraw draws whatever is current when it runs."""
        with self._idle:
            if self._redraw_queued:
                return
            self._redraw_queued = True
        self._put(_REDRAW)

    def _put(self, item: object) -> None:
        with self._idle:
            self._pending += 1
        self._queue.put(item)

    def wait_idle(self, timeout: float) -> bool:
        """Waits until every queued item was handled and drawn; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def add_frame_listener(self, listener: Callable[[Image.Image], None]) -> None:
        """``listener(image)`` is called on the loop thread with every new frame, before the
        frame version moves on (it must not block)."""
        self.oled.add_listener(listener)

    @property
    def frame_version(self) -> int:
        """Bumped each time the frame's pixels change."""
        return self.oled.version

    def frame(self) -> Image.Image:
        """A copy of the current frame (what the OLED shows, or would show)."""
        return self.oled.frame()

    def wait_frame(self, since: int, timeout: float) -> int:
        """Waits until the frame version exceeds ``since``; returns the current version."""
        return self.oled.wait_frame(since, timeout)

    @property
    def display(self) -> Screen | None:
        """The OLED (``None`` while missing); closed by its owner."""
        return self.oled.display

    def oled_status(self) -> str:
        """``ok``, ``missing`` (with why) or ``error: ...`` for `Device.status`."""
        return self.oled.status()

    @property
    def game_id(self) -> int | None:
        """The game the pad is on (None on the start screen)."""
        return self.follower.game_id

    @property
    def refusal(self) -> str | None:
        """The refusal on the OLED, if one is shown."""
        return self.follower.refusal

    @property
    def menu_open(self) -> bool:
        """Whether the games menu is on the OLED."""
        return self.follower.menu_open

    def language(self) -> str:
        """The language the OLED speaks now (:meth:`PadReads.language`)."""
        return self.reads.language()

    def close(self) -> None:
        """Stops the loop; idempotent. The display is closed by its owner."""
        if self._closed:
            return
        self._closed = True
        waiting = self._analysis_wait
        if waiting is not None:
            waiting.cancel()
        self._queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(5.0)

    # --- the loop thread ----------------------------------------------------------------------
    def _await_analysis(self) -> None:
        """Results on the OLED whose analysis is being computed: a redraw in a while."""
        game_id = self.follower.awaiting_analysis()
        if game_id is None or self._closed:
            return
        tries = self._analysis_tries.get(game_id, ANALYSIS_TRIES)
        if tries <= 0:
            return
        self._analysis_tries = {game_id: tries - 1}  # one game's results at a time
        waiting = self._analysis_wait
        if waiting is not None:
            waiting.cancel()
        self._analysis_wait = self._timers.call_later(ANALYSIS_POLL, self.submit_redraw)

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=self.oled.retry_after())
            except queue.Empty:
                self.oled.retry()
                continue
            if item is _STOP:
                return
            if item is _REDRAW:
                with self._idle:
                    self._redraw_queued = False
            try:
                if isinstance(item, Input):
                    self.follower.feed(item)
                elif isinstance(item, _Notice):
                    self.follower.notice(item.text(self.reads.language()))
                self.oled.show(self.follower.draw(self.url))
                refused = isinstance(item, Input) and self.follower.refusal is not None
                self.lights.show(self.follower.lighting(), flash=refused,
                                 refused=refused_key(item) if isinstance(item, Input) else None)
                game = self.follower.game
                self.tft.update(game, title=self.reads.title(game[0] if game else None),
                                lang=self.reads.language(), url=self.url)
                self._await_analysis()
            except Exception:  # a bug in one screen must not stop the pad
                log.exception("pad: failed on %r", item)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()
