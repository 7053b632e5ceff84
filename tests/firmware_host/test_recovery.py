"""Power-cut recovery: a real ``tabletop run`` is SIGKILLed at random moments while phones play
all four games over HTTP (and the host now and then takes an action back); after each kill the
journal must be sound and hold every action a phone got an answer for, and nothing else but the
effect of (at most) the one request still in flight.

The test keeps its own copy of each game — the same rules started from the same seed with the
journaled actions — to choose legal actions and to check the restarted daemon's views.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import random
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from firmware_host import read_side
from rules import CHANCE, get_game
from tests.firmware_host.daemon import Daemon, read_journal

KILLS = 12
GAMES: tuple[tuple[str, list[str], dict[str, object]], ...] = (
    ("dice216", ["Aiko", "Ben"], {}),
    ("unlock", ["Lock", "Aiko", "Ben"], {"difficulty": "easy"}),
    ("ico", ["Aiko", "Ben"], {}),
    ("hacktrick", ["Aiko", "Ben"], {}),
)
UNDO = (0, "undo")  # marks an undo in flight
#: What the session adds to the rules' view (UNLOCK's public extra too).
SESSION_KEYS = (*read_side.SESSION_KEYS, "codes_remaining")


class Refused(Exception):
    """The daemon answered with an error status."""


class Phone:
    """One browser: its own cookies; every POST carries the panel's CSRF header."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> Any:
        with self.opener.open(self.base + path, timeout=10) as reply:
            return json.loads(reply.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-Requested-With": "tabletop"})
        try:
            with self.opener.open(request, timeout=10) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as error:
            raise Refused(f"{error.code} {error.read()[:200]!r}") from None


@dataclass
class Table:
    """The test's copy of one game."""

    game_id: int
    game: str
    players: list[str]
    options: dict[str, object]
    seed: int
    acked: list[tuple[int, str]] = field(default_factory=list)
    #: What the last answer's view said of undo (``can_undo``).
    can_undo: bool = False

    def state(self, actions: list[tuple[int, str]]) -> Any:
        rules = get_game(self.game)
        state = rules.start(self.players, self.options, seed=self.seed)
        for seat, action in actions:
            state = rules.apply(state, seat, action)
        return state


def choose(table: Table, rng: random.Random) -> tuple[int, str] | None:
    rules = get_game(table.game)
    state = table.state(table.acked)
    seats = rules.to_act(state)
    if not seats:
        return None
    seat = rng.choice(seats)
    options = list(islice(iter(rules.legal_actions(state, seat)), 300))
    return seat, rng.choice(options)


def test_every_acknowledged_action_survives_sigkill(tmp_path: Path) -> None:
    rng = random.Random(216)
    data = tmp_path / "data"
    daemon = Daemon(data, tmp_path)
    tables: list[Table] = []
    phones: dict[int, Phone] = {}
    next_kind = 0
    acknowledged = undone = 0
    for round_ in range(KILLS):
        base = daemon.start()
        host = Phone(base)
        host.post("/api/host/login", {"pin": (data / "host_pin").read_text().strip()})
        for seat in range(3):
            phones.setdefault(seat, Phone(base)).base = base
        in_flight: dict[int, tuple[int, str]] = {}
        killed = daemon.killed
        timer = threading.Timer(rng.uniform(0.05, 0.5), daemon.kill)
        timer.start()
        try:
            while not killed.is_set():
                active = [t for t in tables if choose(t, rng) is not None]
                if len(active) < 3:
                    game, players, options = GAMES[next_kind % len(GAMES)]
                    next_kind += 1
                    seed = rng.randrange(2**31)
                    gid = host.post("/api/host/games", {"game": game, "players": players,
                                                        "options": options, "seed": seed})
                    table = Table(gid["game_id"], game, players, options, seed)
                    for seat in range(len(players)):
                        phones[seat].post(f"/api/games/{table.game_id}/seats/{seat}/claim", {})
                    tables.append(table)  # a game whose set-up a kill cut short is left alone
                    continue
                table = rng.choice(active)
                if table.can_undo and rng.random() < 0.2:  # the host takes the last one back
                    in_flight[table.game_id] = UNDO
                    host.post(f"/api/host/games/{table.game_id}/undo", {})
                    del in_flight[table.game_id]
                    table.acked.pop()
                    table.can_undo = False
                    undone += 1
                    continue
                step = choose(table, rng)
                assert step is not None
                seat, action = step
                in_flight[table.game_id] = step
                if seat == CHANCE:
                    view = host.post(f"/api/games/{table.game_id}/chance", {"action": action})
                else:
                    view = phones[seat].post(f"/api/games/{table.game_id}/act",
                                             {"action": action})
                del in_flight[table.game_id]
                table.acked.append(step)
                table.can_undo = bool(view.get("can_undo"))
                acknowledged += 1
        except (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError,
                Refused):
            assert killed.wait(10), "the daemon refused or dropped a request it was not killed in"
        finally:
            timer.cancel()
            timer.join()
            if daemon.proc is not None and daemon.proc.poll() is None:
                daemon.kill()
        verdict, _, saved = read_journal(data)
        assert verdict == "ok", f"round {round_}: integrity_check says {verdict}"
        for table in tables:
            got = saved.get(table.game_id, [])
            pending = in_flight.get(table.game_id)
            allowed = [table.acked]
            if pending == UNDO:
                allowed.append(table.acked[:-1])
            elif pending is not None:
                allowed.append([*table.acked, pending])
            assert got in allowed, f"round {round_}, game {table.game_id} ({table.game})"
            table.acked = got  # a request that committed but got no answer was still saved
            table.can_undo = False
    assert acknowledged >= KILLS * 3, f"only {acknowledged} actions were played"
    assert undone >= 1, "no undo was tried"

    # The restarted daemon shows exactly the games the journal holds.
    base = daemon.start()
    try:
        spectator = Phone(base)
        for table in tables:
            view = spectator.get(f"/api/games/{table.game_id}")
            expected = get_game(table.game).view(table.state(table.acked), None)
            assert {k: v for k, v in view.items() if k not in SESSION_KEYS} == json.loads(
                json.dumps(expected)), f"game {table.game_id} ({table.game})"
    finally:
        daemon.kill()
