"""The hub looks after its own Mosquitto (``firmware_host/club/supervisor.py``): SIGKILLed, it
is listening again on the same port within seconds and a result the hub's box queued meanwhile
reaches the league; while it is down the host page and the club pages say since when; repeated
deaths back off; closing the hub ends supervision and leaves no Mosquitto; a broker the club
already had is not the hub's to restart. Real Mosquitto processes and paho clients."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from functools import partial
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from firmware_host.club.broker import HUB_USER, BrokerError, BrokerFiles, Mosquitto
from firmware_host.club.connection import Endpoint
from firmware_host.club.runtime import PID_FILE, Club, start_club
from firmware_host.club.supervisor import Backoff, Supervisor
from firmware_host.companion import Companion
from firmware_host.config import ClubConfig
from tests import waiting
from tests.club.broker import RunningBroker
from tests.club.clients import TestClient
from tests.club.test_club_pages import club_app
from tests.ports import free_port
from tests.web_panel.served import CSRF, HOST_PIN, data_dir
from web_panel.club import ClubPanel
from web_panel.club_messages import CLUB_MESSAGES

WAIT = 20.0
#: How soon a killed broker must listen again (its first wait is 1 s).
BACK_WITHIN = 5.0


wait_for = partial(waiting.wait_for, timeout=WAIT)


def listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


def mosquittos(conf: Path) -> list[int]:
    """The Mosquitto processes running from ``conf``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if str(conf).encode() in cmdline and any(p.endswith(b"mosquitto") for p in cmdline):
            found.append(int(entry.name))
    return found


def kill(club: Club) -> int:
    """SIGKILL the hub's broker; its process id."""
    assert club.broker is not None and club.broker.proc is not None
    pid = club.broker.proc.pid
    os.kill(pid, signal.SIGKILL)
    return pid


@contextlib.contextmanager
def hub(box: str | None = "table-1") -> Iterator[tuple[Companion, Club]]:
    """A hub as ``tabletop run --club-hub`` starts it: its Mosquitto, the league, its box."""
    config = ClubConfig(box=box, hub=True, broker="local", broker_port=free_port(),
                        listen="127.0.0.1", retry_seconds=1, resend_seconds=2)
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        club = start_club(config, path, companion, companion.journal.path,
                          panel_url=lambda: None, league_url=lambda: None)
        try:
            yield companion, club
        finally:
            club.close()


def test_a_killed_hub_broker_listens_again_and_a_queued_result_reaches_the_league() -> None:
    with hub() as (companion, club):
        assert club.broker is not None and club.supervisor is not None
        assert club.hub is not None and club.league is not None and club.files is not None
        assert club.hub.connected.wait(WAIT)
        port = club.broker.port
        killed_at = time.monotonic()
        old = kill(club)
        game = companion.create_game("unlock", ["Aiko", "Ben"])
        companion.abandon(game)  # ended while the broker is down: it waits in the outbox
        wait_for(lambda: club.supervisor is not None
                 and club.supervisor.status()["restarts"] == 1 and listening(port))
        back = time.monotonic() - killed_at
        print(f"the hub's broker listened again {back:.2f} s after SIGKILL")
        assert back < BACK_WITHIN
        assert club.broker.proc is not None and club.broker.proc.pid != old
        assert mosquittos(club.files.conf) == [club.broker.proc.pid]
        pid_file = club.files.directory / PID_FILE
        assert pid_file.read_text().strip() == str(club.broker.proc.pid)  # for club add-box
        probe = TestClient(Endpoint("127.0.0.1", port, HUB_USER, club.files.hub_password()),
                           "probe")
        try:  # the hub's credentials work on the new broker
            assert probe.connect().value == 0
            assert not probe.publish("club/v1/probe", b"x").is_failure  # 16: nobody listens
        finally:
            probe.close()
        wait_for(lambda: club.league is not None and club.league.counts() == {"table-1": 1})
        print(f"the queued result was in the league {time.monotonic() - killed_at:.2f} s "
              "after SIGKILL")
        assert club.supervisor.status() == {"running": True, "down_since": None,
                                            "restarts": 1}


@contextlib.contextmanager
def held(port: int) -> Iterator[socket.socket]:
    """Another program listening on ``port`` (it may have just been freed)."""
    other = socket.socket()
    other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        wait_for(lambda: _bound(other, port))
        other.listen()
        yield other
    finally:
        other.close()


def _bound(sock: socket.socket, port: int) -> bool:
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        return False
    return True


def test_a_port_another_program_listens_on_stops_the_broker_with_the_port_named(
        tmp_path: Path) -> None:
    files = BrokerFiles(tmp_path / "club")
    files.prepare()
    port = free_port()
    broker = Mosquitto(files.write_conf(port=port, listen="127.0.0.1"), port, files.log)
    with held(port), pytest.raises(BrokerError, match=f"is port {port} in use"):
        broker.start()  # the other program accepts connections: they are not the broker's
    assert not broker.running()


def test_a_restart_while_another_program_holds_the_port_is_retried_not_counted() -> None:
    with hub() as (_, club):
        assert club.supervisor is not None and club.broker is not None
        assert club.files is not None
        supervisor, port = club.supervisor, club.broker.port
        kill(club)
        with held(port):  # through the first restart (after 1 s)
            wait_for(lambda: len(supervisor.delays) >= 2)  # the first restart failed
            assert supervisor.status()["restarts"] == 0
            assert supervisor.status()["running"] is False
        wait_for(lambda: supervisor.status()["restarts"] == 1)
        assert list(supervisor.delays) == [1.0, 2.0]
        assert club.broker.proc is not None and club.broker.running()
        assert mosquittos(club.files.conf) == [club.broker.proc.pid] and listening(port)
        assert supervisor.status() == {"running": True, "down_since": None, "restarts": 1}


def login(client: FlaskClient) -> None:
    reply = client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    assert reply.status_code == 200


def pages(client: FlaskClient, lang: str) -> dict[str, str]:
    found = {}
    for path in ("/host", "/club/", "/club/me"):
        reply = client.get(path, headers={"Accept-Language": lang})
        assert reply.status_code == 200, path
        found[path] = reply.get_data(as_text=True)
    return found


def test_the_host_page_and_club_pages_say_since_when_the_broker_is_down() -> None:
    with hub(box=None) as (companion, club):
        assert club.supervisor is not None and club.hub is not None and club.files is not None
        supervisor = club.supervisor
        client = club_app(companion, ClubPanel(league=club.league, live=club.hub.live,
                                               broker=supervisor.status)).test_client()
        login(client)
        for lang in ("en", "ja"):
            assert all('id="club-broker-down"' not in page
                       for page in pages(client, lang).values())
        conf = club.files.conf
        kept = conf.read_text()
        conf.write_text("not a mosquitto setting\n")  # every restart fails until it is back
        kill(club)
        wait_for(lambda: len(supervisor.delays) >= 2)  # a first restart failed
        since = supervisor.status()["down_since"]
        assert since is not None and supervisor.status()["running"] is False
        clock = datetime.fromisoformat(since).astimezone().strftime("%H:%M:%S")
        for lang in ("en", "ja"):
            notice = CLUB_MESSAGES["club_broker_down"][lang].format(time=clock)
            for path, page in pages(client, lang).items():
                assert f'id="club-broker-down" role="status" data-since="{since}"' in page, path
                assert notice in page, (path, lang)
        conf.write_text(kept)
        wait_for(lambda: supervisor.status()["running"])
        assert list(supervisor.delays)[:2] == [1.0, 2.0]  # a failed start waits longer
        for lang in ("en", "ja"):
            assert all('id="club-broker-down"' not in page
                       for page in pages(client, lang).values())


def test_repeated_deaths_back_off_and_a_steady_broker_starts_again_at_the_first_wait(
    broker: RunningBroker,
) -> None:
    default = Backoff()
    assert [default.after(0.5) for _ in range(7)] == [1, 2, 4, 8, 16, 30, 30]
    assert default.after(60.0) == 1  # up a minute: the count starts again

    now = [0.0]  # the clock that measures how long the broker stayed up
    supervisor = Supervisor(broker.process, backoff=Backoff(first=0.05, longest=0.2, steady=60),
                            clock=lambda: now[0])
    supervisor.start()
    try:
        for deaths in range(1, 6):
            assert broker.process.proc is not None
            if deaths == 5:
                now[0] += 60.0  # the fifth death comes after a steady minute
            os.kill(broker.process.proc.pid, signal.SIGKILL)
            wait_for(lambda n=deaths: supervisor.status()["restarts"] == n
                     and listening(broker.port))
        assert list(supervisor.delays) == [0.05, 0.1, 0.2, 0.2, 0.05]
    finally:
        supervisor.close()
    assert not supervisor.watching and mosquittos(broker.files.conf) == []


def test_the_broker_is_said_to_be_back_once_what_follows_a_restart_is_done(
    broker: RunningBroker,
) -> None:
    """What runs after a restart (the hub writes the broker's pid file there) is done before
    the status says the broker is back: whoever sees it back finds the new pid written."""
    entered, release = threading.Event(), threading.Event()
    started: list[int] = []

    def after_start(process: Mosquitto) -> None:
        entered.set()
        release.wait(WAIT)
        assert process.proc is not None
        started.append(process.proc.pid)

    supervisor = Supervisor(broker.process, backoff=Backoff(first=0.05), on_start=after_start)
    supervisor.start()
    try:
        assert broker.process.proc is not None
        os.kill(broker.process.proc.pid, signal.SIGKILL)
        assert entered.wait(WAIT)
        assert supervisor.status()["restarts"] == 0 and not supervisor.status()["running"]
        release.set()
        wait_for(lambda: supervisor.status()["restarts"] == 1)
        assert started == [broker.process.proc.pid]
        assert supervisor.status()["running"]
    finally:
        release.set()
        supervisor.close()


@pytest.mark.parametrize("broker_state", ["running", "just killed"])
def test_closing_the_hub_ends_supervision_and_leaves_no_mosquitto(broker_state: str) -> None:
    with hub() as (_, club):
        assert club.supervisor is not None and club.broker is not None
        assert club.files is not None
        supervisor, conf, port = club.supervisor, club.files.conf, club.broker.port
        assert supervisor.watching and len(mosquittos(conf)) == 1
        if broker_state == "just killed":
            kill(club)
            wait_for(lambda: not supervisor.status()["running"])  # waiting to restart it
        club.close()
        assert not supervisor.watching
        assert mosquittos(conf) == [] and not listening(port)
        assert supervisor.status()["restarts"] == 0


def test_a_broker_the_club_already_had_is_not_supervised(broker: RunningBroker) -> None:
    config = ClubConfig(hub=True, broker=f"127.0.0.1:{broker.port}",
                        hub_password=broker.files.hub_password(), retry_seconds=1)
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        club = start_club(config, path, companion, companion.journal.path,
                          panel_url=lambda: None, league_url=lambda: None)
        try:
            assert club.supervisor is None and club.broker is None
            assert club.hub is not None and club.hub.connected.wait(WAIT)
        finally:
            club.close()
    assert broker.process.running()  # the club's broker is left as it was
