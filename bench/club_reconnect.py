"""How long a club takes to catch up after an outage: the games a box recorded while it was cut
off (or while the hub was down), from the moment it (or the hub) is back until the box's journal
holds the hub's acknowledgement of every one.

Real parts throughout: a box is a real companion whose journal's outbox holds UNLOCK games that
ended (a Lock and a guesser, secret and guesses), its publisher is the box's own
(``firmware_host.club.publisher``); the hub is ``firmware_host.club.hub`` over a league file;
the broker is Debian's Mosquitto from the hub's files. Two scenarios per backlog size:

* ``box``: the box was cut off — its publisher starts with the whole backlog in its outbox.
* ``hub``: the hub was down — the box sent every record to the broker meanwhile (queued in the
  hub's persistent session); the hub comes back.

It prints, per scenario and backlog: the time to connect, the time from then until every record
is acknowledged in the box's journal, records per second, and whether the league has each game
exactly once.

    .venv/bin/python bench/club_reconnect.py [--backlog 10 100 1000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.club.broker import HUB_USER, BrokerFiles, Mosquitto  # noqa: E402
from firmware_host.club.connection import Endpoint  # noqa: E402
from firmware_host.club.hub import Hub  # noqa: E402
from firmware_host.club.league import League  # noqa: E402
from firmware_host.club.publisher import Publisher  # noqa: E402
from firmware_host.companion import Companion  # noqa: E402
from firmware_host.journal_schema import read_only  # noqa: E402
from tests.ports import free_port  # noqa: E402

LIMIT = 600.0
CODES = ["1-2-3", "4-5-6", "7-8-9", "1-5-9", "3-5-7", "2-5-8"]



def play(box: Companion, games: int) -> None:
    """``games`` UNLOCK games to their end: the Lock's secret, two misses, the find."""
    for n in range(games):
        game = box.create_game("unlock", ["Aiko", "Ben"], seed=n)
        secret = CODES[n % len(CODES)]
        box.act(game, 0, f"secret {secret}")
        for guess in [*[c for c in CODES if c != secret][:2], secret]:
            box.act(game, 1, f"guess {guess}")


def waiting(journal: Path) -> int:
    db = read_only(journal)
    try:
        return int(db.execute("SELECT COUNT(*) FROM club_outbox WHERE delivered IS NULL"
                              ).fetchone()[0])
    finally:
        db.close()


def until(test: Callable[[], bool], what: str, step: float = 0.005) -> float:
    """Wait for ``test``; the monotonic time it became true."""
    deadline = time.monotonic() + LIMIT
    while not test():
        if time.monotonic() > deadline:
            raise SystemExit(f"club_reconnect: timed out waiting for {what}")
        time.sleep(step)
    return time.monotonic()


def run(scenario: str, backlog: int, work: Path) -> dict[str, float | int | bool | str]:
    files = BrokerFiles(work / "broker")
    files.prepare()
    port = free_port()
    broker = Mosquitto(files.write_conf(port=port, listen="127.0.0.1"), port, files.log)
    password = files.add_box("table-2")
    broker.start()
    hub_endpoint = Endpoint("127.0.0.1", port, HUB_USER, files.hub_password())
    box_endpoint = Endpoint("127.0.0.1", port, "table-2", password)
    league = League(work / "league")
    hub = Hub(league, hub_endpoint, retry_seconds=1)
    publisher: Publisher | None = None
    try:
        with Companion.open(work / "box", host_pin="246813") as box:
            play(box, backlog)
            # the box at rest, as after an evening offline: each record's analysis is kept (a
            # record waits for its game's analysis being computed, docs/analysis.md)
            box.settle(600.0)
            journal = box.journal.path
            assert waiting(journal) == backlog
            publisher = Publisher(box, journal, "table-2", lambda: box_endpoint,
                                  retry_seconds=1, resend_seconds=3600)
            if scenario == "box":  # the hub is up; the box comes back
                hub.start()
                assert hub.connected.wait(10)
                started = time.monotonic()
                publisher.start()
                connected = until(lambda: publisher is not None and
                                  publisher.status()["connected"], "the box to connect")
            else:  # the box sent everything to the broker while the hub was down
                hub.start()  # once: its persistent session (subscriptions) on the broker
                assert hub.connected.wait(10)
                hub.close()
                publisher.start()
                until(lambda: publisher is not None and
                      publisher._sent_through >= backlog, "the box to send its backlog")
                time.sleep(0.5)  # the last PUBACKs from the broker
                assert waiting(journal) == backlog  # nobody acknowledged anything yet
                hub = Hub(league, hub_endpoint, retry_seconds=1)
                started = time.monotonic()
                hub.start()
                connected = until(hub.connected.is_set, "the hub to connect")
            done = until(lambda: waiting(journal) == 0, "every acknowledgement")
            counts = league.counts()
            once = counts == {"table-2": backlog} and len(league.ingested()) == backlog
            drain = done - connected
            return {"scenario": scenario, "backlog": backlog,
                    "connect_ms": round(1000 * (connected - started), 1),
                    "drain_ms": round(1000 * drain, 1),
                    "records_per_s": round(backlog / drain, 1) if drain > 0 else 0,
                    "exactly_once": once, "duplicates": hub.counts.duplicates}
    finally:
        if publisher is not None:
            publisher.close()
        hub.close()
        league.close()
        broker.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backlog", type=int, nargs="+", default=[10, 100, 1000])
    args = parser.parse_args()
    print("club catch-up after an outage (records acknowledged in the box's journal)")
    print(f"  {'scenario':9} {'backlog':>7} {'connect':>9} {'drain':>10} {'records/s':>10} "
          "exactly once")
    for scenario in ("box", "hub"):
        for backlog in args.backlog:
            with tempfile.TemporaryDirectory(prefix="club-reconnect-") as work:
                row = run(scenario, backlog, Path(work))
            print(f"  {row['scenario']:9} {row['backlog']:>7} {row['connect_ms']:>7} ms "
                  f"{row['drain_ms']:>7} ms {row['records_per_s']:>10} "
                  f"{row['exactly_once']} (duplicates {row['duplicates']})", flush=True)


if __name__ == "__main__":
    main()
