"""Club mode on a box: a seat's club code (kept until the game's record is sent, shown to no
one), and the outbox rows the hub has acknowledged."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from firmware_host.commands import Done, Step
from firmware_host.journal import Journal
from firmware_host.seats import check_seat
from firmware_host.session_state import Session

log = logging.getLogger(__name__)


def set_club_code(journal: Journal, game_id: int, seat: int, code: str) -> None:
    """Keep the club code a seat's player entered (sent with the game's record)."""
    journal.write(
        "INSERT OR REPLACE INTO club_codes (game_id, seat, code, entered) VALUES (?, ?, ?, ?)",
        (game_id, seat, code, journal.now()))


def club_delivered(journal: Journal, through_seq: int) -> int:
    """Mark the outbox rows up to ``through_seq`` delivered (the hub has them); returns how
    many were newly marked."""
    cursor = journal.write(
        "UPDATE club_outbox SET delivered = ? WHERE seq <= ? AND delivered IS NULL",
        (journal.now(), through_seq))
    return cursor.rowcount


@dataclass(frozen=True)
class SetClubCode:
    """``seat`` of ``game_id`` gave its player's club code (it changes no view)."""

    game_id: int
    seat: int
    code: str

    def check(self, session: Session) -> Step[None]:
        live = session.active(self.game_id)
        check_seat(self.game_id, live.row.seats, self.seat)

        def done(_: None, version: int | None) -> Done[None]:
            log.info("game %d: seat %d gave a club code", self.game_id, self.seat)
            return Done(None)

        return Step(lambda version: set_club_code(session.journal, self.game_id, self.seat,
                                                  self.code), done)


@dataclass(frozen=True)
class ClubDelivered:
    """The hub acknowledged the outbox up to ``through_seq``; returns how many rows that
    newly marked."""

    through_seq: int

    def check(self, session: Session) -> Step[int]:
        return Step(lambda version: club_delivered(session.journal, self.through_seq),
                    lambda marked, version: Done(int(marked)))
