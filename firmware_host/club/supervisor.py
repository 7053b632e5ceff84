"""The hub looks after the Mosquitto it started: a broker that dies (a crash, SIGKILL, any exit)
is started again, from the same files on the same port, after a back-off.

A thread waits for the broker's process to end (``wait()``: no polling) and starts it again
after 1 s, then 2 s, 4 s … up to 30 s while it keeps dying; a broker that stayed up a minute
starts the count again at 1 s. Meanwhile :meth:`Supervisor.status` says since when the broker
is down, for the hub's pages. Closing stops the restarts first, then the broker, then the
thread. A broker the club already had is not the hub's to start, and is not supervised.

A broker started again here is the child of the supervising thread, so Linux's parent-death
signal (``broker._parent_death_signal``) ends it when that thread ends: the thread lives until
supervision is closed, and a failure in it is logged, never silent.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypedDict

from firmware_host.club.broker import BrokerError, Mosquitto

log = logging.getLogger(__name__)

#: How many of the latest scheduled waits :attr:`Supervisor.delays` keeps.
DELAYS_KEPT = 64


@dataclass
class Backoff:
    """The wait before each start: ``first`` seconds, doubled (at most ``longest``) while the
    broker dies within ``steady`` seconds of its start or fails to start; ``first`` again
    after it stayed up ``steady`` seconds."""

    first: float = 1.0
    longest: float = 30.0
    steady: float = 60.0
    _last: float = field(default=0.0, init=False, repr=False)

    def after(self, uptime: float) -> float:
        """The wait before the next start, the broker having run ``uptime`` seconds."""
        if self._last <= 0 or uptime >= self.steady:
            self._last = self.first
        else:
            self._last = min(self._last * 2, self.longest)
        return self._last


class BrokerStatus(TypedDict):
    """The hub's own broker as the hub's pages show it."""

    running: bool
    #: When it was found down (UTC, ISO 8601); ``None`` while it runs.
    down_since: str | None
    #: How many times it was started again.
    restarts: int


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Supervisor:
    """Keeps ``broker`` (already started) running until :meth:`close` (see the module
    docstring). ``on_start`` runs after each restart, before :meth:`status` says the broker is
    back (the hub writes its pid file there, which ``club add-box`` reads); ``clock`` measures
    how long it stayed up."""

    def __init__(self, broker: Mosquitto, *, backoff: Backoff | None = None,
                 on_start: Callable[[Mosquitto], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.broker = broker
        self.backoff = backoff or Backoff()
        #: The waits scheduled before each start, the latest last.
        self.delays: deque[float] = deque(maxlen=DELAYS_KEPT)
        self._on_start = on_start
        self._clock = clock
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._down_since: str | None = None
        self._restarts = 0
        self._up_at = clock()
        self._thread = threading.Thread(target=self._run, name="club-broker", daemon=True)

    def start(self) -> None:
        """Start watching the broker."""
        self._up_at = self._clock()
        self._thread.start()

    @property
    def watching(self) -> bool:
        """Whether the supervising thread runs."""
        return self._thread.is_alive()

    def status(self) -> BrokerStatus:
        with self._lock:
            return {"running": self._down_since is None, "down_since": self._down_since,
                    "restarts": self._restarts}

    def stop(self) -> None:
        """No more restarts (the broker itself keeps running); idempotent."""
        self._stopping.set()

    def close(self, timeout: float = 30.0) -> None:
        """Stop the restarts, the broker and the thread (idempotent)."""
        self.stop()
        self.broker.stop()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.broker.stop()  # one the thread started as it was told to stop

    # --- the supervising thread -----------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                proc = self.broker.proc
                code = proc.wait() if proc is not None else None
                if self._stopping.is_set():
                    return
                with self._lock:
                    self._down_since = _utc_now()
                log.warning("club: the hub's broker (mosquitto) stopped (exit %s); starting it "
                            "again", code)
                if not self._restart(self._clock() - self._up_at):
                    return
        except Exception:
            log.exception("club: the hub's broker is no longer supervised")

    def _restart(self, uptime: float) -> bool:
        """Start the broker again, after each wait, until it runs; ``False`` once closing."""
        while True:
            delay = self.backoff.after(uptime)
            self.delays.append(delay)
            if self._stopping.wait(delay):
                return False
            try:
                self.broker.start()
            except (BrokerError, OSError) as error:
                log.warning("club: the hub's broker did not start again: %s", error)
                uptime = 0.0
                continue
            if self._stopping.is_set():
                self.broker.stop()
                return False
            self._up_at = self._clock()
            if self._on_start is not None:  # before it is said to be back (its pid file)
                try:
                    self._on_start(self.broker)
                except Exception:  # the broker runs: supervision goes on
                    log.exception("club: after the broker's restart")
            with self._lock:
                self._down_since = None
                self._restarts += 1
            log.warning("club: the hub's broker is back (after a wait of %g s)", delay)
            return True
