"""A club of 50 boxes × 4 tables publishing to one Mosquitto here, the hub ingesting.

The broker is Debian's Mosquitto from the hub's own files (``firmware_host.club.broker``), with
one user per box and the club's ACL. The hub (``firmware_host.club.hub`` and the league) runs
in a process of its own so that its CPU time and memory are its own. Each box is one MQTT 5
connection (paho), as a real box's publisher makes it; each of its tables plays UNLOCK games
whose messages are those a real box sends — the live table's summary after every action
(retained) and the game's record at the end, built by ``firmware_host.club.outbox`` from a game
played on a real companion first — at one action every ``--interval`` seconds per table.

It prints: games, ingest latency p50/p99 (a record published → the hub's acknowledgement back
at the box: the hub has it in its league file), delivery p50/p99 (published → handed to the
hub's ingest), the hub's commits (each takes every record waiting) and their p99, messages and
bytes per game (box → broker, and
the hub's acknowledgement), the hub's CPU seconds (per game and in all) and its resident memory
(peak), and whether every game was ingested exactly once (lost, counted twice; a duplicate is a
record delivered again and ignored).

With ``--halls N`` the boxes do not reach the central broker themselves: each connects to one of
N hall brokers — Mosquittos of their own, with the boxes' users and the club's ACL — bridged to
the central one (MQTT 5, persistent, QoS 1; each bridge may write only its boxes' topics there),
as a larger event would run; the boxes and the hub are the same.

    .venv/bin/python bench/club_boxes.py [--boxes 50] [--tables 4] [--seconds 30] [--halls 0]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.club import outbox, topics  # noqa: E402
from firmware_host.club.broker import HUB_USER, BrokerFiles, Mosquitto  # noqa: E402
from firmware_host.club.connection import Endpoint  # noqa: E402
from firmware_host.club.topics import (  # noqa: E402
    ack_topic,
    encode,
    results_topic,
    status_topic,
    table_topic,
)
from firmware_host.journal_schema import read_only  # noqa: E402
from tests.ports import free_port  # noqa: E402

CLK = os.sysconf("SC_CLK_TCK")


def sample_game(directory: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A real UNLOCK game (a Lock, three guessers, four turns) played on a companion: the
    table payload after each action and the record at the end."""
    from firmware_host.companion import Companion

    with Companion.open(directory, host_pin="246813") as box:
        game = box.create_game("unlock", ["Aiko", "Ben", "Chie", "Dai"], seed=3)
        tables = [outbox.table_payload("t", box.summary(game), box.view(game, None), "now")]
        from rules.unlock import all_codes

        difficulty = box.view(game, None)["difficulty"]
        secret, *codes = [str(c) for c in sorted(all_codes(difficulty), key=str)[:13]]
        box.act(game, 0, f"secret {secret}")
        tables.append(outbox.table_payload("t", box.summary(game), box.view(game, None), "now"))
        for turn in range(4):
            for seat in (1, 2, 3):
                guess = secret if (turn, seat) == (3, 2) else codes[turn * 3 + seat - 1]
                box.act(game, seat, f"guess {guess}")
                if box.summary(game)["status"] != "active":
                    break
                tables.append(outbox.table_payload("t", box.summary(game),
                                                   box.view(game, None), "now"))
        db = read_only(box.journal.path)
        record = outbox.result_payload(db, "t", outbox.undelivered(db)[0], box.registry)
        db.close()
    return tables, record


# --- the hub, in its own process -------------------------------------------------------------
def run_hub(port: int, directory: Path, password: str) -> None:
    from firmware_host.club.hub import Hub
    from firmware_host.club.league import League

    hub = Hub(League(directory), Endpoint("127.0.0.1", port, HUB_USER, password),
              retry_seconds=1)
    ingest = hub.ingest
    arrivals: list[float] = []
    spent: list[float] = []

    def timed(messages: list[tuple[str, bytes]]) -> None:
        started = time.time()
        arrivals.extend(started - json.loads(p)["sent_at"] for _, p in messages)
        ingest(messages)
        spent.append(time.time() - started)

    hub.ingest = timed  # type: ignore[method-assign]
    hub.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    hub.connected.wait(10)
    print("ready", flush=True)
    stop.wait()
    hub.close()
    print(json.dumps({"counts": hub.league.counts(), "dropped": hub.counts.dropped,
                      "duplicates": hub.counts.duplicates, "held": hub.counts.held,
                      "arrival_p50_ms": round(1000 * statistics.median(arrivals), 1),
                      "arrival_p99_ms": round(1000 * percentile(arrivals, 99), 1),
                      "commits": len(spent),
                      "commit_p99_ms": round(1000 * percentile(spent, 99), 1)}), flush=True)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def rss_peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


# --- the boxes -------------------------------------------------------------------------------
@dataclass
class SimBox:
    """One box: one MQTT connection, its tables, the records it waits to hear back about."""

    name: str
    endpoint: Endpoint
    client: Any = None
    seq: int = 0
    last_key: str | None = None
    sent: dict[str, float] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    games: int = 0
    messages: int = 0
    sent_bytes: int = 0
    acks: int = 0
    ack_bytes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    connected: threading.Event = field(default_factory=threading.Event)

    def connect(self) -> None:
        from firmware_host.club.connection import connect, make_client

        client = make_client(f"bench-{self.name}", self.endpoint, retry_seconds=2,
                             will=(status_topic(self.name), b""))
        client.on_connect = self._connected
        client.on_message = self._ack
        self.client = client
        connect(client, self.endpoint)

    def _connected(self, client: Any, *_: Any) -> None:
        client.subscribe(ack_topic(self.name), qos=1)
        self.connected.set()

    def _ack(self, client: Any, userdata: Any, message: Any) -> None:
        """The hub has the record and every one before it (as a real box reads it)."""
        now = time.monotonic()
        key = json.loads(message.payload)["key"]
        with self.lock:
            self.acks += 1
            self.ack_bytes += len(message.payload)
            sent = self.sent.get(key)
            if sent is None:
                return
            done = [k for k, at in self.sent.items() if at <= sent]
            for k in done:
                self.latencies.append(now - self.sent.pop(k))

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain)
        with self.lock:
            self.messages += 1
            self.sent_bytes += len(payload) + len(topic)

    def finish(self, template: dict[str, Any], game_id: int) -> None:
        with self.lock:
            self.seq += 1
            key = f"{random.getrandbits(96):024x}"
            record = {**template, "box": self.name, "key": key, "prev": self.last_key,
                      "seq": self.seq, "game": {**template["game"], "id": game_id},
                      "sent_at": time.time()}
            self.last_key = key
            self.games += 1
            self.sent[key] = time.monotonic()
        self.publish(results_topic(self.name), encode(record))


def play(box: SimBox, tables: int, interval: float, until: float,
         steps: list[dict[str, Any]], record: dict[str, Any]) -> None:
    """The box's tables, each acting every ``interval`` s, one game after another."""
    rng = random.Random(box.name)
    game_ids = {t: t + 1 for t in range(tables)}
    step_of = {t: rng.randrange(len(steps)) for t in range(tables)}  # tables out of phase
    next_at = time.monotonic()
    while time.monotonic() < until:
        for table in range(tables):
            game_id, step = game_ids[table], step_of[table]
            if step < len(steps):
                summary = {**steps[step], "box": box.name, "game_id": game_id}
                box.publish(table_topic(box.name, game_id), encode(summary), retain=True)
                step_of[table] = step + 1
            else:  # the game ends: the table is cleared and the record sent
                box.publish(table_topic(box.name, game_id), b"", retain=True)
                box.finish(record, game_id)
                game_ids[table] = game_id + tables
                step_of[table] = 0
        next_at += interval
        time.sleep(max(0.0, next_at - time.monotonic()))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]



def bridge(central: BrokerFiles, central_port: int, hall: int, work: Path,
           boxes: list[str]) -> tuple[Mosquitto, dict[str, str]]:
    """A hall's own Mosquitto for ``boxes`` (their users, the club's ACL), bridged to the
    central broker as its own user; returns it (not started) and the boxes' passwords."""
    name = f"hall-{hall}"
    secret = central.add_box(name)
    with central.acl.open("a", encoding="utf-8") as acl:  # the bridge writes its boxes' topics
        acl.write(f"\nuser {name}\n" + "".join(
            f"topic write {topics.ROOT}/boxes/{box}/#\ntopic read {topics.ROOT}/acks/{box}\n"
            for box in boxes) + f"topic read {topics.ROOT}/hub/#\n")
    files = BrokerFiles(work / name)
    files.prepare()
    passwords = {box: files.add_box(box) for box in boxes}
    port = free_port()
    conf = files.write_conf(port=port, listen="127.0.0.1")
    with conf.open("a", encoding="utf-8") as text:
        text.write(f"""
connection {name}
address 127.0.0.1:{central_port}
bridge_protocol_version mqttv50
remote_clientid {name}
remote_username {name}
remote_password {secret}
cleansession false
""" + "".join(f"topic {topics.ROOT}/boxes/{box}/# out 1\ntopic {topics.ROOT}/acks/{box} in 1\n"
              for box in boxes) + f"topic {topics.ROOT}/hub/# in 1\n")
    return Mosquitto(conf, port, files.log), passwords


def run(args: argparse.Namespace, work: Path) -> tuple[dict[str, Any], list[SimBox], float,
                                                        float, float, dict[str, Any]]:
    """The scenario; returns the hub's final counts, the boxes, the seconds, the hub's CPU
    seconds and peak memory, and the record's size and the brokers' CPU and memory."""
    steps, record = sample_game(work / "sample")
    files = BrokerFiles(work / "broker")
    files.prepare()
    port = free_port()
    broker = Mosquitto(files.write_conf(port=port, listen="127.0.0.1"), port, files.log)
    names = [f"box-{i:02d}" for i in range(args.boxes)]
    endpoints: dict[str, Endpoint] = {}
    halls: list[Mosquitto] = []
    if args.halls:
        for hall in range(args.halls):
            mine = names[hall::args.halls]
            hall_broker, passwords = bridge(files, port, hall, work, mine)
            halls.append(hall_broker)
            endpoints |= {n: Endpoint("127.0.0.1", hall_broker.port, n, passwords[n])
                          for n in mine}
    else:
        endpoints = {n: Endpoint("127.0.0.1", port, n, files.add_box(n)) for n in names}
    broker.start()
    for hall_broker in halls:
        hall_broker.start()
    hub = subprocess.Popen([sys.executable, __file__, "hub", str(port), str(work / "hub"),
                            files.hub_password()], stdout=subprocess.PIPE, text=True)
    try:
        assert hub.stdout is not None and hub.stdout.readline().strip() == "ready"
        boxes = [SimBox(n, endpoints[n]) for n in names]
        for box in boxes:
            box.connect()
        for box in boxes:
            assert box.connected.wait(20), f"{box.name} did not connect"
        cpu_before = cpu_seconds(hub.pid)
        processes = [b.proc for b in (broker, *halls) if b.proc is not None]
        brokers_before = [cpu_seconds(p.pid) for p in processes]
        me_before = cpu_seconds(os.getpid())
        started = time.monotonic()
        until = started + args.seconds
        threads = [threading.Thread(target=play, args=(box, args.tables, args.interval, until,
                                                       steps, record)) for box in boxes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        deadline = time.monotonic() + 60
        while any(box.sent for box in boxes) and time.monotonic() < deadline:
            time.sleep(0.1)
        elapsed = time.monotonic() - started
        cpu = cpu_seconds(hub.pid) - cpu_before
        spent = [cpu_seconds(p.pid) - before for p, before in zip(processes, brokers_before,
                                                                  strict=True)]
        brokers = {"record_bytes": len(encode(record)),
                   "broker_cpu_share": round(spent[0] / elapsed, 3),
                   "broker_rss_peak_mb": round(rss_peak_mb(processes[0].pid), 1),
                   "halls_cpu_share": round(sum(spent[1:]) / elapsed, 3),
                   "boxes_cpu_share": round((cpu_seconds(os.getpid()) - me_before) / elapsed,
                                            3)}
        rss = rss_peak_mb(hub.pid)
        hub.send_signal(signal.SIGTERM)
        out, _ = hub.communicate(timeout=60)
        final = json.loads(out.strip().splitlines()[-1])
        for box in boxes:
            box.client.disconnect()
            box.client.loop_stop()
    finally:
        if hub.poll() is None:
            hub.kill()
        for hall_broker in halls:
            hall_broker.stop()
        broker.stop()
    return final, boxes, elapsed, cpu, rss, brokers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=50)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=0.25,
                        help="seconds between two actions of one table")
    parser.add_argument("--halls", type=int, default=0,
                        help="boxes connect to this many hall brokers, each a Mosquitto "
                             "bridged to the central one (default: none, straight to it)")
    parser.add_argument("--json", action="store_true", help="print one JSON line of figures")
    parser.add_argument("hub", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hub:  # the hub's process: hub PORT DIR PASSWORD
        run_hub(int(args.hub[1]), Path(args.hub[2]), args.hub[3])
        return

    with tempfile.TemporaryDirectory(prefix="club-bench-") as work:
        final, boxes, elapsed, cpu, rss, brokers = run(args, Path(work))
    games = sum(b.games for b in boxes)
    latencies = [x for b in boxes for x in b.latencies]
    lost = sum(max(0, b.games - final["counts"].get(b.name, 0)) for b in boxes)
    twice = sum(max(0, final["counts"].get(b.name, 0) - b.games) for b in boxes)
    figures = {
        "boxes": args.boxes, "tables": args.boxes * args.tables, "seconds": round(elapsed, 1),
        "games": games, "games_per_second": round(games / elapsed, 1),
        "ingest_p50_ms": round(1000 * statistics.median(latencies), 1),
        "ingest_p99_ms": round(1000 * percentile(latencies, 99), 1),
        "ingest_max_ms": round(1000 * max(latencies), 1),
        "messages_per_game": round(sum(b.messages for b in boxes) / games, 1),
        "bytes_per_game": round(sum(b.sent_bytes for b in boxes) / games),
        "ack_bytes_per_game": round(sum(b.ack_bytes for b in boxes) / games),
        "hub_cpu_s": round(cpu, 2), "hub_cpu_ms_per_game": round(1000 * cpu / games, 2),
        "hub_cpu_share": round(cpu / elapsed, 3), "hub_rss_peak_mb": round(rss, 1),
        "halls": args.halls, **brokers,
        "delivery_p50_ms": final["arrival_p50_ms"], "delivery_p99_ms": final["arrival_p99_ms"],
        "hub_commits": final["commits"], "hub_commit_p99_ms": final["commit_p99_ms"],
        "lost": lost, "counted_twice": twice, "duplicates": final["duplicates"],
        "dropped": final["dropped"],
        "unacknowledged": sum(len(b.sent) for b in boxes),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"club: {args.boxes} boxes × {args.tables} tables, {elapsed:.0f} s, one action per "
          f"table every {args.interval} s")
    for key, value in figures.items():
        print(f"  {key:22} {value}")


if __name__ == "__main__":
    main()
