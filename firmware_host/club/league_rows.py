"""The league's records as its pages show them: who a player id stands for, a league table's
line, a player's game, a recent game, one game's page."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from firmware_host.club.topics import ResultRecord

Verdict = Literal["ingested", "duplicate", "held"]
#: Who a player id stands for: a club profile, a guest by name, or a bot level.
Kind = Literal["profile", "guest", "bot"]


@dataclass(frozen=True)
class Ingest:
    """What one message did: ``ingested`` (with every record it let in, in order),
    ``duplicate`` or ``held`` (waiting for the record before it). ``ack`` is the record the
    box may now forget up to (``None`` while held)."""

    verdict: Verdict
    records: tuple[ResultRecord, ...]
    ack: ResultRecord | None


@dataclass(frozen=True)
class Profile:
    id: str
    name: str

    @property
    def player(self) -> str:
        """The player's id in ratings and seats."""
        return f"p:{self.id}"


@dataclass(frozen=True)
class Standing:
    """A line of a game's league table."""

    place: int
    player: str
    name: str
    kind: Kind
    rating: float
    mu: float
    sigma: float
    played: int
    won: int


@dataclass(frozen=True)
class PlayedGame:
    """One game in a player's history."""

    result: int
    box: str
    box_game: int
    game: str
    status: str
    ended: str
    players: list[str]
    seat: int
    place: int | None
    won: bool
    score: float | None
    rating_before: float | None
    rating_after: float | None


@dataclass(frozen=True)
class ResultLine:
    """An ingested game, as the league's recent-games list shows it."""

    id: int
    box: str
    box_game: int
    game: str
    status: str
    ended: str
    players: list[str]
    winners: list[int]


@dataclass(frozen=True)
class ResultPage:
    """One ingested game, as the club's game page shows it: the recent-games line, its
    scores and reason, and the post-game analysis its box sent (``None``: none came)."""

    line: ResultLine
    scores: list[float | None] | None
    reason: str | None
    analysis: dict[str, Any] | None


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def guest(name: str) -> str:
    """The player id of a seat without a club code."""
    return f"g:{name}"


def bot(level: str) -> str:
    """The player id of a seat the box played with a bot of ``level``."""
    return f"b:{level}"


def display_name(player: str, names: dict[str, str]) -> tuple[str, Kind]:
    """A player id's name, and who it stands for."""
    if player.startswith("g:"):
        return player[2:], "guest"
    if player.startswith("b:"):
        return player[2:], "bot"
    return names.get(player, player), "profile"
