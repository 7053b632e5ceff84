"""The journal's rows as the read side reads them: games, actions, tournaments, seats, hints,
host sessions and box-wide settings, decoded from any connection (the session thread's or a
reader's own, :func:`firmware_host.journal_schema.read_only`).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``, decoded."""

    id: int
    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int
    created: str
    ended: str | None
    status: str
    outcome: dict[str, Any] | None
    tournament: int | None
    version: int
    #: The seats' join codes while the host has locked the seats (``None``: seats are open).
    join_codes: list[str] | None = None
    #: Per seat, the level of the bot the box plays it with (``None``: a person).
    bots: tuple[str | None, ...] = ()
    #: Whether the host turned the game's hints off.
    hints_off: bool = False
    #: Whether the clock had been set when the game started, and when it ended.
    created_clock_set: bool = True
    ended_clock_set: bool = True


@dataclass(frozen=True)
class Stamp:
    """A time the journal wrote (ISO 8601, UTC, seconds), and whether the clock had been set
    when it was read (otherwise it is shown as "before the clock was set")."""

    at: str
    clock_set: bool = True


@dataclass(frozen=True)
class SeatHolder:
    """Who holds a seat: the phone's description (from its browser) and since when."""

    device: str
    since: str


@dataclass(frozen=True)
class ActionRow:
    """One accepted (not undone) action of a game, and who entered it (``None``: the seat)."""

    n: int
    seat: int
    action: str
    time: str
    by: str | None = None
    #: Whether the clock had been set when the action was timed.
    clock_set: bool = True


@dataclass(frozen=True)
class TournamentRow:
    """One row of ``tournaments``, decoded."""

    id: int
    game: str
    players: list[str]
    options: dict[str, Any]
    lock_order: list[int]
    created: str
    ended: str | None
    status: str
    #: Per player, the level of the bot the box plays them with (``None``: a person).
    bots: tuple[str | None, ...] = ()


def version_of(db: sqlite3.Connection) -> int:
    """The journal's change counter: the one in ``meta``, or the version of the last action
    committed after it (an action keeps its version in its own row, not in ``meta``)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    acted = db.execute("SELECT MAX(version) FROM actions").fetchone()[0]
    return max(int(row[0]) if row else 0, int(acted or 0))


#: The version of a game's last action (its row's ``version`` is not written for actions).
LAST_ACTED = ("(SELECT version FROM actions AS a WHERE a.game_id = games.id"
              " ORDER BY a.n DESC LIMIT 1)")


def games_of(db: sqlite3.Connection, status: str | None = None) -> list[GameRow]:
    """Decoded ``games`` rows from any connection."""
    query = f"SELECT *, {LAST_ACTED} AS acted FROM games"
    rows = (
        db.execute(query + " WHERE status = ? ORDER BY id", (status,))
        if status
        else db.execute(query + " ORDER BY id")
    )
    return [game_row(row) for row in rows]


def game_of(db: sqlite3.Connection, game_id: int) -> GameRow | None:
    """The decoded ``games`` row of ``game_id``, or ``None``."""
    row = db.execute(f"SELECT *, {LAST_ACTED} AS acted FROM games WHERE id = ?",
                     (game_id,)).fetchone()
    return game_row(row) if row is not None else None


def game_row(row: sqlite3.Row) -> GameRow:
    """A ``games`` row (``SELECT *``), decoded."""
    return GameRow(
        id=row["id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seats=json.loads(row["seats"]),
        seed=row["seed"],
        created=row["created"],
        ended=row["ended"],
        status=row["status"],
        outcome=json.loads(row["outcome"]) if row["outcome"] else None,
        tournament=row["tournament"],
        version=max(row["version"], row["acted"] or 0),
        join_codes=json.loads(row["join_codes"]) if row["join_codes"] else None,
        bots=_bots_of(row["bots"], len(json.loads(row["seats"]))),
        hints_off=bool(row["hints_off"]),
        created_clock_set=bool(row["created_clock_set"]),
        ended_clock_set=bool(row["ended_clock_set"]),
    )


def bots_text(bots: Sequence[str | None]) -> str | None:
    return json.dumps(list(bots)) if any(level is not None for level in bots) else None


def _bots_of(text: str | None, seats: int) -> tuple[str | None, ...]:
    levels = json.loads(text) if text else []
    return tuple(levels[seat] if seat < len(levels) else None for seat in range(seats))


def actions_of(db: sqlite3.Connection, game_id: int) -> list[ActionRow]:
    """A game's live actions from any connection."""
    return actions_from(db, game_id, 0)


def actions_from(db: sqlite3.Connection, game_id: int, n: int) -> list[ActionRow]:
    """A game's live actions from action ``n`` on (``n`` first, if it is still live)."""
    rows = db.execute(
        "SELECT n, seat, action, time, entered_by, clock_set FROM actions"
        " WHERE game_id = ? AND undone IS NULL AND n >= ? ORDER BY n",
        (game_id, n),
    )
    return [ActionRow(row["n"], row["seat"], row["action"], row["time"], row["entered_by"],
                      bool(row["clock_set"]))
            for row in rows]


def tournaments_of(db: sqlite3.Connection) -> list[TournamentRow]:
    """Decoded ``tournaments`` rows from any connection."""
    rows = db.execute("SELECT * FROM tournaments ORDER BY id")
    return [tournament_row(row) for row in rows]


def tournament_row(row: sqlite3.Row) -> TournamentRow:
    """A ``tournaments`` row (``SELECT *``), decoded."""
    return TournamentRow(
        id=row["id"],
        game=row["game"],
        players=json.loads(row["players"]),
        options=json.loads(row["options"]),
        lock_order=json.loads(row["lock_order"]),
        created=row["created"],
        ended=row["ended"],
        status=row["status"],
        bots=_bots_of(row["bots"], len(json.loads(row["players"]))),
    )




def holders_of(db: sqlite3.Connection, game_id: int) -> dict[int, SeatHolder]:
    """Who holds each claimed seat of the game."""
    rows = db.execute(
        "SELECT seat, holder, issued FROM seat_tokens WHERE game_id = ? AND revoked IS NULL",
        (game_id,),
    )
    return {row["seat"]: SeatHolder(row["holder"] or "", row["issued"]) for row in rows}


def tokens_of(db: sqlite3.Connection, game_id: int) -> dict[str, int]:
    """The game's valid token hashes → seat."""
    rows = db.execute(
        "SELECT token_hash, seat FROM seat_tokens WHERE game_id = ? AND revoked IS NULL",
        (game_id,),
    )
    return {row["token_hash"]: row["seat"] for row in rows}


def hints_used_of(db: sqlite3.Connection, game_id: int, seats: int) -> tuple[int, ...]:
    """How many hints each of the game's ``seats`` seats asked for."""
    counts = dict(db.execute(
        "SELECT seat, COUNT(*) FROM hints WHERE game_id = ? GROUP BY seat", (game_id,)))
    return tuple(int(counts.get(seat, 0)) for seat in range(seats))


def host_sessions_of(db: sqlite3.Connection) -> dict[str, str]:
    """The host sessions not ended: token hash → expiry (ISO time)."""
    rows = db.execute("SELECT token_hash, expires FROM host_sessions WHERE ended IS NULL")
    return {row["token_hash"]: row["expires"] for row in rows}


def setting_of(db: sqlite3.Connection, key: str, default: Any = None) -> Any:
    """A box-wide setting kept in ``meta`` under ``setting.KEY``, or ``default``."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (f"setting.{key}",)).fetchone()
    return json.loads(row[0]) if row is not None else default


def analysis_of(db: sqlite3.Connection, game_id: int) -> str | None:
    """A game's kept analysis (its JSON), if it was computed: kept compressed
    (:func:`analysis_body`), or as text by a box from before."""
    row = db.execute("SELECT body FROM analyses WHERE game_id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    body = row[0]
    return zlib.decompress(body).decode("utf-8") if isinstance(body, bytes) else str(body)


def analysis_body(text: str) -> bytes:
    """An analysis's JSON as the journal keeps it: compressed. Each written page of the journal
    is written again by its checkpoint and by the backups (an SD card's wear, issue 32), and an
    analysis's words and figures take about a sixth of the pages compressed."""
    return zlib.compress(text.encode("utf-8"), 9)
