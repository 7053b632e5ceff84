"""State change → every connected phone: 30 server-sent event streams on a real waitress server.

Each change is a committed action (``Companion.act``); the latency of a stream is the time from
just before the call to the moment that stream has read the event carrying the new version.
Each phone connects from its own loopback address (Linux routes all of 127.0.0.0/8 to this
machine), as phones at a table come from their own: the server's caps per device stay on.

    .venv/bin/python bench/panel_stream_latency.py [--phones 30] [--changes 60]
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from waitress import wasyncore

from firmware_host.companion import Companion
from rules import CHANCE
from web_panel import close_app, create_app
from web_panel.serving import create_server


def phone_address(n: int) -> str:
    """The loopback address phone ``n`` connects from (127.1.0.1, 127.1.0.2, ...)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


def read_events(port: int, path: str, source: str, arrivals: dict[int, float],
                ready: threading.Event, lock: threading.Condition,
                stop: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                      source_address=(source, 0))
    conn.request("GET", path)
    response = conn.getresponse()
    first = True
    while not stop.is_set():
        line = response.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            version = json.loads(line[6:])["version"]
            now = time.perf_counter()
            if first:
                first = False
                ready.set()
                continue
            with lock:
                arrivals.setdefault(version, now)
                lock.notify_all()


def all_saw(per_stream: list[dict[int, float]], version: int) -> bool:
    return all(version in arrivals for arrivals in per_stream)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--changes", type=int, default=60)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp())
    companion = Companion.open(data, host_pin="2468")
    app = create_app(companion, config={"SSE_KEEPALIVE": 15.0})
    server = create_server(app, host="127.0.0.1", port=0)
    halt = threading.Event()

    def run() -> None:
        while not halt.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)
        server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(server._map)

    serving = threading.Thread(target=run, daemon=True)
    serving.start()
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 8})
    stop = threading.Event()
    per_stream: list[dict[int, float]] = []
    readers = []
    lock = threading.Condition()  # one for all streams: the main thread waits on it
    for n in range(args.phones):
        arrivals: dict[int, float] = {}
        ready = threading.Event()
        reader = threading.Thread(target=read_events, daemon=True, args=(
            server.effective_port, f"/api/games/{game_id}/events", phone_address(n), arrivals,
            ready, lock, stop))
        reader.start()
        assert ready.wait(10), "a stream did not start"
        per_stream.append(arrivals)
        readers.append(reader)
    latencies: list[float] = []
    commits: list[float] = []
    errors = 0
    cells = [(r, c) for r in range(1, 9) for c in range(1, 9)]
    for n in range(args.changes):
        view = companion.view(game_id, None)
        if CHANCE in view["to_act"]:
            action, seat = f"roll {n % 6 + 1}", CHANCE
        else:
            row, col = cells.pop(0)
            action, seat = f"place {row} {col}", view["to_act"][0]
        started = time.perf_counter()
        companion.act(game_id, seat, action)
        commits.append((time.perf_counter() - started) * 1000)
        version = companion.view(game_id, None)["version"]
        with lock:
            lock.wait_for(functools.partial(all_saw, per_stream, version), timeout=5)
            for arrivals in per_stream:
                if version in arrivals:
                    latencies.append((arrivals[version] - started) * 1000)
                else:
                    errors += 1
    stop.set()
    close_app(app)
    halt.set()
    serving.join(10)
    companion.close()
    shutil.rmtree(data, ignore_errors=True)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"phones {args.phones}, changes {args.changes}, deliveries {len(latencies)}, "
          f"missed {errors}")
    print(f"state change -> phone: p50 {statistics.median(latencies):.1f} ms, "
          f"p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms (budget: p99 <= 50 ms)")
    commits.sort()
    print(f"of which the act itself (journal commit with fsync, then the reply): "
          f"p50 {statistics.median(commits):.1f} ms, max {commits[-1]:.1f} ms")


if __name__ == "__main__":
    main()
