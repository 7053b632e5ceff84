"""Seats and their tokens: who may act for which seat of a game.

A phone that claims a seat gets a random token; the journal keeps only its SHA-256, so neither
the journal nor a backup holds a usable token. Re-issuing a seat makes a new token and revokes
every older one of that seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence

from firmware_host.errors import JoinCodeNeeded, NotAllowed, SeatTaken

#: Join codes are read off the OLED or the host's page and typed on a phone: no 0/O, 1/I/L.
CODE_LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def token_hash(token: str) -> str:
    """How a seat token is stored: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_seat(game_id: int, seats: Sequence[str], seat: object) -> int:
    """``seat`` if it is a seat of the game, else :class:`NotAllowed` naming the seats."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise NotAllowed(f"game {game_id} has no seat {seat!r} (seats 0–{len(seats) - 1})")
    return seat


def new_token(game_id: int, seats: Sequence[str], tokens: Mapping[str, int], seat: int, *,
              reissue: bool) -> tuple[str, str]:
    """A fresh token for ``seat`` and its hash; a seat someone holds is :class:`SeatTaken`
    unless the host re-issues it."""
    check_seat(game_id, seats, seat)
    if not reissue and seat in tokens.values():
        raise SeatTaken(
            f"seat {seat} ({seats[seat]}) is already taken; the host can re-issue it")
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


def seat_of(tokens: Mapping[str, int], token: object) -> int | None:
    """The seat ``token`` holds among ``tokens`` (hashes → seats), or ``None``."""
    if not isinstance(token, str) or not token:
        return None
    return tokens.get(token_hash(token))


def join_codes(seats: int) -> list[str]:
    """A fresh join code for each of ``seats`` seats (all different)."""
    codes: list[str] = []
    while len(codes) < seats:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if code not in codes:
            codes.append(code)
    return codes


def check_join_code(codes: Sequence[str] | None, seat: int, given: object) -> None:
    """With the seats locked (``codes``), a claim needs the seat's own join code."""
    if codes is None or not 0 <= seat < len(codes):
        return
    text = given.strip().upper() if isinstance(given, str) else ""
    if not (text.isascii() and hmac.compare_digest(text, codes[seat])):
        raise JoinCodeNeeded(f"the host has locked the seats: enter seat {seat + 1}'s join code, "
                             "shown on the host's page and the box")
