"""The hub's league: every box's ended games, the club's players and their ratings, in one
SQLite file (``<data dir>/club/league.sqlite3``).

**Exactly once, in order per box.** A box's records form a chain: each names the key of the
box's record before it (``prev``). A record is ingested when its key is new for that box and its
``prev`` is already here (or it has none: the box's first); a record whose ``prev`` has not come
yet waits in ``pending`` and is ingested, in the same transaction, right after it. A key already
here is a duplicate and changes nothing. So a record sent twice (a broker that lost its
acknowledgement, a box restored from a backup sending again what it had sent) counts once, and
a box's games are rated in the order the box played them. An ingest — the records that came
together, their seats, the ratings they move, the pending records they free — is one
transaction.

**Players.** A seat whose player gave a club code counts for that club profile (``p:<id>``); a
seat the box played with a bot counts for that bot level (``b:<level>``: the league rates the
box's bots like anyone, per game); any other seat counts for its name as a guest (``g:<name>``).
Profiles are made from a phone on the hub's pages; the code is kept keyed-hashed, and a phone
that made or claimed a profile keeps a token (hashed here) to see and renew its code.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware_host.club import ratings
from firmware_host.club.league_profiles import LeagueProfiles
from firmware_host.club.league_rows import Ingest, bot, guest, now
from firmware_host.club.league_tables import LeagueTables
from firmware_host.club.topics import ResultRecord, decode_result
from firmware_host.errors import JournalError

log = logging.getLogger(__name__)

LEAGUE_FILE = "league.sqlite3"
KEY_FILE = "league.key"
#: 2: the boxes' post-game analyses (``analyses``), added to a version 1 file as it opens.
SCHEMA_VERSION = 2
MAX_NAME = 40

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE boxes (
    box TEXT PRIMARY KEY,
    first_seen TEXT NOT NULL,
    last_key TEXT,
    last_seq INTEGER,
    results INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    box TEXT NOT NULL,
    key TEXT NOT NULL,
    prev TEXT,
    seq INTEGER NOT NULL,
    box_game INTEGER NOT NULL,
    game TEXT NOT NULL,
    status TEXT NOT NULL,
    created TEXT NOT NULL,
    ended TEXT NOT NULL,
    ingested TEXT NOT NULL,
    players TEXT NOT NULL,
    outcome TEXT,
    UNIQUE (box, key)
);
CREATE TABLE seats (
    result INTEGER NOT NULL REFERENCES results(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    player TEXT NOT NULL,
    place INTEGER,
    won INTEGER NOT NULL,
    score REAL,
    rating_before REAL,
    rating_after REAL,
    PRIMARY KEY (result, seat)
);
CREATE INDEX seats_player ON seats(player);
CREATE TABLE pending (
    box TEXT NOT NULL,
    key TEXT NOT NULL,
    prev TEXT NOT NULL,
    payload BLOB NOT NULL,
    received TEXT NOT NULL,
    PRIMARY KEY (box, key)
);
CREATE INDEX pending_prev ON pending(box, prev);
CREATE TABLE profiles (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    code_hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
);
CREATE TABLE phones (
    token_hash TEXT PRIMARY KEY,
    profile TEXT NOT NULL REFERENCES profiles(id),
    created TEXT NOT NULL
);
CREATE TABLE ratings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    played INTEGER NOT NULL,
    won INTEGER NOT NULL,
    PRIMARY KEY (game, player)
);
CREATE TABLE analyses (
    result INTEGER PRIMARY KEY REFERENCES results(id),
    body TEXT NOT NULL
)
"""
#: What each version adds to the one before (run in one transaction as the file opens).
UPGRADES = {2: SCHEMA.rsplit(";", 1)[1]}

class League(LeagueProfiles, LeagueTables):
    """The league file; thread-safe (one connection, one lock)."""

    def __init__(self, directory: Path) -> None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = directory / LEAGUE_FILE
        self._key = _league_key(directory / KEY_FILE)
        self._lock = threading.RLock()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.close(fd)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._create()
        except (OSError, sqlite3.DatabaseError) as error:
            raise JournalError(f"league {self.path}: {error}") from None

    def _create(self) -> None:
        has_meta = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
        if has_meta:
            version = int(self._db.execute(
                "SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise JournalError(f"league {self.path}: schema version {version} is newer "
                                   f"than this program knows ({SCHEMA_VERSION})")
            if version < SCHEMA_VERSION:
                with self._transaction() as db:
                    for step in range(version + 1, SCHEMA_VERSION + 1):
                        db.execute(UPGRADES[step])
                    db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                               (str(SCHEMA_VERSION),))
                log.info("league %s: schema %d → %d", self.path, version, SCHEMA_VERSION)
            return
        with self._transaction() as db:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                       (str(SCHEMA_VERSION),))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # --- ingest ---------------------------------------------------------------------------
    def ingest(self, record: ResultRecord, payload: bytes) -> Ingest:
        """Take one box's record (see the module docstring); one transaction."""
        return self.ingest_many([(record, payload)])[0]

    def ingest_many(self, records: list[tuple[ResultRecord, bytes]]) -> list[Ingest]:
        """Take several records, in order, in one transaction (one write to the disk for a
        burst of records: a group commit)."""
        with self._transaction() as db:
            return [self._ingest(db, record, payload) for record, payload in records]

    def _ingest(self, db: sqlite3.Connection, record: ResultRecord, payload: bytes) -> Ingest:
        if self._has(db, record.box, record.key):
            return Ingest("duplicate", (), record)
        if record.prev is not None and not self._has(db, record.box, record.prev):
            db.execute("INSERT OR IGNORE INTO pending (box, key, prev, payload, received)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (record.box, record.key, record.prev, payload, now()))
            return Ingest("held", (), None)
        done = [record]
        self._add(db, record)
        # records that waited for this one (a chain: each frees at most the next)
        frontier = [record]
        while frontier:
            parent = frontier.pop()
            waiting = db.execute("SELECT key, payload FROM pending WHERE box = ? AND prev = ?",
                                 (parent.box, parent.key)).fetchall()
            for row in waiting:
                db.execute("DELETE FROM pending WHERE box = ? AND key = ?",
                           (parent.box, row["key"]))
                if self._has(db, parent.box, row["key"]):
                    continue
                child = decode_result(parent.box, row["payload"])
                self._add(db, child)
                done.append(child)
                frontier.append(child)
        return Ingest("ingested", tuple(done), done[-1])

    @staticmethod
    def _has(db: sqlite3.Connection, box: str, key: str) -> bool:
        return db.execute("SELECT 1 FROM results WHERE box = ? AND key = ?",
                          (box, key)).fetchone() is not None

    def _add(self, db: sqlite3.Connection, record: ResultRecord) -> None:
        game = record.game
        stamp = now()
        db.execute("INSERT OR IGNORE INTO boxes (box, first_seen) VALUES (?, ?)",
                   (record.box, stamp))
        outcome = None
        if game.outcome is not None:
            outcome = {"winners": list(game.outcome.winners),
                       "scores": list(game.outcome.scores) if game.outcome.scores else None,
                       "reason": game.outcome.reason}
        cursor = db.execute(
            "INSERT INTO results (box, key, prev, seq, box_game, game, status, created, ended,"
            " ingested, players, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record.box, record.key, record.prev, record.seq, game.id, game.game, game.status,
             game.created, game.ended, stamp, json.dumps(list(game.players)),
             json.dumps(outcome) if outcome is not None else None))
        result = cursor.lastrowid
        assert result is not None
        if game.analysis is not None:
            db.execute("INSERT INTO analyses (result, body) VALUES (?, ?)",
                       (result, json.dumps(game.analysis, separators=(",", ":"))))
        db.execute("UPDATE boxes SET last_key = ?, last_seq = ?, results = results + 1"
                   " WHERE box = ?", (record.key, record.seq, record.box))
        players = self._players(db, record)
        place: list[int | None] = (
            ratings.places(game.outcome, len(game.players), game.competitors)
            if game.outcome is not None else [None] * len(game.players))
        winners = set(game.outcome.winners) if game.outcome is not None else set()
        scores = game.outcome.scores if game.outcome is not None else None
        before: list[ratings.Rating | None] = [None] * len(players)
        after: list[ratings.Rating | None] = [None] * len(players)
        rated = list(game.competitors)
        if game.outcome is not None and len(rated) >= 2:
            old = [self._rating(db, game.game, players[seat]) for seat in rated]
            new = ratings.rate(old, [p for seat in rated if (p := place[seat]) is not None])
            for seat, was, now_ in zip(rated, old, new, strict=True):
                before[seat], after[seat] = was, now_
                db.execute(
                    "INSERT INTO ratings (game, player, mu, sigma, played, won)"
                    " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (game, player) DO UPDATE SET"
                    " mu = excluded.mu, sigma = excluded.sigma, played = played + 1,"
                    " won = won + excluded.won",
                    (game.game, players[seat], now_.mu, now_.sigma, int(seat in winners)))
        for seat, player in enumerate(players):
            b, a = before[seat], after[seat]
            db.execute(
                "INSERT INTO seats (result, seat, name, player, place, won, score,"
                " rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (result, seat, game.players[seat], player, place[seat], int(seat in winners),
                 scores[seat] if scores is not None else None,
                 b.ordinal if b is not None else None, a.ordinal if a is not None else None))
        log.info("league: box %s game %d (%s, %s) ingested", record.box, game.id, game.game,
                 game.status)

    def _players(self, db: sqlite3.Connection, record: ResultRecord) -> list[str]:
        """Each seat's player: its bot level, the profile of its club code, else a guest by
        name. One player sits once in a game: a bot level or a profile on a second seat
        counts as the guest of that seat's name."""
        found: list[str] = []
        game = record.game
        for seat, (name, code, level) in enumerate(zip(game.players, game.club_codes,
                                                       game.bots, strict=True)):
            player = guest(name)
            if level is not None:
                if bot(level) in found:
                    log.warning("league: box %s game %d: two %r bots; seat %d counts as the "
                                "guest %r", record.box, game.id, level, seat, name)
                else:
                    player = bot(level)
            elif code is not None:
                profile = self._profile_of_code(db, code)
                if profile is None:
                    log.warning("league: box %s game %d seat %d gave a club code no profile "
                                "has; it counts as the guest %r", record.box, game.id, seat,
                                name)
                elif profile.player in found:
                    log.warning("league: box %s game %d: one club code on two seats; seat %d "
                                "counts as the guest %r", record.box, game.id, seat, name)
                else:
                    player = profile.player
            found.append(player)
        return found

    @staticmethod
    def _rating(db: sqlite3.Connection, game: str, player: str) -> ratings.Rating:
        row = db.execute("SELECT mu, sigma FROM ratings WHERE game = ? AND player = ?",
                         (game, player)).fetchone()
        return ratings.Rating(row["mu"], row["sigma"]) if row else ratings.initial()

    def last_ack(self, box: str) -> tuple[str, int] | None:
        """The key and box sequence number of the box's last ingested record."""
        with self._lock:
            row = self._db.execute("SELECT last_key, last_seq FROM boxes WHERE box = ?",
                                   (box,)).fetchone()
        return (row["last_key"], row["last_seq"]) if row and row["last_key"] else None


def _league_key(path: Path) -> bytes:
    """The hub's secret for hashing codes and phone tokens (made once, kept 0600)."""
    if path.is_file():
        return bytes.fromhex(path.read_text(encoding="utf-8").strip())
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(key.hex() + "\n")
    return key
