"""Run the real ``tabletop`` command in a subprocess and read its output with timeouts."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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
