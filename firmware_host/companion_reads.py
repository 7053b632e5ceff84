"""The session API's reads (docs/session-api.md): views, history, replay, standings,
tournaments, the box's status and settings — from the published snapshots and the read side,
never waiting for the session thread."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from firmware_host.games import Registry
from firmware_host.read_side import ReadSide
from firmware_host.seats import token_hash
from firmware_host.session_api import (
    DeviceStatus,
    GameInfo,
    GameStatus,
    GameSummary,
    Move,
    PadSettings,
    PairedDieInfo,
    ReplayStep,
    SeatsInfo,
    Standing,
    Status,
    TournamentInfo,
    View,
)
from firmware_host.session_state import Session
from firmware_host.snapshots import Snapshots

log = logging.getLogger(__name__)


class CompanionReads:
    """The reads of :class:`~firmware_host.companion.Companion`."""

    registry: Registry
    hardware: str
    _read: ReadSide
    _snapshots: Snapshots
    _session: Session
    _status_source: Callable[[], DeviceStatus] | None
    _host_pin_from_config: bool

    def catalog(self) -> list[GameInfo]:
        """Each game's description: its rules' options, whether it has tournaments, its bots'
        levels, whether it has hints and a post-game analysis."""
        described: list[GameInfo] = []
        for box in self.registry.values():
            info = box.rules.describe()
            described.append({**info,  # type: ignore[typeddict-item]
                              "tournament": box.tournament is not None,
                              "bots": list(box.bots) if box.bots is not None else [],
                              "hints": box.hint is not None,
                              "pad": box.pad is not None,
                              "analysis": box.analysis is not None})
        return described

    def games(self, status: GameStatus | None = None) -> list[GameSummary]:
        """Summaries of every game (or those with ``status``), newest first."""
        return self._read.games(status)

    def summary(self, game_id: int) -> GameSummary:
        """One game's summary (a dictionary lookup)."""
        return self._read.summary(game_id)

    def history(self, limit: int = 50) -> list[GameSummary]:
        return self._read.history(limit)

    def view(self, game_id: int, seat: int | None) -> View:
        return self._read.view(game_id, seat)

    def game_version(self, game_id: int) -> int:
        return self._read.game_version(game_id)

    def version(self) -> int:
        """The global change counter, bumped after every committed change (kept across
        restarts, so a page that reconnects never sees it go back)."""
        return self._snapshots.version

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until :meth:`version` exceeds ``since`` or ``timeout`` seconds pass."""
        return self._snapshots.wait_for_change(since, timeout)

    def wait_for_game(self, game_id: int, since: int, timeout: float) -> int:
        """Block until the game's version exceeds ``since`` or ``timeout`` seconds pass (only
        this game's changes wake the caller); returns the game's version."""
        return self._snapshots.wait_for_game(game_id, since, timeout)

    def replay(self, game_id: int) -> list[ReplayStep]:
        return self._read.replay(game_id)

    def moves(self, game_id: int, since: int = 0) -> list[Move]:
        """The game's accepted actions after step ``since``, for a move log (see
        :class:`firmware_host.session_api.Move`)."""
        return self._read.moves(game_id, since)

    def standings(self, game: str | None = None) -> list[Standing]:
        return self._read.standings(game)

    def tournament(self, tid: int) -> TournamentInfo:
        """A tournament's players, games, scores and standings."""
        return self._snapshots.tournament(tid).describe()

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament, newest first."""
        return [t.describe() for t in self._read.tournaments()]

    def status(self) -> Status:
        """The box's health for the panel: the device's, the hardware mode, and whether the
        host PIN comes from the config."""
        device: DeviceStatus = {"oled": "missing", "die": False, "die_port": None, "pad": "ok",
                                "firmware": None, "lights": "none", "tft": "none"}
        if self._status_source is not None:
            try:
                device = self._status_source()
            except Exception as error:  # a broken device must not break the panel
                log.exception("the device's status failed")
                device = {**device, "oled": f"error: {error}"}
        return {**device, "hardware": self.hardware,
                "host_pin_set": self._host_pin_from_config}

    def seat_for_token(self, game_id: int, token: str) -> int | None:
        """The seat ``token`` holds in the game, or ``None``."""
        return self._read.seat_for_token(game_id, token)

    def legal_actions(self, game_id: int, seat: int) -> list[str]:
        """What ``seat`` may do now, for that seat alone (a bot's or a phone's choices)."""
        return self._read.legal_actions(game_id, seat)

    def pad(self) -> PadSettings:
        """The pad's game (which game the pad and the OLED follow), who chose it, and the box's
        language as the host chose it (``None``: the config's)."""
        pad = self._session.pad
        return {"game": pad.game, "by": pad.by, "language": pad.language}

    def dice(self) -> list[PairedDieInfo]:
        """The smart dice paired with the box, in the order they were paired."""
        return [{"address": d.address, "vendor": d.vendor, "name": d.name, "faces": d.faces,
                 "owner": d.owner, "colour": d.colour} for d in self._session.dice]

    def seats(self, game_id: int) -> SeatsInfo:
        """For the host: who holds each seat, and the join codes while the seats are locked."""
        snap = self._snapshots.game(game_id)
        return {
            "locked": snap.join_codes is not None,
            "join_codes": list(snap.join_codes) if snap.join_codes is not None else None,
            "holders": [
                {"device": h.device, "since": h.since} if (h := snap.holders.get(s)) else None
                for s in range(len(snap.seats))],
        }

    def is_host_session(self, token: str | None) -> bool:
        """Whether ``token`` is a host session that has not ended or expired."""
        if not token:
            return False
        expires = self._snapshots.host_sessions.get(token_hash(token))
        return expires is not None and expires > datetime.now(UTC).isoformat(timespec="seconds")
