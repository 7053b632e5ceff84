"""Post-game analyses (issue 34): each ended game's analysis, computed once it has ended, off
the session thread, and kept in the journal so it is computed once.

- Never before the end: a game still being played has no analysis (its secrets are secret).
- A game ends → its analysis is queued on one worker thread of its own, at a lower scheduling
  priority than the box's other threads (the session thread, the server's); the rules compute
  it from what the journal keeps of the game (``BoxGame.analysis``: UNLOCK's counts of codes,
  the ``hard`` bot's weighing of every move in the others), and a small command
  writes it to the journal's ``analyses`` table through the session owner, like every write,
  compressed (``journal_rows.analysis_body``: an SD card writes each page more than once).
- Asked for (``Companion.analysis``): ``ready`` with the analysis, ``pending`` while it is being
  computed (an ended game from before this run is queued when first asked), ``unavailable`` for
  a game that has no analysis yet, ``not_over`` while the game goes on.
- At most :data:`WAITING` games wait for the worker: when games end faster than they are
  analysed, the one that has waited longest is dropped to make room (the newest games, those
  the tables are looking at, come first), and is computed when its analysis is next asked
  for. A backlog would otherwise hold memory in proportion to it, and leave the box's heap
  fragmented after it drained (``docs/benchmarks.md``, "Memory against history").
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from firmware_host.commands import Command, Done, Step
from firmware_host.games import Analyser
from firmware_host.journal import Journal
from firmware_host.journal_rows import analysis_body
from firmware_host.session_api import AnalysisAnswer
from firmware_host.session_state import Session
from rules.evaluation import GameRecord

log = logging.getLogger(__name__)

#: How much lower than the box's other threads the worker is scheduled (``nice`` steps).
NICER = 10
#: At most this many games wait for their analysis (the one being computed not counted).
WAITING = 16


def store_analysis(journal: Journal, game_id: int, body: bytes) -> None:
    """Keep a game's analysis (computed once: a second one replaces it), as
    :func:`~firmware_host.journal_rows.analysis_body` made it."""
    journal.write("INSERT OR REPLACE INTO analyses (game_id, body, computed) VALUES (?, ?, ?)",
                  (game_id, body, journal.now()))


@dataclass(frozen=True)
class StoreAnalysis:
    """Keep the analysis of the ended game ``game_id`` (``body``: its JSON, compressed)."""

    game_id: int
    body: bytes

    def check(self, session: Session) -> Step[None]:
        return Step(lambda version: store_analysis(session.journal, self.game_id, self.body),
                    lambda _result, _version: Done(None))


class GameAnalyses:
    """The analyses of ended games: computed on a worker thread, kept in the journal.

    ``status(game_id)`` gives the game's kind and status from the snapshots; ``record`` what
    the journal keeps of it (seats, options, seed, actions); ``stored`` its kept analysis;
    ``analyser(kind)`` the game's analysis function (``None``: none yet; one that gives a text
    gives the analysis's JSON already, as the analysis process does); ``run`` runs a
    command on the session thread."""

    def __init__(self, *, status: Callable[[int], tuple[str, str]],
                 record: Callable[[int], GameRecord], stored: Callable[[int], str | None],
                 analyser: Callable[[str], Analyser | Callable[..., str] | None],
                 run: Callable[[Command[None]], None]) -> None:
        self._status = status
        self._record = record
        self._stored = stored
        self._analyser = analyser
        self._run = run
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis",
                                          initializer=_lower_priority)
        self._lock = threading.Lock()
        self._queued: dict[int, Future[None]] = {}
        #: Queued games → the share of each analysed so far.
        self._progress: dict[int, float] = {}

    def ended(self, game_id: int) -> None:
        """A game has just ended: compute its analysis, if it has one (on the worker)."""
        kind, _ = self._status(game_id)
        if self._analyser(kind) is not None:
            self._queue(game_id)

    def answer(self, game_id: int) -> AnalysisAnswer:
        """The game's analysis, or why there is none (see the module docstring)."""
        kind, status = self._status(game_id)
        if status == "active":
            return {"status": "not_over", "analysis": None}
        if self._analyser(kind) is None:
            return {"status": "unavailable", "analysis": None}
        body = self._stored(game_id)
        if body is not None:
            return {"status": "ready", "analysis": json.loads(body)}
        self._queue(game_id)
        with self._lock:
            done = self._progress.get(game_id, 0.0)
        return {"status": "pending", "analysis": None, "progress": round(done, 2)}

    def settle(self, timeout: float) -> None:
        """Wait until the analyses queued so far are kept."""
        self._worker.submit(lambda: None).result(timeout)

    def close(self) -> None:
        """Let the analysis under way finish and be kept; drop the queued ones (each is
        computed again when its game's analysis is next asked for)."""
        self._worker.shutdown(wait=True, cancel_futures=True)

    def _queue(self, game_id: int) -> None:
        with self._lock:
            if game_id in self._queued:
                return
            waiting = [g for g, future in self._queued.items() if not future.running()]
            for oldest in waiting[:max(0, len(waiting) - WAITING + 1)]:
                if self._queued[oldest].cancel():  # not started: computed when next asked
                    del self._queued[oldest]
                    self._progress.pop(oldest, None)
            self._progress[game_id] = 0.0
            self._queued[game_id] = self._worker.submit(self._compute, game_id)

    def _compute(self, game_id: int) -> None:
        try:
            if self._stored(game_id) is not None:
                return
            kind, _ = self._status(game_id)
            analyser = self._analyser(kind)
            if analyser is None:
                return
            result = analyser(self._record(game_id), partial(self._done, game_id))
            body = result if isinstance(result, str) else json.dumps(result, separators=(",", ":"))
            # compressed here, on the worker, not on the session thread that writes it
            self._run(StoreAnalysis(game_id, analysis_body(body)))
            log.info("game %d: analysis kept (%d bytes)", game_id, len(body))
        except Exception:  # one game's analysis failing must not stop the others
            log.exception("game %d: its analysis failed", game_id)
        finally:
            with self._lock:
                self._queued.pop(game_id, None)
                self._progress.pop(game_id, None)

    def _done(self, game_id: int, share: float) -> None:
        with self._lock:
            self._progress[game_id] = share


def _lower_priority() -> None:
    """Schedule the worker after the box's other threads (Linux: a thread is a task)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICER)
    except (AttributeError, OSError) as error:
        log.debug("analysis worker keeps its priority: %s", error)
