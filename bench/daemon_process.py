"""Start and stop a real ``tabletop run`` (simulator) for the benchmarks, and read its memory."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` in MiB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time ``pid`` has used (its own work, whatever the machine's load)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Daemon:
    """``tabletop run --hardware simulator`` on a data directory and a free loopback port."""

    def __init__(self, data: Path, env: dict[str, str] | None = None) -> None:
        self.data = data
        self.extra_env = dict(env or {})
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> float:
        """Start it; return the seconds from exec until ``GET /`` answers 200."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "TABLETOP"))}
        env.update(HOME=str(self.data.parent), PYTHONPATH=str(ROOT), **self.extra_env)
        started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator",
             "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while time.perf_counter() - started < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"tabletop run exited with {self.proc.returncode}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/")
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return time.perf_counter() - started
            except OSError:
                pass
            time.sleep(0.005)  # a benchmark's polling interval, not a test's wait
        raise TimeoutError("the panel did not answer in time")

    @property
    def pin(self) -> str:
        return (self.data / "host_pin").read_text().strip()

    def cpu(self) -> float:
        assert self.proc is not None
        return cpu_seconds(self.proc.pid)

    def rss(self) -> float:
        assert self.proc is not None
        return rss_mib(self.proc.pid)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
