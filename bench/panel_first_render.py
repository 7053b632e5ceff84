"""The first render of each panel page after a start: templates compiled from source, and
loaded from Jinja's bytecode cache (what a restarted daemon gets).

    PYTHONPATH=. .venv/bin/python bench/panel_first_render.py
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from firmware_host.companion import Companion
from web_panel import create_app


def first_renders(companion: Companion, paths: list[str], cached: bool) -> list[float]:
    app = create_app(companion, config={"TEMPLATE_BYTECODE_CACHE": cached})
    client = app.test_client()
    client.post("/api/host/login", json={"pin": "2468"},
                headers={"X-Requested-With": "tabletop"})
    times = []
    for path in paths:
        started = time.perf_counter()
        status = client.get(path).status_code
        times.append((time.perf_counter() - started) * 1000)
        assert status == 200, (path, status)
    return times


def main() -> None:
    data = Path(tempfile.mkdtemp())
    with Companion.open(data, host_pin="2468") as companion:
        games = [companion.create_game(game, players) for game, players in (
            ("unlock", ["Aiko", "Ben", "Chie"]), ("hacktrick", ["Aiko", "Ben"]),
            ("ico", ["Aiko", "Ben", "Chie"]), ("dice216", ["Aiko", "Ben"]))]
        paths = ["/", f"/join/{games[0]}", *(f"/games/{g}" for g in games), "/host",
                 "/host/new/unlock", "/history"]
        compiled = first_renders(companion, paths, cached=False)
        first_renders(companion, paths, cached=True)  # fills the cache
        loaded = first_renders(companion, paths, cached=True)  # a restarted daemon
        again = first_renders(companion, paths, cached=True)
    shutil.rmtree(data, ignore_errors=True)
    print(f"{'page':<20} {'compiled':>10} {'from cache':>11} {'again':>7}")
    for path, a, b, c in zip(paths, compiled, loaded, again, strict=True):
        print(f"{path:<20} {a:>8.1f}ms {b:>9.1f}ms {c:>5.1f}ms")
    print(f"{'all pages':<20} {sum(compiled):>8.1f}ms {sum(loaded):>9.1f}ms {sum(again):>5.1f}ms")


if __name__ == "__main__":
    main()
