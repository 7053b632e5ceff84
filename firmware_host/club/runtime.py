"""Club mode as ``tabletop run`` starts it: the hub's broker and ingest, the box's publisher.

Called by the composition root (``firmware_host/cli.py``) only when club mode is configured;
this is where paho-mqtt and openskill start to load.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.club.broker import HUB_USER, BrokerError, BrokerFiles, Mosquitto
from firmware_host.club.connection import Endpoint
from firmware_host.club.hub import Hub
from firmware_host.club.league import League
from firmware_host.club.publisher import ClubSession, Publisher
from firmware_host.club.supervisor import Supervisor
from firmware_host.config import ClubConfig, broker_address
from firmware_host.names import CLUB_SERVICE, find_service

if TYPE_CHECKING:
    from firmware_host.names import Service

log = logging.getLogger(__name__)

CLUB_DIR = "club"
OWN_BOX_SECRET = "box.secret"
PID_FILE = "mosquitto.pid"
#: How long a box looks for the hub by mDNS before trying again later.
FIND_SECONDS = 3.0


@dataclass
class Club:
    """Club mode's running parts (each ``None`` when this box has no such role)."""

    publisher: Publisher | None = None
    hub: Hub | None = None
    league: League | None = None
    broker: Mosquitto | None = None
    files: BrokerFiles | None = None
    #: Restarts the hub's own broker when it dies (none for a broker the club already had).
    supervisor: Supervisor | None = None

    def services(self, box_name: str) -> list[Service]:
        """What this box offers by mDNS besides its panel: a hub's broker."""
        from firmware_host.names import Service

        if self.broker is None:
            return []
        return [Service(CLUB_SERVICE, f"Tabletop club {box_name}", self.broker.port,
                        {"v": "1"})]

    def close(self) -> None:
        """Stop the publisher, the hub and the broker, in that order (idempotent); the broker
        is not started again meanwhile."""
        if self.supervisor is not None:
            self.supervisor.stop()
        if self.publisher is not None:
            self.publisher.close()
        if self.hub is not None:
            self.hub.close()
        if self.league is not None:
            with contextlib.suppress(Exception):
                self.league.close()
        if self.supervisor is not None:
            self.supervisor.close()
        if self.broker is not None:
            self.broker.stop()
            if self.files is not None:
                with contextlib.suppress(OSError):
                    (self.files.directory / PID_FILE).unlink()


def start_club(config: ClubConfig, data_dir: Path, session: ClubSession, journal_path: Path,
               *, panel_url: Callable[[], str | None],
               league_url: Callable[[], str | None]) -> Club:
    """Start what ``config`` asks for; on failure, what was started is stopped again."""
    club = Club()
    try:
        own: Endpoint | None = None
        if config.hub:
            own = _start_hub(club, config, Path(data_dir) / CLUB_DIR, league_url)
        if config.box is not None:
            finder = _finder(config, own)
            club.publisher = Publisher(session, journal_path, config.box, finder,
                                       retry_seconds=config.retry_seconds,
                                       resend_seconds=config.resend_seconds,
                                       panel_url=panel_url)
            club.publisher.start()
        return club
    except BaseException:
        club.close()
        raise


def _start_hub(club: Club, config: ClubConfig, directory: Path,
               league_url: Callable[[], str | None]) -> Endpoint | None:
    """The league, the broker (when local) and the ingest; returns how the hub's own box logs
    in to a local broker (``None`` with the club's own broker)."""
    club.league = League(directory)
    own = None
    if config.broker == "local":
        files = club.files = BrokerFiles(directory)
        files.prepare()
        own_password = _own_box_password(files, config.box) if config.box is not None else None
        conf = files.write_conf(port=config.broker_port, listen=config.listen,
                                tls_cert=config.tls_cert, tls_key=config.tls_key)
        club.broker = Mosquitto(conf, config.broker_port, files.log, host=config.listen)
        club.broker.start()
        _write_pid(club.broker, directory)
        club.supervisor = Supervisor(club.broker,
                                     on_start=lambda broker: _write_pid(broker, directory))
        club.supervisor.start()
        tls_ca = config.tls_ca or config.tls_cert
        endpoint = Endpoint(club.broker.host, config.broker_port, HUB_USER, files.hub_password(),
                            tls_ca)
        if config.box is not None and own_password is not None:
            own = replace(endpoint, user=config.box, password=own_password)
    else:
        host, port = broker_address(config.broker, tls=config.tls_ca is not None)
        assert config.hub_password is not None
        endpoint = Endpoint(host, port, config.hub_user, config.hub_password, config.tls_ca)
    club.hub = Hub(club.league, endpoint, retry_seconds=config.retry_seconds,
                   league_url=league_url)
    club.hub.start()
    return own


def _write_pid(broker: Mosquitto, directory: Path) -> None:
    """Record the broker's process id (``club add-box`` signals it to re-read its users)."""
    assert broker.proc is not None
    (directory / PID_FILE).write_text(f"{broker.proc.pid}\n", encoding="utf-8")


def _own_box_password(files: BrokerFiles, box: str) -> str:
    """The hub's own box: its credential on the local broker, made once."""
    secret = files.directory / OWN_BOX_SECRET
    if secret.is_file() and box in files.users():
        lines = secret.read_text(encoding="utf-8").split()
        if len(lines) == 2 and lines[0] == box:
            return lines[1]
    password = files.add_box(box)
    fd = os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(f"{box} {password}\n")
    return password


def _finder(config: ClubConfig, own: Endpoint | None) -> Callable[[], Endpoint | None]:
    """How the box finds its broker: the hub's own, a configured address, or by mDNS."""
    if own is not None:
        return lambda: own
    assert config.box is not None and config.password is not None
    box, password, tls_ca = config.box, config.password, config.tls_ca
    if config.broker != "auto":
        host, port = broker_address(config.broker, tls=tls_ca is not None)
        endpoint = Endpoint(host, port, box, password, tls_ca)
        return lambda: endpoint

    def by_mdns() -> Endpoint | None:
        found = find_service(CLUB_SERVICE, FIND_SECONDS)
        if found is None:
            return None
        host, port, _ = found
        log.info("club: found the hub's broker at %s:%d by mDNS", host, port)
        return Endpoint(host, port, box, password, tls_ca)

    return by_mdns


def add_box(data_dir: Path, box: str) -> str:
    """A credential for a new box on this hub's broker (``tabletop club add-box``); a running
    broker re-reads its password file. Returns the password."""
    files = BrokerFiles(Path(data_dir) / CLUB_DIR)
    files.prepare()
    password = files.add_box(box)
    _reload_running_broker(files.directory)
    return password


def _reload_running_broker(directory: Path) -> None:
    """SIGHUP the broker this hub started (by its recorded process id, after checking that
    the process is that Mosquitto), so it sees a new box at once."""
    import signal

    pid_file = directory / PID_FILE
    try:
        pid = int(pid_file.read_text(encoding="utf-8").strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError):
        return
    if any(part.endswith(b"mosquitto") for part in cmdline) and \
            str(directory / "mosquitto.conf").encode() in cmdline:
        try:
            os.kill(pid, signal.SIGHUP)
        except OSError as error:
            raise BrokerError(f"cannot tell the running broker about the new box: {error}"
                              ) from None
