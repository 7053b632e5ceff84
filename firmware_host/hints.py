"""Hints (UNLOCK's hint engine, where a game has one): how many each seat asked for, and the
host allowing them or not; each counted once per position of the game."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from firmware_host.commands import HINTS, Done, Step, kinds
from firmware_host.errors import NotAllowed
from firmware_host.journal import Journal
from firmware_host.session_state import Session, live_snapshots

log = logging.getLogger(__name__)


def add_hint(journal: Journal, game_id: int, seat: int, position: int, version: int) -> bool:
    """Count a hint ``seat`` asked for after the game's first ``position`` actions; asking
    again on the same position counts once. Returns whether it was new."""
    cursor = journal.write(
        "INSERT OR IGNORE INTO hints (game_id, seat, position, time) VALUES (?, ?, ?, ?)",
        (game_id, seat, position, journal.now()))
    if cursor.rowcount:
        journal.touch(game_id, version)
    return bool(cursor.rowcount)


def set_hints_off(journal: Journal, game_id: int, off: bool, version: int) -> None:
    """Turn the game's hints off (or on again)."""
    journal.write("UPDATE games SET hints_off = ? WHERE id = ?", (int(off), game_id))
    journal.touch(game_id, version)


@dataclass(frozen=True)
class CountHint:
    """``seat`` of ``game_id`` asked for a hint (once per position of the game)."""

    game_id: int
    seat: int

    def check(self, session: Session) -> Step[None]:
        live = session.active(self.game_id)
        if live.row.hints_off:
            raise NotAllowed("the host has turned hints off for this game")
        position = len(live.actions)

        def done(counted: bool, version: int | None) -> Done[None]:
            if not counted:  # asked again on the same board: one hint
                return Done(None)
            assert version is not None
            used = list(live.hints_used)
            used[self.seat] += 1
            live.hints_used = tuple(used)
            log.info("game %d: seat %d asked for a hint", self.game_id, self.seat)
            return Done(None, live_snapshots(live, version), None, (self.game_id,),
                        kinds(HINTS))

        return Step(lambda version: add_hint(session.journal, self.game_id, self.seat,
                                             position, version), done)


@dataclass(frozen=True)
class AllowHints:
    """The host turns the hints of ``game_id`` on or off."""

    game_id: int
    allowed: bool

    def check(self, session: Session) -> Step[None]:
        live = session.active(self.game_id)
        if live.box.hint is None:
            raise NotAllowed(f"{live.box.rules.name} has no hints")

        def done(_: None, version: int | None) -> Done[None]:
            assert version is not None
            live.row = replace(live.row, hints_off=not self.allowed)
            log.info("game %d: hints %s", self.game_id, "on" if self.allowed else "off")
            return Done(None, live_snapshots(live, version), None, (self.game_id,),
                        kinds(HINTS))

        return Step(lambda version: set_hints_off(session.journal, self.game_id,
                                                  not self.allowed, version), done)
