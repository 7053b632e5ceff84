"""A busy table (issue 15's reference load): four tables each doing one action every 250 ms,
phones streaming their game, the box pinned to one CPU core — and the same fan-out on a minimal
Flask + waitress server in the same run, the floor of this stack.

The box (``bench/box_process.py``: the daemon's parts as ``tabletop run`` builds them, its OLED
on luma's ssd1306 driver over a timing bus) runs on core 0; this load generator on core 1.
UNLOCK (Hard, a Lock and four guessers) is played to eight clue cards before the clock starts;
2 1 6 is 12×12 with diagonals for four, Hacktrick and ICO Level 4 as in the prove suite. A pad
thread in the box presses a dot and Back on a fifth game (UNLOCK's entry screen) every 200 ms.

For each run it prints: act p50/p99 (request → answer), delivery p50/p99 (act answered → the
event at every phone of that game), event size median/max, press → first OLED byte p50/p99, the
box's CPU seconds per action and its resident memory during (peak) and 10 s after. Runs: no
phones (the CPU baseline), 30 and 60 phones; the floor with 30 and 60; ``--quarter`` repeats
the 30-phone run with the box held to a quarter of one core (cgroup v1 ``cpu``, as root).

    .venv/bin/python bench/busy_table.py [--seconds 60] [--phones 30 60] [--quarter]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from daemon_process import cpu_seconds, free_port, rss_mib  # noqa: E402

from rules import CHANCE, get_game  # noqa: E402

PACE = 0.25
DELIVERY_TIMEOUT = 5.0
TABLES: tuple[tuple[str, list[str], dict[str, object]], ...] = (
    ("unlock", ["Lock", "Aiko", "Ben", "Chie", "Dai"], {"difficulty": "hard",
                                                       "turn_limit": None}),
    ("dice216", ["Aiko", "Ben", "Chie", "Dai"], {"size": 12, "diagonals": True}),
    ("hacktrick", ["Aiko", "Ben"], {"target": 99}),
    ("ico", ["Aiko", "Ben", "Chie"], {"level": "4"}),
)
CGROUP = Path("/sys/fs/cgroup/cpu/tabletop-bench")


def call(port: int, method: str, path: str, cookies: dict[str, str] | None = None,
         body: bytes | None = None) -> tuple[int, Any]:
    headers = {"X-Requested-With": "tabletop", "Content-Type": "application/json"}
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body, headers)
        reply = conn.getresponse()
        payload = reply.read()
        cookie = reply.getheader("Set-Cookie")
        if cookie and cookies is not None:
            name, _, rest = cookie.partition("=")
            cookies[name] = rest.split(";", 1)[0]
        return reply.status, json.loads(payload) if payload else None
    finally:
        conn.close()


@dataclass
class Phone:
    """A phone's live stream: when each version arrived, and each event's size."""

    path: str
    cookies: dict[str, str]
    arrivals: list[tuple[int, float]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    payloads: list[str] = field(default_factory=list)
    keep: bool = False
    error: str | None = None
    ready: threading.Event = field(default_factory=threading.Event)

    def run(self, port: int, stop: threading.Event) -> None:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", self.path, headers=headers if self.cookies else {})
            response = conn.getresponse()
            if response.status != 200:
                self.error = f"stream {self.path}: {response.status}"
                self.ready.set()
                return
            while not stop.is_set():
                line = response.readline()
                if not line:
                    if not stop.is_set():
                        self.error = f"stream {self.path} ended"
                    return
                if line.startswith(b"data: "):
                    now = time.perf_counter()
                    data = json.loads(line[6:])
                    self.arrivals.append((int(data["version"]), now))
                    self.sizes.append(len(line) - 7)
                    if self.keep:
                        self.payloads.append(line[6:-1].decode())
                    self.ready.set()
        except (OSError, http.client.HTTPException, ValueError) as error:
            if not stop.is_set():
                self.error = f"stream {self.path}: {error!r}"
        finally:
            self.ready.set()

    def first(self, version: int) -> float | None:
        return next((t for v, t in list(self.arrivals) if v >= version), None)


@dataclass
class Table:
    game: str
    players: list[str]
    options: dict[str, object]
    game_id: int = 0
    seats: dict[int, dict[str, str]] = field(default_factory=dict)
    state: Any = None
    phones: list[Phone] = field(default_factory=list)
    acts: list[tuple[float, float, int]] = field(default_factory=list)  # sent, answered, version
    errors: list[str] = field(default_factory=list)
    replay: list[str] = field(default_factory=list)  # the floor: payloads to send, in order


@dataclass
class Figures:
    name: str
    phones: int
    actions: int
    act_ms: list[float]
    delivery_ms: list[float]
    sizes: list[int]
    press_ms: list[float]
    collections: list[tuple[int, float]]
    cpu: float
    rss_peak: float
    rss_after: float
    errors: list[str]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] if ordered else 0.0


def pin(pid: int, core: int) -> None:
    os.sched_setaffinity(pid, {core})
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {core})


def quarter_core(pid: int) -> None:
    """Hold ``pid`` to a quarter of one core (cgroup v1 ``cpu``: 2.5 ms per 10 ms)."""
    CGROUP.mkdir(exist_ok=True)
    (CGROUP / "cpu.cfs_period_us").write_text("10000")
    (CGROUP / "cpu.cfs_quota_us").write_text("2500")
    for task in Path(f"/proc/{pid}/task").iterdir():
        (CGROUP / "tasks").write_text(task.name)


class Box:
    """The box process (``bench/box_process.py``) on core 0."""

    def __init__(self, folder: Path, quarter: bool) -> None:
        self.port = free_port()
        self.out = folder / "presses.json"
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "box_process.py"), "--data", str(folder / "data"),
             "--port", str(self.port), "--out", str(self.out)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "HOME": str(folder)})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split()
        assert line[:1] == ["ready"], line
        self.pin = line[2]
        pin(self.proc.pid, 0)
        if quarter:
            quarter_core(self.proc.pid)

    def presses(self) -> tuple[list[float], list[tuple[int, float]]]:
        """Press → first OLED byte (ms) and the collector's pauses (generation, CPU ms)."""
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(30)
        if not self.out.exists():
            return [], []
        found = json.loads(self.out.read_text())
        return list(found["presses"]), [(g, ms) for g, ms in found["gc"]]


def set_up_box(port: int, pin_code: str, phones: int, keep: bool) -> list[Table]:
    host: dict[str, str] = {}
    status, reply = call(port, "POST", "/api/host/login", host,
                         json.dumps({"pin": pin_code}).encode())
    assert status == 200, reply
    rng = random.Random(15)
    tables = []
    for game, players, options in TABLES:
        seed = rng.randrange(2**31)
        status, reply = call(port, "POST", "/api/host/games", host, json.dumps(
            {"game": game, "players": players, "options": options, "seed": seed}).encode())
        assert status == 200, reply
        table = Table(game, players, options, reply["game_id"])
        for seat in range(len(players)):
            cookies: dict[str, str] = {}
            status, reply = call(port, "POST",
                                 f"/api/games/{table.game_id}/seats/{seat}/claim", cookies, b"{}")
            assert status == 200, reply
            table.seats[seat] = cookies
        table.state = get_game(game).start(players, options, seed=seed)
        tables.append(table)
    unlock = tables[0]
    rng = random.Random(8)
    while len(get_game("unlock").view(unlock.state, None)["clue_board"]) < 8:
        act_box(port, unlock, rng)
    # the pad's own game, the newest: the box's pad thread draws on its entry screen
    status, reply = call(port, "POST", "/api/host/games", host, json.dumps(
        {"game": "unlock", "players": ["Pad", "Aiko"], "options": {}}).encode())
    assert status == 200, reply
    for n in range(phones):
        table = tables[n % len(tables)]
        index = len(table.phones)
        table.phones.append(Phone(f"/api/games/{table.game_id}/events",
                                  table.seats.get(index, {}), keep=keep and index == 0))
    return tables


def act_box(port: int, table: Table, rng: random.Random) -> tuple[int, int] | None:
    rules = get_game(table.game)
    seats = rules.to_act(table.state)
    if not seats:
        return None
    seat = rng.choice(seats)
    action = rng.choice(list(islice(iter(rules.legal_actions(table.state, seat)), 200)))
    roller = rules.view(table.state, None).get("roll_for") if seat == CHANCE else None
    cookies = table.seats[roller["seat"] if roller else seat]
    path = f"/api/games/{table.game_id}/" + ("chance" if seat == CHANCE else "act")
    status, reply = call(port, "POST", path, cookies, json.dumps({"action": action}).encode())
    if status != 200:
        table.errors.append(f"{table.game} {action!r}: {status} {reply}")
        return None
    table.state = rules.apply(table.state, seat, action)
    return status, int(reply["version"])


def drive(port: int, table: Table, until: float, floor: bool, number: int) -> None:
    rng = random.Random(number)
    due = time.perf_counter()
    step = 0
    while time.perf_counter() < until:
        due += PACE
        sent = time.perf_counter()
        if floor:
            if step >= len(table.replay):
                return
            payload = table.replay[step]
            status, _ = call(port, "POST", f"/tables/{number}/act", None, payload.encode())
            # the phones read the recorded event's own version
            result = (status, int(json.loads(payload)["version"])) if status == 200 else None
        else:
            result = act_box(port, table, rng)
        if result is None:
            return
        table.acts.append((sent, time.perf_counter(), result[1]))
        step += 1
        time.sleep(max(0.0, due - time.perf_counter()))


def run(name: str, port: int, pid: int, tables: list[Table], seconds: float, floor: bool,
        presses: Any) -> Figures:
    stop = threading.Event()
    threads = [threading.Thread(target=phone.run, args=(port, stop), daemon=True)
               for table in tables for phone in table.phones]
    for thread in threads:
        thread.start()
    for table in tables:
        for phone in table.phones:
            assert phone.ready.wait(30), "a phone's stream did not start"
    peak = [rss_mib(pid)]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(0.5):
            peak[0] = max(peak[0], rss_mib(pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu_before = cpu_seconds(pid)
    until = time.perf_counter() + seconds
    drivers = [threading.Thread(target=drive, args=(port, t, until, floor, n))
               for n, t in enumerate(tables)]
    for driver in drivers:
        driver.start()
    for driver in drivers:
        driver.join()
    deadline = time.perf_counter() + DELIVERY_TIMEOUT
    for table in tables:  # the last events still on their way
        for phone in table.phones:
            while table.acts and phone.first(table.acts[-1][2]) is None \
                    and time.perf_counter() < deadline:
                time.sleep(0.01)
    cpu = cpu_seconds(pid) - cpu_before
    time.sleep(10)  # idle: what is given back
    sampling.set()
    sampler.join()
    after = rss_mib(pid)
    stop.set()
    errors = [e for t in tables for e in t.errors]
    errors += [p.error for t in tables for p in t.phones if p.error]
    act_ms, delivery, sizes = [], [], []
    for table in tables:
        for sent, answered, version in table.acts:
            act_ms.append((answered - sent) * 1000)
            for phone in table.phones:
                at = phone.first(version)
                if at is None:
                    errors.append(f"{table.game}: version {version} never reached a phone")
                    continue
                delivery.append(max(0.0, at - answered) * 1000)
        sizes += [size for phone in table.phones for size in phone.sizes]
    phones = sum(len(t.phones) for t in tables)
    press_ms, collections = presses()
    return Figures(name, phones, sum(len(t.acts) for t in tables), act_ms, delivery, sizes,
                   press_ms, collections, cpu, peak[0], after, errors)


def box_run(seconds: float, phones: int, quarter: bool = False,
            keep: bool = False) -> tuple[Figures, list[Table]]:
    folder = Path(tempfile.mkdtemp(prefix="busy-"))
    box = Box(folder, quarter)
    try:
        tables = set_up_box(box.port, box.pin, phones, keep)
        box.proc.send_signal(signal.SIGUSR1)
        name = f"box, {phones} phones" + (", quarter core" if quarter else "")
        figures = run(name, box.port, box.proc.pid, tables, seconds, False, box.presses)
        return figures, tables
    finally:
        if box.proc.poll() is None:
            box.proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def floor_run(seconds: float, phones: int, recorded: list[Table]) -> Figures:
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "floor_server.py"), "--port",
                             str(port)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().startswith("ready")
        pin(proc.pid, 0)
        tables = []
        for source in recorded:
            table = Table(source.game, source.players, source.options)
            watcher = next((p for p in source.phones if p.keep), None)
            table.replay = list(watcher.payloads[1:]) if watcher else []
            tables.append(table)
        for n in range(phones):
            table = tables[n % len(tables)]
            table.phones.append(Phone(f"/tables/{tables.index(table)}/events", {}))
        # a first event per table, as the box sends each phone its view on connecting
        for number, source in enumerate(recorded):
            watcher = next((p for p in source.phones if p.keep), None)
            if watcher and watcher.payloads:
                call(port, "POST", f"/tables/{number}/act", None, watcher.payloads[0].encode())
        return run(f"floor, {phones} phones", port, proc.pid, tables, seconds, True,
                   lambda: ([], []))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def report(f: Figures, baseline: float | None) -> None:
    per_action = f.cpu / f.actions * 1000 if f.actions else 0.0
    ratio = f" ({per_action / baseline:.2f}× the no-phone run)" if baseline else ""
    print(f"== {f.name}: {f.actions} actions")
    print(f"   act p50 {pct(f.act_ms, 0.5):.1f} ms, p99 {pct(f.act_ms, 0.99):.1f} ms "
          f"(budget p99 <= 50)")
    if f.delivery_ms:
        print(f"   delivery p50 {pct(f.delivery_ms, 0.5):.1f} ms, "
              f"p99 {pct(f.delivery_ms, 0.99):.1f} ms (budget p99 <= 100)")
    if f.sizes:
        print(f"   events: {len(f.sizes)}, median {statistics.median(f.sizes):.0f} B, "
              f"max {max(f.sizes)} B (budget median <= 2048, max <= 16384)")
    if f.press_ms:
        print(f"   press -> first OLED byte: p50 {pct(f.press_ms, 0.5):.2f} ms, "
              f"p99 {pct(f.press_ms, 0.99):.2f} ms over {len(f.press_ms)} presses "
              "(budget p99 <= 10)")
    for generation in sorted({g for g, _ in f.collections}):
        pauses = [ms for g, ms in f.collections if g == generation]
        print(f"   collector, generation {generation}: {len(pauses)} pauses, "
              f"max {max(pauses):.1f} ms, total {sum(pauses):.0f} ms of CPU")
    print(f"   CPU {f.cpu:.2f} s, {per_action:.2f} ms per action{ratio}")
    print(f"   RSS peak {f.rss_peak:.1f} MiB, 10 s after {f.rss_after:.1f} MiB (budget <= 80)")
    print(f"   errors: {len(f.errors)}" + "".join(f"\n     {e}" for e in sorted(set(f.errors))[:5]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--phones", type=int, nargs="+", default=[30, 60])
    parser.add_argument("--quarter", action="store_true",
                        help="also run with the box held to a quarter of one core (root)")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    print(f"machine: {os.cpu_count()} cores; box on core 0, load on core 1; "
          f"{len(TABLES)} tables, one action each every {PACE * 1000:.0f} ms, "
          f"{args.seconds:.0f} s a run")
    none, _ = box_run(args.seconds, 0)
    baseline = none.cpu / none.actions * 1000 if none.actions else None
    report(none, None)
    for phones in args.phones:
        figures, tables = box_run(args.seconds, phones, keep=True)
        report(figures, baseline)
        report(floor_run(args.seconds, phones, tables), None)
    if args.quarter:
        figures, _ = box_run(args.seconds, args.phones[0], quarter=True)
        report(figures, baseline)


if __name__ == "__main__":
    main()
