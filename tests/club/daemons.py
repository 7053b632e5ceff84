"""Real ``tabletop`` daemons as club boxes, played over HTTP like phones do, and a loopback TCP
relay that cuts one box off its broker (its Wi-Fi gone) and mends it."""

from __future__ import annotations

import contextlib
import json
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.firmware_host.daemon import ROOT, Lines, clean_env
from tests.ports import free_port
from tests.web_panel.served import HOST_PIN, Phone

START_TIMEOUT = 30.0


class Relay:
    """127.0.0.1:``port`` relayed to ``target``; :meth:`cut` drops every connection and
    refuses new ones until :meth:`mend`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="relay", daemon=True)
        self.mend()
        self._thread.start()

    def mend(self) -> None:
        with self._lock:
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen(16)
            listener.setblocking(False)
            self._listener = listener

    def cut(self) -> None:
        with self._lock:
            if self._listener is not None:
                self._listener.close()
                self._listener = None
            for a, b in self._pairs:
                for s in (a, b):
                    with contextlib.suppress(OSError):
                        s.shutdown(socket.SHUT_RDWR)
                    s.close()
            self._pairs = []

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                listener, pairs = self._listener, list(self._pairs)
            selector = selectors.DefaultSelector()
            try:
                if listener is not None:
                    selector.register(listener, selectors.EVENT_READ, None)
                for a, b in pairs:
                    selector.register(a, selectors.EVENT_READ, b)
                    selector.register(b, selectors.EVENT_READ, a)
            except (ValueError, OSError):
                selector.close()
                continue
            try:
                ready = selector.select(0.05)
            except (ValueError, OSError):
                ready = []
            for key, _ in ready:
                self._pump(key.fileobj, key.data)  # type: ignore[arg-type]
            selector.close()

    def _pump(self, source: socket.socket, sink: socket.socket | None) -> None:
        if sink is None:  # the listener: a new connection
            try:
                client, _ = source.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                client.close()
                return
            with self._lock:
                self._pairs.append((client, upstream))
            return
        try:
            data = source.recv(65536)
            if data:
                sink.sendall(data)
                return
        except OSError:
            pass
        with self._lock:
            for pair in [p for p in self._pairs if source in p]:
                self._pairs.remove(pair)
                for s in pair:
                    s.close()


@dataclass
class Box:
    """``tabletop run`` (or ``club serve``) on its own data directory and port."""

    name: str
    data: Path
    home: Path
    args: list[str]
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[str] | None = None
    output: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, extra: list[str] | None = None) -> None:
        command = [sys.executable, "-m", "firmware_host.cli", *self.args, "--hardware",
                   "simulator", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir",
                   str(self.data), *(extra or [])]
        self.proc = subprocess.Popen(command, cwd=ROOT, env=clean_env(self.home),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        lines = Lines(self.proc.stdout)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            line = lines.next(max(0.1, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"{self.name} stopped: {self.output[-20:]}")
            self.output.append(line)
            if line.startswith("tabletop: panel at"):
                break
        threading.Thread(target=self._keep, args=(lines,), daemon=True).start()
        self.phone = Phone(SimpleNamespace(host="127.0.0.1", port=self.port))  # type: ignore[arg-type]
        self.phone.login_host()

    def _keep(self, lines: Lines) -> None:
        while True:
            try:
                line = lines.next(3600)
            except Exception:
                return
            if line is None:
                return
            self.output.append(line)

    def stop(self) -> None:
        """SIGTERM, as systemd stops it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            assert self.proc.wait(20) == 0, self.output[-20:]

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(20)

    # --- playing over HTTP, as the panel's pages do ------------------------------------
    def new_game(self, players: list[str], options: dict[str, Any] | None = None) -> int:
        status, reply = self.phone.post("/api/host/games", {"game": "unlock",
                                                              "players": players,
                                                              "options": options or {}})
        assert status == 200, reply
        return int(reply["game_id"])

    def seat(self, game_id: int, seat: int, club_code: str | None = None) -> Phone:
        phone = Phone(SimpleNamespace(host="127.0.0.1", port=self.port))  # type: ignore[arg-type]
        phone.claim(game_id, seat)
        if club_code is not None:
            status, reply = phone.post(f"/api/games/{game_id}/club-code", {"code": club_code})
            assert status == 200, reply
        return phone

    def act(self, phone: Phone, game_id: int, action: str) -> dict[str, Any]:
        status, reply = phone.post(f"/api/games/{game_id}/act", {"action": action})
        assert status == 200, reply
        return dict(reply)

    def get_json(self, path: str) -> Any:
        status, body = self.phone.get(path)
        assert status == 200, body[:300]
        return json.loads(body)


HOST_PIN_CONFIG = f'host_pin = "{HOST_PIN}"\n'
