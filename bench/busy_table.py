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
    .venv/bin/python bench/busy_table.py --long 600 --phones 30

A table whose game ends starts it again, and its phones follow it to the new game (ICO and
Hacktrick games end within the minute). ``--long`` runs only the box, for that long — live
streams end and resume over ten minutes — and prints the RSS each minute.

Post-game analyses beside the tables (issue 34): every game that ends in the box is analysed
(``firmware_host.game_analyses``), so the ICO tables' games already are.

    .venv/bin/python bench/busy_table.py --analyses-beside [off apart thread] [--rounds R]
        [--seconds 30] [--phones 30] [--backlog N]

runs only the box with the first ``--phones`` count, once per mode, ``--rounds`` times in turn
(default: ``off`` then ``apart``): ``off``, no game has an analysis; ``apart``, as ``tabletop
run`` computes them (a child interpreter at ``nice`` +10); ``thread``, on the analysis worker
thread in the box's own interpreter (``nice`` +10). Each run's journal first holds ``--backlog``
finished 12×12 four-player 2 1 6 games without an analysis (``BOX_BACKLOG`` of
``bench/box_process.py``, in every mode alike); with analyses on, the bench asks for each one's
analysis before the clock starts, which queues them all: seconds of work each, a backlog meant to
outlast the run. To show the worker was busy the whole time, each run reports the CPU seconds
the analyses took during the measured period (the box's threads at ``nice`` ≥ 10 and its child
processes, sampled every 0.5 s) and how many of the backlog were done by its end; then a table of
act and delivery p50/p99 per mode with the ratio to ``off``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
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
    #: The biggest event seen: its size and where it came from (stream, start of its data).
    biggest: tuple[int, str] = (0, "")
    payloads: list[str] = field(default_factory=list)
    keep: bool = False
    error: str | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    #: The table whose current game this phone follows (the box's phones), reconnecting
    #: whenever the server ends the stream (its bounded lifetime) or the table moves on to a
    #: new game; ``None``: one stream (the floor's phones).
    follow: Table | None = None
    streams: int = 0
    #: Streams the box refused (503/429: at its cap), each tried again after ``Retry-After``.
    refused: int = 0
    #: The current stream's socket (``http.client`` drops its own reference to it once a
    #: ``Connection: close`` response has begun, so the connection object cannot hang up).
    sock: socket.socket | None = None

    def run(self, port: int, stop: threading.Event) -> None:
        if self.follow is None:
            self._stream(port, stop)
            return
        table = self.follow
        while not stop.is_set() and self.error is None:
            game_id, index = table.game_id, table.phones.index(self)
            self.path = f"/api/games/{game_id}/events"
            self.cookies = table.seats.get(index, {})
            self._stream(port, stop, until_moved=table, game_id=game_id)

    def _stream(self, port: int, stop: threading.Event, until_moved: Table | None = None,
                game_id: int | None = None) -> None:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())
                   } if self.cookies else {}
        if self.arrivals and until_moved is not None:  # resume where this phone was
            headers["Last-Event-ID"] = str(self.arrivals[-1][0])
        self.streams += 1
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request("GET", self.path, headers=headers)
            self.sock = conn.sock
            if until_moved is not None and until_moved.game_id != game_id:
                return  # the table moved on while this stream opened (hang_up missed it)
            response = conn.getresponse()
            if response.status != 200:
                if until_moved is not None and response.status in (429, 503):
                    # as the page does: poll meanwhile (not measured here) and try again
                    self.refused += 1
                    stop.wait(min(float(response.getheader("Retry-After") or 1), 5.0))
                    return
                self.error = f"stream {self.path}: {response.status}"
                self.ready.set()
                return
            while not stop.is_set():
                line = response.readline()
                if until_moved is not None and until_moved.game_id != game_id:
                    return  # the table started a new game (and hung this stream up): follow it
                if not line:
                    if not stop.is_set() and until_moved is None:
                        self.error = f"stream {self.path} ended"
                    return
                if line.startswith(b"data: "):
                    now = time.perf_counter()
                    data = json.loads(line[6:])
                    self.arrivals.append((int(data["version"]), now))
                    self.sizes.append(len(line) - 7)
                    if len(line) - 7 > self.biggest[0]:
                        self.biggest = (len(line) - 7, f"{self.path}: {line[6:100]!r}")
                    if self.keep:
                        self.payloads.append(line[6:-1].decode())
                    self.ready.set()
        except (OSError, http.client.HTTPException, ValueError) as error:
            moved = until_moved is not None and until_moved.game_id != game_id
            if not stop.is_set() and not moved:
                self.error = f"stream {self.path}: {error!r}"
        finally:
            conn.close()
            self.ready.set()

    def first(self, version: int) -> float | None:
        return next((t for v, t in list(self.arrivals) if v >= version), None)

    def hang_up(self) -> None:
        """End the current stream (the table moved on to a new game)."""
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


@dataclass
class Table:
    game: str
    players: list[str]
    options: dict[str, object]
    game_id: int = 0
    seats: dict[int, dict[str, str]] = field(default_factory=dict)
    state: Any = None
    phones: list[Phone] = field(default_factory=list)
    #: sent, answered, version, and whether it started the table's next game (its players'
    #: claims and its phones' reconnecting: neither an act's latency nor a delivery's).
    acts: list[tuple[float, float, int, bool]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    replay: list[str] = field(default_factory=list)  # the floor: payloads to send, in order
    #: The host's cookies, to start the next game when this one ends; games played.
    host: dict[str, str] = field(default_factory=dict)
    games: int = 1


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
    #: RSS each minute; live streams opened; games played; streams refused at the cap.
    trace: list[float] = field(default_factory=list)
    streams: int = 0
    games: int = 0
    refused: int = 0
    #: With analyses beside: the CPU seconds they took during the measured period and its
    #: length, the backlog's analyses done by its end and their number, what ran them.
    analysis_cpu: float | None = None
    seconds: float = 0.0
    backlog_done: int = 0
    backlog: int = 0
    analysers: list[str] = field(default_factory=list)
    #: The machine's one-minute load average when the clock started (other work on it).
    load: float = 0.0
    #: The largest resident memory of a child process of the box (the analysis interpreter).
    child_rss: float = 0.0


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


class AnalysisMeter:
    """The CPU seconds the box's post-game analyses have used: its threads scheduled at
    ``nice`` >= 10 (the analysis worker, which computes them itself in ``thread`` mode) and its
    child processes (the analysis interpreter in ``apart`` mode), each sampled while it runs (a
    child that has left counts with its last sample)."""

    NICE = 10

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.cpu: dict[str, float] = {}
        #: What computed them, as last seen: "thread TID nice N", "child PID nice N on core(s) C".
        self.seen: dict[str, str] = {}
        #: The largest resident memory of a child process seen (MiB).
        self.child_rss = 0.0

    def sample(self) -> float:
        tick = os.sysconf("SC_CLK_TCK")
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{self.pid}/task").iterdir():
                fields = _stat(task / "stat")
                if fields and int(fields[16]) >= self.NICE:
                    key = f"thread {task.name}"
                    self.cpu[key] = (int(fields[11]) + int(fields[12])) / tick
                    self.seen[key] = f"{key} nice {fields[16]}"
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            fields = _stat(proc / "stat")
            if fields and int(fields[1]) == self.pid:
                key = f"child {proc.name}"
                self.cpu[key] = (int(fields[11]) + int(fields[12])) / tick
                with contextlib.suppress(OSError):
                    self.child_rss = max(self.child_rss, rss_mib(int(proc.name)))
                    cores = ",".join(map(str, sorted(os.sched_getaffinity(int(proc.name)))))
                    self.seen[key] = f"{key} nice {fields[16]} on core(s) {cores}"
        return sum(self.cpu.values())


def _stat(path: Path) -> list[str]:
    """The fields of a ``/proc`` stat file after the command's name (none if it has gone)."""
    try:
        return path.read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


class Box:
    """The box process (``bench/box_process.py``) on core 0; ``env``: its ``BOX_*`` settings."""

    def __init__(self, folder: Path, quarter: bool, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.out = folder / "presses.json"
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "box_process.py"), "--data", str(folder / "data"),
             "--port", str(self.port), "--out", str(self.out)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "HOME": str(folder), **(env or {})})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split()
        assert line[:1] == ["ready"], line
        self.pin = line[2]
        #: The finished games without an analysis that the box was given (``BOX_BACKLOG``).
        self.backlog = [int(g) for g in line[3].split(",")] if len(line) > 3 else []
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
        for line in found.get("growth", []):  # only under PYTHONTRACEMALLOC
            print("   grown:", line)
        print_trace(found.get("trace", []))
        return list(found["presses"]), [(g, ms) for g, ms in found["gc"]]


def print_trace(records: list[dict[str, float]]) -> None:
    """Where the box's acts spent their time (only under ``BOX_TRACE``: ``bench/act_trace.py``),
    p50 / p99 / max of each stretch in ms, for all acts and for the slowest 2 %."""
    done = [r for r in records if {"w0", "q", "s", "e", "w1"} <= r.keys()]
    if not done:
        return
    stretches = {"to the session queue": ("w0", "q"), "queued": ("q", "s"),
                 "command": ("s", "e"), "journal": None, "back to the request": ("e", "w1"),
                 "request in all": ("w0", "w1")}
    slow = sorted(done, key=lambda r: r["w1"] - r["w0"])[-max(1, len(done) // 50):]
    games = sorted({int(r["game"]) for r in slow})
    print("   trace: the slowest 2 % by game:",
          ", ".join(f"game {g}: {sum(1 for r in slow if int(r['game']) == g)}" for g in games))
    if os.environ.get("BOX_TRACE") == "2":
        for r in slow[-8:]:
            print("   slow act, game", int(r["game"]), " ".join(
                f"{k}={(r[k] - r['w0']) * 1000:.1f}" for k in ("q", "s", "e", "w1")),
                f"txn={r['txn'] * 1000:.1f}")
    for label, ends in stretches.items():
        def ms(r: dict[str, float], ends: tuple[str, str] | None = ends) -> float:
            return (r["txn"] if ends is None else r[ends[1]] - r[ends[0]]) * 1000
        every = sorted(ms(r) for r in done)
        worst = [ms(r) for r in slow]
        print(f"   trace {label:>22}: p50 {every[len(every) // 2]:6.2f}  "
              f"p99 {every[int(len(every) * 0.99)]:6.2f}  max {every[-1]:6.2f} ms; "
              f"slowest 2%: mean {statistics.fmean(worst):6.2f} ms")


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
        table = Table(game, players, options, reply["game_id"], host=host)
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
    # the pad's own game, which the host gives the pad: the box's pad thread draws on its
    # entry screen
    status, reply = call(port, "POST", "/api/host/games", host, json.dumps(
        {"game": "unlock", "players": ["Pad", "Aiko"], "options": {}}).encode())
    assert status == 200, reply
    status, reply = call(port, "POST", "/api/host/pad", host, json.dumps(
        {"game_id": reply["game_id"]}).encode())
    assert status == 200, reply
    for n in range(phones):
        table = tables[n % len(tables)]
        index = len(table.phones)
        table.phones.append(Phone(f"/api/games/{table.game_id}/events",
                                  table.seats.get(index, {}), keep=keep and index == 0,
                                  follow=table))
    return tables


def next_game(port: int, table: Table, rng: random.Random) -> tuple[int, int] | None:
    """The table's game ended: the host starts the same game again, its players claim their
    seats, and the table's phones follow it."""
    seed = rng.randrange(2**31)
    status, reply = call(port, "POST", "/api/host/games", table.host, json.dumps(
        {"game": table.game, "players": table.players, "options": table.options,
         "seed": seed}).encode())
    if status != 200:
        table.errors.append(f"{table.game}: a new game: {status} {reply}")
        return None
    game_id = int(reply["game_id"])
    seats: dict[int, dict[str, str]] = {}
    for seat in range(len(table.players)):
        cookies: dict[str, str] = {}
        status, reply = call(port, "POST", f"/api/games/{game_id}/seats/{seat}/claim",
                             cookies, b"{}")
        if status != 200:
            table.errors.append(f"{table.game}: claiming seat {seat}: {status} {reply}")
            return None
        seats[seat] = cookies
    table.state = get_game(table.game).start(table.players, table.options, seed=seed)
    table.seats, table.game_id = seats, game_id
    table.games += 1
    for phone in table.phones:
        phone.hang_up()
    status, reply = call(port, "GET", f"/api/games/{game_id}", None)
    return (status, int(reply["version"])) if status == 200 else None


def act_box(port: int, table: Table, rng: random.Random) -> tuple[float, float, int] | None:
    """One random legal move: when its request was sent and answered, and the new version."""
    rules = get_game(table.game)
    seats = rules.to_act(table.state)
    if not seats:
        return None
    seat = rng.choice(seats)
    action = rng.choice(list(islice(iter(rules.legal_actions(table.state, seat)), 200)))
    roller = rules.view(table.state, None).get("roll_for") if seat == CHANCE else None
    cookies = table.seats[roller["seat"] if roller else seat]
    path = f"/api/games/{table.game_id}/" + ("chance" if seat == CHANCE else "act")
    body = json.dumps({"action": action}).encode()
    # act latency is the request's alone: the bench's own choice of a move (legal actions,
    # a view for the roller) happens before it, and its copy of the rules after
    sent = time.perf_counter()
    status, reply = call(port, "POST", path, cookies, body)
    answered = time.perf_counter()
    if status != 200:
        table.errors.append(f"{table.game} {action!r}: {status} {reply}")
        return None
    table.state = rules.apply(table.state, seat, action)
    return sent, answered, int(reply["version"])


def drive(port: int, table: Table, until: float, floor: bool, number: int) -> None:
    rng = random.Random(number)
    due = time.perf_counter()
    step = 0
    while time.perf_counter() < until:
        due += PACE
        result: tuple[float, float, int] | None
        if floor:
            if step >= len(table.replay):
                return
            payload = table.replay[step]
            sent = time.perf_counter()
            status, _ = call(port, "POST", f"/tables/{number}/act", None, payload.encode())
            # the phones read the recorded event's own version
            result = ((sent, time.perf_counter(), int(json.loads(payload)["version"]))
                      if status == 200 else None)
        else:
            result = act_box(port, table, rng)
            if result is None and table.host and not table.errors:
                sent = time.perf_counter()
                started = next_game(port, table, rng)
                if started is not None:
                    table.acts.append((sent, time.perf_counter(), started[1], True))
                    time.sleep(max(0.0, due - time.perf_counter()))
                    continue
        if result is None:
            return
        table.acts.append((*result, False))
        step += 1
        time.sleep(max(0.0, due - time.perf_counter()))


def run(name: str, port: int, pid: int, tables: list[Table], seconds: float, floor: bool,
        presses: Any, meter: AnalysisMeter | None = None,
        backlog_done: Callable[[], int] | None = None) -> Figures:
    stop = threading.Event()
    threads = [threading.Thread(target=phone.run, args=(port, stop), daemon=True)
               for table in tables for phone in table.phones]
    for thread in threads:
        thread.start()
    for table in tables:
        for phone in table.phones:
            assert phone.ready.wait(30), "a phone's stream did not start"
    peak = [rss_mib(pid)]
    trace: list[float] = []
    sampling = threading.Event()

    def sample() -> None:
        ticks = 0
        while not sampling.wait(0.5):
            peak[0] = max(peak[0], rss_mib(pid))
            if meter is not None:
                meter.sample()
            ticks += 1
            if ticks % 120 == 0:
                trace.append(rss_mib(pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu_before = cpu_seconds(pid)
    analysis_before = meter.sample() if meter is not None else 0.0
    load = os.getloadavg()[0]
    began = time.perf_counter()
    until = began + seconds
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
    analysis_cpu = meter.sample() - analysis_before if meter is not None else None
    measured = time.perf_counter() - began
    done = backlog_done() if backlog_done is not None else 0
    time.sleep(10)  # idle: what is given back
    sampling.set()
    sampler.join()
    after = rss_mib(pid)
    stop.set()
    errors = [e for t in tables for e in t.errors]
    errors += [p.error for t in tables for p in t.phones if p.error]
    act_ms, delivery, sizes = [], [], []
    for table in tables:
        for sent, answered, version, new_game in table.acts:
            if not new_game:
                act_ms.append((answered - sent) * 1000)
            for phone in table.phones:
                at = phone.first(version)
                if at is None:
                    errors.append(f"{table.game}: version {version} never reached a phone")
                elif not new_game:
                    delivery.append(max(0.0, at - answered) * 1000)
        sizes += [size for phone in table.phones for size in phone.sizes]
    biggest = max((p.biggest for t in tables for p in t.phones), default=(0, ""))
    if biggest[0] > 16384:
        print(f"   the biggest event, {biggest[0]} B: {biggest[1]}")
    phones = sum(len(t.phones) for t in tables)
    press_ms, collections = presses()
    return Figures(name, phones, len(act_ms), act_ms, delivery, sizes,
                   press_ms, collections, cpu, peak[0], after, errors, trace,
                   sum(p.streams for t in tables for p in t.phones),
                   sum(t.games for t in tables),
                   sum(p.refused for t in tables for p in t.phones),
                   analysis_cpu, measured, done,
                   analysers=sorted(meter.seen.values()) if meter is not None else [],
                   load=load, child_rss=meter.child_rss if meter is not None else 0.0)


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


def analyses_run(seconds: float, phones: int, mode: str, backlog: int) -> Figures:
    """The box with ``phones`` phones and post-game analyses ``off``, ``apart`` or in a
    ``thread``; its journal holding ``backlog`` finished games without an analysis, all queued
    before the clock starts unless analyses are off."""
    folder = Path(tempfile.mkdtemp(prefix="busy-"))
    box = Box(folder, False, {"BOX_ANALYSES": mode, "BOX_BACKLOG": str(backlog)})
    try:
        tables = set_up_box(box.port, box.pin, phones, False)
        queued = queue_analyses(box.port, box.backlog) if mode != "off" else []
        box.proc.send_signal(signal.SIGUSR1)

        def done() -> int:
            return sum(1 for g in queued if call(box.port, "GET", f"/api/games/{g}/analysis")[0]
                       == 200)

        figures = run(f"box, {phones} phones, analyses {mode}", box.port, box.proc.pid, tables,
                      seconds, False, box.presses, AnalysisMeter(box.proc.pid), done)
        figures.backlog = len(queued)
        return figures
    finally:
        if box.proc.poll() is None:
            box.proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def queue_analyses(port: int, games: list[int]) -> list[int]:
    """Ask for each finished game's analysis, which queues it on the box's worker (202)."""
    for game_id in games:
        status, reply = call(port, "GET", f"/api/games/{game_id}/analysis")
        assert status == 202, (game_id, status, reply)
    return games


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
    if f.trace:
        print("   RSS each minute: " + ", ".join(f"{m:.1f}" for m in f.trace) + " MiB; "
              f"{f.games} games played, {f.streams} streams opened, {f.refused} refused "
              "(at the cap; tried again)")
    if f.analysis_cpu is not None:
        share = f.analysis_cpu / f.seconds if f.seconds else 0.0
        backlog = (f"; the backlog's analyses done by its end: {f.backlog_done} of {f.backlog}"
                   if f.backlog else "")
        print(f"   analyses: {f.analysis_cpu:.1f} s of CPU in the {f.seconds:.0f} s measured "
              f"({share:.0%} of a core){backlog}")
        for what in f.analysers:
            print(f"     computed by {what}")
        if f.child_rss:
            print(f"     the analysis process's RSS peak: {f.child_rss:.1f} MiB (not in the box's)")
    print(f"   errors: {len(f.errors)}" + "".join(f"\n     {e}" for e in sorted(set(f.errors))[:5]))


def compare(runs: list[Figures], modes: list[str]) -> None:
    """Act and delivery p50/p99 of each analyses mode against the first mode's (``off``): run by
    run (each against the same round's), and every round's samples pooled."""
    quantiles = (("act_ms", 0.5), ("act_ms", 0.99), ("delivery_ms", 0.5), ("delivery_ms", 0.99))
    base = modes[0]
    rounds = [runs[n:n + len(modes)] for n in range(0, len(runs), len(modes))]
    print(f"== analyses beside the tables, ratio to {base!r} of the same round "
          "(load: the machine's one-minute load average as the clock started)")
    print(f"   {'round':>5} {'mode':<7} {'load':>4} | {'act p50':>15} | {'act p99':>15} | "
          f"{'delivery p50':>15} | {'delivery p99':>15} | analyses | done")
    ratios: dict[str, list[list[float]]] = {mode: [] for mode in modes[1:]}
    for number, group in enumerate(rounds, start=1):
        for mode, f in zip(modes, group, strict=True):
            cells, row = [], []
            for which, q in quantiles:
                value, ref = pct(getattr(f, which), q), pct(getattr(group[0], which), q)
                row.append(value / ref if ref else 0.0)
                cells.append(f"{value:6.1f} ms" + (f" {row[-1]:5.2f}×" if mode != base
                                                   else " " * 7))
            if mode != base:
                ratios[mode].append(row)
            share = (f.analysis_cpu or 0.0) / f.seconds if f.seconds else 0.0
            print(f"   {number:>5} {mode:<7} {f.load:4.1f} | " + " | ".join(cells)
                  + f" | {share:5.0%}    | {f.backlog_done}/{f.backlog}")
    print(f"   pooled over {len(rounds)} round(s); the ratio's median over the rounds in brackets")
    for mode in modes:
        mine = [f for group in rounds for f, m in zip(group, modes, strict=True) if m == mode]
        cells = []
        for k, (which, q) in enumerate(quantiles):
            value = pct([v for f in mine for v in getattr(f, which)], q)
            ref = pct([v for group in rounds for v in getattr(group[0], which)], q)
            cells.append(f"{value:6.1f} ms" + (
                f" {value / ref:5.2f}× ({statistics.median(r[k] for r in ratios[mode]):.2f}×)"
                if mode != base and ref else ""))
        cpu = sum(f.analysis_cpu or 0.0 for f in mine)
        seconds = sum(f.seconds for f in mine)
        box_cpu = sum(f.cpu for f in mine)
        print(f"   {'all':>5} {mode:<7} {'':>4} | " + " | ".join(cells)
              + f" | analyses {cpu / seconds:.0%} of a core, box process {box_cpu / seconds:.0%}"
              f"; RSS peak {max(f.rss_peak for f in mine):.0f} MiB"
              + (f" + {max(f.child_rss for f in mine):.0f} MiB the analysis process"
                 if any(f.child_rss for f in mine) else ""))


def long_run(seconds: float, phones: int) -> Figures:
    """The box alone with ``phones`` phones for ``seconds``: an ended game is started again and
    its phones follow it; streams reconnect with ``Last-Event-ID`` when the server ends them."""
    folder = Path(tempfile.mkdtemp(prefix="busy-"))
    box = Box(folder, False)
    try:
        tables = set_up_box(box.port, box.pin, phones, False)
        box.proc.send_signal(signal.SIGUSR1)
        return run(f"box, {phones} phones, {seconds:.0f} s, games started again as they end",
                   box.port, box.proc.pid, tables, seconds, False, box.presses)
    finally:
        if box.proc.poll() is None:
            box.proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--phones", type=int, nargs="+", default=[30, 60])
    parser.add_argument("--quarter", action="store_true",
                        help="also run with the box held to a quarter of one core (root)")
    parser.add_argument("--long", type=float, metavar="SECONDS",
                        help="only the box with the first --phones count for SECONDS, games "
                             "started again as they end (the memory of long-lived streams)")
    parser.add_argument("--analyses-beside", nargs="*", choices=("off", "apart", "thread"),
                        metavar="MODE", help="only the box with the first --phones count, once "
                        "per post-game analyses mode (off, apart, thread; default: off apart)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --analyses-beside: the modes run in turn this many times")
    parser.add_argument("--backlog", type=int,
                        help="with --analyses-beside: finished games queued for analysis before "
                             "the clock starts (default: one per 2 s of --seconds, 10 more)")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # beside the box's log
    if args.analyses_beside is not None:
        modes = args.analyses_beside or ["off", "apart"]
        backlog = args.backlog if args.backlog is not None else int(args.seconds / 2) + 10
        print(f"machine: {os.cpu_count()} cores; box on core 0, load on core 1; "
              f"{len(TABLES)} tables, one action each every {PACE * 1000:.0f} ms, "
              f"{args.seconds:.0f} s a run, {args.phones[0]} phones; a backlog of {backlog} "
              f"finished 12×12 2 1 6 games for four")
        runs = []
        for _ in range(max(1, min(args.rounds, 10))):
            for mode in modes:
                runs.append(analyses_run(args.seconds, args.phones[0], mode, backlog))
                report(runs[-1], None)
        compare(runs, modes)
        return
    if args.long:
        report(long_run(args.long, args.phones[0]), None)
        return
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
