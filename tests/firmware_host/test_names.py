"""Found by name: the running daemon is found with zeroconf's own browser (its ``_http._tcp``
service named after the box, ``<name>.local`` resolving to it), the join QR uses the name, and
the advertisement follows the box to a new address.

mDNS runs on the loopback interface only (the daemon listens on 127.0.0.1 and advertises
there; the browser listens there): no packet leaves this machine.
"""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from zeroconf import AddressResolver, ServiceBrowser, ServiceStateChange, Zeroconf

from firmware_host.names import (
    HTTP_SERVICE,
    Names,
    Service,
    find_service,
    open_zeroconf,
    url_for,
)
from tests.firmware_host.daemon import ROOT, Lines, clean_env
from tests.ports import free_port
from tests.web_panel.served import Phone

LOOPBACK = ["127.0.0.1"]
WAIT = 10.0


@pytest.fixture
def browser() -> Iterator[Zeroconf]:
    zc = open_zeroconf(LOOPBACK)  # its own loop, also after Playwright's tests in this process
    yield zc
    zc.close()


def browse(zc: Zeroconf, name: str) -> None:
    """Wait until zeroconf's browser sees the ``_http._tcp`` service ``name``."""
    seen = threading.Event()

    wanted = f"{name}.{HTTP_SERVICE}"

    def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        if name == wanted and state_change is ServiceStateChange.Added:
            seen.set()

    browser = ServiceBrowser(zc, HTTP_SERVICE, handlers=[on_change])
    try:
        assert seen.wait(WAIT), f"the browser did not find {name}"
    finally:
        browser.cancel()


def resolve(zc: Zeroconf, host: str) -> list[str]:
    resolver = AddressResolver(f"{host}.")
    assert resolver.request(zc, int(WAIT * 1000)), f"{host} did not resolve"
    return resolver.parsed_addresses()


def test_the_running_daemon_is_found_by_name(tmp_path: Path, browser: Zeroconf) -> None:
    name = f"tt-{secrets.token_hex(3)}"
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'[names]\nadvertise = true\nhost = "{name}"\ncheck_seconds = 1\n')
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator", "--host",
         "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path / "data"), "--config",
         str(config)], cwd=ROOT, env=clean_env(tmp_path), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    try:
        Lines(proc.stdout).until("tabletop: panel at", WAIT * 3)
        browse(browser, name)
        info = browser.get_service_info(HTTP_SERVICE, f"{name}.{HTTP_SERVICE}",
                                        timeout=int(WAIT * 1000))
        assert info is not None and info.port == port and info.server == f"{name}.local."
        assert resolve(browser, f"{name}.local") == ["127.0.0.1"]
        phone = Phone(type("Served", (), {"host": "127.0.0.1", "port": port})())  # type: ignore[arg-type]
        deadline = time.monotonic() + WAIT
        while True:  # the join QR moves to the name once it is advertised
            _, page = phone.get("/")
            shown = re.search(r'<p class="url">([^<]+)</p>', page.decode())
            if shown and shown.group(1) == f"http://{name}.local:{port}/":
                break
            assert time.monotonic() < deadline, shown and shown.group(1)
            time.sleep(0.1)
    finally:
        proc.terminate()
        assert proc.wait(20) == 0


def test_the_advertisement_follows_the_box_to_a_new_address(browser: Zeroconf) -> None:
    name = f"tt-{secrets.token_hex(3)}"
    addresses: list[list[str]] = [[]]  # no network yet
    told: list[str] = []
    names = Names(name, 8080, [Service(HTTP_SERVICE, name, 8080)],
                  addresses=lambda: list(addresses[-1]), fallback="http://127.0.0.1:8080/",
                  check_seconds=0.1, on_change=told.append)
    names.start()
    try:
        time.sleep(0.3)  # phones get the address; nothing is advertised
        assert names.url() == "http://127.0.0.1:8080/" and not names.registered.is_set()
        addresses.append(["127.0.0.1"])  # a network: the name is advertised and given out
        assert names.registered.wait(WAIT)
        assert told[-1] == names.url() == url_for(f"{name}.local", 8080)
        assert resolve(browser, f"{name}.local") == ["127.0.0.1"]
        addresses.append(["127.0.0.2"])  # another network: the name follows
        deadline = time.monotonic() + WAIT
        while resolve_again(name) != ["127.0.0.2"]:
            assert time.monotonic() < deadline, "the name still points at the old address"
            time.sleep(0.2)
        assert names.url() == url_for(f"{name}.local", 8080)
    finally:
        names.close()


def resolve_again(name: str) -> list[str]:
    """Ask afresh (a new browser: no cache of the old answer)."""
    zc = open_zeroconf(LOOPBACK)
    try:
        return resolve(zc, f"{name}.local")
    finally:
        zc.close()


def test_a_box_finds_the_clubs_hub_by_its_service() -> None:
    name = f"tt-{secrets.token_hex(3)}"
    hub = Names(name, 8080, [Service("_tabletop-club._tcp.local.", f"club {name}", 18831,
                                     {"v": "1"})],
                addresses=lambda: ["127.0.0.1"], fallback="http://127.0.0.1:8080/")
    hub.start()
    try:
        assert hub.registered.wait(WAIT)
        found = find_service("_tabletop-club._tcp.local.", WAIT, LOOPBACK)
        assert found == ("127.0.0.1", 18831, {"v": "1"})
    finally:
        hub.close()
