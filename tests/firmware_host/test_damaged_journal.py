"""Issue 30: a damaged journal is noticed, set aside untouched, told to the table, and replaced by
its newest sound backup — at start and when play meets the damage.

Damage is made in the places SQLite users meet it: a data page, an index page, the middle of
the file (4 KiB, the issue's own case), the header, and the write-ahead log of a box whose
power was cut. Each is found by ``examine`` and ``tabletop journal check``; a real
``tabletop run`` moves the file aside, serves the notice on every page (and the OLED) with the
backup's time, games and what is lost, takes no moves, and restores the backup for the host.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware_host.backups import backups
from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.errors import JournalDamaged
from firmware_host.journal_check import examine, wal_problem
from firmware_host.journal_schema import PAGE_SIZE
from tests import waiting
from tests.firmware_host.daemon import ROOT, Lines, clean_env, tabletop
from tests.firmware_host.ui.conftest import has_line
from tests.ports import free_port
from tests.web_panel.served import CSRF, make_app

PIN = "246813"
EXIT_JOURNAL = 3
PAGE = PAGE_SIZE  # the journal's own pages


def finished_game(box: Companion, secret: str = "1-2-3") -> int:
    game_id = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"})
    box.act(game_id, 0, f"secret {secret}")
    box.act(game_id, 1, f"guess {secret}")
    return game_id


wait_for = partial(waiting.wait_for, timeout=20.0)


def second_backed_up(box: Companion) -> None:
    """Wait for the second game's backup (the backups are taken in turn, so the first is
    taken too): it holds the two games, whatever is begun after it."""
    wait_for(lambda: any(b.path.name.endswith("-game-2.sqlite3") and b.games == 2
                         for b in backups(box.journal.path)), "the second game's backup")


def played(data: Path) -> None:
    """Two finished games (the second backed up), then two more begun after that backup."""
    with Companion.open(data, host_pin=PIN) as box:
        finished_game(box)
        finished_game(box, "4-5-6")
        second_backed_up(box)
        for _ in range(2):
            game = box.create_game("dice216", ["Chie", "Dai"])
            box.act(game, -1, "roll 3")


def root_page(journal: Path, name: str) -> int:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        (page,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                             (name,)).fetchone()
        return int(page)
    finally:
        db.close()


def overwrite(path: Path, at: int, size: int) -> None:
    with path.open("r+b") as file:
        file.seek(at)
        file.write(bytes((i * 37 + 11) % 256 for i in range(size)))


def damage_data_page(journal: Path) -> None:
    overwrite(journal, (root_page(journal, "actions") - 1) * PAGE, PAGE)


def damage_index_page(journal: Path) -> None:
    overwrite(journal, (root_page(journal, "games_status") - 1) * PAGE, PAGE)


def damage_middle(journal: Path) -> None:
    overwrite(journal, journal.stat().st_size // PAGE // 2 * PAGE, 4096)


def damage_header(journal: Path) -> None:
    overwrite(journal, 0, 100)


DAMAGE = {"data page": damage_data_page, "index page": damage_index_page,
          "middle 4 KiB": damage_middle, "header": damage_header}


def power_cut_with_damaged_wal(data: Path) -> None:
    """The data directory of a box whose power was cut with committed changes still in its
    WAL, and a frame of that WAL damaged since (before the last commit)."""
    live = data.with_name("live")
    with Companion.open(live, host_pin=PIN) as box:
        finished_game(box)
        finished_game(box, "4-5-6")
        second_backed_up(box)
        box.settle()  # the ended games' analyses kept: nothing writes during the checkpoint
        box.journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for _ in range(3):
            game = box.create_game("dice216", ["Chie", "Dai"])
            box.act(game, -1, "roll 3")
        # the power is cut here: the files as they are on disk, WAL and all
        shutil.copytree(live, data)
    wal = data / (JOURNAL_FILE + "-wal")
    assert wal_problem(wal) is None and wal.stat().st_size > 4 * (PAGE + 24)
    overwrite(wal, 32 + (PAGE + 24) + 24 + 200, 64)  # inside the second frame's page


@pytest.fixture(params=[*DAMAGE, "wal"])
def damaged(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, bytes]]:
    """A data directory whose journal is damaged, and a hash of every damaged file."""
    data = tmp_path / "data"
    if request.param == "wal":
        power_cut_with_damaged_wal(data)
    else:
        played(data)
        DAMAGE[request.param](data / JOURNAL_FILE)
    yield data, files_hash(data / JOURNAL_FILE)


def files_hash(journal: Path) -> bytes:
    digest = hashlib.sha256()
    for suffix in ("", "-wal"):
        part = journal.with_name(journal.name + suffix)
        digest.update(part.read_bytes() if part.exists() else b"-")
    return digest.digest()


def test_examine_finds_each_kind_of_damage(damaged: tuple[Path, bytes]) -> None:
    data, before = damaged
    journal = data / JOURNAL_FILE
    assert examine(journal) is not None
    assert files_hash(journal) == before  # examining wrote nothing


def test_journal_check_names_the_damage_and_the_backup(damaged: tuple[Path, bytes],
                                                       tmp_path: Path) -> None:
    data, before = damaged
    result = tabletop(["journal", "check", "--data-dir", str(data)], tmp_path)
    assert result.returncode == EXIT_JOURNAL
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    assert "is damaged" in result.stderr and "(2 games)" in result.stderr
    assert files_hash(data / JOURNAL_FILE) == before


def test_journal_check_passes_a_sound_journal(tmp_path: Path) -> None:
    played(tmp_path / "data")
    for extra in ([], ["--full"]):
        result = tabletop(["journal", "check", "--data-dir", str(tmp_path / "data"), *extra],
                          tmp_path)
        assert result.returncode == 0 and "is sound" in result.stdout, result.stderr


@dataclass
class Running:
    proc: subprocess.Popen[str]
    url: str
    stdout: Lines

    def get(self, path: str, lang: str = "en") -> tuple[int, str, str]:
        request = urllib.request.Request(self.url + path, headers={"Accept-Language": lang})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, reply.headers.get_content_type(), reply.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get_content_type(), error.read().decode()

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", **CSRF})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[Path, str], Running]]:
    started: list[subprocess.Popen[str]] = []

    def run(data: Path, first_line: str) -> Running:
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator",
             "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)],
            cwd=ROOT, env=clean_env(tmp_path),
            stdout=subprocess.PIPE, stderr=(tmp_path / "stderr").open("w"), text=True)
        started.append(proc)
        out = Lines(proc.stdout)
        out.until(first_line, 30)
        return Running(proc, f"http://127.0.0.1:{port}", out)

    yield run
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def pin_of(data: Path) -> str:
    return (data / "host_pin").read_text().strip()


def check_the_notice(box: Running, data: Path, before: bytes, log: Path) -> None:
    """The damaged journal is aside and untouched, said in one line, on every page and the
    OLED; no move is taken."""
    journal = data / JOURNAL_FILE
    assert not journal.exists()
    (aside,) = data.glob(JOURNAL_FILE + ".damaged-*[0-9Z]")
    assert files_hash(aside) == before
    said = [line for line in log.read_text().splitlines() if "kept aside as" in line]
    assert len(said) == 1 and str(aside) in said[0] and "(2 games)" in said[0]
    titles = (("en", "The journal is damaged"), ("ja", "記録ファイルが破損しています"))
    for path in ("/", "/games/1", "/host", "/history", "/standings", "/nope"):
        for lang, title in titles:
            status, kind, page = box.get(path, lang)
            assert (status, kind) == (503, "text/html") and title in page, (path, status)
            assert "holds 2 games" in page or "2 ゲーム" in page
    status, kind, body = box.get("/api/games")
    notice = json.loads(body)
    assert (status, notice["error"]) == (503, "journal_damaged")
    assert "2 games" in notice["notice"]["offer"] and "loses" in notice["notice"]["lost"]
    status, answer = box.post("/api/games/1/act", {"action": "guess 1-2-3"})
    assert (status, answer["error"]) == (503, "journal_damaged")
    frame = Image.open(io.BytesIO(box_bytes(box, "/device/frame.png")))
    assert has_line(frame, "Journal damaged", x=1, inverted=True)
    assert has_line(frame, f"PIN {pin_of(data)}")


def box_bytes(box: Running, path: str) -> bytes:
    with urllib.request.urlopen(box.url + path, timeout=10) as reply:
        return bytes(reply.read())


def restore_and_play(box: Running, data: Path) -> None:
    """The host restores the backup with the PIN; the box plays on from it."""
    assert box.post("/api/journal/restore", {"pin": "000000"})[0] == 403
    status, answer = box.post("/api/journal/restore", {"pin": pin_of(data)})
    assert status == 200 and answer["restored"] is True
    wait_for(lambda: box.get("/api/games")[0] == 200, "the box to play again")
    ended = json.loads(box.get("/api/history")[2])
    assert len(ended) == 2 and json.loads(box.get("/api/games")[2]) == []  # the backup's
    assert box.proc.poll() is None
    box.proc.send_signal(signal.SIGTERM)
    assert box.proc.wait(20) == 0


def test_a_damaged_journal_at_start_is_set_aside_offered_and_restored(
    damaged: tuple[Path, bytes], start: Callable[[Path, str], Running], tmp_path: Path
) -> None:
    data, before = damaged
    box = start(data, "tabletop: the journal is damaged")
    check_the_notice(box, data, before, tmp_path / "stderr")
    restore_and_play(box, data)
    assert "Traceback" not in (tmp_path / "stderr").read_text()


def test_no_sound_backup_offers_an_empty_journal(
    start: Callable[[Path, str], Running], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    played(data)
    for backup in backups(data / JOURNAL_FILE):
        damage_header(backup.path)
    damage_data_page(data / JOURNAL_FILE)
    box = start(data, "tabletop: the journal is damaged")
    status, _, page = box.get("/")
    assert status == 503 and "No backup is sound" in page
    status, answer = box.post("/api/journal/restore", {"pin": pin_of(data)})
    assert status == 200 and answer["restored"] is False
    wait_for(lambda: box.get("/api/games")[0] == 200, "the box to play again")
    assert json.loads(box.get("/api/games")[2]) == []
    assert json.loads(box.get("/api/history")[2]) == []


def test_damage_met_during_play_stops_moves_and_is_told(tmp_path: Path) -> None:
    """In process: a read that meets SQLITE_CORRUPT refuses (503, never 500, again and again),
    and the session takes no more moves."""
    data = tmp_path / "data"
    played(data)
    with Companion.open(data, host_pin=PIN) as box:
        heard: list[str] = []
        box.journal.alarm.listen(heard.append)
        going = box.create_game("unlock", ["Lock", "Ben"])
        damage_data_page(box.journal.path)
        client = make_app(box, TESTING=False, PROPAGATE_EXCEPTIONS=False).test_client()
        for _ in range(3):  # the ended game is rebuilt from the journal: it meets the damage
            reply = client.get("/api/games/1")
            assert reply.status_code == 503 and reply.get_json()["error"] == "journal_damaged"
        assert len(heard) == 1 and "malformed" in heard[0]
        with pytest.raises(JournalDamaged):
            box.act(going, 0, "secret 1-2-3")
        reply = client.post(f"/api/games/{going}/act", json={"action": "secret 1-2-3"},
                            headers=CSRF)
        assert reply.status_code in (401, 403, 503)


def test_damage_met_by_the_running_box_switches_it_to_the_notice(
    start: Callable[[Path, str], Running], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    played(data)
    box = start(data, "tabletop: panel at")
    assert box.get("/api/games")[0] == 200
    damage_data_page(data / JOURNAL_FILE)
    before_hash = files_hash(data / JOURNAL_FILE)
    status, _, body = box.get("/api/games/1")  # an ended game: read from the journal
    assert status == 503 and json.loads(body)["error"] == "journal_damaged"
    wait_for(lambda: not (data / JOURNAL_FILE).exists(), "the journal to be set aside")
    box.stdout.until("tabletop: the journal is damaged", 20)
    check_the_notice(box, data, before_hash, tmp_path / "stderr")
    restore_and_play(box, data)
