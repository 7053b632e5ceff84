"""The session owner: one thread, one queue, every command.

Hardware callbacks, serial readers and web requests never touch a game: each change is a command
(:mod:`firmware_host.commands`) run on the session thread (:class:`~firmware_host.session.
SessionThread`). The owner checks it, commits what it writes to the journal, lets it update the
session, and only then publishes the new snapshots and tells the listeners what changed —
"shown means saved". It knows no feature: each feature owns its commands.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from firmware_host.commands import Change, Command, Done
from firmware_host.session import SessionThread
from firmware_host.session_state import Session

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Told each committed change, on the session thread (it must not block).
ChangeListener = Callable[[Change], None]


class SessionOwner:
    """Runs commands on the session thread; see the module docstring."""

    def __init__(self, session: Session, start: Callable[[Session], None]) -> None:
        """``start`` runs first on the thread (the games restored from the journal)."""
        self.session = session
        self._listeners: list[ChangeListener] = []
        self.thread = SessionThread(guard=session.journal.alarm)
        try:
            self.thread.call(lambda: start(session), timeout=None)
        except BaseException:
            self.thread.close()
            raise

    def close(self) -> None:
        """Finish queued commands and stop the thread (idempotent)."""
        self.thread.close()

    def add_listener(self, listener: ChangeListener) -> None:
        self.thread.call(lambda: self._listeners.append(listener))

    def run(self, command: Command[T]) -> T:
        """Run ``command`` on the session thread and return its result (or raise its refusal)."""
        return self.thread.call(lambda: self._apply(command))

    def _apply(self, command: Command[T]) -> T:
        step = command.check(self.session)
        written: Any = None
        version: int | None = None
        if step.write is not None:
            with self.session.journal.transaction() as version:
                written = step.write(version)
        done = step.done(written, version)
        if version is not None and done.changed:
            self._publish(version, done)
        return done.result

    def _publish(self, version: int, done: Done[Any]) -> None:
        """Swap in the new snapshots (the change is already committed), then tell the
        listeners what changed."""
        self.session.snapshots.publish(version, done.games, done.tournaments,
                                       later=self.thread.after)
        change = Change(version, done.told, done.kinds)
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("a listener failed on %s", change)
