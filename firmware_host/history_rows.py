"""The journal's history as the read side queries it, from any connection: ended games newest
first, the seats held in them, standings summed in SQL, tournaments and their games.

Every query takes the games to leave out (``skip``: those the published snapshots still show as
being played, though the journal may already have them ended) and the games the box has rules
for (``known``: a game of another has no snapshot either), each as a JSON list.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Mapping
from typing import Any

from firmware_host.journal_rows import (
    LAST_ACTED,
    GameRow,
    TournamentRow,
    game_row,
    tournament_row,
)

#: The statuses of an ended game.
ENDED = ("finished", "abandoned")

#: Per player name over the finished games: games played, games won (their seat among the
#: outcome's ``winners``), points (the outcome's ``scores`` of their seat, when whole numbers).
_STANDINGS = """
    SELECT seat.value AS name, COUNT(*) AS played,
           SUM(EXISTS (SELECT 1 FROM json_each(g.outcome, '$.winners') AS w
                       WHERE w.value = seat.key)) AS won,
           SUM(CASE json_type(g.outcome, '$.scores[' || seat.key || ']')
                   WHEN 'integer' THEN json_extract(g.outcome, '$.scores[' || seat.key || ']')
                   WHEN 'true' THEN 1 ELSE 0 END) AS points
    FROM games AS g, json_each(g.seats) AS seat
    WHERE g.status = 'finished' AND (:game IS NULL OR g.game = :game)
      AND g.game IN (SELECT value FROM json_each(:known))
      AND g.id NOT IN (SELECT value FROM json_each(:skip))
    GROUP BY seat.value
"""


def _ids(values: Collection[Any]) -> str:
    return json.dumps(sorted(values))


def ended_games_of(db: sqlite3.Connection, status: str | None, limit: int | None,
                   skip: Collection[int], known: Collection[str]) -> list[GameRow]:
    """Ended games (with ``status``, or either), newest first, at most ``limit`` (``+status``:
    read by id from the newest, stopping at the limit, rather than sorting a status's rows)."""
    statuses = [status] if status is not None else list(ENDED)
    rows = db.execute(
        f"SELECT *, {LAST_ACTED} AS acted FROM games"
        " WHERE +status IN (SELECT value FROM json_each(?))"
        " AND id NOT IN (SELECT value FROM json_each(?))"
        " AND game IN (SELECT value FROM json_each(?)) ORDER BY id DESC LIMIT ?",
        (json.dumps(statuses), _ids(skip), _ids(known), -1 if limit is None else limit))
    return [game_row(row) for row in rows]


def held_seats_of(db: sqlite3.Connection, game_ids: Collection[int]) -> dict[int, set[int]]:
    """Per game, the seats a phone holds (a token not revoked)."""
    held: dict[int, set[int]] = {}
    for game_id, seat in db.execute(
            "SELECT game_id, seat FROM seat_tokens WHERE revoked IS NULL"
            " AND game_id IN (SELECT value FROM json_each(?))", (_ids(game_ids),)):
        held.setdefault(game_id, set()).add(seat)
    return held


def standing_rows_of(db: sqlite3.Connection, game: str | None, skip: Collection[int],
                     known: Collection[str]) -> list[tuple[str, int, int, int]]:
    """(name, played, won, points) of every player over the finished games (of ``game``)."""
    rows = db.execute(_STANDINGS, {"game": game, "skip": _ids(skip), "known": _ids(known)})
    return [(row["name"], row["played"], row["won"] or 0, row["points"] or 0) for row in rows]


def newest_game_of(db: sqlite3.Connection) -> int:
    """The newest game's id (0: none yet)."""
    return int(db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])


def tournament_of(db: sqlite3.Connection, tid: int) -> TournamentRow | None:
    """The decoded ``tournaments`` row of ``tid``, or ``None``."""
    row = db.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()
    return tournament_row(row) if row is not None else None


def ended_tournaments_of(db: sqlite3.Connection, skip: Collection[int]) -> list[TournamentRow]:
    """Ended tournaments, newest first."""
    rows = db.execute(
        "SELECT * FROM tournaments WHERE status != 'active'"
        " AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id DESC", (_ids(skip),))
    return [tournament_row(row) for row in rows]


#: A tournament's game as the tournament counts it: (id, status, outcome).
TournamentGame = tuple[int, str, Mapping[str, Any] | None]


def tournament_games_of(db: sqlite3.Connection, tids: Collection[int]
                        ) -> dict[int, list[TournamentGame]]:
    """Per tournament, its games in the order they were played."""
    games: dict[int, list[TournamentGame]] = {tid: [] for tid in tids}
    for row in db.execute(
            "SELECT tournament, id, status, outcome FROM games"
            " WHERE tournament IN (SELECT value FROM json_each(?)) ORDER BY id", (_ids(tids),)):
        outcome = json.loads(row["outcome"]) if row["outcome"] else None
        games[row["tournament"]].append((row["id"], row["status"], outcome))
    return games
