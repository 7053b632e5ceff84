"""Bytes the journal writes to storage per action, as an SD card would see them.

A box process (a child of this script) plays the reference load's four tables — UNLOCK Hard for
a Lock and four guessers, 2 1 6 on 12×12 with diagonals for four, Hacktrick, ICO Level 4 —
through the session API as fast as the session takes them, each game followed by a new one when
it ends, until ``--acts`` actions are committed. It reads its own ``/proc/self/io`` before and
after: ``write_bytes`` is what the kernel sends to storage (counted when a page is dirtied: an
fsync'd commit dirties its pages again), which is what wears a card; ``wchar`` is what the box
handed to ``write()``. Checkpoints and backups are included; the journal lives on a real disk
(never tmpfs, where nothing reaches storage).

    .venv/bin/python bench/journal_writes.py [--acts 4000] [--dir DIR] [--core N] [--quarter]

``--core N`` runs the box on that one core; ``--quarter`` holds it to a quarter of one core
(cgroup v1 ``cpu``, as root, as ``bench/busy_table.py --quarter``): the bytes per action hardly
depend on the CPU, but how many games' backups are coalesced does.

It prints the bytes per action and per finished game, where they went (the journal, its WAL,
the backups: each file's final size is a floor for what it took), and what an evening (four
tables, 40 games) and a convention day (1 000 games) would write at those rates.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.busy_table import quarter_core

TABLES: tuple[tuple[str, list[str], dict[str, Any]], ...] = (
    ("unlock", ["Lock", "Aiko", "Ben", "Chie", "Dai"], {"difficulty": "hard"}),
    ("dice216", ["Aiko", "Ben", "Chie", "Dai"], {"size": 12, "diagonals": True}),
    ("hacktrick", ["Aiko", "Ben"], {}),
    ("ico", ["Aiko", "Ben"], {"level": "4"}),
)


def io_counters() -> dict[str, int]:
    fields = {}
    for line in Path("/proc/self/io").read_text().splitlines():
        name, value = line.split(":")
        fields[name] = int(value)
    return fields


def child(data: Path, acts: int) -> dict[str, Any]:
    """Play the tables until ``acts`` actions are committed; what storage saw meanwhile."""
    from firmware_host.companion import Companion

    rng = random.Random(7)
    with Companion.open(data, host_pin="246813", bot_delay=3600.0) as box:
        games = [box.create_game(game, players, options, seed=n)
                 for n, (game, players, options) in enumerate(TABLES)]
        box.journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # start from a settled file
        before, started = io_counters(), time.perf_counter()
        done = ended = 0
        while done < acts:
            for index, game_id in enumerate(games):
                view = box.view(game_id, None)
                if view["outcome"] is not None or box.summary(game_id)["status"] != "active":
                    ended += 1
                    game, players, options = TABLES[index]
                    games[index] = box.create_game(game, players, options,
                                                   seed=rng.randrange(2**62))
                    continue
                seat = view["to_act"][0]
                legal = box.legal_actions(game_id, seat)
                box.act(game_id, seat, rng.choice(legal))
                done += 1
        box.close()
        after, seconds = io_counters(), time.perf_counter() - started
    files = {path.name: path.stat().st_size for path in sorted(data.rglob("*"))
             if path.is_file()}
    return {"acts": done, "ended": ended, "seconds": seconds,
            "write_bytes": after["write_bytes"] - before["write_bytes"],
            "wchar": after["wchar"] - before["wchar"], "files": files}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--acts", type=int, default=4000)
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the journal lives (default: a temporary folder on /var/tmp)")
    parser.add_argument("--core", type=int, default=None, help="run the box on this core")
    parser.add_argument("--quarter", action="store_true",
                        help="hold the box to a quarter of one core (cgroup v1, as root)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child, args.acts)))
        return
    base = args.dir or Path(tempfile.mkdtemp(prefix="journal-writes-", dir="/var/tmp"))
    data = base / "data"
    box = subprocess.Popen([sys.executable, __file__, "--acts", str(args.acts), "--child",
                            str(data)], stdout=subprocess.PIPE, text=True)
    if args.core is not None:
        os.sched_setaffinity(box.pid, {args.core})  # its threads start after: they inherit it
    if args.quarter:
        quarter_core(box.pid)
    out, _ = box.communicate()
    if box.returncode:
        raise SystemExit(f"the box failed ({box.returncode})")
    held = ("a quarter of one core" if args.quarter else
            f"core {args.core}" if args.core is not None else "any core")
    print(f"the box on {held}")
    found = json.loads(out.strip().splitlines()[-1])
    acts, ended = found["acts"], max(1, found["ended"])
    per_act = found["write_bytes"] / acts / 1024
    per_game = found["write_bytes"] / ended / 1024
    print(f"{acts} acts, {found['ended']} games ended, {found['seconds']:.1f} s")
    print(f"storage writes: {found['write_bytes'] / 1024:.0f} KiB — {per_act:.2f} KiB per act "
          f"(budget ≤ 8 KiB), {per_game:.0f} KiB per finished game; write() calls handed "
          f"{found['wchar'] / acts / 1024:.2f} KiB per act")
    backups = sum(size for name, size in found["files"].items() if name.startswith("journal-"))
    journal = found["files"].get("journal.sqlite3", 0)
    print(f"files at the end: journal {journal / 1024:.0f} KiB, backups {backups / 1024:.0f} KiB "
          f"({sum(n.startswith('journal-') for n in found['files'])} kept)")
    acts_per_game = acts / ended
    for label, games in (("an evening (40 games)", 40), ("a convention day (1 000 games)", 1000)):
        print(f"{label}: about {games * acts_per_game * per_act / 1024:.1f} MiB "
              f"({acts_per_game:.0f} acts a game)")


if __name__ == "__main__":
    main()
