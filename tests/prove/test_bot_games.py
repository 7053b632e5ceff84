"""Bots as a test tool: a long bot-vs-bot run through a real daemon, killed again and again.

A real ``tabletop run`` (the simulator, on loopback) whose config file sets the bots' visible
delay to 20 ms (``[bots] delay_ms = 20``: with none, on a quiet machine every game could end
before the first kill). The host logs in with the PIN and creates games over
the HTTP host API as a person would (no seed: the box draws one), every seat the box's: UNLOCK
with the box as the Lock and bot guessers, Hacktrick, ICO and 2 1 6 bot against bot, the levels
the catalog offers mixed round by round. Nobody else acts. Each round creates one game of each
kind; a spectator polls every unfinished game's view; after a random number of changes it has
seen, the daemon is killed with SIGKILL (at a random moment a few milliseconds later) and
started again, and the bots carry on. After the last round nothing is killed any more until
every game has ended.

After every kill:
- the journal passes ``PRAGMA integrity_check``;
- it holds exactly the games the host created, each with the players, options and bot levels
  asked for (none lost, none doubled, none made up);
- each game's actions are numbered 1…n with no gap and none undone, extend the actions found at
  the kill before (nothing taken back or rewritten), were each entered by the bot of the seat
  at its level (a die roll: the box's, ``box random``), and replay legally through the rules;
- every view the spectator was shown is the rules' view after some prefix of those actions, in
  the order shown (shown means saved: a kill loses nothing anybody saw);
- a game that has ended holds the outcome the rules give its actions; one still going on has
  none — and at least one game was cut off mid-play.

At the end, besides: every game has finished (the bots resumed after each restart); the daemon's
public move list of each game is exactly its journaled actions and who entered them; and the
daemon's log (each start's, appended) shows no game's secret before the line saying that game
finished — its seed, UNLOCK's code and every guess (in any traversal), Hacktrick's hands.

4 kills by default (CI); 40 with ``--runslow`` (the last result is in docs/prove.md).
"""

from __future__ import annotations

import http.client
import json
import random
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rules import CHANCE, get_game
from rules.bots import LEVELS
from rules.unlock import Code
from tests.firmware_host.daemon import Daemon
from tests.prove.leaks import codes_in_text
from tests.prove.phones import request

#: One round's games: each kind with the variants (players, options) successive rounds cycle
#: through. Defaults mostly, as a host would start them.
ROUND: tuple[tuple[str, tuple[tuple[list[str], dict[str, object]], ...]], ...] = (
    ("unlock", ((["Box", "Aiko", "Ben"], {"difficulty": "easy"}),
                (["Box", "Aiko", "Ben"], {"difficulty": "medium"}),
                (["Box", "Aiko"], {"difficulty": "hard"}))),
    ("hacktrick", ((["Aiko", "Ben"], {}), (["Aiko", "Ben"], {"target": 3}))),
    ("ico", ((["Aiko", "Ben"], {}), (["Aiko", "Ben", "Chie"], {}),
             (["Aiko", "Ben"], {"level": "1+"}))),
    ("dice216", ((["Aiko", "Ben"], {}), (["Aiko", "Ben", "Chie"], {"diagonals": True}))),
)
#: A kill comes after the spectator has seen this many changes (at random, at most).
MOST_CHANGES = 100
#: Seconds a round may last, and the bots get to finish every game once the kills are over
#: (plus ``PER_KILL`` for each kill: the games cut off pile up); a loaded machine.
FINISH = 60.0
PER_KILL = 10.0
CONFIG = "[bots]\ndelay_ms = 20\n\n[names]\nadvertise = false\n"


class Cut(Exception):
    """A request got no answer: the daemon was killed."""


def call(port: int, method: str, path: str, cookies: dict[str, str] | None = None,
         body: Any = None) -> Any:
    """One request to the panel; its JSON answer (anything but 200 fails the test)."""
    try:
        status, answer = request(port, method, path, cookies, body)
    except (OSError, http.client.HTTPException) as error:
        raise Cut(str(error)) from None
    assert status == 200, f"{method} {path}: {status} {answer!r}"
    return answer


@dataclass
class Table:
    """One game the host created, and the test's own replay of what the journal holds."""

    game_id: int
    game: str
    players: list[str]
    options: dict[str, object]
    bots: list[str]
    seed: int | None = None
    #: (seat, action, entered by) checked so far, and the spectator's view after each prefix.
    actions: list[tuple[int, str, str]] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)
    state: Any = None
    outcome: dict[str, Any] | None = None
    #: Views the spectator was shown, not yet matched to a prefix; the last prefix matched.
    shown: list[dict[str, Any]] = field(default_factory=list)
    matched: int = 0
    last_seen: dict[str, Any] | None = None
    done: bool = False

    def extend(self, row: sqlite3.Row, rows: list[tuple[int, int, str, str | None, Any]]) -> None:
        """Take in the journal's row and actions for this game, as read after a kill."""
        rules = get_game(self.game)
        where = f"game {self.game_id} ({self.game})"
        assert (row["game"], json.loads(row["seats"]), json.loads(row["bots"])) == (
            self.game, self.players, self.bots), f"{where} is not the game the host created"
        if self.seed is None:
            self.seed = int(row["seed"])
            self.state = rules.start(self.players, json.loads(row["options"]), seed=self.seed)
            self.views = [public(rules.view(self.state, None))]
        assert all(key in json.loads(row["options"]) and json.loads(row["options"])[key] == value
                   for key, value in self.options.items()), f"{where}: options changed"
        assert [n for n, *_ in rows] == list(range(1, len(rows) + 1)), f"{where}: a gap"
        assert all(undone is None for *_, undone in rows), f"{where}: an action taken back"
        actions = [(seat, action, by or "") for _, seat, action, by, _ in rows]
        assert actions[:len(self.actions)] == self.actions, (
            f"{where}: the actions found at an earlier kill are no longer all there")
        for seat, action, by in actions[len(self.actions):]:
            expected = "box random" if seat == CHANCE else f"bot {self.bots[seat]}"
            assert by == expected, f"{where}: {action!r} of seat {seat} entered by {by!r}"
            self.state = rules.apply(self.state, seat, action)  # raises if it is not legal
            self.views.append(public(rules.view(self.state, None)))
            self.actions.append((seat, action, by))
        self.outcome = rules.outcome(self.state)
        if row["status"] == "finished":
            assert self.outcome is not None, f"{where} finished, but its actions do not end it"
            assert json.loads(row["outcome"]) == public(self.outcome), (
                f"{where}: the journal's outcome is not the rules' outcome of its actions")
        else:
            assert row["status"] == "active", f"{where} is {row['status']}"
            assert self.outcome is None, f"{where} has ended by the rules, not in the journal"
        for view in self.shown:
            self.matched = self._find(view)
        self.shown.clear()

    def _find(self, view: dict[str, Any]) -> int:
        """The first prefix from the last one matched on whose view is ``view``."""
        for index in range(self.matched, len(self.views)):
            expected = self.views[index]
            if all(key in view and view[key] == value for key, value in expected.items()):
                return index
        raise AssertionError(
            f"game {self.game_id} ({self.game}): the spectator was shown a view that no prefix "
            f"of the journaled actions (from {self.matched} on, of {len(self.actions)}) gives: "
            f"shown, but not saved")


def public(data: Any) -> Any:
    """``data`` as it comes back from JSON."""
    return json.loads(json.dumps(data))


def read_journal(data: Path) -> tuple[str, dict[int, sqlite3.Row],
                                      dict[int, list[tuple[int, int, str, str | None, Any]]]]:
    db = sqlite3.connect(data / "journal.sqlite3")
    db.row_factory = sqlite3.Row
    try:
        verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
        games = {row["id"]: row for row in db.execute("SELECT * FROM games")}
        actions: dict[int, list[tuple[int, int, str, str | None, Any]]] = {}
        for row in db.execute("SELECT game_id, n, seat, action, entered_by, undone FROM actions "
                              "ORDER BY game_id, n"):
            actions.setdefault(row[0], []).append(tuple(row)[1:])  # type: ignore[arg-type]
        return verdict, games, actions
    finally:
        db.close()


def check_journal(data: Path, tables: dict[int, Table], when: str) -> int:
    """The checks after a kill (module docstring); returns how many games were cut mid-play."""
    verdict, games, actions = read_journal(data)
    assert verdict == "ok", f"{when}: integrity_check says {verdict}"
    assert set(games) == set(tables), (
        f"{when}: the journal holds games {sorted(games)}, the host created {sorted(tables)}")
    for game_id, table in tables.items():
        table.extend(games[game_id], actions.get(game_id, []))
    return sum(1 for t in tables.values() if t.outcome is None and t.actions)


def busiest_second(data: Path) -> int:
    """The most actions one game took within one second of the journal's clock."""
    db = sqlite3.connect(data / "journal.sqlite3")
    try:
        return int(db.execute("SELECT COALESCE(MAX(c), 0) FROM (SELECT COUNT(*) AS c FROM "
                              "actions GROUP BY game_id, time)").fetchone()[0])
    finally:
        db.close()


@dataclass
class Run:
    """One bot run: the daemon, the host's cookies, the tables, and what happened."""

    daemon: Daemon
    rng: random.Random
    tables: dict[int, Table] = field(default_factory=dict)
    host: dict[str, str] = field(default_factory=dict)
    levels: dict[str, list[str]] = field(default_factory=dict)
    starts: list[float] = field(default_factory=list)
    cut: list[int] = field(default_factory=list)

    def start(self) -> None:
        began = time.monotonic()
        self.daemon.start()
        self.starts.append(time.monotonic() - began)
        if not self.host:
            pin = (self.daemon.data / "host_pin").read_text().strip()
            call(self.daemon.port, "POST", "/api/host/login", self.host, {"pin": pin})
            catalog = call(self.daemon.port, "GET", "/api/catalog")
            self.levels = {entry["id"]: list(entry["bots"]) for entry in catalog}
            for game, _ in ROUND:
                assert self.levels[game] == list(LEVELS), (game, self.levels[game])

    def create_round(self, round_number: int) -> None:
        """One game of each kind, every seat the box's, the levels mixed by the round."""
        for game, variants in ROUND:
            players, options = variants[round_number % len(variants)]
            levels = self.levels[game]
            bots = [levels[(round_number + seat) % len(levels)] for seat in range(len(players))]
            answer = call(self.daemon.port, "POST", "/api/host/games", self.host,
                          {"game": game, "players": players, "options": options,
                           "bots": {str(seat): level for seat, level in enumerate(bots)}})
            game_id = answer["game_id"]
            assert game_id not in self.tables
            self.tables[game_id] = Table(game_id, game, list(players), dict(options), bots)

    def watch(self, changes: int | None, deadline: float) -> int:
        """Poll every unfinished game's view as a spectator; with ``changes``, kill the daemon
        a few milliseconds after that many changes were seen; else return once every game has
        ended. Returns the changes seen."""
        seen = 0
        timer: threading.Timer | None = None
        try:
            while True:
                playing = [t for t in self.tables.values() if not t.done]
                if changes is None and not playing:
                    return seen
                if timer is not None and not playing:  # nothing left to watch: the kill
                    timer.join()
                    return seen
                if changes is not None and timer is None and (seen >= changes or not playing):
                    timer = threading.Timer(self.rng.uniform(0.0, 0.05), self.daemon.kill)
                    timer.start()
                assert time.monotonic() < deadline, (
                    f"{len(playing)} games still going on: "
                    f"{[(t.game_id, t.game, len(t.views)) for t in playing]}")
                for table in playing:
                    view = call(self.daemon.port, "GET", f"/api/games/{table.game_id}")
                    if view != table.last_seen:
                        table.last_seen = view
                        table.shown.append(view)
                        seen += 1
                    table.done = view["status"] != "active"
                time.sleep(0.005)
        except Cut as cut:
            assert self.daemon.killed.is_set(), f"a request failed with no kill: {cut}"
            return seen
        finally:
            if timer is not None:
                timer.join()
                self.daemon.kill()


def check_moves(run: Run) -> None:
    """The daemon's public move list of each ended game is its journaled actions."""
    for table in run.tables.values():
        moves: list[dict[str, Any]] = []
        while True:
            page = call(run.daemon.port, "GET",
                        f"/api/games/{table.game_id}/moves?since={len(moves)}")
            if not page:
                break
            moves += page
        assert [(m["step"], m["seat"], m["action"], m["by"]) for m in moves] == [
            (n, seat, action, by) for n, (seat, action, by) in enumerate(table.actions, 1)
        ], f"game {table.game_id} ({table.game}): the move list is not the journal"


# --- secrets in the log ------------------------------------------------------------------------

NUMBER = re.compile(r"(?<!\d)\d{6,}(?!\d)")
NUMBER_LIST = re.compile(r"[\[(]\s*(\d+(?:\s*,\s*\d+)*)\s*,?\s*[\])]")
FINISHED = re.compile(r"game (\d+) finished:")


@dataclass
class LogIndex:
    """Where each thing that could be a secret first shows in the log (line numbers): every
    UNLOCK code written as text (by its lines), every list of numbers, every long number; and
    where each game's end is logged."""

    lines: list[str]
    codes: dict[int, int] = field(default_factory=dict)
    lists: dict[tuple[int, ...], int] = field(default_factory=dict)
    numbers: dict[int, int] = field(default_factory=dict)
    finished: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for index, line in enumerate(self.lines):
            for code in codes_in_text(line):
                self.codes.setdefault(code.lines, index)
            for match in NUMBER_LIST.finditer(line):
                self.lists.setdefault(tuple(int(x) for x in match.group(1).split(",")), index)
            for match in NUMBER.finditer(line):
                self.numbers.setdefault(int(match.group()), index)
            found = FINISHED.search(line)
            if found:
                self.finished.setdefault(int(found.group(1)), index)

    def leaks(self, table: Table) -> list[str]:
        """The secrets of ``table``'s game the log shows before the game's end is logged."""
        end = self.finished.get(table.game_id, len(self.lines))
        assert table.seed is not None
        found = [f"its seed on line {self.numbers[table.seed] + 1}"
                 for _ in [0] if self.numbers.get(table.seed, end) < end]
        for code in secret_codes(table):
            if self.codes.get(code.lines, end) < end:
                found.append(f"the code {code} on line {self.codes[code.lines] + 1}")
        for hand in secret_hands(table):
            if self.lists.get(hand, end) < end:
                found.append(f"the hand {list(hand)} on line {self.lists[hand] + 1}")
        return found


def secret_codes(table: Table) -> set[Code]:
    """UNLOCK: the Lock's code and every guess."""
    if table.game != "unlock":
        return set()
    return {Code.parse(action.split(" ", 1)[1]) for _, action, _ in table.actions}


def secret_hands(table: Table) -> set[tuple[int, ...]]:
    """Hacktrick: every hand of three cards or more a seat held, as its own view shows it."""
    if table.game != "hacktrick":
        return set()
    rules = get_game("hacktrick")
    assert table.seed is not None
    state = rules.start(table.players, table.options, seed=table.seed)
    hands: set[tuple[int, ...]] = set()
    for seat, action, _ in [(0, "", ""), *table.actions]:
        if action:
            state = rules.apply(state, seat, action)
        for viewer in range(len(table.players)):
            cards = rules.view(state, viewer)["hands"][viewer]["cards"]
            if cards is not None and len(cards) >= 3:
                hands.add(tuple(cards))
    return hands


# --- the run -------------------------------------------------------------------------------------


def bot_run(tmp_path: Path, kills: int, seed: int) -> str:
    """Run ``kills`` rounds (create, play, kill), then play to the end; returns the figures."""
    (tmp_path / "config.toml").write_text(CONFIG)
    log = tmp_path / "daemon.log"
    daemon = Daemon(tmp_path / "data", tmp_path, config=tmp_path / "config.toml", log=log)
    run = Run(daemon, random.Random(seed))
    began = time.monotonic()
    try:
        for round_number in range(kills):
            run.start()
            run.create_round(round_number)
            run.watch(run.rng.randint(1, MOST_CHANGES), time.monotonic() + FINISH)
            run.cut.append(check_journal(daemon.data, run.tables, f"kill {round_number + 1}"))
            assert run.cut[-1] >= 1, f"kill {round_number + 1} found no game mid-play"
        run.start()
        finishing = time.monotonic()
        try:
            run.watch(None, time.monotonic() + FINISH + PER_KILL * kills)
            finished_in = time.monotonic() - finishing
            check_journal(daemon.data, run.tables, "the end")
            check_moves(run)
        finally:
            daemon.kill()
        check_journal(daemon.data, run.tables, "the last kill")
    finally:
        daemon.kill()
    took = time.monotonic() - began
    unfinished = [t.game_id for t in run.tables.values() if t.outcome is None]
    assert not unfinished, f"games never finished: {unfinished}"
    # the config's delay reached the bots: at the default second, a game's next moves come a
    # second after its last change, so one second of the clock holds at most two actions of a
    # game (UNLOCK's two guessers, who guess together)
    busiest = busiest_second(daemon.data)
    assert busiest >= 3, f"at most {busiest} actions of a game within a second"

    index = LogIndex(log.read_text(errors="replace").splitlines())
    # the log was read: every game's end is in it, but for one cut between commit and log line
    assert len(index.finished) >= len(run.tables) - kills - 1, (len(index.finished), kills)
    unlock = next(t for t in run.tables.values() if t.game == "unlock")
    secret = next(action for _, action, _ in unlock.actions if action.startswith("secret "))
    backwards = "-".join(reversed(secret.split(" ", 1)[1].split("-")))
    assert LogIndex([f"INFO x: {backwards}"]).codes, "the log index finds no code"
    leaks = {t.game_id: found for t in run.tables.values() if (found := index.leaks(t))}
    assert not leaks, f"secrets in the log before their game ended: {leaks}"

    actions = sum(len(t.actions) for t in run.tables.values())
    rolls = sum(1 for t in run.tables.values() for seat, _, _ in t.actions if seat == CHANCE)
    by_game = {game: sum(1 for t in run.tables.values() if t.game == game) for game, _ in ROUND}
    return (f"{kills} kills, {len(run.tables)} games ({by_game}), {actions} actions "
            f"({actions - rolls} bot moves, {rolls} rolls by the box), "
            f"games cut mid-play per kill {run.cut}, up to {busiest} actions of one game in "
            f"a second, log {len(index.lines)} lines; "
            f"starts {min(run.starts):.1f}–{max(run.starts):.1f} s, last games finished "
            f"{finished_in:.1f} s after the last start; {took:.0f} s in all")


def test_bots_play_every_game_to_its_end_through_kills(tmp_path: Path) -> None:
    print(bot_run(tmp_path, 4, seed=19))


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_forty_kills_of_a_daemon_full_of_bots(tmp_path: Path) -> None:
    print(bot_run(tmp_path, 40, seed=40))
