"""The session API's writes (docs/session-api.md): each one command
(:mod:`firmware_host.commands`) of the feature it belongs to, run by the session owner."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from firmware_host.bot_seats import SeatBot
from firmware_host.club.seat_codes import ClubDelivered, SetClubCode
from firmware_host.companion_reads import CompanionReads
from firmware_host.dice_commands import PairDie, UnpairDie
from firmware_host.dice_pairs import PairedDie
from firmware_host.errors import NotAllowed
from firmware_host.game_commands import Abandon, Act, CreateGame, Undo
from firmware_host.hints import AllowHints, CountHint
from firmware_host.host_sessions import CloseHostSession, OpenHostSession
from firmware_host.pad_choice import SetBoxLanguage, SetPadGame
from firmware_host.seat_commands import IssueSeat, LockSeats
from firmware_host.seats import check_seat, token_hash
from firmware_host.session_api import PadChooser, PairedDieInfo, View
from firmware_host.session_owner import SessionOwner
from firmware_host.tournament_commands import AbandonTournament, CreateTournament
from rules import CHANCE


class CompanionWrites(CompanionReads):
    """The writes of :class:`~firmware_host.companion.Companion`."""

    _owner: SessionOwner

    def create_game(self, game: str, players: list[str],
                    options: Mapping[str, object] | None = None,
                    seed: int | None = None,
                    bots: Mapping[int, str] | None = None) -> int:
        """Start a new game (journaled); returns its id. ``bots`` maps the seats the box plays
        to their bot's level (UNLOCK: a bot seated as the Lock is the box as the Lock)."""
        return self._owner.run(CreateGame(game, players, options, seed, bots))

    def create_tournament(self, game: str, players: list[str],
                          options: Mapping[str, object] | None = None,
                          order: list[int] | None = None,
                          bots: Mapping[int, str] | None = None) -> int:
        """A tournament of ``game``: one game per player, each leading once (UNLOCK: the Lock,
        rotating or in ``order``); its first game starts now, each next one when the previous
        ends. ``bots``: the players the box plays in every game, with their level."""
        return self._owner.run(CreateTournament(game, players, options, order, bots))

    def hint(self, game_id: int, seat: int) -> dict[str, Any]:
        """A hint for ``seat`` from the public view alone (UNLOCK: the codes still possible
        and a suggested guess), counted in the journal before it is returned."""
        snap = self._snapshots.game(game_id)
        check_seat(game_id, snap.seats, seat)
        if snap.box.hint is None:
            raise NotAllowed(f"{snap.box.rules.name} has no hints")
        if snap.status != "active":
            raise NotAllowed(f"game {game_id} is {snap.status}")
        if snap.hints_off:
            raise NotAllowed("the host has turned hints off for this game")
        if snap.bots and snap.bots[seat] is not None:
            raise NotAllowed(f"seat {seat} is played by the box")
        answer = snap.box.hint(self.view(game_id, None), seat)
        self._owner.run(CountHint(game_id, seat))
        return answer

    def allow_hints(self, game_id: int, allowed: bool) -> None:
        """The host turns the game's hints on or off."""
        self._owner.run(AllowHints(game_id, allowed))

    def seat_bot(self, game_id: int, seat: int, level: str | None) -> None:
        """During the game, the box takes over ``seat`` with a bot at ``level`` (a player
        left, or none came), or gives it back to a person (``None``); journaled. Refused for a
        seat a phone holds."""
        self._owner.run(SeatBot(game_id, seat, level))

    def act(self, game_id: int, seat: int, action: str, by: str | None = None) -> View:
        """Apply ``action`` for ``seat`` (or ``rules.CHANCE``); committed before anyone is
        shown it, with who entered it (``by``: e.g. ``die``, ``keypad``, ``box random``,
        ``host``, ``seat 1``; ``None`` for the seat itself). Returns that seat's new view (the
        spectator's for chance)."""
        self._owner.run(Act(game_id, seat, action, by))
        return self.view(game_id, None if seat == CHANCE else seat)

    def act_on_pad(self, game_id: int, seat: int, action: str,
                   by: str | None = None) -> View:
        """As :meth:`act`, for an action entered on the pad: refused (``NotPadGame``) unless
        ``game_id`` is the pad's game when the session thread takes it."""
        self._owner.run(Act(game_id, seat, action, by, on_pad=True))
        return self.view(game_id, None if seat == CHANCE else seat)

    def set_pad_game(self, game_id: int | None, by: PadChooser = "host") -> None:
        """The pad and the OLED follow game ``game_id`` (a game being played; ``None``: no
        game), chosen by the ``host`` or on the ``pad``'s games menu; journaled."""
        self._owner.run(SetPadGame(game_id, by))

    def set_box_language(self, language: str | None) -> None:
        """The OLED's language, ``en`` or ``ja`` (``None``: the config's); journaled."""
        self._owner.run(SetBoxLanguage(language))

    def pair_die(self, die: PairedDieInfo) -> None:
        """Pair a smart die with the box, or give a paired one to another seat (``owner``;
        ``None``: the table's die); journaled (docs/dice.md)."""
        self._owner.run(PairDie(PairedDie(die["address"], die["vendor"], die["name"],
                                          die["faces"], die.get("owner"), die.get("colour"))))

    def unpair_die(self, address: str) -> None:
        """Forget a paired smart die; journaled."""
        self._owner.run(UnpairDie(address))

    def undo(self, game_id: int) -> None:
        """Take back the game's last action, if it revealed nothing and involved no chance."""
        self._owner.run(Undo(game_id))

    def abandon(self, game_id: int) -> None:
        """End the game as abandoned (kept in history, counts for nothing)."""
        self._owner.run(Abandon(game_id))

    def abandon_tournament(self, tid: int) -> None:
        """End a tournament early: its current game is abandoned, the standings stay."""
        self._owner.run(AbandonTournament(tid))

    def claim_seat(self, game_id: int, seat: int, code: str | None = None,
                   holder: str | None = None) -> str:
        """A token for an unclaimed seat (``SeatTaken`` if someone holds it; with the seats
        locked, ``code`` must be the seat's join code), for the phone ``holder`` describes."""
        return self._owner.run(IssueSeat(game_id, seat, False, code, holder))

    def lock_seats(self, game_id: int, locked: bool) -> list[str] | None:
        """Lock the game's seats behind fresh join codes (returned, one per seat), or open
        them again (``None``)."""
        return self._owner.run(LockSeats(game_id, locked))

    def open_host_session(self, lifetime: float) -> str:
        """A new host session token, valid ``lifetime`` seconds (kept across restarts)."""
        token = secrets.token_urlsafe(24)
        expires = (datetime.now(UTC) + timedelta(seconds=lifetime)).isoformat(
            timespec="seconds")
        self._owner.run(OpenHostSession(token_hash(token), expires))
        return token

    def close_host_session(self, token: str | None) -> None:
        """End a host session (log out)."""
        if token:
            self._owner.run(CloseHostSession(token_hash(token)))

    def reissue_seat(self, game_id: int, seat: int, holder: str | None = None) -> str:
        """A new token for the seat; every older token of it stops working."""
        return self._owner.run(IssueSeat(game_id, seat, True, holder=holder))

    # --- club mode (docs/club.md) ---------------------------------------------------------
    def set_club_code(self, game_id: int, seat: int, code: str) -> None:
        """Keep the club code the player of ``seat`` entered; it goes to the club hub with the
        game's record (an active game only; a new code replaces the seat's last)."""
        self._owner.run(SetClubCode(game_id, seat, code))

    def club_delivered(self, through_seq: int) -> int:
        """The club hub has the outbox rows up to ``through_seq``; returns how many were
        newly marked delivered."""
        return self._owner.run(ClubDelivered(through_seq))
