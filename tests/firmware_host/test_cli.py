"""The ``tabletop`` command run for real in a subprocess: start, serve, stop; and every user
error as one line with a non-zero exit code."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from rules import CHANCE
from tests.firmware_host.daemon import ROOT, Lines, clean_env, tabletop
from tests.ports import free_port


def assert_one_line_error(result: subprocess.CompletedProcess[str], text: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert text in result.stderr


def test_bad_config_value_stops_start_up_with_one_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\naddress = "abc"\n')
    result = tabletop(["run", "--config", str(config), "--data-dir", str(tmp_path / "d")],
                      tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("config error: display.address: expected an I2C address like "
                             "0x3C, got 'abc'\n")
    assert not (tmp_path / "d").exists()


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    result = tabletop(["run", "--config", str(tmp_path / "nope.toml")], tmp_path)
    assert_one_line_error(result, "config error: --config: no such file")


def test_unusable_data_dir_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = tabletop(["run", "--hardware", "simulator", "--data-dir", str(blocker / "data"),
                       "--port", str(free_port())], tmp_path)
    assert_one_line_error(result, f"data directory {blocker / 'data'}: cannot create it")


def test_damaged_journal_is_one_line(tmp_path: Path) -> None:
    # ('tabletop run' sets it aside and offers a backup: test_damaged_journal.py)
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(b"garbage" * 1000)
    result = tabletop(["history", "--data-dir", str(data)], tmp_path)
    assert_one_line_error(result, "journal")
    result = tabletop(["journal", "check", "--data-dir", str(data)], tmp_path)
    assert_one_line_error(result, "is damaged: its header is not an SQLite database's")


def test_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = tabletop(["run", "--hardware", "simulator", "--host", "127.0.0.1",
                           "--port", str(port), "--data-dir", str(tmp_path / "d")], tmp_path)
    assert_one_line_error(result, f"cannot listen on 127.0.0.1:{port}")


def test_history_without_a_journal_says_so(tmp_path: Path) -> None:
    result = tabletop(["history", "--data-dir", str(tmp_path / "empty")], tmp_path)
    assert_one_line_error(result, "no journal at")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_run_serves_the_panel_and_stops_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator",
         "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path / "data")],
        cwd=ROOT, env=clean_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        out = Lines(proc.stdout)
        assert out.until("tabletop: panel at", 30) == (
            f"tabletop: panel at http://127.0.0.1:{port}/ (simulator hardware; journal in "
            f"{tmp_path / 'data'})")
        pin = (tmp_path / "data" / "host_pin").read_text().strip()
        # a newcomer can log in: the terminal says the PIN and where
        assert out.next(10) == (f"tabletop: host PIN {pin} (log in at "
                                f"http://127.0.0.1:{port}/host)")
        assert out.next(10) == (f"tabletop: simulated device at http://127.0.0.1:{port}/device "
                                "(for the host)")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as reply:
            assert reply.status == 200 and json.loads(reply.read()) is not None
        if os.confstr("CS_GNU_LIBC_VERSION"):  # started again with its malloc settings
            environ = Path(f"/proc/{proc.pid}/environ").read_bytes().split(b"\0")
            assert b"GLIBC_TUNABLES=glibc.malloc.tcache_count=0" in environ
        proc.send_signal(stop)
        assert proc.wait(timeout=20) == 0
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (tmp_path / "data" / "host_pin").is_file()


def make_history(data: Path) -> tuple[int, int]:
    """One finished and one unfinished game on the journal in ``data``."""
    with Companion.open(data) as box:
        done = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"}, seed=1)
        box.act(done, 0, "secret 1-2-3")
        box.act(done, 1, "guess 1-2-3")
        going = box.create_game("unlock", ["Lock", "Ben"], {"difficulty": "easy"}, seed=2)
        box.act(going, 0, "secret 7-8-9")
        box.create_game("dice216", ["Chie", "Dai"], seed=3)
        box.act(3, CHANCE, "roll 2")
    return done, going


def test_the_simulator_listens_on_this_computer_only_unless_told(tmp_path: Path) -> None:
    # /device plays any seat: off a Pi, the panel binds to loopback by default
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator",
         "--port", str(port), "--data-dir", str(tmp_path / "data")],
        cwd=ROOT, env=clean_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert Lines(proc.stdout).until("tabletop: panel at", 30).startswith(
            f"tabletop: panel at http://127.0.0.1:{port}/")
        listening = Path("/proc/net/tcp").read_text().splitlines()
        mine = [line.split()[1] for line in listening[1:]
                if line.split()[1].endswith(f":{port:04X}") and line.split()[3] == "0A"]
        assert mine == [f"0100007F:{port:04X}"], mine  # 127.0.0.1, not 0.0.0.0
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_history_lists_games_newest_first(tmp_path: Path) -> None:
    make_history(tmp_path / "data")
    result = tabletop(["history", "--data-dir", str(tmp_path / "data")], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "game", "status", "players", "started", "ended",
                                "winners"]
    assert [line.split()[:3] for line in lines[1:]] == [
        ["3", "dice216", "active"], ["2", "unlock", "active"], ["1", "unlock", "finished"]]
    assert lines[3].rstrip().endswith("Aiko")


def test_export_json_has_actions_only_of_ended_games(tmp_path: Path) -> None:
    done, going = make_history(tmp_path / "data")
    out = tmp_path / "export.json"
    result = tabletop(["export", "--format", "json", "--out", str(out),
                       "--data-dir", str(tmp_path / "data")], tmp_path)
    assert result.returncode == 0, result.stderr
    games = {g["id"]: g for g in json.loads(out.read_text())["games"]}
    assert [a["action"] for a in games[done]["actions"]] == ["secret 1-2-3", "guess 1-2-3"]
    assert games[done]["seed"] == 1
    assert "actions" not in games[going] and "seed" not in games[going]
    assert "7-8-9" not in out.read_text()


def test_export_csv_has_one_row_per_action(tmp_path: Path) -> None:
    make_history(tmp_path / "data")
    result = tabletop(["export", "--format", "csv", "--data-dir", str(tmp_path / "data")],
                      tmp_path)
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0].startswith("game_id,game,status")
    assert len(rows) == 1 + 2 + 1 + 1  # header, two actions of game 1, one row per other game
    assert "7-8-9" not in result.stdout and "roll 2" not in result.stdout


def test_check_hardware_reports_each_device_with_advice(tmp_path: Path) -> None:
    import os
    import pty

    controller, device = pty.openpty()
    try:
        config = tmp_path / "config.toml"
        config.write_text(f'data_dir = "{tmp_path / "data"}"\n[serial]\ndevice = '
                          f'"{os.ttyname(device)}"\n[display]\nbus = 7\naddress = 0x3D\n')
        result = tabletop(["check-hardware", "--config", str(config)], tmp_path)
    finally:
        os.close(controller)
        os.close(device)
    assert "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert "[FAIL] gpio /dev/gpiochip*: none found" in lines[0]  # from hardware.probe
    assert any(line.startswith("[FAIL] board: not a Raspberry Pi") for line in lines)
    oled = next(i for i, line in enumerate(lines) if "OLED (ssd1306, i2c)" in line)
    assert "I2C bus 7 address 0x3D: no /dev/i2c-7" in lines[oled]
    assert "i2cdetect -y 7" in lines[oled + 1]
    assert any(line.startswith("[ok  ] die/keypad: /dev/pts/") for line in lines)
    assert any("GPIO17 OK button" in line for line in lines)
    assert result.returncode == 1 and lines[-1].endswith("problem(s) found.")


def test_check_hardware_gives_advice_for_a_missing_die(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[serial]\ndevice = "/dev/ttyNOPE9"\n')
    result = tabletop(["check-hardware", "--config", str(config)], tmp_path)
    lines = result.stdout.splitlines()
    die = next(i for i, line in enumerate(lines) if "die/keypad" in line)
    assert lines[die].startswith("[FAIL] die/keypad: /dev/ttyNOPE9 not found")
    assert "plug in the die/keypad" in lines[die + 1]


def test_stop_ends_open_live_streams(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Companion.open(data) as box:
        gid = box.create_game("ico", ["Aiko", "Ben"])
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator",
         "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)],
        cwd=ROOT, env=clean_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    streams = []
    try:
        Lines(proc.stdout).until("tabletop: panel at", 30)
        for _ in range(3):
            stream = urllib.request.urlopen(
                f"http://127.0.0.1:{port}/api/games/{gid}/events", timeout=10)
            assert stream.readline().startswith(b"retry:")
            streams.append(stream)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        errors = proc.stderr.read()  # type: ignore[union-attr]
        assert "still running" not in errors and "Traceback" not in errors
        for stream in streams:  # each stream ends (the server closed it) rather than hanging
            assert stream.read() is not None
    finally:
        for stream in streams:
            stream.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
