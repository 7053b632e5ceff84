"""Issue 32: what the journal writes to storage — an action is one small page of the write-ahead
log, and a backup writes only what changed since the backup it replaces."""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path

from firmware_host.backups import take_backup, write_changes
from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.journal_schema import PAGE_SIZE

FRAME = 24 + PAGE_SIZE


def wal_pages(journal: Path) -> list[int]:
    """The page number of every frame in the journal's write-ahead log."""
    data = journal.with_name(journal.name + "-wal").read_bytes()
    frames = (len(data) - 32) // FRAME
    return [struct.unpack(">I", data[32 + n * FRAME:36 + n * FRAME])[0] for n in range(frames)]


def test_an_action_writes_one_page_of_a_kibibyte(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "data", host_pin="246813") as box:
        game = box.create_game("dice216", ["Aiko", "Ben"], seed=3)
        journal = box.journal.path
        box.journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert box.journal.db.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE == 1024
        version = box.version()
        for roll in (3, 5, 2):
            box.act(game, -1, f"roll {roll}")
            seat = box.view(game, None)["to_act"][0]
            box.act(game, seat, box.legal_actions(game, seat)[0])
        assert len(wal_pages(journal)) == 6  # six actions, one page each
        # the versions live in the actions' rows: nothing is lost on a restart
        assert box.version() == version + 6
        assert box.game_version(game) == version + 6
    with Companion.open(tmp_path / "data", host_pin="246813") as again:
        assert again.version() == version + 6
        assert again.game_version(game) == version + 6


def test_a_journal_of_4_kib_pages_is_rewritten_to_1_kib_once(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "data", host_pin="246813") as box:
        game = box.create_game("ico", ["Aiko", "Ben"], seed=1)
    path = tmp_path / "data" / JOURNAL_FILE
    db = sqlite3.connect(path)
    for pragma in ("journal_mode = DELETE", "page_size = 4096", "journal_mode = WAL"):
        if pragma.startswith("journal_mode = WAL"):
            db.execute("VACUUM")
        db.execute(f"PRAGMA {pragma}")
    assert db.execute("PRAGMA page_size").fetchone()[0] == 4096
    db.close()
    with Companion.open(tmp_path / "data", host_pin="246813") as box:
        assert box.journal.db.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
        assert box.summary(game)["status"] == "active"


def test_a_backup_writes_only_the_blocks_that_changed(tmp_path: Path) -> None:
    source, target = tmp_path / "source", tmp_path / "target"
    source.write_bytes(bytes(range(256)) * 64)  # 16 KiB
    target.write_bytes(source.read_bytes())
    assert write_changes(source, target) == 0
    data = bytearray(source.read_bytes())
    data[5000] ^= 0xFF
    source.write_bytes(bytes(data) + b"tail")
    assert write_changes(source, target) == 4096 + 4
    assert target.read_bytes() == source.read_bytes()
    source.write_bytes(bytes(data[:1000]))
    assert write_changes(source, target) == 0 and target.read_bytes() == source.read_bytes()


def test_backups_rotate_through_the_oldest_and_stay_sound(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "data", host_pin="246813") as box:
        journal = box.journal.path
        made = []
        for n in range(4):
            game = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"}, seed=n)
            box.act(game, 0, "secret 1-2-3")
            made.append(take_backup(journal, f"test-{n}", keep=2))
        kept = sorted(journal.parent.joinpath("backups").glob("journal-*.sqlite3"))
        assert kept == made[-2:]
        for path in kept:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = sqlite3.connect(f"file:{kept[-1]}?mode=ro", uri=True).execute(
            "SELECT COUNT(*) FROM games").fetchone()[0]
        assert games == 4
