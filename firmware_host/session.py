"""The session thread: the one thread that owns every game.

Hardware callbacks, serial readers and web requests never touch a game; they hand a command (a
function) to :meth:`SessionThread.call`, which queues it and waits for its reply. The commands run
one at a time, in order, on the session thread.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol, TypeVar

from firmware_host.errors import SessionBusy

log = logging.getLogger(__name__)

T = TypeVar("T")


class Guard(Protocol):
    """What may stop commands: asked before each, and shown each command's error."""

    def check(self) -> None:
        """Raise instead of running the next command (the journal is damaged)."""

    def translate(self, error: BaseException) -> BaseException:
        """The error a command's caller receives for ``error``."""


class SessionThread:
    """A queue of commands and the thread that runs them."""

    def __init__(self, name: str = "session", guard: Guard | None = None) -> None:
        """``guard`` (the journal's :class:`~firmware_host.journal_check.DamageAlarm`) is
        asked before each command and sees each command's error."""
        self._guard = guard
        self._queue: queue.Queue[tuple[Callable[[], Any], Future[Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._closed = False
        self._lock = threading.Lock()
        #: What the running command left to do once its caller has the answer (:meth:`after`).
        self._after: list[Callable[[], None]] = []
        self._thread.start()

    def submit(self, command: Callable[[], T]) -> Future[T]:
        """Queue ``command``; its result (or exception) arrives in the returned future."""
        future: Future[T] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the session has stopped")
            self._queue.put((command, future))
        return future

    def call(self, command: Callable[[], T], timeout: float | None = 30.0) -> T:
        """Run ``command`` on the session thread and return its result (or raise its error).

        If the thread has not taken the command within ``timeout`` seconds, the command is
        cancelled and :class:`SessionBusy` raised: it will never run, so a caller told it failed
        never sees it commit later. A command already running is waited for to its end.
        """
        if threading.current_thread() is self._thread:
            return command()
        future = self.submit(command)
        try:
            return future.result(timeout)
        except FutureTimeout:
            if future.cancel():
                raise SessionBusy(
                    "the companion is busy and did not take the request in time; nothing was "
                    "changed, try again"
                ) from None
            return future.result()

    def after(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the session thread as soon as the running command's caller has
        its answer (at once off the session thread): waking the phones' streams of a change
        waits until the request that made it has its reply, so the reply never queues behind
        them for the GIL (``docs/decisions.md``, "Web panel": one feeding thread)."""
        if not self.on_thread():
            callback()
            return
        self._after.append(callback)

    def on_thread(self) -> bool:
        """Whether the caller is the session thread."""
        return threading.current_thread() is self._thread

    def close(self, timeout: float = 10.0) -> None:
        """Finish queued commands, then stop (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(None)
        if not self.on_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:  # close() asked to stop
                return
            command, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                if self._guard is not None:
                    self._guard.check()
                result = command()
            except BaseException as error:  # the caller receives it through the future
                if self._guard is not None:
                    error = self._guard.translate(error)
                future.set_exception(error)
                self._run_after()
                if not isinstance(error, Exception):
                    raise
            else:
                future.set_result(result)
                self._run_after()

    def _run_after(self) -> None:
        callbacks, self._after = self._after, []
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("a command's follow-up failed")
