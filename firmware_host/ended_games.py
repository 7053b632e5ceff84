"""Ended games and tournaments, read from the journal when asked.

The box keeps in memory what is live — the games being played, the tournaments going on — and
a bounded few of the ended ones (:mod:`firmware_host.snapshots`); whatever else has ended is
read here, through a reader's own connection, so the box's memory does not grow with its
history: one ended game's snapshot (its final state is rebuilt by the read side, and only when
a view needs it), the summaries of ``history()`` and ``games()``, the standings (summed in SQL),
the ended tournaments.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable
from typing import Any

from firmware_host.errors import NoSuchGame, NoSuchTournament
from firmware_host.games import BoxGame, Registry
from firmware_host.history_rows import (
    ENDED,
    ended_games_of,
    ended_tournaments_of,
    held_seats_of,
    newest_game_of,
    standing_rows_of,
    tournament_games_of,
    tournament_of,
)
from firmware_host.journal_reader import JournalReader
from firmware_host.journal_rows import (
    GameRow,
    SeatHolder,
    TournamentRow,
    game_of,
    hints_used_of,
    holders_of,
    tokens_of,
)
from firmware_host.session_api import GameStatus, GameSummary, Standing
from firmware_host.snapshots import Deferred, GameSnapshot, claimed
from firmware_host.tournaments import Tournament

#: Why an ended game's last action may not be taken back: one value shared by every one.
ENDED_UNDO: Deferred[str | None] = Deferred.known("the game has ended")


def ended_snapshot(db: sqlite3.Connection, row: GameRow, box: BoxGame, state: Any
                   ) -> GameSnapshot:
    """The snapshot of an ended game from its rows, read on ``db`` (``state``: its final state
    when known; ``None`` leaves it to the read side)."""
    tokens = tokens_of(db, row.id)
    return _snapshot(row, box, state, set(tokens.values()), tokens, holders_of(db, row.id),
                     hints_used_of(db, row.id, len(row.seats)))


def _snapshot(row: GameRow, box: BoxGame, state: Any, held: set[int],
              tokens: dict[str, int] | None = None, holders: dict[int, SeatHolder] | None = None,
              hints_used: tuple[int, ...] = ()) -> GameSnapshot:
    status: GameStatus = "finished" if row.status == "finished" else "abandoned"
    return GameSnapshot(
        id=row.id, game=row.game, box=box, status=status, seats=tuple(row.seats),
        claimed=claimed(held, row.bots, len(row.seats)), created=row.created, ended=row.ended,
        outcome=row.outcome, tournament=row.tournament, version=row.version, state=state,
        undo_check=ENDED_UNDO, tokens=tokens or {}, holders=holders or {}, join_codes=None,
        bots=row.bots, hints_off=row.hints_off, hints_used=hints_used,
        created_clock_set=row.created_clock_set, ended_clock_set=row.ended_clock_set,
    )


class EndedGames:
    """The journal's ended games and tournaments, each read when asked through ``reader``.
    ``games``: the rules the box has (a game of other rules has no snapshot, as at start).
    ``skip``: the games (or tournaments) the published snapshots still show as going on,
    though the journal may have them ended already — left out, so a reader never sees one
    game twice."""

    def __init__(self, reader: JournalReader, games: Registry) -> None:
        self.reader = reader
        self.games = games

    def newest_game(self) -> int:
        """The newest game's id (0: none yet)."""
        with self.reader.connection() as db:
            return newest_game_of(db)

    def snapshot(self, game_id: int) -> GameSnapshot:
        """An ended game's snapshot; :class:`NoSuchGame` for a game that is unknown, still
        being played, or of rules the box does not have."""
        with self.reader.connection() as db:
            row = game_of(db, game_id)
            box = self.games.get(row.game) if row is not None else None
            if row is None or box is None or row.status not in ENDED:
                raise NoSuchGame(f"there is no game {game_id!r}")
            return ended_snapshot(db, row, box, None)

    def summaries(self, status: str | None, limit: int | None, skip: Collection[int]
                  ) -> list[GameSummary]:
        """Summaries of ended games (with ``status``, or either), newest first."""
        if status is not None and status not in ENDED:
            return []
        with self.reader.connection() as db:
            rows = ended_games_of(db, status, limit, skip, self.games)
            held = held_seats_of(db, [row.id for row in rows])
        return [_snapshot(row, self.games[row.game], None, held.get(row.id, set())).summary()
                for row in rows]

    def standings(self, game: str | None, skip: Collection[int]) -> list[Standing]:
        """Every player by name over the finished games (of ``game``), ranked."""
        with self.reader.connection() as db:
            rows = standing_rows_of(db, game, skip, self.games)
        return ranked({"name": name, "played": played, "won": won, "points": points, "rank": 0}
                      for name, played, won, points in rows)

    def tournament(self, tid: int) -> Tournament:
        """An ended tournament; :class:`NoSuchTournament` for one unknown or going on."""
        with self.reader.connection() as db:
            row = tournament_of(db, tid)
            if row is None or row.status == "active" or self._format(row) is None:
                raise NoSuchTournament(f"there is no tournament {tid!r}")
            played = tournament_games_of(db, [tid])[tid]
        return self._tournament(row, played)

    def tournaments(self, skip: Collection[int]) -> list[Tournament]:
        """The ended tournaments, newest first."""
        with self.reader.connection() as db:
            rows = [r for r in ended_tournaments_of(db, skip) if self._format(r) is not None]
            played = tournament_games_of(db, [row.id for row in rows])
        return [self._tournament(row, played[row.id]) for row in rows]

    def _format(self, row: TournamentRow) -> Any:
        box = self.games.get(row.game)
        return box.tournament if box is not None else None

    def _tournament(self, row: TournamentRow, played: list[Any]) -> Tournament:
        return Tournament.from_row(self._format(row), row, played)


def ranked(rows: Iterable[Standing]) -> list[Standing]:
    """Standings ranked by wins, then points (then name); equal players share a rank."""
    ordered = sorted(rows, key=lambda r: (-r["won"], -r["points"], r["name"]))
    for position, row in enumerate(ordered):
        same = position and (ordered[position - 1]["won"], ordered[position - 1]["points"]) == (
            row["won"], row["points"])
        row["rank"] = ordered[position - 1]["rank"] if same else position + 1
    return ordered
