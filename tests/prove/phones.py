"""A table of simulated phones for load runs: each holds a game's live event stream (with its own
seat's cookie, or as a spectator) and polls the game's view, while one driver per game plays
random legal actions over HTTP as the seated players do.

A driver plays its next action once every phone of its game has received the last one, so the
figures are the latency of each update, not of a queue. The latency of one update at one phone is
the time from just before the action's request was sent to that phone reading the event that
carries the game's new version (or a later one). Used by ``tests/prove/test_load.py`` (short)
and ``bench/load_phones.py`` (60 s against a real ``tabletop run``).
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from rules import CHANCE, get_game

TIMEOUT = 30.0
DELIVERY_TIMEOUT = 5.0
#: Games played during a load run, long enough not to end in a minute of random play.
GAMES: tuple[tuple[str, list[str], dict[str, object]], ...] = (
    ("unlock", ["Lock", "Aiko", "Ben", "Chie"], {"difficulty": "hard", "turn_limit": None}),
    ("dice216", ["Aiko", "Ben", "Chie", "Dai"], {"size": 12, "diagonals": True}),
    ("hacktrick", ["Aiko", "Ben"], {"target": 99}),
    ("ico", ["Aiko", "Ben", "Chie"], {"level": "4"}),
)


@dataclass
class Errors:
    """Every error any phone or driver met (thread-safe)."""

    found: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, text: str) -> None:
        with self.lock:
            self.found.append(text)


def request(port: int, method: str, path: str, cookies: dict[str, str] | None = None,
            body: Any = None, source: str = "127.0.0.1") -> tuple[int, Any]:
    """One request to the panel on ``port`` (from the loopback address ``source``): its status
    and its JSON answer (``None`` for a page); a cookie it sets is kept in ``cookies``."""
    headers = {"X-Requested-With": "tabletop", "Content-Type": "application/json"}
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT,
                                      source_address=(source, 0))
    try:
        conn.request(method, path, json.dumps(body).encode() if body is not None else None,
                     headers)
        reply = conn.getresponse()
        payload = reply.read()
        cookie = reply.getheader("Set-Cookie")
        if cookie and cookies is not None:
            name, _, rest = cookie.partition("=")
            cookies[name] = rest.split(";", 1)[0]
        is_json = (reply.getheader("Content-Type") or "").startswith("application/json")
        return reply.status, json.loads(payload) if is_json and payload else None
    finally:
        conn.close()


class Phone:
    """One phone on one game: a stream reader and a poller, each in its own thread, from its
    own loopback address (as phones at a table each have theirs: the panel caps live streams
    per address)."""

    def __init__(self, port: int, game_id: int, cookies: dict[str, str], poll_every: float,
                 changed: threading.Condition, errors: Errors, stop: threading.Event,
                 address: str = "127.0.0.1") -> None:
        self.port, self.game_id, self.cookies = port, game_id, dict(cookies)
        self.address = address
        self.poll_every, self.changed, self.errors, self.stop = poll_every, changed, errors, stop
        self.arrivals: list[tuple[int, float]] = []
        self.seen = -1
        self.polls = 0
        self.connected = threading.Event()
        self._conn: http.client.HTTPConnection | None = None
        self.threads = [threading.Thread(target=self._stream, daemon=True),
                        threading.Thread(target=self._poll, daemon=True)]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def first_arrival(self, version: int) -> float | None:
        """When this phone first read an event of ``version`` or later."""
        with self.changed:
            return next((t for v, t in self.arrivals if v >= version), None)

    def close(self) -> None:
        conn = self._conn
        if conn is not None and conn.sock is not None:
            conn.sock.close()
        for thread in self.threads:
            thread.join(TIMEOUT)

    def _stream(self) -> None:
        path = f"/api/games/{self.game_id}/events"
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT,
                                              source_address=(self.address, 0))
            self._conn = conn
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            conn.request("GET", path, headers=headers if self.cookies else {})
            response = conn.getresponse()
            if response.status != 200:
                self.errors.add(f"stream {path}: {response.status}")
                return
            while not self.stop.is_set():
                line = response.readline()
                if not line:
                    if not self.stop.is_set():
                        self.errors.add(f"stream {path} ended")
                    return
                if line.startswith(b"data: "):
                    version = json.loads(line[6:])["version"]
                    now = time.perf_counter()
                    with self.changed:
                        self.arrivals.append((version, now))
                        self.seen = max(self.seen, version)
                        self.changed.notify_all()
                    self.connected.set()
        except (OSError, http.client.HTTPException, ValueError) as error:
            if not self.stop.is_set():
                self.errors.add(f"stream {path}: {error!r}")

    def _poll(self) -> None:
        rng = random.Random(id(self))
        path = f"/api/games/{self.game_id}"
        while not self.stop.wait(self.poll_every * rng.uniform(0.5, 1.5)):
            try:
                status, _ = request(self.port, "GET", path, self.cookies,
                                    source=self.address)
            except (OSError, http.client.HTTPException, ValueError) as error:
                self.errors.add(f"poll {path}: {error!r}")
                continue
            self.polls += 1
            if status != 200:
                self.errors.add(f"poll {path}: {status}")


@dataclass
class Table:
    """One game being played: its seats' cookies, the phones watching it, and its driver's
    copy of the state."""

    game_id: int
    game: str
    players: list[str]
    options: dict[str, object]
    seed: int
    seats: dict[int, dict[str, str]]
    state: Any
    phones: list[Phone] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)


@dataclass
class LoadResult:
    latencies_ms: list[float]
    actions: int
    polls: int
    errors: list[str]


def set_up(port: int, pin: str, phones: int, poll_every: float, errors: Errors,
           stop: threading.Event, seed: int = 30) -> list[Table]:
    """Create the games (as the host), claim every seat, and connect ``phones`` phones: the
    first phones of each game hold its seats, the rest watch as spectators."""
    rng = random.Random(seed)
    host: dict[str, str] = {}
    status, reply = request(port, "POST", "/api/host/login", host, {"pin": pin})
    assert status == 200, reply
    tables = []
    for game, players, options in GAMES:
        game_seed = rng.randrange(2**31)
        status, reply = request(port, "POST", "/api/host/games", host, {
            "game": game, "players": players, "options": options, "seed": game_seed})
        assert status == 200, reply
        gid = reply["game_id"]
        seats = {}
        for seat in range(len(players)):
            cookies: dict[str, str] = {}
            status, reply = request(port, "POST", f"/api/games/{gid}/seats/{seat}/claim",
                                    cookies, {})
            assert status == 200, reply
            seats[seat] = cookies
        state = get_game(game).start(players, options, seed=game_seed)
        tables.append(Table(gid, game, players, options, game_seed, seats, state))
    for n in range(phones):
        table = tables[n % len(tables)]
        index = len(table.phones)
        cookies = table.seats.get(index, {})
        phone = Phone(port, table.game_id, cookies, poll_every, table.changed, errors, stop,
                      address=f"127.0.{1 + n // 250}.{2 + n % 250}")
        table.phones.append(phone)
        phone.start()
    for table in tables:
        for phone in table.phones:
            assert phone.connected.wait(TIMEOUT), "a phone's stream did not start"
    return tables


def drive(port: int, table: Table, until: float, errors: Errors, latencies: list[float],
          rng: random.Random) -> int:
    """Play ``table``'s game until the clock passes ``until`` (or the game ends); returns the
    number of actions."""
    rules = get_game(table.game)
    played = 0
    while time.monotonic() < until:
        seats = rules.to_act(table.state)
        if not seats:
            return played
        seat = rng.choice(seats)
        action = rng.choice(list(islice(iter(rules.legal_actions(table.state, seat)), 200)))
        # a roll is entered by the phone of the seat whose roll it is
        roller = rules.view(table.state, None).get("roll_for") if seat == CHANCE else None
        cookies = table.seats[roller["seat"] if roller else seat]
        path = f"/api/games/{table.game_id}/" + ("chance" if seat == CHANCE else "act")
        sent = time.perf_counter()
        status, reply = request(port, "POST", path, cookies, {"action": action})
        if status != 200:
            errors.add(f"{table.game} {action!r}: {status} {reply}")
            return played
        table.state = rules.apply(table.state, seat, action)
        played += 1
        version: int = reply["version"]
        with table.changed:
            delivered = table.changed.wait_for(
                lambda v=version: all(p.seen >= v for p in table.phones),  # type: ignore[misc]
                DELIVERY_TIMEOUT)
        if not delivered:
            errors.add(f"{table.game}: version {version} missed by some phone")
        for phone in table.phones:
            at = phone.first_arrival(version)
            if at is not None:
                latencies.append((at - sent) * 1000)
    return played


def run_load(port: int, pin: str, *, phones: int = 30, seconds: float = 10.0,
             poll_every: float = 1.0) -> LoadResult:
    """Phones on every game, one driver per game for ``seconds``; then everything stops."""
    errors = Errors()
    stop = threading.Event()
    tables = set_up(port, pin, phones, poll_every, errors, stop)
    until = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in tables]
    counts = [0] * len(tables)

    def play(i: int) -> None:
        counts[i] = drive(port, tables[i], until, errors, latencies[i], random.Random(i))

    drivers = [threading.Thread(target=play, args=(i,)) for i in range(len(tables))]
    for driver in drivers:
        driver.start()
    for driver in drivers:
        driver.join()
    stop.set()
    for table in tables:
        for phone in table.phones:
            phone.close()
    return LoadResult(sorted(x for per in latencies for x in per), sum(counts),
                      sum(p.polls for t in tables for p in t.phones), list(errors.found))


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of sorted ``values``, by the nearest rank."""
    return values[min(len(values) - 1, max(0, round(q * len(values)) - 1))]
