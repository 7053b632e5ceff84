"""Run the real ``tabletop`` command in a subprocess and read its output with timeouts."""

from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]


def clean_env(home: Path) -> dict[str, str]:
    """An environment where no user's config or data directory is found."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "TABLETOP"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "share"), PYTHONPATH=str(ROOT))
    return env


def tabletop(args: list[str], home: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``tabletop ARGS`` to completion."""
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", *args], cwd=ROOT,
                          env=clean_env(home), capture_output=True, text=True, timeout=timeout)


class Lines:
    """A process's output stream, line by line, each read waiting at most ``timeout``."""

    def __init__(self, stream: object) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def next(self, timeout: float) -> str | None:
        """The next line, ``None`` at the end; raises ``queue.Empty`` after ``timeout``."""
        return self._lines.get(timeout=timeout)

    def until(self, prefix: str, timeout: float) -> str:
        """Skip to the first line starting with ``prefix``."""
        while True:
            line = self.next(timeout)
            if line is None:
                raise AssertionError(f"the output ended before a line starting {prefix!r}")
            if line.startswith(prefix):
                return line

    def imports_until(self, prefix: str, timeout: float) -> list[str]:
        """The modules ``python -X importtime`` reports, up to the first line starting with
        ``prefix`` (a box started again with its malloc settings reports its start twice)."""
        imported: list[str] = []
        while True:
            line = self.next(timeout)
            if line is None:
                raise AssertionError(f"the output ended before a line starting {prefix!r}")
            if line.startswith("import time:"):
                imported.append(line.rsplit("|", 1)[-1].strip())
            if line.startswith(prefix):
                return imported


class Daemon:
    """``tabletop run`` in the simulator on one data directory, started and SIGKILLed; with
    ``config``, on that config file; with ``log``, its log (stderr) appended to that file."""

    def __init__(self, data: Path, home: Path, *, config: Path | None = None,
                 log: Path | None = None) -> None:
        self.data, self.home, self.port = data, home, free_port()
        self.config, self.log = config, log
        self.proc: subprocess.Popen[str] | None = None
        self.killed = threading.Event()

    def start(self) -> str:
        """Start it and wait for the panel; returns the panel's base URL."""
        self.killed = threading.Event()
        config = ["--config", str(self.config)] if self.config is not None else []
        with (self.log.open("a") if self.log is not None
              else open(os.devnull, "w")) as stderr:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "firmware_host.cli", "run", *config,
                 "--hardware", "simulator", "--host", "127.0.0.1", "--port", str(self.port),
                 "--data-dir", str(self.data)],
                cwd=ROOT, env=clean_env(self.home), stdout=subprocess.PIPE, stderr=stderr,
                text=True)
        Lines(self.proc.stdout).until("tabletop: panel at", 30)
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """Cut the power: SIGKILL, no clean-up of any kind."""
        if self.proc is not None and self.proc.poll() is None:
            self.killed.set()
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


def read_journal(data: Path) -> tuple[str, set[int], dict[int, list[tuple[int, str]]]]:
    """The integrity verdict, the game ids and each game's live actions, read after a kill."""
    db = sqlite3.connect(data / "journal.sqlite3")
    try:
        verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
        games = {row[0] for row in db.execute("SELECT id FROM games")}
        actions: dict[int, list[tuple[int, str]]] = {}
        for gid, seat, action in db.execute(
                "SELECT game_id, seat, action FROM actions WHERE undone IS NULL "
                "ORDER BY game_id, n"):
            actions.setdefault(gid, []).append((seat, action))
        return verdict, games, actions
    finally:
        db.close()
