"""Memory against history (issue 32): the box's RSS after 100, 400, 1 000, 2 000 and 4 000
finished games, which should be no more than after 400 (and ≤ 64 MiB).

The box runs in a process of its own, built as ``tabletop run`` builds it (as
``bench/box_process.py`` does: the companion, the pad and its OLED on luma's ssd1306 driver over
a bus that drops the bytes, the panel on the daemon's server), its bots moving at once
(``bot_delay`` 0). Four tables play quick games with a bot on every seat — ICO, 2 1 6 on a 4×4
board, Hacktrick to one point, UNLOCK Easy with four turns — through the panel as a host does:
the first game from the host's page, each next one with "play again"; a phone follows each game's
live stream to its end. At each checkpoint the tables stop, the box runs a full collection
(``gc.collect()``, asked on its stdin) and the bench reads its VmRSS; a host's reads of the
history are timed there too (``/history`` and ``/standings`` pages, ``/api/history``).

    .venv/bin/python bench/memory_history.py [--games 100 400 1000 2000 4000] [--tree DIR]

``--tree DIR`` runs the box from another checkout (the code before a change, e.g.
``git archive REV | tar -x -C DIR``), with the same tables and games. ``PYTHONTRACEMALLOC=8``
prints where the box's Python memory grew since the first checkpoint, at each (slower).
``GLIBC_TUNABLES=glibc.malloc.tcache_count=7`` (glibc's own) runs the box without the
tunables ``tabletop run`` starts with (``firmware_host/allocator.py``: a setting of one's own
wins).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PIN = "135790"
#: (game, players, options) of each table; every seat is a bot.
TABLES: tuple[tuple[str, list[str], dict[str, object]], ...] = (
    ("ico", ["Aiko", "Ben"], {}),
    ("dice216", ["Chie", "Dai"], {"size": 4}),
    ("hacktrick", ["Emi", "Fumi"], {"target": 1}),
    ("unlock", ["Lock", "Gen", "Hana"], {"difficulty": "easy", "turn_limit": 4}),
)
READS = ("/history", "/standings", "/api/history")


# --- the box ----------------------------------------------------------------------------------
class DroppingBus:
    """An smbus2-like bus for the OLED that drops what it is sent."""

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        pass


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def c_memory() -> dict[str, float]:
    """In MiB: what SQLite holds (``sqlite3_memory_used``: page caches, schemas, statements),
    and the C heap (glibc's ``mallinfo2``: in use, free inside it, and mmapped blocks) — where
    the C library answers (0 otherwise)."""
    found = {"sqlite": 0.0, "heap_used": 0.0, "heap_free": 0.0, "mmapped": 0.0}
    with contextlib.suppress(OSError, AttributeError):
        sqlite = ctypes.CDLL("libsqlite3.so.0")
        sqlite.sqlite3_memory_used.restype = ctypes.c_int64
        found["sqlite"] = sqlite.sqlite3_memory_used() / 2**20
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
        found.update(heap_used=info.uordblks / 2**20, heap_free=info.fordblks / 2**20,
                     mmapped=info.hblkhd / 2**20)
    found.update(where_resident())
    return {key: round(value, 2) for key, value in found.items()}


def where_resident() -> dict[str, float]:
    """In MiB, where the resident pages are (``/proc/self/smaps``): the main heap (``brk``),
    the other anonymous memory (pymalloc's arenas, malloc's other arena, thread stacks) and the
    mapped files (libraries); pymalloc's arenas mapped (``sys._debugmallocstats``: 1 MiB each,
    as many as hold a live object) and the bytes of Python's small objects in them
    (``pyblocks``); and how many threads there are."""
    resident: dict[str, float] = {"brk": 0.0, "anon": 0.0, "files": 0.0}
    kind = "anon"
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/smaps").read_text().splitlines():
            head = line.split(maxsplit=6)
            if "-" in head[0] and len(head) >= 5 and ":" in head[3]:  # a mapping's first line
                name = head[5] if len(head) > 5 else ""
                kind = "brk" if name == "[heap]" else "files" if name.startswith("/") else "anon"
            elif head[0] == "Rss:":
                resident[kind] += int(head[1]) / 1024
    resident.update(_pymalloc())  # arenas mapped (among "anon"), and the objects in them
    resident["threads"] = threading.active_count()
    return resident


def _pymalloc() -> dict[str, float]:
    """pymalloc's arenas allocated now and the bytes of the objects in them, in MiB (its
    statistics go to the C stderr)."""
    with tempfile.TemporaryFile() as out:
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        found = {"pymalloc": 0.0, "pyblocks": 0.0}
        for line in out.read().decode(errors="replace").splitlines():
            if line.startswith("# arenas allocated current"):
                found["pymalloc"] = int(line.rsplit("=", 1)[1].replace(",", ""))  # 1 MiB each
            elif line.startswith("# bytes in allocated blocks"):
                found["pyblocks"] = int(line.rsplit("=", 1)[1].replace(",", "")) / 2**20
    return found


def box(data: Path, port: int) -> None:
    """The box as ``tabletop run`` builds it (``bench/box_process.py``), bots moving at once;
    ``collect`` on stdin runs a full collection and answers ``collected`` (under
    ``PYTHONTRACEMALLOC=N``, it first prints to stderr where Python's memory grew since the
    first checkpoint)."""
    import gc
    import tracemalloc

    import firmware_host.allocator as allocator

    # as ``tabletop run`` does: started again with glibc's tunables (a tree from before them
    # has none), then, before any thread starts (luma.core starts a pool of four on import, and
    # each thread that allocates before the limit gets an arena of its own), few arenas
    if hasattr(allocator, "restart_tuned"):
        allocator.restart_tuned()
    allocator.limit_arenas()
    from gpiozero.pins.mock import MockFactory
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    import web_panel
    from firmware_host.companion import Companion
    from firmware_host.config import DeviceSettings, WebConfig
    from firmware_host.device import open_device
    from firmware_host.running_box import quick_switches, settle_heap
    from hardware.serial_die import SerialConfig
    from web_panel.serving import Loop, create_server

    quick_switches()
    companion = Companion.open(data, host_pin=PIN, bot_delay=0.0, analyses_apart=True)
    settings = DeviceSettings(url=f"http://127.0.0.1:{port}/", debounce=0.0,
                              serial=SerialConfig(port=str(data / "no-die")))
    device = open_device(settings, companion, mode="pi", games=companion.registry,
                         pin_factory=MockFactory(),
                         oled=lambda: ssd1306(i2c(bus=DroppingBus(), address=0x3C)))
    companion.attach_status(device.status)
    app = web_panel.create_app(companion, config={"PUBLIC_URL": settings.url})
    server = create_server(app, host="127.0.0.1", port=port, threads=WebConfig.threads,
                           channel_timeout=120, ident="bench")
    serving = Loop(server)

    traced: list[tracemalloc.Snapshot] = []

    def control() -> None:
        for line in sys.stdin:
            if line.strip() == "collect":
                # the box at rest: the backups of the games that just ended taken
                companion.settle(timeout=3600)  # analyses of the games just ended too
                gc.collect()
                if tracemalloc.is_tracing():
                    traced.append(tracemalloc.take_snapshot())
                    for stat in traced[-1].compare_to(traced[0], "traceback")[:12]:
                        print(f"grown since the first checkpoint: {stat}", file=sys.stderr)
                        for frame in stat.traceback.format()[-8:]:
                            print(f"    {frame}", file=sys.stderr)
                print("collected " + " ".join(f"{k}={v}" for k, v in c_memory().items()),
                      flush=True)
        serving.stop()

    threading.Thread(target=control, daemon=True).start()
    settle_heap()
    print("ready", flush=True)
    try:
        serving.run()
    finally:
        web_panel.close_app(app)
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        device.close()
        companion.close()


# --- the tables -------------------------------------------------------------------------------
def follow_to_end(port: int, game_id: int) -> None:
    """Follow the game's live stream, as a phone does, until it has ended."""
    from web_panel.view_delta import apply_delta

    view: dict[str, Any] = {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", f"/api/games/{game_id}/events")
        response = conn.getresponse()
        if response.status != 200:
            raise RuntimeError(f"stream of game {game_id}: {response.status}")
        kind = ""
        while True:
            line = response.readline()
            if not line:
                raise RuntimeError(f"stream of game {game_id} ended before the game")
            if line.startswith(b"event: "):
                kind = line[7:].strip().decode()
            elif line.startswith(b"data: "):
                data = json.loads(line[6:])
                view = data["view"] if kind == "view" else apply_delta(view, data["ops"])
                if view.get("status") != "active":
                    return
    finally:
        conn.close()


class Quota:
    """How many games the tables may start (raised at each checkpoint), and how many ended."""

    def __init__(self) -> None:
        self.allowed = self.started = self.finished = 0
        self.stopping = False
        self._changed = threading.Condition()

    def take(self) -> bool:
        """Wait for a game the table may start (``False``: the bench is over)."""
        with self._changed:
            self._changed.wait_for(lambda: self.stopping or self.started < self.allowed)
            if self.stopping:
                return False
            self.started += 1
            return True

    def ended(self) -> None:
        with self._changed:
            self.finished += 1
            self._changed.notify_all()

    def allow(self, games: int) -> None:
        with self._changed:
            self.allowed = games
            self._changed.notify_all()

    def wait_finished(self, games: int, errors: list[str]) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self.finished >= games or bool(errors))

    def stop(self) -> None:
        with self._changed:
            self.stopping = True
            self._changed.notify_all()


def table(port: int, host: dict[str, str], number: int, quota: Quota, errors: list[str]) -> None:
    """One table: a game, then "play again" after each, while the quota allows."""
    from tests.prove.phones import request as call

    game, players, options = TABLES[number % len(TABLES)]
    previous: int | None = None
    try:
        while quota.take():
            if previous is None:
                status, reply = call(port, "POST", "/api/host/games", host, {
                    "game": game, "players": players, "options": options,
                    "bots": {str(seat): "random" for seat in range(len(players))}})
            else:
                status, reply = call(port, "POST", f"/api/host/games/{previous}/again", host, {})
            if status != 200:
                raise RuntimeError(f"{game}: a new game: {status} {reply}")
            previous = int(reply["game_id"])
            follow_to_end(port, previous)
            quota.ended()
    except Exception as error:  # the bench stops and says why
        errors.append(repr(error))
        quota.ended()


# --- the bench --------------------------------------------------------------------------------
def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` in MiB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Checkpoint:
    games: int
    seconds: float
    rss: float
    #: Milliseconds of each of :data:`READS`.
    reads: list[float]


def timed_reads(port: int, host: dict[str, str]) -> list[float]:
    from tests.prove.phones import request as call

    spent = []
    for path in READS:
        started = time.perf_counter()
        status, _ = call(port, "GET", path, dict(host))
        spent.append((time.perf_counter() - started) * 1000)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
    return spent


def run(checkpoints: list[int], tree: Path) -> list[Checkpoint]:
    """The box from ``tree`` and four tables, measured at each checkpoint."""
    from tests.prove.phones import request as call

    folder = Path(tempfile.mkdtemp(prefix="memory-history-"))
    port = _free_port()
    env = {**os.environ, "HOME": str(folder), "PYTHONPATH": str(tree)}
    proc = subprocess.Popen([sys.executable, __file__, "--box", "--data", str(folder / "data"),
                             "--port", str(port), "--tree", str(tree)],
                            cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdin is not None and proc.stdout is not None
    quota = Quota()
    errors: list[str] = []
    try:
        assert proc.stdout.readline().strip() == "ready", "the box did not start"
        host: dict[str, str] = {}
        status, reply = call(port, "POST", "/api/host/login", host, {"pin": PIN})
        assert status == 200, reply
        threads = [threading.Thread(target=table, args=(port, host, n, quota, errors),
                                    daemon=True) for n in range(len(TABLES))]
        for thread in threads:
            thread.start()
        found, began = [], time.perf_counter()
        for games in checkpoints:
            quota.allow(games)
            quota.wait_finished(games, errors)
            if errors:
                raise RuntimeError("; ".join(errors))
            reads = timed_reads(port, host)
            proc.stdin.write("collect\n")
            proc.stdin.flush()
            answer = proc.stdout.readline().split()
            assert answer[:1] == ["collected"], answer
            found.append(Checkpoint(games, time.perf_counter() - began, rss_mib(proc.pid),
                                    reads))
            print(f"{games:>6} games  {found[-1].seconds:6.0f} s  RSS {found[-1].rss:5.1f} MiB "
                  f"({', '.join(answer[1:])} MiB)  "
                  + "  ".join(f"{p} {ms:.0f} ms" for p, ms in zip(READS, reads, strict=True)),
                  flush=True)
        return found
    finally:
        quota.stop()
        if proc.poll() is None:
            proc.stdin.close()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 400, 1000, 2000, 4000],
                        help="finished games at each checkpoint")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the checkout the box runs from (default: this one)")
    parser.add_argument("--box", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.box:
        sys.path.insert(0, str(args.tree.resolve()))
        box(args.data, args.port)
        return
    sys.path.insert(0, str(ROOT))
    tree = args.tree.resolve()
    print(f"machine: {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; box from {tree}; "
          f"{len(TABLES)} tables: " + ", ".join(g for g, _, _ in TABLES), flush=True)
    found = run(sorted(args.games), tree)
    by_games = {c.games: c.rss for c in found}
    if 400 in by_games and max(by_games) > 400:
        last = max(by_games)
        print(f"RSS after {last} games - after 400: {by_games[last] - by_games[400]:+.1f} MiB "
              f"(target: <= 0, both <= 64 MiB)")


if __name__ == "__main__":
    main()
