"""The append-only log of play: games begun and ended, their actions, tournaments.

Each function writes inside the caller's :meth:`~firmware_host.journal.Journal.transaction`.
An undo marks an action ``undone`` (an audit trail) instead of deleting it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from firmware_host.journal import Journal
from firmware_host.journal_rows import ActionRow, Stamp, bots_text


def add_game(journal: Journal, game: str, options: dict[str, Any], seats: list[str], seed: int,
             version: int, tournament: int | None = None, *, created: Stamp | None = None,
             bots: Sequence[str | None] = ()) -> int:
    """Record a new active game, started at ``created`` (default: now; ``bots``: a bot's level
    per seat the box plays); returns its id."""
    started = created or journal.stamp()
    now = started.at
    cursor = journal.write(
        "INSERT INTO games (game, options, seats, seed, created, status, tournament, version,"
        " bots, created_clock_set) VALUES (?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)",
        (game, json.dumps(options), json.dumps(seats), seed, now, tournament, version,
         bots_text(bots), int(started.clock_set)),
    )
    for name in seats:
        journal.write("INSERT OR IGNORE INTO players (name, first_seen) VALUES (?, ?)",
                      (name, now))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def add_action(journal: Journal, game_id: int, seat: int, action: str, version: int, *,
               entered: str | None = None, by: str | None = None) -> int:
    """Append an accepted action in its canonical text (and what was ``entered``, when that
    differs, and who entered it); returns its number within the game."""
    row = journal.write(
        "SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
    n = int(row[0]) + 1
    now = journal.stamp()
    journal.write(
        "INSERT INTO actions (game_id, n, seat, action, time, entered, entered_by, clock_set,"
        " version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, n, seat, action, now.at, entered if entered != action else None, by,
         int(now.clock_set), version),
    )
    journal.counted()  # the game's version and the journal's are the action's: one page
    return n


def undo_last_action(journal: Journal, game_id: int, version: int) -> ActionRow:
    """Mark the game's last live action undone (the row stays as an audit trail)."""
    row = journal.write(
        "SELECT n, seat, action, time FROM actions WHERE game_id = ? AND undone IS NULL"
        " ORDER BY n DESC LIMIT 1", (game_id,)).fetchone()
    if row is None:
        raise RuntimeError(f"game {game_id} has no action to undo")
    journal.write("UPDATE actions SET undone = ? WHERE game_id = ? AND n = ?",
                  (journal.now(), game_id, row["n"]))
    journal.touch(game_id, version)
    return ActionRow(row["n"], row["seat"], row["action"], row["time"])


def end_game(journal: Journal, game_id: int, status: str, outcome: dict[str, Any] | None,
             version: int) -> Stamp:
    """Close a game as ``finished`` (with its outcome) or ``abandoned``; returns the time."""
    now = journal.stamp()
    journal.write(
        "UPDATE games SET status = ?, outcome = ?, ended = ?, version = ?,"
        " ended_clock_set = ? WHERE id = ?",
        (status, json.dumps(outcome) if outcome is not None else None, now.at, version,
         int(now.clock_set), game_id),
    )
    return now


def add_tournament(journal: Journal, game: str, players: list[str], options: dict[str, Any],
                   lock_order: list[int], *, created: str | None = None,
                   bots: Sequence[str | None] = ()) -> int:
    """Record a new tournament; returns its id."""
    cursor = journal.write(
        "INSERT INTO tournaments (game, players, options, lock_order, created, status, bots)"
        " VALUES (?, ?, ?, ?, ?, 'active', ?)",
        (game, json.dumps(players), json.dumps(options), json.dumps(lock_order),
         created or journal.now(), bots_text(bots)),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def end_tournament(journal: Journal, tid: int, status: str) -> None:
    """Close a tournament as ``finished`` or ``abandoned``."""
    journal.write("UPDATE tournaments SET status = ?, ended = ? WHERE id = ?",
                  (status, journal.now(), tid))
