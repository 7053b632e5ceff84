"""The panel served for tests: a real companion on a journal file, the Flask app, and a real
waitress server on a free loopback port in a thread (never the Flask dev server)."""

from __future__ import annotations

import http.client
import json
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import waitress
from flask import Flask
from waitress import wasyncore

from firmware_host.companion import Companion
from web_panel import WAITRESS_SETTINGS, close_app, create_app
from web_panel.client_limits import REQUEST_TIMEOUT
from web_panel.serving import Loop, create_server

HOST_PIN = "246813"
CSRF = {"X-Requested-With": "tabletop"}
TIMEOUT = 10.0


@contextmanager
def data_dir() -> Iterator[Path]:
    """A data directory for a companion's journal: in RAM (/dev/shm) where there is one.

    The journal is still a real SQLite file with ``synchronous=FULL``; RAM only makes its fsyncs
    cheap, so hundreds of small scenarios fit in the test budget.
    """
    shm = Path("/dev/shm")
    path = Path(tempfile.mkdtemp(prefix="panel-", dir=shm if shm.is_dir() else None))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@dataclass
class Served:
    """A running waitress server for ``app``; ``url`` is its base address."""

    app: Flask
    host: str
    port: int
    server: Any
    thread: threading.Thread

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


@contextmanager
def serve(app: Flask, threads: int = 12, hand_over: bool = True, per_client: int = 256,
          request_timeout: float = REQUEST_TIMEOUT) -> Iterator[Served]:
    """Serve ``app`` with waitress on 127.0.0.1 (a free port), as the daemon serves it
    (``web_panel.serving``: live streams handed over to one feeding thread), until the
    block ends;
    ``hand_over=False``: plain waitress with the panel's settings, each stream holding its
    request's thread (how any other WSGI server runs the panel);
    ``per_client``: connections one address may hold (every test phone comes from 127.0.0.1
    unless it says otherwise, so more than a device's ``CONNECTIONS_PER_CLIENT``);
    ``request_timeout``: seconds a connection has to send a whole request.

    The server's loop runs in its own thread and is also closed there (closing its sockets from
    another thread while it waits in ``select`` would pull the descriptors from under it).
    """
    if hand_over:
        server = create_server(app, host="127.0.0.1", port=0, threads=threads,
                               per_client=per_client, request_timeout=request_timeout,
                               channel_timeout=30)
    else:
        server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads,
                                        channel_timeout=30, **WAITRESS_SETTINGS)
    serving = Loop(server)

    def run() -> None:
        serving.run()
        server.task_dispatcher.shutdown(timeout=TIMEOUT)
        wasyncore.close_all(server._map)

    thread = threading.Thread(target=run, name="waitress", daemon=True)
    thread.start()
    try:
        yield Served(app, "127.0.0.1", server.effective_port, server, thread)
    finally:
        close_app(app)
        serving.stop()
        thread.join(TIMEOUT)
        assert not thread.is_alive(), "the waitress server did not stop"


def make_app(companion: Companion, **config: Any) -> Flask:
    """The panel on ``companion`` with test settings (a short keep-alive)."""
    # every test phone comes from 127.0.0.1: the per-phone stream cap would count them as one
    settings = {"TESTING": True, "SSE_KEEPALIVE": 1.0, "MAX_STREAMS_PER_CLIENT": 64, **config}
    return create_app(companion, config=settings)


@dataclass
class Phone:
    """A browser-like HTTP client with its own cookie jar (one phone, one person);
    ``source``: the loopback address it connects from (one per device), else the system's."""

    served: Served
    cookies: dict[str, str] = field(default_factory=dict)
    source: str | None = None

    def connect(self) -> http.client.HTTPConnection:
        """A connection to the served panel, from ``source``."""
        return http.client.HTTPConnection(
            self.served.host, self.served.port, timeout=TIMEOUT,
            source_address=None if self.source is None else (self.source, 0))

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = self.connect()
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        payload = response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            jar.load(value)
            for key, morsel in jar.items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = morsel.value
        conn.close()
        return response.status, dict(response.headers), payload

    def get(self, path: str) -> tuple[int, bytes]:
        status, _, payload = self.request("GET", path)
        return status, payload

    def get_json(self, path: str) -> Any:
        status, payload = self.get(path)
        assert status == 200, payload
        return json.loads(payload)

    def post(self, path: str, body: Any = None, *, csrf: bool = True,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        sent = {**(CSRF if csrf else {}), **(headers or {})}
        status, _, payload = self.request("POST", path, body if body is not None else {}, sent)
        return status, json.loads(payload) if payload else None

    def login_host(self) -> None:
        status, reply = self.post("/api/host/login", {"pin": HOST_PIN})
        assert status == 200, reply

    def claim(self, game_id: int, seat: int) -> None:
        status, reply = self.post(f"/api/games/{game_id}/seats/{seat}/claim")
        assert status == 200, reply


class EventStream:
    """A server-sent event stream read off a real socket, event by event."""

    def __init__(self, phone: Phone, path: str, headers: dict[str, str] | None = None) -> None:
        self.conn = phone.connect()
        sent = dict(headers or {})
        if phone.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        self.conn.request("GET", path, headers=sent)
        self.response = self.conn.getresponse()
        self.comments: list[str] = []

    def next_event(self) -> dict[str, Any]:
        """The next event (``id``, ``event``, ``data`` parsed as JSON); comments are kept aside."""
        fields: dict[str, Any] = {}
        while True:
            line = self.response.readline().decode()
            if line == "":
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line == "":
                if "data" in fields:
                    fields["data"] = json.loads(fields["data"])
                    return fields
                continue
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
                continue
            key, _, value = line.partition(":")
            fields[key] = value.lstrip(" ")

    def next_comment(self) -> str:
        """Read until the next comment line (a keep-alive) and return it."""
        seen = len(self.comments)
        while len(self.comments) == seen:
            line = self.response.readline().decode()
            if line == "":
                raise EOFError("the stream ended")
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
        return self.comments[-1]

    def close(self) -> None:
        """Hang up (the response holds the socket too: close both, or it stays open)."""
        self.response.close()
        self.conn.close()
