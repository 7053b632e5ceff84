"""TLS on the club's broker, with a self-signed certificate made by openssl as docs/club.md
shows: a hub started with ``tls_cert``/``tls_key`` serves only TLS; its own box and a box that
trusts the certificate reach the league through it; a client speaking plain MQTT, one trusting
another certificate, and a box reaching the broker by a name the certificate does not give are
refused."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import pytest

from firmware_host.club.connection import Endpoint, make_client
from firmware_host.club.runtime import CLUB_DIR, Club, add_box, start_club
from firmware_host.club.topics import results_topic
from firmware_host.companion import Companion
from firmware_host.config import parse_club
from tests import waiting
from tests.club.broker import running_broker
from tests.club.clients import TestClient
from tests.club.test_league import key, payload
from tests.ports import free_port

WAIT = 15.0


def self_signed(directory: Path, name: str) -> tuple[Path, Path]:
    """A certificate for ``name`` (and its key), signed by itself: the club's CA file is the
    certificate."""
    openssl = shutil.which("openssl")
    assert openssl is not None, "openssl is missing: scripts/bootstrap dev installs it"
    cert, key_file = directory / f"{name}.pem", directory / f"{name}.key"
    done = subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", f"/CN={name}", "-addext",
         f"subjectAltName=DNS:{name}", "-keyout", str(key_file), "-out", str(cert)],
        capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return cert, key_file


@dataclass
class TlsHub:
    club: Club
    companion: Companion
    data: Path
    port: int
    cert: Path

    def box(self, name: str, host: str = "localhost", ca: Path | None = None) -> TestClient:
        """A box's connection to the hub's broker as ``host`` (TLS, trusting ``ca``)."""
        password = add_box(self.data, name)
        files = self.club.files
        assert files is not None and name in files.users()
        return TestClient(Endpoint(host, self.port, name, password, ca or self.cert), name)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[TlsHub]:
    cert, key_file = self_signed(tmp_path, "localhost")
    port = free_port()
    config = parse_club({"hub": True, "box": "table-1", "broker_port": port,
                         "listen": "127.0.0.1", "tls_cert": str(cert), "tls_key": str(key_file),
                         "retry_seconds": 1, "resend_seconds": 2})
    data = tmp_path / "hub"
    with Companion.open(data, host_pin="246813") as companion:
        club = start_club(config, data, companion, companion.journal.path,
                          panel_url=lambda: None, league_url=lambda: None)
        try:
            assert (data / CLUB_DIR / "mosquitto.conf").read_text().count("certfile") == 1
            yield TlsHub(club, companion, data, port, cert)
        finally:
            club.close()


wait_for = partial(waiting.wait_for, timeout=WAIT)


def test_the_hubs_own_box_and_a_box_trusting_the_certificate_reach_the_league(
    hub: TlsHub,
) -> None:
    league = hub.club.league
    assert league is not None and hub.club.hub is not None
    assert hub.club.hub.connected.wait(WAIT)  # the hub itself, on 127.0.0.1 over TLS
    game = hub.companion.create_game("unlock", ["Aiko", "Ben"])
    hub.companion.act(game, 0, "secret 1-2-3")
    hub.companion.act(game, 1, "guess 1-2-3")
    wait_for(lambda: league.counts() == {"table-1": 1})  # the hub's own box's publisher
    box = hub.box("table-2")
    try:
        assert box.connect().value == 0
        assert box.publish(results_topic("table-2"), payload("table-2", key(), None, 1, 1)
                           ).value == 0
        wait_for(lambda: league.counts() == {"table-1": 1, "table-2": 1})
    finally:
        box.close()


def test_plain_mqtt_is_not_served(hub: TlsHub) -> None:
    box = hub.box("table-2")
    plain = TestClient(replace(box.endpoint, tls_ca=None), "table-2")
    try:  # the broker takes the plain CONNECT for a broken TLS hello and hangs up
        plain.client.connect(box.endpoint.host, box.endpoint.port)
        plain.client.loop_start()
        plain.wait(lambda: plain.disconnected is not None or plain.connack is not None)
        assert plain.connack is None and plain.disconnected is not None
    finally:
        plain.close()


def test_a_box_trusting_another_certificate_is_refused(hub: TlsHub, tmp_path: Path) -> None:
    other, _ = self_signed(tmp_path, "localhost-other")
    box = hub.box("table-2", ca=other)
    try:
        with pytest.raises(ssl.SSLCertVerificationError, match="certificate verify failed"):
            box.connect()
    finally:
        box.close()


def test_a_box_checks_the_brokers_name_except_on_loopback(tmp_path: Path) -> None:
    # The broker's certificate names the hub as the boxes know it (here "hub.example"): a box
    # reaching it by another name is refused; the hub's own clients on 127.0.0.1 are not (the
    # certificate itself is still checked against the CA).
    cert, key_file = self_signed(tmp_path, "hub.example")
    with running_broker(tmp_path / "broker", tls=(cert, key_file)) as broker:
        endpoint = replace(broker.add_box("table-2"), tls_ca=cert)
        by_name = make_client("by-name", replace(endpoint, host="localhost"), retry_seconds=1)
        with pytest.raises(ssl.SSLCertVerificationError, match="Hostname mismatch"):
            by_name.connect("localhost", broker.port)
        on_loopback = TestClient(endpoint, "table-2")
        on_loopback.client = make_client("table-2", endpoint, retry_seconds=1)
        on_loopback.client.on_connect = on_loopback._on_connect
        try:
            assert on_loopback.connect().value == 0
        finally:
            on_loopback.close()
