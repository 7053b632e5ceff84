"""Host sessions: the host logged in with the PIN, kept hashed in the journal until they
expire or the host logs out (so a restart keeps the host logged in)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.commands import Done, Step
from firmware_host.journal import Journal
from firmware_host.session_state import Session


def add_host_session(journal: Journal, token_hash: str, expires: str) -> None:
    """Remember a host session (hashed) until ``expires``."""
    journal.write("INSERT INTO host_sessions (token_hash, created, expires) VALUES (?, ?, ?)",
                  (token_hash, journal.now(), expires))


def end_host_session(journal: Journal, token_hash: str) -> None:
    """End a host session (log out)."""
    journal.write("UPDATE host_sessions SET ended = ? WHERE token_hash = ?",
                  (journal.now(), token_hash))


@dataclass(frozen=True)
class OpenHostSession:
    """A host session whose token hashes to ``token_hash``, valid until ``expires``."""

    token_hash: str
    expires: str

    def check(self, session: Session) -> Step[None]:
        def done(_: None, version: int | None) -> Done[None]:
            snapshots = session.snapshots
            snapshots.set_host_sessions({**snapshots.host_sessions,
                                         self.token_hash: self.expires})
            return Done(None)

        return Step(lambda version: add_host_session(session.journal, self.token_hash,
                                                     self.expires), done)


@dataclass(frozen=True)
class CloseHostSession:
    """The host logs out of the session whose token hashes to ``token_hash``."""

    token_hash: str

    def check(self, session: Session) -> Step[None]:
        def done(_: None, version: int | None) -> Done[None]:
            sessions = dict(session.snapshots.host_sessions)
            sessions.pop(self.token_hash, None)
            session.snapshots.set_host_sessions(sessions)
            return Done(None)

        return Step(lambda version: end_host_session(session.journal, self.token_hash), done)
