"""The journal's file: its connections, and its schema brought up to date by migrations.

The schema carries its version in ``meta`` (``schema_version``); :func:`migrate` runs the
migrations the file lacks, each in its own transaction, after keeping a backup of the journal as
it was.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from firmware_host.errors import JournalError

log = logging.getLogger(__name__)


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


def _migrate_8(db: sqlite3.Connection) -> None:
    """An action costs an SD card one page (issue 32): the actions are one B-tree keyed by game
    and number (``WITHOUT ROWID``: no separate key index to write), and each carries the
    journal's version it was committed at, so neither its game's row nor the change counter in
    ``meta`` is written for it (both are read back as the larger of theirs and the actions')."""
    _run(
        db,
        """
        CREATE TABLE actions_by_game (
            game_id INTEGER NOT NULL REFERENCES games(id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            time TEXT NOT NULL,
            undone TEXT,
            entered TEXT,
            entered_by TEXT,
            clock_set INTEGER NOT NULL DEFAULT 1,
            version INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, n)
        ) WITHOUT ROWID;
        INSERT INTO actions_by_game (game_id, n, seat, action, time, undone, entered,
                                     entered_by, clock_set)
            SELECT game_id, n, seat, action, time, undone, entered, entered_by, clock_set
            FROM actions;
        DROP TABLE actions;
        ALTER TABLE actions_by_game RENAME TO actions
        """
    )


def _migrate_9(db: sqlite3.Connection) -> None:
    """Post-game analyses (issue 34): each ended game's, computed once and kept."""
    _run(
        db,
        """
        CREATE TABLE analyses (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            body TEXT NOT NULL,
            computed TEXT NOT NULL
        )
        """
    )


#: Migration ``i`` brings a database from schema version ``i`` to ``i + 1``.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _migrate_1, _migrate_2, _migrate_3, _migrate_4, _migrate_5, _migrate_6, _migrate_7,
    _migrate_8, _migrate_9)
SCHEMA_VERSION = len(MIGRATIONS)


def connect(path: Path, *, read_only: bool) -> sqlite3.Connection:
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
    """A reader's own connection (any thread); it sees committed transactions only. Its page
    cache is small (:func:`small_cache`)."""
    try:
        return small_cache(connect(path, read_only=True))
    except sqlite3.Error as error:
        raise JournalError(f"journal {path}: {error}") from None


#: The page cache of a connection that reads once and closes (a reader's, a backup's, a check's),
#: in KiB; SQLite's default is 2 000. The pages come from the system's file cache just as fast,
#: and a read that scans the whole journal (a backup, the standings) no longer leaves megabytes of
#: freed cache in the box's heap, where what lives on fragments it (docs/benchmarks.md, memory
#: against history).
SMALL_CACHE_KIB = 128


def small_cache(db: sqlite3.Connection) -> sqlite3.Connection:
    """``db`` with a page cache of :data:`SMALL_CACHE_KIB`."""
    db.execute(f"PRAGMA cache_size = -{SMALL_CACHE_KIB}")
    return db


#: The journal's page size: an action is one page of the write-ahead log, and an SD card is
#: written in 4 KiB pages, so a 1 KiB frame rarely dirties more than one (issue 32).
PAGE_SIZE = 1024


def settle_page_size(db: sqlite3.Connection) -> None:
    """Give a new journal :data:`PAGE_SIZE` pages, and rewrite an older one to them (once, out
    of WAL mode: ``VACUUM`` copies the file; the caller has it to itself and a backup of it)."""
    if db.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE:
        return
    empty = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    if not empty:
        db.execute("PRAGMA journal_mode = DELETE")
    db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    if not empty:
        db.execute("VACUUM")


def schema_version(db: sqlite3.Connection) -> int:
    """The schema version stored in ``meta`` (0 for an empty file)."""
    has_meta = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    if not has_meta:
        return 0
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the journal at ``path`` (open on ``db``) up to :data:`SCHEMA_VERSION`."""
    current = schema_version(db)
    if current > SCHEMA_VERSION:
        raise JournalError(
            f"journal {path}: schema version {current} is newer than this program "
            f"knows ({SCHEMA_VERSION}); upgrade tabletop"
        )
    if 0 < current < SCHEMA_VERSION:  # keep the journal as it was before changing it
        from firmware_host.backups import take_backup

        take_backup(path, f"before-schema-{SCHEMA_VERSION}")
    for version in range(current, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[version](db)
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(version + 1),),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
