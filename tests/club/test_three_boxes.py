"""The whole club with real parts: a Mosquitto, three ``tabletop`` daemons as three boxes (the
first also the hub), games played over HTTP as phones play them. The broker stops mid-game and
comes back; one box is cut off for several games; the hub restarts; a box is restored from a
backup — and the hub's league has every game once, in each box's order. The broker and the hub
are stopped as a power cut stops them (SIGKILL), not politely."""

from __future__ import annotations

import csv
import io
import itertools
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.club.broker import RunningBroker, running_broker
from tests.club.daemons import HOST_PIN_CONFIG, Box, Relay
from tests.firmware_host.daemon import ROOT, clean_env

WAIT = 30.0
FAST = "retry_seconds = 1\nresend_seconds = 3\n"


class Club:
    """The broker, the boxes, and what the test played on each, in order."""

    def __init__(self, broker: RunningBroker, tmp: Path) -> None:
        self.broker = broker
        self.tmp = tmp
        self.relay = Relay(broker.port)
        self.boxes: dict[str, Box] = {}
        self.played: dict[str, list[list[str]]] = {"table-1": [], "table-2": [], "table-3": []}
        self._numbers = itertools.count(1)
        self.aiko = ""

    def secret(self, name: str, text: str) -> Path:
        path = self.tmp / f"{name}.secret"
        path.write_text(text + "\n")
        return path

    def make(self) -> None:
        b = self.broker
        for box in self.played:
            b.add_box(box)
        hub_config = self.tmp / "hub.toml"
        hub_config.write_text(
            HOST_PIN_CONFIG + "[club]\nhub = true\nbox = \"table-1\"\n"
            f"broker = \"127.0.0.1:{b.port}\"\n"
            f"password_file = \"{self.secret('table-1', b.passwords['table-1'])}\"\n"
            f"hub_password_file = \"{self.secret('hub', b.files.hub_password())}\"\n" + FAST)
        box_config = self.tmp / "box.toml"
        box_config.write_text(HOST_PIN_CONFIG + "[club]\n" + FAST)
        home = self.tmp / "home"
        self.boxes["table-1"] = Box("table-1", self.tmp / "t1", home,
                                    ["run", "--config", str(hub_config)])
        for box in ("table-2", "table-3"):
            self.boxes[box] = Box(box, self.tmp / box, home, ["run", "--config", str(box_config)])
        self.boxes["table-1"].start()
        for box, port in (("table-2", b.port), ("table-3", self.relay.port)):
            self.boxes[box].start(["--join-club",
                                   f"{box}:{b.passwords[box]}@127.0.0.1:{port}"])

    def hub(self) -> Box:
        return self.boxes["table-1"]

    def play(self, box: str, *, finish: bool = True) -> tuple[int, list[Any]]:
        """One UNLOCK game: Aiko (her club code given) and two guests; the Lock rotates."""
        n = next(self._numbers)
        players = ["Aiko", f"Guest {n}", f"Visitor {n}"]
        host = self.boxes[box]
        lock = n % 3
        game = host.new_game(players, {"lock": lock})
        phones = [host.seat(game, 0, self.aiko), host.seat(game, 1), host.seat(game, 2)]
        host.act(phones[lock], game, "secret 1-5-9")
        guessers = [phone for seat, phone in enumerate(phones) if seat != lock]
        self.played[box].append(players)
        if finish:
            self.finish(box, game, guessers)
        return game, guessers

    def finish(self, box: str, game: int, guessers: list[Any]) -> None:
        """The turn: one guesser misses, the other finds the secret."""
        self.boxes[box].act(guessers[1], game, "guess 3-5-7")
        reply = self.boxes[box].act(guessers[0], game, "guess 1-5-9")
        assert reply["status"] == "finished"

    def league(self) -> dict[str, list[list[str]]]:
        """The hub's ingested games per box, in the order it ingested them."""
        results = self.hub().get_json("/api/club/results")["results"]
        found: dict[str, list[list[str]]] = {box: [] for box in self.played}
        for line in results:
            found[line["box"]].append(line["players"])
        return found

    def wait_for_league(self) -> None:
        deadline = time.monotonic() + WAIT
        while True:
            got = self.league()
            if got == self.played:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"the league has {got}, expected {self.played}")
            time.sleep(0.1)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    with running_broker(tmp_path / "broker") as broker:
        running = Club(broker, tmp_path)
        try:
            running.make()
            yield running
        finally:
            for box in running.boxes.values():
                box.kill()
            running.relay.close()


def restore(box: Box, backup: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "journal", "restore",
                           str(backup), "--data-dir", str(box.data)], cwd=ROOT,
                          env=clean_env(box.home), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_three_boxes_one_league_nothing_lost_nothing_twice(club: Club) -> None:
    hub = club.hub()
    status, reply = hub.phone.post("/api/club/profiles", {"name": "Aiko"})
    assert status == 200, reply
    club.aiko, aiko = reply["code"], reply["player"]

    for box in ("table-1", "table-2", "table-3", "table-2"):
        club.play(box)
    club.wait_for_league()
    live = hub.get_json("/api/club/live")["boxes"]
    assert {b["box"]: b["online"] for b in live} == {f"table-{i}": True for i in (1, 2, 3)}

    # The broker stops mid-game, as a power cut stops it (what it had not saved is lost), and
    # comes back: the game ends while it is away, another is played whole, and both reach the
    # league.
    game, guessers = club.play("table-2", finish=False)
    club.broker.kill()
    club.finish("table-2", game, guessers)
    club.play("table-3")
    club.broker.start()
    club.wait_for_league()

    # Table 3 is cut off (its Wi-Fi gone) for three games while the others play on.
    club.relay.cut()
    for box in ("table-3", "table-1", "table-3", "table-2", "table-3"):
        club.play(box)
    time.sleep(1.0)
    assert len(club.league()["table-3"]) == len(club.played["table-3"]) - 3
    club.relay.mend()
    club.wait_for_league()

    # The hub's power is cut and comes back; the boxes play while it is down.
    hub.kill()
    club.play("table-2")
    club.play("table-3")
    hub.start()
    club.wait_for_league()

    # Table 2 is restored from the backup taken two games ago; it sends again what the backup
    # had not seen delivered, and plays on: nothing counts twice, nothing is lost.
    box2 = club.boxes["table-2"]
    before = len(box2.get_json("/api/history"))
    box2.stop()
    backups = sorted((box2.data / "backups").glob("journal-*-game-*.sqlite3"))
    restore(box2, backups[-3])
    box2.start()  # the club settings --join-club saved are used again
    assert len(box2.get_json("/api/history")) == before - 2  # two games gone from the box
    club.play("table-2")
    club.wait_for_league()

    counts = hub.get_json("/api/club/results")["boxes"]
    assert counts == {box: len(games) for box, games in club.played.items()}
    total = sum(counts.values())
    status, page = hub.phone.get(f"/club/players/{aiko}")
    assert status == 200 and page.decode().count("Guest ") == total  # one identity, every box
    standings = hub.phone.get("/club/games/unlock")[1].decode()
    assert "Aiko" in standings
    # Aiko is rated in every game she guessed in, never in one where she was the Lock
    status, text = hub.phone.get("/club/export.csv?game=unlock")
    rows = [row for row in csv.DictReader(io.StringIO(text.decode("utf-8-sig")))
            if row["player"] == aiko]
    assert len(rows) == total
    assert sum(row["rating_after"] != "" for row in rows) == sum(
        n % 3 != 0 for n in range(1, total + 1))
    assert box2.output.count("tabletop: club mode: box table-2") == 2
