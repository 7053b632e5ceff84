"""The league's tables as its pages and the CSV export read them: each game's standings, a
player's games across boxes, the recent games, one game (with its analysis), what each box
sent."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading

from firmware_host.club import ratings
from firmware_host.club.league_rows import (
    Kind,
    PlayedGame,
    ResultLine,
    ResultPage,
    Standing,
    display_name,
)


class LeagueTables:
    """The reads of :class:`~firmware_host.club.league.League`."""

    _db: sqlite3.Connection
    _lock: threading.RLock

    def _names(self) -> dict[str, str]:
        return {f"p:{row['id']}": row["name"]
                for row in self._db.execute("SELECT id, name FROM profiles")}

    def games(self) -> list[str]:
        """The games with ratings, by how often they were played."""
        with self._lock:
            rows = self._db.execute("SELECT game, SUM(played) AS n FROM ratings GROUP BY game"
                                    " ORDER BY n DESC, game").fetchall()
        return [row["game"] for row in rows]

    def standings(self, game: str) -> list[Standing]:
        """The league table of ``game``: players by rating (μ − 3σ), best first."""
        with self._lock:
            names = self._names()
            rows = self._db.execute("SELECT * FROM ratings WHERE game = ?", (game,)).fetchall()
        lines = []
        for row in rows:
            name, kind = display_name(row["player"], names)
            rating = ratings.Rating(row["mu"], row["sigma"])
            lines.append((rating.ordinal, row, name, kind))
        lines.sort(key=lambda line: (-line[0], line[2].casefold()))
        table: list[Standing] = []
        for index, (ordinal, row, name, kind) in enumerate(lines):
            place = index + 1
            if index and round(lines[index - 1][0], 6) == round(ordinal, 6):
                place = table[-1].place
            table.append(Standing(place, row["player"], name, kind, ordinal, row["mu"],
                                  row["sigma"], row["played"], row["won"]))
        return table

    def player(self, player: str) -> tuple[str, Kind, list[PlayedGame]] | None:
        """A player's name, who it stands for, and games across boxes, newest first."""
        with self._lock:
            names = self._names()
            rows = self._db.execute(
                "SELECT r.id, r.box, r.box_game, r.game, r.status, r.ended, r.players, s.* FROM"
                " seats s JOIN results r ON r.id = s.result WHERE s.player = ?"
                " ORDER BY r.ended DESC, r.id DESC LIMIT 500", (player,)).fetchall()
        if not rows and player not in names:
            return None
        name, kind = display_name(player, names)
        return name, kind, [
            PlayedGame(row["id"], row["box"], row["box_game"], row["game"], row["status"],
                       row["ended"], json.loads(row["players"]), row["seat"], row["place"],
                       bool(row["won"]), row["score"], row["rating_before"],
                       row["rating_after"]) for row in rows]

    def recent(self, limit: int = 30) -> list[ResultLine]:
        """The latest ingested games, newest first."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM results ORDER BY ended DESC, id DESC"
                                    " LIMIT ?", (limit,)).fetchall()
        return [ResultLine(row["id"], row["box"], row["box_game"], row["game"], row["status"],
                           row["ended"], json.loads(row["players"]),
                           json.loads(row["outcome"])["winners"] if row["outcome"] else [])
                for row in rows]

    def result(self, result: int) -> ResultPage | None:
        """One ingested game (by the league's id), with its analysis if its box sent one."""
        with self._lock:
            row = self._db.execute("SELECT * FROM results WHERE id = ?", (result,)).fetchone()
            body = self._db.execute("SELECT body FROM analyses WHERE result = ?",
                                    (result,)).fetchone()
        if row is None:
            return None
        outcome = json.loads(row["outcome"]) if row["outcome"] else {}
        analysis = json.loads(body["body"]) if body is not None else None
        line = ResultLine(row["id"], row["box"], row["box_game"], row["game"], row["status"],
                          row["ended"], json.loads(row["players"]), outcome.get("winners", []))
        return ResultPage(line, outcome.get("scores"), outcome.get("reason"),
                          analysis if isinstance(analysis, dict) else None)

    def counts(self) -> dict[str, int]:
        """Ingested records per box."""
        with self._lock:
            rows = self._db.execute("SELECT box, results FROM boxes").fetchall()
        return {row["box"]: row["results"] for row in rows}

    def ingested(self) -> list[tuple[str, int, str]]:
        """Every ingested record as (box, the box's game id, key), in ingest order."""
        with self._lock:
            rows = self._db.execute("SELECT box, box_game, key FROM results ORDER BY id")
            return [(row["box"], row["box_game"], row["key"]) for row in rows]

    def pending(self) -> int:
        """Records waiting for the one before them."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM pending").fetchone()[0])

    def to_csv(self, game: str | None = None) -> str:
        """Every seat of every ingested game (of ``game``, or all), oldest first."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["result", "box", "box_game", "game", "status", "ended", "seat",
                         "player", "name", "kind", "place", "won", "score", "rating_before",
                         "rating_after"])
        query = ("SELECT r.id, r.box, r.box_game, r.game, r.status, r.ended, s.* FROM seats s"
                 " JOIN results r ON r.id = s.result")
        with self._lock:
            names = self._names()
            rows = (self._db.execute(query + " WHERE r.game = ? ORDER BY r.id, s.seat", (game,))
                    if game else self._db.execute(query + " ORDER BY r.id, s.seat")).fetchall()
        for row in rows:
            name, kind = display_name(row["player"], names)
            writer.writerow([row["id"], row["box"], row["box_game"], row["game"], row["status"],
                             row["ended"], row["seat"], row["player"], _cell(name),
                             kind, _blank(row["place"]), row["won"], _blank(row["score"]),
                             _number(row["rating_before"]), _number(row["rating_after"])])
        return out.getvalue()



def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _blank(value: object) -> object:
    return "" if value is None else value


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"
