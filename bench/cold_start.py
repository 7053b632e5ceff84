"""Cold start of the real ``tabletop run`` (simulator): seconds from exec until the panel answers
``GET /`` with 200, and the daemon's resident memory then and after one game page.

    .venv/bin/python bench/cold_start.py [RUNS]
"""

from __future__ import annotations

import http.client
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from daemon_process import Daemon


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    folder = Path(tempfile.mkdtemp(prefix="cold-"))
    times, cpu, ready_rss, page_rss = [], [], [], []
    try:
        for n in range(runs):
            daemon = Daemon(folder / f"data{n}")  # a fresh data directory: a first start
            try:
                times.append(daemon.start())
                cpu.append(daemon.cpu())
                ready_rss.append(daemon.rss())
                for path in ("/", "/history", "/api/catalog"):
                    conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10)
                    conn.request("GET", path)
                    conn.getresponse().read()
                    conn.close()
                page_rss.append(daemon.rss())
            finally:
                daemon.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"machine: {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"cold start to HTTP 200, {runs} runs: median {statistics.median(times):.2f} s, "
          f"min {min(times):.2f} s, max {max(times):.2f} s (budget: <= 2 s); CPU time the "
          f"daemon used until then: median {statistics.median(cpu):.2f} s")
    print(f"resident memory when ready: median {statistics.median(ready_rss):.1f} MiB; after "
          f"three pages: median {statistics.median(page_rss):.1f} MiB (budget: <= 80 MB)")


if __name__ == "__main__":
    main()
