"""The seats' commands and records: a phone claims (or the host re-issues) a seat, the host
locks the seats behind join codes. Tokens are kept hashed (:mod:`firmware_host.seats`)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace

from firmware_host.commands import SEATS, Done, Step, kinds
from firmware_host.errors import SeatTaken
from firmware_host.journal import Journal
from firmware_host.journal_rows import SeatHolder
from firmware_host.seats import check_join_code, join_codes, new_token
from firmware_host.session_state import Session, live_snapshots

log = logging.getLogger(__name__)


def issue_token(journal: Journal, game_id: int, seat: int, token_hash: str, version: int,
                holder: str | None = None) -> str:
    """Give ``seat`` a new token (stored hashed) for the phone ``holder`` describes; every
    older token of the seat stops. Returns the time."""
    now = journal.now()
    journal.write(
        "UPDATE seat_tokens SET revoked = ? WHERE game_id = ? AND seat = ? AND revoked IS NULL",
        (now, game_id, seat))
    journal.write(
        "INSERT INTO seat_tokens (game_id, seat, token_hash, issued, holder)"
        " VALUES (?, ?, ?, ?, ?)", (game_id, seat, token_hash, now, holder))
    journal.touch(game_id, version)
    return now


def set_join_codes(journal: Journal, game_id: int, codes: list[str] | None,
                   version: int) -> None:
    """Lock the game's seats behind ``codes`` (one per seat), or open them (``None``)."""
    journal.write("UPDATE games SET join_codes = ? WHERE id = ?",
                  (json.dumps(codes) if codes is not None else None, game_id))
    journal.touch(game_id, version)


@dataclass(frozen=True)
class IssueSeat:
    """A new token for ``seat`` of ``game_id``: claimed by a phone (with the seat's join code
    while the seats are locked) or, ``reissue``, given again by the host; returns the token."""

    game_id: int
    seat: int
    reissue: bool
    code: str | None = None
    holder: str | None = None

    def check(self, session: Session) -> Step[str]:
        game_id, seat = self.game_id, self.seat
        live = session.active(game_id)
        bots = live.row.bots
        if isinstance(seat, int) and 0 <= seat < len(bots) and bots[seat]:
            raise SeatTaken(f"seat {seat} ({live.row.seats[seat]}) is played by the box")
        if not self.reissue:
            check_join_code(live.row.join_codes, seat, self.code)
        token, hashed = new_token(game_id, live.row.seats, live.tokens, seat,
                                  reissue=self.reissue)

        def write(version: int) -> str:
            return issue_token(session.journal, game_id, seat, hashed, version, self.holder)

        def done(since: str, version: int | None) -> Done[str]:
            assert version is not None
            live.tokens = {h: s for h, s in live.tokens.items() if s != seat}
            live.tokens[hashed] = seat
            live.holders = {**live.holders, seat: SeatHolder(self.holder or "", since)}
            log.info("game %d: seat %d %s", game_id, seat,
                     "re-issued" if self.reissue else "claimed")
            return Done(token, live_snapshots(live, version), None, (game_id,), kinds(SEATS))

        return Step(write, done)


@dataclass(frozen=True)
class LockSeats:
    """Lock the seats of ``game_id`` behind new join codes (returned), or open them."""

    game_id: int
    locked: bool

    def check(self, session: Session) -> Step[list[str] | None]:
        live = session.active(self.game_id)
        codes = join_codes(len(live.row.seats)) if self.locked else None

        def done(_: None, version: int | None) -> Done[list[str] | None]:
            assert version is not None
            live.row = replace(live.row, join_codes=codes)
            log.info("game %d: seats %s", self.game_id, "locked" if self.locked else "open")
            return Done(codes, live_snapshots(live, version), None, (self.game_id,),
                        kinds(SEATS))

        return Step(lambda version: set_join_codes(session.journal, self.game_id, codes,
                                                   version), done)
