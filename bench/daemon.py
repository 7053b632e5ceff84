"""The daemon's own figures: cold start to panel ready, resident memory, act latency (commit
included), restart with a long history.

    .venv/bin/python bench/daemon.py

Prints one line per figure; the start-up ones run the real ``tabletop run`` (simulator).
"""

from __future__ import annotations

import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.companion import Companion  # noqa: E402
from rules import CHANCE, get_game  # noqa: E402
from tests.ports import free_port  # noqa: E402


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cold_start(data: Path, runs: int = 5) -> tuple[list[float], list[int]]:
    """Seconds from exec to the "panel at" line, and RSS (KiB) right after it."""
    times, memory = [], []
    for _ in range(runs):
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "run", "--hardware", "simulator",
             "--host", "127.0.0.1", "--port", str(free_port()), "--data-dir", str(data)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        times.append(time.perf_counter() - started)
        assert line.startswith("tabletop: panel at"), line
        memory.append(rss_kib(proc.pid))
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    return times, memory


def act_latency(data: Path, actions: int = 400) -> list[float]:
    """Seconds per ``Companion.act`` (apply, commit with fsync, publish) on 2 1 6."""
    rules = get_game("dice216")
    rng = random.Random(1)
    took: list[float] = []
    with Companion.open(data) as box:
        while len(took) < actions:
            gid = box.create_game("dice216", ["Aiko", "Ben"], seed=rng.randrange(2**31))
            state = rules.start(["Aiko", "Ben"], None, seed=box.journal.games()[-1].seed)
            while rules.outcome(state) is None and len(took) < actions:
                seat = rules.to_act(state)[0]
                action = rng.choice(list(rules.legal_actions(state, seat)))
                started = time.perf_counter()
                box.act(gid, seat, action)
                took.append(time.perf_counter() - started)
                state = rules.apply(state, seat, action)
    return took


def restart_with_history(data: Path, games: int = 300) -> float:
    """Seconds to open a companion on a journal holding ``games`` finished games."""
    with Companion.open(data) as box:
        for _ in range(games):
            gid = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"})
            box.act(gid, 0, "secret 1-2-3")
            box.act(gid, 1, "guess 1-2-3")
        box.create_game("dice216", ["Aiko", "Ben"])
        box.act(games + 1, CHANCE, "roll 3")
    started = time.perf_counter()
    Companion.open(data).close()
    return time.perf_counter() - started


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        times, memory = cold_start(Path(tmp) / "start")
        print(f"cold start to panel ready: median {statistics.median(times):.2f} s, "
              f"max {max(times):.2f} s ({len(times)} runs)")
        print(f"resident memory after start: median {statistics.median(memory) / 1024:.1f} MiB")
        took = sorted(act_latency(Path(tmp) / "act"))
        p99 = took[int(len(took) * 0.99) - 1]
        print(f"act (apply + journal commit + publish), 2 1 6: median {ms(statistics.median(took))}"
              f", p99 {ms(p99)} ({len(took)} actions)")
        print(f"companion start with 300 finished games + 1 active: "
              f"{ms(restart_with_history(Path(tmp) / 'history'))}")


if __name__ == "__main__":
    main()
