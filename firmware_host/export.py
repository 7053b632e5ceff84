"""``tabletop history`` and ``tabletop export``: the journal as a table, JSON or CSV.

Only ended games are exported with their seed and actions. An unfinished game is listed without
them: its journal holds secrets (an UNLOCK secret, a Hacktrick deck's order follows from the
seed) that nobody may see before the game ends.

A time taken before NTP set the box's clock is not a date: the table and the CSV say "before
the clock was set" instead; the JSON keeps the time as recorded, flagged ``*clock_set: false``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from firmware_host.journal_rows import ActionRow, GameRow, actions_of, games_of
from firmware_host.journal_schema import read_only

#: What the table and the CSV show for a time taken before the clock was set.
BEFORE_CLOCK_SET = "before the clock was set"

CSV_COLUMNS = ("game_id", "game", "status", "created", "ended", "players", "winners", "reason",
               "tournament", "n", "seat", "action", "time")


def game_record(row: GameRow) -> dict[str, Any]:
    """What anyone may know of a game at any time: who plays what, since when, and its end."""
    return {"id": row.id, "game": row.game, "status": row.status, "players": row.seats,
            "options": row.options, "created": row.created, "ended": row.ended,
            "outcome": row.outcome, "tournament": row.tournament}


def public_actions(row: GameRow, actions: Iterable[ActionRow]) -> list[dict[str, Any]]:
    """An ended game's actions, as its replay shows them (secrets are revealed by then);
    nothing for a game still in play."""
    if row.status == "active":
        return []
    return [{"n": a.n, "seat": a.seat, "action": a.action, "time": a.time} for a in actions]


def exported_games(journal_path: Path) -> list[dict[str, Any]]:
    """Every game, oldest first; ``seed`` and ``actions`` only for ended games."""
    db = read_only(journal_path)
    try:
        games = []
        for row in games_of(db):
            game = game_record(row)
            game["created_clock_set"] = row.created_clock_set
            game["ended_clock_set"] = row.ended_clock_set
            if row.status != "active":
                game["seed"] = row.seed
                actions = list(actions_of(db, row.id))
                game["actions"] = [{**entry, "clock_set": action.clock_set} for entry, action
                                   in zip(public_actions(row, actions), actions, strict=True)]
            games.append(game)
        return games
    finally:
        db.close()


def to_json(games: list[dict[str, Any]]) -> str:
    """The export as one JSON document."""
    return json.dumps({"format": "tabletop-export", "version": 1, "games": games},
                      ensure_ascii=False, indent=2) + "\n"


def shown_time(time: str | None, clock_set: bool) -> str:
    """A recorded time as the table and the CSV show it (empty for none).

    >>> shown_time("1970-01-01T00:03:12+00:00", False)
    'before the clock was set'
    """
    if not time:
        return ""
    return time if clock_set else BEFORE_CLOCK_SET


def to_csv(games: list[dict[str, Any]]) -> str:
    """The export as CSV: one row per action of an ended game; one row (empty action columns)
    for a game exported without actions."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in games:
        outcome = game["outcome"] or {}
        head = [game["id"], game["game"], game["status"],
                shown_time(game["created"], game["created_clock_set"]),
                shown_time(game["ended"], game["ended_clock_set"]),
                " / ".join(game["players"]),
                " ".join(str(s) for s in outcome.get("winners", [])), outcome.get("reason", ""),
                game["tournament"] if game["tournament"] is not None else ""]
        actions = game.get("actions") or []
        if not actions:
            writer.writerow([*head, "", "", "", ""])
        for action in actions:
            writer.writerow([*head, action["n"], action["seat"], action["action"],
                             shown_time(action["time"], action["clock_set"])])
    return out.getvalue()


def history_table(rows: Iterable[GameRow], limit: int) -> str:
    """Games newest first as a text table (id, game, status, players, dates, winners)."""
    chosen = sorted(rows, key=lambda r: r.id, reverse=True)[:limit]
    lines = [("id", "game", "status", "players", "started", "ended", "winners")]
    for row in chosen:
        winners = ""
        if row.outcome is not None:
            names = [row.seats[s] for s in row.outcome.get("winners", [])
                     if isinstance(s, int) and 0 <= s < len(row.seats)]
            winners = ", ".join(names) or "nobody"
        lines.append((str(row.id), row.game, row.status, ", ".join(row.seats),
                      _minutes(row.created, row.created_clock_set),
                      _minutes(row.ended, row.ended_clock_set), winners))
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
                     .rstrip() for line in lines) + "\n"


def _minutes(time: str | None, clock_set: bool) -> str:
    """A recorded time to the minute for the table (``2026-11-25 03:42``)."""
    shown = shown_time(time, clock_set)
    return shown[:16].replace("T", " ") if clock_set else shown
