"""The journal: every game, action, seat token and tournament in one SQLite file.

Stdlib ``sqlite3`` in WAL mode with ``synchronous=FULL``, so a committed transaction survives a
power cut. Only the session thread writes (inside :meth:`Journal.transaction`); readers on other
threads open their own connection with :func:`read_only`. The schema carries a version in
``meta`` and is brought up to date on open by :data:`MIGRATIONS`.

Actions are append-only: an undo marks its row ``undone`` (an audit trail) instead of deleting it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_host.errors import JournalError, StorageError
from firmware_host.journal_check import DamageAlarm, is_damage
from firmware_host.wall_clock import clock_is_set

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
#: Whether a time just read from the clock can be trusted (:func:`wall_clock.clock_is_set`).
ClockCheck = Callable[[datetime], bool]


def utc_now() -> datetime:
    """The wall clock in UTC (the journal's default clock)."""
    return datetime.now(UTC)


def _run(db: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated statements inside the caller's transaction (``executescript``
    would commit it)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _migrate_1(db: sqlite3.Connection) -> None:
    """The first schema: games, their actions, tournaments, players and seat tokens."""
    _run(
        db,
        """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            seed INTEGER NOT NULL,
            created TEXT NOT NULL,
            ended TEXT,
            status TEXT NOT NULL,
            outcome TEXT,
            tournament INTEGER REFERENCES tournaments(id)
        );
        CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games(id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            time TEXT NOT NULL,
            PRIMARY KEY (game_id, n)
        );
        CREATE TABLE tournaments (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            players TEXT NOT NULL,
            options TEXT NOT NULL,
            created TEXT NOT NULL,
            ended TEXT,
            status TEXT NOT NULL
        );
        CREATE TABLE players (name TEXT PRIMARY KEY, first_seen TEXT NOT NULL);
        CREATE TABLE seat_tokens (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            issued TEXT NOT NULL
        );
        CREATE INDEX games_status ON games(status);
        """
    )


def _migrate_2(db: sqlite3.Connection) -> None:
    """Undo keeps an audit row; tokens are revoked, not deleted; games and the journal keep a
    change counter so live pages resume across restarts; tournaments keep their Lock order."""
    _run(
        db,
        """
        ALTER TABLE actions ADD COLUMN undone TEXT;
        ALTER TABLE seat_tokens ADD COLUMN revoked TEXT;
        ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE tournaments ADD COLUMN lock_order TEXT NOT NULL DEFAULT '[]';
        INSERT OR IGNORE INTO meta (key, value) VALUES ('version', '0');
        """
    )


def _migrate_3(db: sqlite3.Connection) -> None:
    """Each action is kept in its canonical text (``rules.Game.canonical``), what was entered
    beside it when that differs; each finished game's outcome is the rules' own (reasons as
    data). Old games are replayed through their rules to find both; a game whose rules cannot
    load or replay it keeps its rows as they were (it is abandoned at start as before)."""
    import logging

    from rules import UnknownGame, get_game

    log = logging.getLogger(__name__)
    db.execute("ALTER TABLE actions ADD COLUMN entered TEXT")
    for row in db.execute("SELECT * FROM games ORDER BY id").fetchall():
        try:
            rules = get_game(row["game"])
            state = rules.start(json.loads(row["seats"]), json.loads(row["options"]),
                                seed=row["seed"])
        except (UnknownGame, ImportError, ValueError) as error:
            log.warning("journal migration: game %d (%s) kept as it was: %s",
                        row["id"], row["game"], error)
            continue
        actions = db.execute(
            "SELECT n, seat, action, undone FROM actions WHERE game_id = ? ORDER BY n",
            (row["id"],)).fetchall()
        replayed = True
        for action in actions:
            if action["undone"] is not None:
                continue
            try:
                text = rules.canonical(state, action["seat"], action["action"])
                state = rules.apply(state, action["seat"], action["action"])
            except ValueError as error:
                log.warning("journal migration: game %d replays only to action %d: %s",
                            row["id"], action["n"], error)
                replayed = False
                break
            if text != action["action"]:
                db.execute("UPDATE actions SET action = ?, entered = ? WHERE game_id = ? AND n = ?",
                           (text, action["action"], row["id"], action["n"]))
        outcome = rules.outcome(state) if replayed else None
        if row["status"] == "finished" and outcome is not None:
            db.execute("UPDATE games SET outcome = ? WHERE id = ?",
                       (json.dumps(outcome), row["id"]))


def _migrate_4(db: sqlite3.Connection) -> None:
    """Who entered each action (a die roll: the box's die, its keypad or RNG, the host, or the
    phone of the seat whose roll it was); which phone holds each seat; seats the host locked,
    with their join codes; host sessions, so a restart does not log the host out."""
    _run(
        db,
        """
        ALTER TABLE actions ADD COLUMN entered_by TEXT;
        ALTER TABLE seat_tokens ADD COLUMN holder TEXT;
        ALTER TABLE games ADD COLUMN join_codes TEXT;
        CREATE TABLE host_sessions (
            token_hash TEXT PRIMARY KEY,
            created TEXT NOT NULL,
            expires TEXT NOT NULL,
            ended TEXT
        )
        """
    )


def _migrate_5(db: sqlite3.Connection) -> None:
    """Seats the box plays (a bot's level per seat, for games and tournaments); whether the
    host turned hints off for a game; every hint a seat asked for, and after how many actions."""
    _run(
        db,
        """
        ALTER TABLE games ADD COLUMN bots TEXT;
        ALTER TABLE games ADD COLUMN hints_off INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE tournaments ADD COLUMN bots TEXT;
        CREATE TABLE hints (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            position INTEGER NOT NULL,
            time TEXT NOT NULL,
            PRIMARY KEY (game_id, seat, position)
        )
        """
    )


#: Writes a game's outbox row when it ends, inside the very transaction that ends it (so a
#: result cannot be lost between the two): its random key, and the key of the row before it
#: (each box's results form a chain the club hub ingests in order; docs/club.md).
CLUB_OUTBOX_TRIGGER = """
    CREATE TRIGGER club_outbox_on_end AFTER UPDATE OF status ON games
    WHEN OLD.status = 'active' AND NEW.status != 'active'
    BEGIN
        INSERT INTO club_outbox (game_id, key, prev, created)
        VALUES (NEW.id, lower(hex(randomblob(12))),
                (SELECT key FROM club_outbox ORDER BY seq DESC LIMIT 1),
                COALESCE(NEW.ended, strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')));
    END
"""


def _migrate_6(db: sqlite3.Connection) -> None:
    """Club mode: the outbox of ended games (written by a trigger in the transaction that ends
    each game, delivered when the club hub acknowledges it) and the club codes players entered
    for their seats. The games that ended before are queued too, in the order they ended."""
    _run(
        db,
        """
        CREATE TABLE club_outbox (
            seq INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            key TEXT NOT NULL UNIQUE,
            prev TEXT,
            created TEXT NOT NULL,
            delivered TEXT
        );
        CREATE INDEX club_outbox_undelivered ON club_outbox(delivered, seq);
        CREATE TABLE club_codes (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            code TEXT NOT NULL,
            entered TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )
        """
    )
    db.execute(CLUB_OUTBOX_TRIGGER)
    prev = None
    for row in db.execute("SELECT id, ended, created FROM games WHERE status != 'active'"
                          " ORDER BY COALESCE(ended, created), id").fetchall():
        key = os.urandom(12).hex()
        db.execute("INSERT INTO club_outbox (game_id, key, prev, created) VALUES (?, ?, ?, ?)",
                   (row["id"], key, prev, row["ended"] or row["created"]))
        prev = key


#: Times before this were written before the clock was set: no game was played earlier
#: (the day this program began; fixed here, so the migration judges the same way forever).
_SCHEMA_7_NOT_BEFORE = "2026-11-21T00:00:00+00:00"


def _migrate_7(db: sqlite3.Connection) -> None:
    """Whether the clock had been set (by NTP) when each game's start and end and each action
    were timed (1: yes). Older rows are judged by their date alone: one before this program
    existed was timed before the clock was set (a Pi boots at 1970 until NTP sets it).

    Columns only, and added only when missing, so it does not depend on other migrations."""
    columns = {(table, row["name"]) for table in ("games", "actions")
               for row in db.execute(f"PRAGMA table_info({table})")}
    for table, column in (("games", "created_clock_set"), ("games", "ended_clock_set"),
                          ("actions", "clock_set")):
        if (table, column) not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER NOT NULL DEFAULT 1")
    floor = (_SCHEMA_7_NOT_BEFORE,)
    db.execute("UPDATE games SET created_clock_set = 0 WHERE created < ?", floor)
    db.execute("UPDATE games SET ended_clock_set = 0 WHERE ended < ?", floor)
    db.execute("UPDATE actions SET clock_set = 0 WHERE time < ?", floor)


#: Migration ``i`` brings a database from schema version ``i`` to ``i + 1``.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _migrate_1, _migrate_2, _migrate_3, _migrate_4, _migrate_5, _migrate_6, _migrate_7)
SCHEMA_VERSION = len(MIGRATIONS)


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


def _connect(path: Path, *, read_only: bool) -> sqlite3.Connection:
    if read_only:
        uri = f"file:{path}?mode=ro"
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    else:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")
    return db


def read_only(path: Path) -> sqlite3.Connection:
    """A reader's own connection (any thread); it sees committed transactions only."""
    try:
        return _connect(path, read_only=True)
    except sqlite3.Error as error:
        raise JournalError(f"journal {path}: {error}") from None


class Journal:
    """The journal file; writes happen inside :meth:`transaction` on one thread."""

    def __init__(self, path: Path, *, clock: Clock = utc_now, clock_set: ClockCheck = clock_is_set,
                 allow_empty: bool = False) -> None:
        """Open (or create) the journal at ``path``; ``clock`` tells the time and ``clock_set``
        whether a time it told can be trusted. A journal that is missing or empty while a
        backup holds games is refused (say so loudly, rather than start as if nothing
        happened) unless ``allow_empty``; a damaged one is refused and left untouched."""
        self.path = Path(path)
        self.clock = clock
        self.clock_set = clock_set
        #: The first damage met during play (:mod:`firmware_host.journal_check`).
        self.alarm = DamageAlarm(self.path)
        directory = self.path.parent
        if not directory.is_dir():
            try:
                directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            except OSError as error:
                raise JournalError(
                    f"data directory {directory}: cannot create it ({error.strerror}); check "
                    "that its parent is writable by this user"
                ) from None
        self._check_not_lost(allow_empty)
        try:
            if not self.path.exists():
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                os.close(fd)
        except OSError as error:
            raise JournalError(f"journal {self.path}: cannot create it ({error.strerror}); "
                               "check that the data directory is writable by this user and "
                               "that its disk is not full") from None
        try:
            self._db = _connect(self.path, read_only=False)
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"journal {self.path}: WAL mode refused (got {mode})")
            self._db.execute("PRAGMA synchronous = FULL")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"journal {self.path}: {_explain(error)}") from None
        self._in_transaction = False

    def _check_not_lost(self, allow_empty: bool) -> None:
        """Refuse to start empty when a backup holds games (the journal was lost or wiped)."""
        if allow_empty or (self.path.exists() and self.path.stat().st_size > 0):
            return
        from firmware_host.backups import backups

        saved = next((b for b in backups(self.path) if b.games), None)
        if saved is not None:
            state = "is empty" if self.path.exists() else "is missing"
            raise JournalError(
                f"journal {self.path} {state}, but the backup {saved.path} holds {saved.games} "
                "games: bring them back with 'tabletop journal restore', or start an empty "
                "journal with 'tabletop run --new-journal'")

    # --- schema ---------------------------------------------------------------------------

    def schema_version(self) -> int:
        """The schema version stored in ``meta`` (0 for an empty file)."""
        has_meta = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
        ).fetchone()
        if not has_meta:
            return 0
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        current = self.schema_version()
        if current > SCHEMA_VERSION:
            raise JournalError(
                f"journal {self.path}: schema version {current} is newer than this program "
                f"knows ({SCHEMA_VERSION}); upgrade tabletop"
            )
        if 0 < current < SCHEMA_VERSION:  # keep the journal as it was before changing it
            from firmware_host.backups import take_backup

            take_backup(self.path, f"before-schema-{SCHEMA_VERSION}")
        for version in range(current, SCHEMA_VERSION):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                MIGRATIONS[version](self._db)
                self._db.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                    (str(version + 1),),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # --- transactions ---------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[int]:
        """One atomic, durable write; yields the journal's new change counter.

        When the write cannot be saved (a full disk, a read-only or vanished file) nothing of
        it is kept and :class:`StorageError` says why: the caller changes nothing in memory.
        """
        if self._in_transaction:
            raise RuntimeError("journal transactions do not nest")
        self.alarm.check()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise self._failed(error) from None
        self._in_transaction = True
        try:
            version = self.version() + 1
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'version'", (str(version),))
            yield version
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise self._failed(error) from None
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        finally:
            self._in_transaction = False

    def _failed(self, error: sqlite3.Error) -> StorageError:
        """Why a write failed: damage (reported to :attr:`alarm`) or the storage."""
        if is_damage(error):
            damaged = self.alarm.translate(error)
            assert isinstance(damaged, StorageError)
            return damaged
        return _storage_error(self.path, error)

    def _writing(self) -> None:
        if not self._in_transaction:
            raise RuntimeError("journal writes must happen inside transaction()")

    def now(self) -> str:
        """The current time as the journal stores it (ISO 8601, UTC, seconds)."""
        return self.clock().astimezone(UTC).isoformat(timespec="seconds")

    def stamp(self) -> Stamp:
        """The current time as the journal stores it, and whether the clock has been set."""
        when = self.clock().astimezone(UTC)
        return Stamp(when.isoformat(timespec="seconds"), self.clock_set(when))

    # --- writes ---------------------------------------------------------------------------

    def add_game(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[str],
        seed: int,
        version: int,
        tournament: int | None = None,
        *,
        created: Stamp | None = None,
        bots: Sequence[str | None] = (),
    ) -> int:
        """Record a new active game, started at ``created`` (default: now; ``bots``: a bot's
        level per seat the box plays); returns its id."""
        self._writing()
        started = created or self.stamp()
        now = started.at
        cursor = self._db.execute(
            "INSERT INTO games (game, options, seats, seed, created, status, tournament, version,"
            " bots, created_clock_set) VALUES (?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)",
            (game, json.dumps(options), json.dumps(seats), seed, now, tournament, version,
             _bots_text(bots), int(started.clock_set)),
        )
        for name in seats:
            self._db.execute(
                "INSERT OR IGNORE INTO players (name, first_seen) VALUES (?, ?)", (name, now)
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_action(self, game_id: int, seat: int, action: str, version: int, *,
                   entered: str | None = None, by: str | None = None) -> int:
        """Append an accepted action in its canonical text (and what was ``entered``, when that
        differs, and who entered it); returns its number within the game."""
        self._writing()
        row = self._db.execute(
            "SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()
        n = int(row[0]) + 1
        now = self.stamp()
        self._db.execute(
            "INSERT INTO actions (game_id, n, seat, action, time, entered, entered_by, clock_set)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, n, seat, action, now.at, entered if entered != action else None, by,
             int(now.clock_set)),
        )
        self._touch(game_id, version)
        return n

    def undo_last_action(self, game_id: int, version: int) -> ActionRow:
        """Mark the game's last live action undone (the row stays as an audit trail)."""
        self._writing()
        row = self._db.execute(
            "SELECT n, seat, action, time FROM actions WHERE game_id = ? AND undone IS NULL"
            " ORDER BY n DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        if row is None:
            raise RuntimeError(f"game {game_id} has no action to undo")
        self._db.execute(
            "UPDATE actions SET undone = ? WHERE game_id = ? AND n = ?",
            (self.now(), game_id, row["n"]),
        )
        self._touch(game_id, version)
        return ActionRow(row["n"], row["seat"], row["action"], row["time"])

    def end_game(
        self, game_id: int, status: str, outcome: dict[str, Any] | None, version: int
    ) -> Stamp:
        """Close a game as ``finished`` (with its outcome) or ``abandoned``; returns the time."""
        self._writing()
        now = self.stamp()
        self._db.execute(
            "UPDATE games SET status = ?, outcome = ?, ended = ?, version = ?,"
            " ended_clock_set = ? WHERE id = ?",
            (status, json.dumps(outcome) if outcome is not None else None, now.at, version,
             int(now.clock_set), game_id),
        )
        return now

    def issue_token(self, game_id: int, seat: int, token_hash: str, version: int,
                    holder: str | None = None) -> str:
        """Give ``seat`` a new token (stored hashed) for the phone ``holder`` describes; every
        older token of the seat stops. Returns the time."""
        self._writing()
        now = self.now()
        self._db.execute(
            "UPDATE seat_tokens SET revoked = ? WHERE game_id = ? AND seat = ? AND revoked IS NULL",
            (now, game_id, seat),
        )
        self._db.execute(
            "INSERT INTO seat_tokens (game_id, seat, token_hash, issued, holder)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, seat, token_hash, now, holder),
        )
        self._touch(game_id, version)
        return now

    def set_join_codes(self, game_id: int, codes: list[str] | None, version: int) -> None:
        """Lock the game's seats behind ``codes`` (one per seat), or open them (``None``)."""
        self._writing()
        self._db.execute("UPDATE games SET join_codes = ? WHERE id = ?",
                         (json.dumps(codes) if codes is not None else None, game_id))
        self._touch(game_id, version)

    def set_bots(self, game_id: int, bots: Sequence[str | None], version: int) -> None:
        """Who plays each seat from now on: a bot's level, or ``None`` for a person."""
        self._writing()
        self._db.execute("UPDATE games SET bots = ? WHERE id = ?", (_bots_text(bots), game_id))
        self._touch(game_id, version)

    def set_hints_off(self, game_id: int, off: bool, version: int) -> None:
        """Turn the game's hints off (or on again)."""
        self._writing()
        self._db.execute("UPDATE games SET hints_off = ? WHERE id = ?", (int(off), game_id))
        self._touch(game_id, version)

    def add_hint(self, game_id: int, seat: int, position: int, version: int) -> bool:
        """Count a hint ``seat`` asked for after the game's first ``position`` actions; asking
        again on the same position counts once. Returns whether it was new."""
        self._writing()
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO hints (game_id, seat, position, time) VALUES (?, ?, ?, ?)",
            (game_id, seat, position, self.now()))
        if cursor.rowcount:
            self._touch(game_id, version)
        return bool(cursor.rowcount)

    def hints_used(self, game_id: int, seats: int) -> tuple[int, ...]:
        """How many hints each of the game's ``seats`` seats asked for."""
        counts = dict(self._db.execute(
            "SELECT seat, COUNT(*) FROM hints WHERE game_id = ? GROUP BY seat", (game_id,)))
        return tuple(int(counts.get(seat, 0)) for seat in range(seats))

    def add_host_session(self, token_hash: str, expires: str) -> None:
        """Remember a host session (hashed) until ``expires``."""
        self._writing()
        self._db.execute("INSERT INTO host_sessions (token_hash, created, expires)"
                         " VALUES (?, ?, ?)", (token_hash, self.now(), expires))

    def end_host_session(self, token_hash: str) -> None:
        """End a host session (log out)."""
        self._writing()
        self._db.execute("UPDATE host_sessions SET ended = ? WHERE token_hash = ?",
                         (self.now(), token_hash))

    def host_sessions(self) -> dict[str, str]:
        """The host sessions not ended: token hash → expiry (ISO time)."""
        rows = self._db.execute(
            "SELECT token_hash, expires FROM host_sessions WHERE ended IS NULL")
        return {row["token_hash"]: row["expires"] for row in rows}

    def set_setting(self, key: str, value: Any) -> None:
        """Keep a box-wide setting (JSON) in ``meta`` under ``setting.KEY`` (the pad's game,
        the box's language): no schema change, journaled like any write."""
        self._writing()
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                         (f"setting.{key}", json.dumps(value)))

    def setting(self, key: str, default: Any = None) -> Any:
        """A box-wide setting kept by :meth:`set_setting`, or ``default``."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?",
                               (f"setting.{key}",)).fetchone()
        return json.loads(row[0]) if row is not None else default
    def set_club_code(self, game_id: int, seat: int, code: str) -> None:
        """Keep the club code a seat's player entered (sent with the game's record)."""
        self._writing()
        self._db.execute(
            "INSERT OR REPLACE INTO club_codes (game_id, seat, code, entered) VALUES (?, ?, ?, ?)",
            (game_id, seat, code, self.now()))

    def club_delivered(self, through_seq: int) -> int:
        """Mark the outbox rows up to ``through_seq`` delivered (the hub has them); returns how
        many were newly marked."""
        self._writing()
        cursor = self._db.execute(
            "UPDATE club_outbox SET delivered = ? WHERE seq <= ? AND delivered IS NULL",
            (self.now(), through_seq))
        return cursor.rowcount

    def add_tournament(
        self,
        game: str,
        players: list[str],
        options: dict[str, Any],
        lock_order: list[int],
        *,
        created: str | None = None,
        bots: Sequence[str | None] = (),
    ) -> int:
        """Record a new tournament; returns its id."""
        self._writing()
        cursor = self._db.execute(
            "INSERT INTO tournaments (game, players, options, lock_order, created, status, bots)"
            " VALUES (?, ?, ?, ?, ?, 'active', ?)",
            (game, json.dumps(players), json.dumps(options), json.dumps(lock_order),
             created or self.now(), _bots_text(bots)),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def end_tournament(self, tid: int, status: str) -> None:
        """Close a tournament as ``finished`` or ``abandoned``."""
        self._writing()
        self._db.execute(
            "UPDATE tournaments SET status = ?, ended = ? WHERE id = ?", (status, self.now(), tid)
        )

    def _touch(self, game_id: int, version: int) -> None:
        self._db.execute("UPDATE games SET version = ? WHERE id = ?", (version, game_id))

    # --- reads ----------------------------------------------------------------------------

    def version(self) -> int:
        """The journal's change counter (bumped by every transaction)."""
        return version_of(self._db)

    def games(self, status: str | None = None) -> list[GameRow]:
        """Every game (or those with ``status``), oldest first."""
        return games_of(self._db, status)

    def actions(self, game_id: int) -> list[ActionRow]:
        """The game's live actions in order (undone ones left out)."""
        return actions_of(self._db, game_id)

    def holders(self, game_id: int) -> dict[int, SeatHolder]:
        """Who holds each claimed seat of the game."""
        rows = self._db.execute(
            "SELECT seat, holder, issued FROM seat_tokens WHERE game_id = ? AND revoked IS NULL",
            (game_id,),
        )
        return {row["seat"]: SeatHolder(row["holder"] or "", row["issued"]) for row in rows}

    def tokens(self, game_id: int) -> dict[str, int]:
        """The game's valid token hashes → seat."""
        rows = self._db.execute(
            "SELECT token_hash, seat FROM seat_tokens WHERE game_id = ? AND revoked IS NULL",
            (game_id,),
        )
        return {row["token_hash"]: row["seat"] for row in rows}

    def tournaments(self) -> list[TournamentRow]:
        """Every tournament, oldest first."""
        return tournaments_of(self._db)

    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``ok`` when sound)."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        """Close the file (idempotent). A damaged journal is left exactly as it was found:
        the last connection to close a WAL journal copies the log into the file, so a
        read-only one (which cannot) is kept open across the writer's close."""
        keeper: sqlite3.Connection | None = None
        if self.alarm.problem is not None:
            with contextlib.suppress(sqlite3.Error):
                keeper = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
                keeper.execute("PRAGMA journal_mode").fetchone()  # joins the WAL
        try:
            self._db.close()
        finally:
            if keeper is not None:
                keeper.close()


def version_of(db: sqlite3.Connection) -> int:
    """The change counter stored in ``meta``."""
    row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    return int(row[0]) if row else 0


def games_of(db: sqlite3.Connection, status: str | None = None) -> list[GameRow]:
    """Decoded ``games`` rows from any connection."""
    query = "SELECT * FROM games"
    rows = (
        db.execute(query + " WHERE status = ? ORDER BY id", (status,))
        if status
        else db.execute(query + " ORDER BY id")
    )
    return [_game_row(row) for row in rows]


def game_of(db: sqlite3.Connection, game_id: int) -> GameRow | None:
    """The decoded ``games`` row of ``game_id``, or ``None``."""
    row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    return _game_row(row) if row is not None else None


def _game_row(row: sqlite3.Row) -> GameRow:
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
        version=row["version"],
        join_codes=json.loads(row["join_codes"]) if row["join_codes"] else None,
        bots=_bots_of(row["bots"], len(json.loads(row["seats"]))),
        hints_off=bool(row["hints_off"]),
        created_clock_set=bool(row["created_clock_set"]),
        ended_clock_set=bool(row["ended_clock_set"]),
    )


def _bots_text(bots: Sequence[str | None]) -> str | None:
    return json.dumps(list(bots)) if any(level is not None for level in bots) else None


def _bots_of(text: str | None, seats: int) -> tuple[str | None, ...]:
    levels = json.loads(text) if text else []
    return tuple(levels[seat] if seat < len(levels) else None for seat in range(seats))


def actions_of(db: sqlite3.Connection, game_id: int) -> list[ActionRow]:
    """A game's live actions from any connection."""
    rows = db.execute(
        "SELECT n, seat, action, time, entered_by, clock_set FROM actions"
        " WHERE game_id = ? AND undone IS NULL ORDER BY n",
        (game_id,),
    )
    return [ActionRow(row["n"], row["seat"], row["action"], row["time"], row["entered_by"],
                      bool(row["clock_set"]))
            for row in rows]


def tournaments_of(db: sqlite3.Connection) -> list[TournamentRow]:
    """Decoded ``tournaments`` rows from any connection."""
    rows = db.execute("SELECT * FROM tournaments ORDER BY id")
    return [
        TournamentRow(
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
        for row in rows
    ]


def _storage_error(path: Path, error: sqlite3.Error) -> StorageError:
    log.error("journal %s: a write failed: %s", path, error)
    text = str(error)
    if "full" in text:
        why = "the box's storage is full"
    elif "readonly" in text or "read-only" in text:
        why = "the box's storage has become read-only"
    else:
        why = f"the journal could not be written ({text})"
    return StorageError(f"{why}: nothing was saved or changed; free some space (or fix the "
                        "storage) and try again")


def _explain(error: sqlite3.DatabaseError) -> str:
    text = str(error)
    if "file is not a database" in text or "malformed" in text:
        return (f"{text} — the file is damaged; it is left untouched: restore a backup with "
                "'tabletop journal restore', or move the file aside to start a new journal")
    if "readonly" in text or "unable to open" in text:
        return f"{text} (check that the data directory is writable by this user)"
    return text
