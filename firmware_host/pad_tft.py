"""The colour TFT as the pad loop drives it: the pad's game drawn for the whole table
(:mod:`firmware_host.tft_screens`), sent through :class:`hardware.tft.TftScreen` (only what
changed), and the frame kept for the simulator's ``/device`` page.

The pad loop calls :meth:`PadTft.update` after each OLED frame. A screen is drawn again only
when what it shows moved on (the game's version, the language, the address), so a redraw of
the OLED that changes nothing here costs nothing; each update's drawing and sending time is
kept (:attr:`PadTft.timings`, ``bench/tft_frames.py``).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from PIL import Image

from firmware_host.session_api import SessionApi
from firmware_host.tft_screens.frames import game_frame, start_frame
from hardware.tft import TftScreen

#: How many updates' timings are kept.
TIMINGS_KEPT = 256


class PadTft:
    """The TFT (``None``: none fitted, nothing drawn), its last frame and what it showed."""

    def __init__(self, screen: TftScreen | None, session: SessionApi) -> None:
        self.screen = screen
        self.session = session
        self._shown: tuple[object, ...] | None = None
        self._frame: Image.Image | None = None
        self._version = 0
        self._lock = threading.Lock()
        self._catalog: dict[str, Any] | None = None
        #: Why the config's TFT could not be opened (``None``: none asked for, or opened).
        self.missing: str | None = None
        #: (seconds drawing, seconds sending, pixel bytes sent) of the latest updates.
        self.timings: deque[tuple[float, float, int]] = deque(maxlen=TIMINGS_KEPT)

    def update(self, game: tuple[int, str] | None, *, title: str, lang: str, url: str) -> None:
        """Shows ``game`` (its id and kind; ``None``: the start screen) as the table sees it."""
        if self.screen is None:
            return
        view = self.session.view(game[0], None) if game is not None else None
        key = (game, view["version"] if view is not None else None, lang, url, title)
        if key == self._shown and self.screen.problem is None:
            return
        started = time.perf_counter()
        size = self.screen.size
        if view is None or game is None:
            image = start_frame(url, size=size, lang=lang)
        else:
            image = game_frame(view, info=self._info(game[1]), title=title, size=size,
                               lang=lang)
        drawn = time.perf_counter()
        stats = self.screen.show(image)
        self.timings.append((drawn - started, stats.seconds, stats.data_bytes))
        with self._lock:
            self._shown = key
            if self._frame is None or image.tobytes() != self._frame.tobytes():
                self._frame = image
                self._version += 1

    def _info(self, kind: str) -> Any:
        if self._catalog is None:
            self._catalog = {entry["id"]: entry for entry in self.session.catalog()}
        return self._catalog.get(kind, {})

    def frame(self) -> Image.Image | None:
        """The TFT's current frame (``None`` before the first, or without a TFT)."""
        with self._lock:
            return self._frame.copy() if self._frame is not None else None

    @property
    def version(self) -> int:
        """Bumped each time the frame changes."""
        with self._lock:
            return self._version

    def status(self) -> str:
        """``none``, ``ok``, ``missing: …`` or ``error: …`` (the next update sends the whole
        frame)."""
        if self.screen is None:
            return self.missing or "none"
        problem = self.screen.problem
        return "ok" if problem is None else f"error: {problem} (retrying)"

    def close(self) -> None:
        if self.screen is not None:
            self.screen.close()
