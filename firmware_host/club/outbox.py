"""The box's side of club mode in its journal: the outbox and the payloads built from it.

A trigger (``journal.CLUB_OUTBOX_TRIGGER``) writes a game's outbox row in the transaction that
ends the game; the publisher reads rows through its own read-only connection and builds each
record from the journal when it sends it (an ended game's rows never change, so the record is
the same every time it is sent — but for its post-game analysis, which goes with it once it is
ready). Only public information goes out: a live table's summary comes from the spectator's
view, and a record holds what the game's replay and its analysis show once it has ended —
never the seed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from firmware_host.club.topics import VERSION
from firmware_host.export import game_record, public_actions
from firmware_host.journal_rows import actions_of, game_of
from firmware_host.session_api import GameSummary, View

if TYPE_CHECKING:
    from firmware_host.games import Registry

#: The keys a live table's scores may come under in a spectator's view, by game.
SCORE_KEYS = ("scores", "points", "totals")


@dataclass(frozen=True)
class OutboxRow:
    """One ended game waiting for (or delivered to) the hub."""

    seq: int
    game_id: int
    key: str
    prev: str | None
    created: str
    delivered: str | None


def _row(row: sqlite3.Row) -> OutboxRow:
    return OutboxRow(row["seq"], row["game_id"], row["key"], row["prev"], row["created"],
                     row["delivered"])


def undelivered(db: sqlite3.Connection, after: int = 0, limit: int = 500) -> list[OutboxRow]:
    """Rows the hub has not acknowledged, oldest first, from ``seq > after``."""
    rows = db.execute("SELECT * FROM club_outbox WHERE delivered IS NULL AND seq > ?"
                      " ORDER BY seq LIMIT ?", (after, limit))
    return [_row(row) for row in rows]


def row_of(db: sqlite3.Connection, key: str) -> OutboxRow | None:
    """The row with ``key``, or ``None`` (a key this journal never wrote, or lost in a
    restore)."""
    row = db.execute("SELECT * FROM club_outbox WHERE key = ?", (key,)).fetchone()
    return _row(row) if row is not None else None


def club_codes(db: sqlite3.Connection, game_id: int, seats: int) -> list[str | None]:
    """The club code each seat's player entered (``None``: none)."""
    codes: list[str | None] = [None] * seats
    for row in db.execute("SELECT seat, code FROM club_codes WHERE game_id = ?", (game_id,)):
        if 0 <= row["seat"] < seats:
            codes[row["seat"]] = row["code"]
    return codes


def result_payload(db: sqlite3.Connection, box: str, row: OutboxRow,
                   games: Registry | None = None,
                   analysis: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``result`` message of an outbox row (topics.ResultRecord); ``games`` (the box's
    registrations) say which seats competed (every seat without them, or for a game the box
    no longer offers); ``analysis``, the game's post-game analysis when it is ready, goes with
    it (the record says nothing of it otherwise)."""
    game = game_of(db, row.game_id)
    if game is None:  # the trigger and the games table live in one file: cannot happen
        raise LookupError(f"outbox row {row.seq} names game {row.game_id}, which is missing")
    record = game_record(game)
    record["ended"] = game.ended or row.created
    record["club_codes"] = club_codes(db, game.id, len(game.seats))
    record["bots"] = list(game.bots) if game.bots else [None] * len(game.seats)
    registration = games.get(game.game) if games is not None else None
    record["competitors"] = (registration.competitors(game.options, len(game.seats))
                             if registration is not None else list(range(len(game.seats))))
    record["actions"] = public_actions(game, actions_of(db, game.id))
    if analysis is not None:
        record["analysis"] = dict(analysis)
    return {"v": VERSION, "kind": "result", "box": box, "key": row.key, "prev": row.prev,
            "seq": row.seq, "game": record}


def table_payload(box: str, summary: GameSummary, view: View, updated: str) -> dict[str, Any]:
    """The ``table`` message of a live game, from its summary and the spectator's view."""
    return {"v": VERSION, "kind": "table", "box": box, "game_id": summary["id"],
            "game": summary["game"], "status": summary["status"],
            "players": list(summary["seats"]), "turn": _whole(view.get("turn")),
            "to_act": [s for s in view.get("to_act") or [] if isinstance(s, int)],
            "scores": live_scores(view), "updated": updated}


def live_scores(view: Mapping[str, Any]) -> list[float | None] | None:
    """The per-seat scores a spectator's view shows (the first of :data:`SCORE_KEYS` it has)."""
    for key in SCORE_KEYS:
        value = view.get(key)
        if isinstance(value, list) and all(
                v is None or (isinstance(v, int | float) and not isinstance(v, bool))
                for v in value):
            return list(value)
    return None


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
        else None
