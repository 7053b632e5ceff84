"""A real Mosquitto for tests, from the hub's own files (``firmware_host.club.broker``), on a
free loopback port — never the system service."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.club.broker import HUB_USER, BrokerFiles, Mosquitto
from firmware_host.club.connection import Endpoint
from tests.ports import free_port


@dataclass
class RunningBroker:
    """Mosquitto on 127.0.0.1 with the club's ACL, and the boxes' passwords."""

    files: BrokerFiles
    port: int
    process: Mosquitto
    passwords: dict[str, str] = field(default_factory=dict)

    def add_box(self, box: str) -> Endpoint:
        self.passwords[box] = self.files.add_box(box)
        self.process.reload()
        return self.endpoint(box)

    def endpoint(self, user: str) -> Endpoint:
        password = self.files.hub_password() if user == HUB_USER else self.passwords[user]
        return Endpoint("127.0.0.1", self.port, user, password)

    def stop(self) -> None:
        self.process.stop()

    def kill(self) -> None:
        self.process.kill()

    def start(self) -> None:
        self.process.start()


@contextlib.contextmanager
def running_broker(directory: Path, port: int | None = None,
                   tls: tuple[Path, Path] | None = None) -> Iterator[RunningBroker]:
    """The broker; with ``tls`` (a certificate and its key) it serves TLS only."""
    files = BrokerFiles(directory)
    files.prepare()
    port = port or free_port()
    cert, key = tls if tls is not None else (None, None)
    conf = files.write_conf(port=port, listen="127.0.0.1", tls_cert=cert, tls_key=key)
    process = Mosquitto(conf, port, files.log)
    process.start()
    try:
        yield RunningBroker(files, port, process)
    finally:
        process.stop()
