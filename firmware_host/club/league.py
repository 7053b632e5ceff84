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

import csv
import hmac
import io
import json
import logging
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from firmware_host.club import ratings
from firmware_host.club.codes import code_hash, new_code, normalise
from firmware_host.club.topics import ResultRecord, decode_result
from firmware_host.errors import JournalError, NotAllowed

log = logging.getLogger(__name__)

LEAGUE_FILE = "league.sqlite3"
KEY_FILE = "league.key"
SCHEMA_VERSION = 1
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
)
"""

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


class League:
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

    # --- profiles -------------------------------------------------------------------------
    def create_profile(self, name: str) -> tuple[Profile, str, str]:
        """A new club profile: it, its club code and the token of the phone that made it."""
        name = _check_name(name)
        profile = Profile(secrets.token_hex(4), name)
        code, token = new_code(), secrets.token_urlsafe(24)
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM profiles WHERE folded = ?",
                          (name.casefold(),)).fetchone():
                raise NotAllowed(f"the club already has a player called {name!r}: choose "
                                 "another name, or claim that profile with its code")
            db.execute("INSERT INTO profiles (id, name, folded, code_hash, created)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (profile.id, name, name.casefold(), code_hash(code, self._key), now()))
            db.execute("INSERT INTO phones (token_hash, profile, created) VALUES (?, ?, ?)",
                       (self._token_hash(token), profile.id, now()))
        log.info("league: profile %s made", profile.id)
        return profile, code, token

    def claim(self, code: str) -> tuple[Profile, str]:
        """A phone takes a profile with its code; returns the profile and the phone's token."""
        try:
            normalise(code)
        except ValueError as error:
            raise NotAllowed(str(error)) from None
        token = secrets.token_urlsafe(24)
        with self._transaction() as db:
            profile = self._profile_of_code(db, code)
            if profile is None:
                raise NotAllowed("no club profile has this code")
            db.execute("INSERT INTO phones (token_hash, profile, created) VALUES (?, ?, ?)",
                       (self._token_hash(token), profile.id, now()))
        return profile, token

    def renew_code(self, profile: Profile) -> str:
        """A new code for the profile; the old one stops working (at boxes too)."""
        code = new_code()
        with self._transaction() as db:
            db.execute("UPDATE profiles SET code_hash = ? WHERE id = ?",
                       (code_hash(code, self._key), profile.id))
        return code

    def profile_of_phone(self, token: str | None) -> Profile | None:
        if not token or len(token) > 200:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT p.id, p.name FROM phones f JOIN profiles p ON p.id = f.profile"
                " WHERE f.token_hash = ?", (self._token_hash(token),)).fetchone()
        return Profile(row["id"], row["name"]) if row else None

    def _profile_of_code(self, db: sqlite3.Connection, code: str) -> Profile | None:
        try:
            hashed = code_hash(code, self._key)
        except ValueError:
            return None
        row = db.execute("SELECT id, name FROM profiles WHERE code_hash = ?",
                         (hashed,)).fetchone()
        return Profile(row["id"], row["name"]) if row else None

    def _token_hash(self, token: str) -> str:
        return hmac.new(self._key, token.encode(), "sha256").hexdigest()

    # --- reading --------------------------------------------------------------------------
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


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise NotAllowed("a club profile needs a name")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise NotAllowed(f"a name has at most {MAX_NAME} characters")
    return name


def _league_key(path: Path) -> bytes:
    """The hub's secret for hashing codes and phone tokens (made once, kept 0600)."""
    if path.is_file():
        return bytes.fromhex(path.read_text(encoding="utf-8").strip())
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(key.hex() + "\n")
    return key
