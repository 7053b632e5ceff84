"""The club's commands: ``tabletop club serve`` runs its own Mosquitto and the league;
``tabletop club add-box`` lets a box in at once; bad club settings are one line naming the key;
a box not in a club loads nothing of club mode."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_host.club.connection import Endpoint
from tests.club.clients import TestClient
from tests.club.daemons import Box
from tests.firmware_host.daemon import ROOT, Lines, clean_env, tabletop
from tests.ports import free_port
from tests.web_panel.served import HOST_PIN, Phone

WAIT = 30.0


def start(args: list[str], home: Path) -> tuple[subprocess.Popen[str], Lines]:
    proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=clean_env(home),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc, Lines(proc.stdout)


def test_club_serve_runs_the_broker_and_the_league_and_add_box_lets_a_box_in(
    tmp_path: Path,
) -> None:
    data, port, broker_port = tmp_path / "hub", free_port(), free_port()
    proc, lines = start(["-m", "firmware_host.cli", "club", "serve", "--hardware", "simulator",
                         "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
                         "--broker-port", str(broker_port)], tmp_path)
    try:
        assert "the club's hub and box table-1" in lines.until("tabletop: club mode", WAIT)
        lines.until("tabletop: panel at", WAIT)
        added = tabletop(["club", "add-box", "table-2", "--data-dir", str(data),
                          "--hub-address", f"127.0.0.1:{broker_port}"], tmp_path)
        assert added.returncode == 0, added.stderr
        join = re.search(r"--join-club (table-2):(\S+)@127\.0\.0\.1:(\d+)", added.stdout)
        assert join is not None and int(join.group(3)) == broker_port
        box = TestClient(Endpoint("127.0.0.1", broker_port, "table-2", join.group(2)), "t2")
        try:  # the running broker knows the new box at once
            assert box.connect().value == 0
        finally:
            box.close()
        phone = Phone(type("Served", (), {"host": "127.0.0.1", "port": port})())
        status, page = phone.get("/club/")
        assert status == 200 and b"table-1" in page
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT) == 0
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", broker_port), 1):
        pass  # the broker stopped with the hub


@pytest.mark.parametrize(("club", "named"), [
    ('box = "Table 2"\npassword = "x"', "club.box: expected a name of 1–32 lowercase"),
    ('box = "table-2"', "club.password: box 'table-2' needs its club password"),
    ('hub = true\nbroker = "auto"', "club.broker: a hub runs its own broker"),
    ('box = "t2"\npassword = "x"\nbroker = "a b"', "club.broker: expected host[:port]"),
    ('box = "t2"\npassword_file = "/nonexistent"', "club.password_file: cannot read"),
    ('hub = true\ntls_cert = "/etc/hostname"', "club.tls_cert: give both tls_cert and tls_key"),
    ('colour = "red"', "club.colour: unknown key"),
])
def test_bad_club_settings_stop_start_up_with_one_line(tmp_path: Path, club: str,
                                                       named: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[club]\n{club}\n")
    done = tabletop(["run", "--config", str(config), "--data-dir", str(tmp_path / "d")],
                    tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert named in done.stderr, done.stderr


def test_a_join_line_without_a_password_is_one_line(tmp_path: Path) -> None:
    done = tabletop(["run", "--data-dir", str(tmp_path / "d"), "--join-club", "table-2"],
                    tmp_path)
    assert done.returncode == 2 and "club.password" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_box_not_in_a_club_loads_nothing_of_club_mode(tmp_path: Path) -> None:
    proc, lines = start(["-X", "importtime", "-m", "firmware_host.cli", "run", "--hardware",
                         "simulator", "--host", "127.0.0.1", "--port", str(free_port()),
                         "--data-dir", str(tmp_path / "d")], tmp_path)
    try:
        imported = lines.imports_until("tabletop: panel at", WAIT)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT) == 0
    assert "firmware_host.companion" in imported and "flask" in imported
    # only the saved-settings reader, the pages' words and the club codes' commands (the
    # session API's own), all light, are read at start
    light = {"firmware_host.club", "firmware_host.club.joining", "web_panel.club_messages",
             "firmware_host.club.seat_codes"}
    loaded = [name for name in imported
              if name.split(".")[0] in ("paho", "zeroconf", "openskill", "ifaddr")
              or (name.startswith(("firmware_host.club", "web_panel.club", "firmware_host.names"))
                  and name not in light)]
    assert loaded == []


def test_add_box_on_a_hub_using_the_clubs_own_broker_says_where_to_add_it(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[club]\nhub = true\nbroker = "mqtt.example:1883"\nhub_password = "s"\n')
    done = tabletop(["club", "add-box", "table-2", "--config", str(config), "--data-dir",
                     str(tmp_path / "d")], tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert "uses the club's own broker (mqtt.example:1883)" in done.stderr
    assert not (tmp_path / "d" / "club").exists()


def test_the_readmes_club_a_hub_and_one_command_per_box(tmp_path: Path) -> None:
    # README: 'scripts/run --club-hub' on the hub, 'tabletop club add-box NAME' there, and the
    # one command it prints on the box (here on loopback, with the broker on a free port)
    broker_port = free_port()
    config = tmp_path / "hub.toml"
    config.write_text(f'host_pin = "{HOST_PIN}"\n[club]\nbroker_port = {broker_port}\n'
                      'listen = "127.0.0.1"\n')
    hub = Box("table-1", tmp_path / "hub", tmp_path, ["run", "--club-hub", "--config",
                                                       str(config)])
    box = Box("table-2", tmp_path / "box", tmp_path, ["run", "--config", str(config)])
    try:
        hub.start()
        assert any("club mode: the club's hub and box table-1" in line for line in hub.output)
        added = tabletop(["club", "add-box", "table-2", "--data-dir", str(hub.data),
                          "--hub-address", f"127.0.0.1:{broker_port}"], tmp_path)
        assert added.returncode == 0, added.stderr
        command = re.search(r"scripts/run (--join-club \S+)", added.stdout)
        assert command is not None
        box.start(command.group(1).split(" ", 1))
        for host in (box, hub):
            game = host.new_game(["Aiko", "Ben"])
            lock, guesser = host.seat(game, 0), host.seat(game, 1)
            host.act(lock, game, "secret 1-2-3")
            host.act(guesser, game, "guess 1-2-3")
        deadline = time.monotonic() + WAIT
        while hub.get_json("/api/club/results")["boxes"] != {"table-1": 1, "table-2": 1}:
            assert time.monotonic() < deadline, hub.get_json("/api/club/results")
            time.sleep(0.1)
        assert b"table-2" in hub.phone.get("/club/")[1]
    finally:
        box.kill()
        hub.stop()
