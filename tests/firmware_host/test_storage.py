"""Files and disks (issue 16): a full disk refuses an action cleanly, the box's files are
private, each finished game is backed up, a backup comes back with one command, and an emptied
or newer journal stops the box with one line — never a destructive write. (A damaged journal is
set aside and replaced with the host's consent: ``test_damaged_journal.py``.)"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest

from firmware_host.backups import backups
from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.errors import JournalError, StorageError
from firmware_host.journal_schema import SCHEMA_VERSION
from tests.firmware_host.daemon import tabletop
from tests.ports import free_port

EXIT_JOURNAL = 3


def finished_game(box: Companion) -> int:
    game_id = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"})
    box.act(game_id, 0, "secret 1-2-3")
    box.act(game_id, 1, "guess 1-2-3")
    assert box.view(game_id, None)["outcome"] is not None
    return game_id


def wait_for_backups(journal: Path, count: int) -> None:
    deadline = time.monotonic() + 10
    while len(backups(journal)) < count:
        assert time.monotonic() < deadline, "no backup was taken"
        time.sleep(0.02)


def fill_up(box: Companion) -> None:
    """Make the journal full, as SQLite sees a full disk: the file may not grow; games, then
    rolls of a spare game, are added until one is refused (never shown)."""
    spare = box.create_game("dice216", ["Spare", "Game", "Three"], {"size": 12})
    db = box.journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    for _ in range(2000):
        games = len(box.games())
        try:
            box.create_game("ico", ["Aiko", "Ben"])
        except StorageError:
            assert len(box.games()) == games  # the refused game was never shown
            break
    for _ in range(300):
        view = box.view(spare, None)
        seat = view["to_act"][0]
        try:
            if seat == -1:
                box.act(spare, -1, "roll 1")
            else:
                row, col = next((r, c) for r in range(12) for c in range(12)
                                if view["cells"][r][c] is None)
                box.act(spare, seat, f"place {row + 1} {col + 1}")
        except StorageError:
            assert box.view(spare, None) == view
            return
    pytest.fail("the journal never filled up")


def test_a_full_disk_refuses_the_action_cleanly_and_the_box_goes_on(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "data", host_pin="246813") as box:
        game_id = box.create_game("dice216", ["Aiko", "Ben"])
        fill_up(box)
        view = box.view(game_id, None)
        journaled = box.journal.actions(game_id)
        with pytest.raises(StorageError, match="storage is full: nothing was saved"):
            box.act(game_id, -1, "roll 3")
        # nothing half-applied: not shown, not journaled, the file sound
        assert box.view(game_id, None) == view
        assert box.journal.actions(game_id) == journaled
        assert box.journal.integrity() == "ok"
        box.journal._db.execute("PRAGMA max_page_count = 1073741823")  # space again
        box.act(game_id, -1, "roll 3")  # the box goes on
        assert box.view(game_id, None)["pending_roll"] == 3


def test_a_full_disk_is_a_503_on_the_panel(tmp_path: Path) -> None:
    from tests.web_panel.served import CSRF, HOST_PIN, make_app

    with Companion.open(tmp_path / "data", host_pin=HOST_PIN) as box:
        game_id = box.create_game("dice216", ["Aiko", "Ben"])
        host = make_app(box).test_client()
        assert host.post("/api/host/login", json={"pin": HOST_PIN},
                         headers=CSRF).status_code == 200
        fill_up(box)
        reply = host.post(f"/api/games/{game_id}/chance", json={"roll": "random"},
                          headers=CSRF)
        assert reply.status_code == 503
        assert reply.get_json()["error"] == "storage"
        assert box.view(game_id, None)["to_act"] == [-1]


def test_the_box_files_are_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Companion.open(data) as box:  # the PIN is generated into the data directory
        finished_game(box)
        wait_for_backups(box.journal.path, 1)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    files = [data / JOURNAL_FILE, data / "host_pin", backups(data / JOURNAL_FILE)[0].path]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE((data / "backups").stat().st_mode) == 0o700


def test_each_finished_game_is_backed_up_and_a_backup_comes_back(tmp_path: Path) -> None:
    data = tmp_path / "data"
    journal = data / JOURNAL_FILE
    with Companion.open(data, host_pin="246813") as box:
        finished_game(box)
        wait_for_backups(journal, 1)
        finished_game(box)
        wait_for_backups(journal, 2)
    assert [b.games for b in backups(journal)] == [2, 1]  # newest first
    journal.unlink()  # lost
    for extra in ("-wal", "-shm"):
        Path(str(journal) + extra).unlink(missing_ok=True)
    # an empty start would hide two games: the box says so instead
    with pytest.raises(JournalError, match="tabletop journal restore"):
        Companion.open(data, host_pin="246813")
    assert not journal.exists()
    done = tabletop(["journal", "restore", "--data-dir", str(data)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 games" in done.stdout
    with Companion.open(data, host_pin="246813") as box:
        assert len(box.history()) == 2


def test_games_that_end_while_a_backup_waits_share_it(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """At most one backup waits: games ending while the journal is being copied are all in
    the next copy, taken once, under the newest game's name."""
    import threading

    import firmware_host.companion as companion_module

    copying, release = threading.Event(), threading.Event()
    reasons: list[str] = []
    real = companion_module.take_backup

    def slow(journal: Path, reason: str) -> Path:
        reasons.append(reason)
        copying.set()
        assert release.wait(20)
        return real(journal, reason)

    monkeypatch.setattr(companion_module, "take_backup", slow)
    with Companion.open(tmp_path / "data") as box:
        first = finished_game(box)
        assert copying.wait(10)  # the first game's backup is being taken
        later = [finished_game(box) for _ in range(3)]
        release.set()
        box.settle(timeout=30)
        assert reasons == [f"game-{first}", f"game-{later[-1]}"]
        newest = backups(box.journal.path)[0]
        assert newest.path.name.endswith(f"-game-{later[-1]}.sqlite3")
        assert newest.games == 4


def test_restore_keeps_the_journal_it_replaces(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Companion.open(data, host_pin="246813") as box:
        finished_game(box)
        wait_for_backups(box.journal.path, 1)
        finished_game(box)
    done = tabletop(["journal", "restore", "--data-dir", str(data),
                     str(backups(data / JOURNAL_FILE)[-1].path)], tmp_path)
    assert done.returncode == 0, done.stderr
    kept = list(data.glob("journal.sqlite3.replaced-*"))
    kept = [k for k in kept if not k.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1
    db = sqlite3.connect(kept[0])
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    db.close()


def test_an_emptied_journal_with_backups_stops_the_box_loudly(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Companion.open(data, host_pin="246813") as box:
        finished_game(box)
        wait_for_backups(box.journal.path, 1)
    journal = data / JOURNAL_FILE
    journal.write_bytes(b"")  # truncated to zero bytes
    result = tabletop(["run", "--hardware", "simulator", "--data-dir", str(data),
                       "--port", str(free_port())], tmp_path)
    assert result.returncode == EXIT_JOURNAL
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    assert "is empty" in result.stderr and "tabletop journal restore" in result.stderr
    assert journal.read_bytes() == b""  # untouched


def test_a_journal_from_a_newer_program_stops_the_box_untouched(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Companion.open(data, host_pin="246813"):
        pass
    journal = data / JOURNAL_FILE
    db = sqlite3.connect(journal)
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    db.commit()
    db.close()
    before = journal.read_bytes()
    result = tabletop(["run", "--hardware", "simulator", "--data-dir", str(data),
                       "--port", str(free_port())], tmp_path)
    assert result.returncode == EXIT_JOURNAL and "upgrade tabletop" in result.stderr
    assert journal.read_bytes() == before


def test_a_read_only_data_directory_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() == 0:  # root writes anywhere: make the directory a read-only mount
        data = tmp_path / "ro"
        data.mkdir()
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(data)],
                                 capture_output=True, check=False)
        assert mounted.returncode == 0, mounted.stderr
    else:
        data = tmp_path / "ro"
        data.mkdir(mode=0o500)
    try:
        result = tabletop(["run", "--hardware", "simulator", "--data-dir", str(data),
                           "--port", str(free_port())], tmp_path)
        assert result.returncode != 0
        assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
        assert str(data) in result.stderr
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(data)], check=False)


def test_a_migration_keeps_the_old_journal_as_a_backup(tmp_path: Path) -> None:
    from tests.firmware_host.test_journal import make_v1_journal
    from tests.firmware_host.toys import toy_games

    data = tmp_path / "data"
    data.mkdir()
    make_v1_journal(data / JOURNAL_FILE)
    with Companion.open(data, games=toy_games()):
        pass
    (kept,) = backups(data / JOURNAL_FILE)
    assert f"before-schema-{SCHEMA_VERSION}" in kept.path.name and kept.games == 1
    db = sqlite3.connect(kept.path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "1"
    db.close()
