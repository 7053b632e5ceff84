"""30 phones on a real ``tabletop run`` for 60 s: each holds a live event stream and polls, while
four games (UNLOCK, 2 1 6, Hacktrick, ICO) are played over HTTP; every update's latency from the
action's request to each phone of the game, errors, and the daemon's resident memory before,
at its peak and after.

    .venv/bin/python bench/load_phones.py [--phones 30] [--seconds 60] [--poll 1.0]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from daemon_process import Daemon

from tests.prove.phones import percentile, run_load


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between polls")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the daemon (e.g. MALLOC_ARENA_MAX=2)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="load-"))
    env = dict(item.split("=", 1) for item in args.env)
    daemon = Daemon(folder / "data", env)
    try:
        ready = daemon.start()
        before = daemon.rss()
        peak = [before]
        trace: list[float] = []
        done = threading.Event()

        def sample() -> None:
            ticks = 0
            while not done.wait(0.2):
                peak[0] = max(peak[0], daemon.rss())
                ticks += 1
                if ticks % 50 == 0:
                    trace.append(daemon.rss())

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        result = run_load(daemon.port, daemon.pin, phones=args.phones, seconds=args.seconds,
                          poll_every=args.poll)
        done.set()
        sampler.join()
        after = daemon.rss()
        lat = result.latencies_ms
        print(f"machine: {os.cpu_count()} cores, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print(f"panel ready after {ready:.2f} s; {args.phones} phones for {args.seconds:.0f} s, "
              f"polling every {args.poll:g} s")
        print(f"actions {result.actions}, deliveries {len(lat)}, polls {result.polls}, "
              f"errors {len(result.errors)}")
        for error in sorted(set(result.errors)):
            print(f"  error ({result.errors.count(error)}x): {error}")
        if lat:
            print(f"state change -> phone: p50 {percentile(lat, 0.5):.1f} ms, "
                  f"p99 {percentile(lat, 0.99):.1f} ms, max {lat[-1]:.1f} ms "
                  "(budget: p99 <= 50 ms, no errors)")
        print(f"daemon resident memory: before {before:.1f} MiB, peak {peak[0]:.1f} MiB, "
              f"after {after:.1f} MiB (budget: <= 80 MB)"
              + "".join(f", {item}" for item in args.env))
        print("memory every 10 s: " + ", ".join(f"{m:.0f}" for m in trace) + " MiB")
    finally:
        daemon.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
