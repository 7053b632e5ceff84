"""Random playouts per second for every game: whole games of uniformly random legal actions
(chance included) straight on the rules engines, single-threaded.

    .venv/bin/python bench/playouts.py [SECONDS_PER_GAME]
"""

from __future__ import annotations

import os
import random
import sys
import time
from itertools import islice
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import get_game

#: (label, game id, players, options): each game's default table, and its largest.
TABLES: tuple[tuple[str, str, list[str], dict[str, Any]], ...] = (
    ("UNLOCK, 3 players, medium", "unlock", ["L", "A", "B"], {}),
    ("UNLOCK, 7 players, hard", "unlock", ["L", "A", "B", "C", "D", "E", "F"],
     {"difficulty": "hard"}),
    ("Hacktrick, virtual", "hacktrick", ["A", "B"], {}),
    ("Hacktrick, table cards", "hacktrick", ["A", "B"], {"cards": "table"}),
    ("ICO, 3 players, level 1", "ico", ["A", "B", "C"], {}),
    ("ICO, 4 players, level 4", "ico", ["A", "B", "C", "D"], {"level": "4"}),
    ("2 1 6, 2 players, 6x6", "dice216", ["A", "B"], {}),
    ("2 1 6, 4 players, 12x12, diagonals", "dice216", ["A", "B", "C", "D"],
     {"size": 12, "diagonals": True}),
)
LEGAL_CAP = 2000  # UNLOCK's lists are lazy and long: a random pick among the first ones


def playout(game: str, players: list[str], options: dict[str, Any], rng: random.Random) -> int:
    rules = get_game(game)
    state = rules.start(players, options, seed=rng.randrange(2**31))
    actions = 0
    while True:
        seats = rules.to_act(state)
        if not seats:
            return actions
        seat = rng.choice(seats)
        legal = list(islice(iter(rules.legal_actions(state, seat)), LEGAL_CAP))
        state = rules.apply(state, seat, rng.choice(legal))
        actions += 1


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"machine: {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {budget:g} s per table")
    for label, game, players, options in TABLES:
        rng = random.Random(216)
        games = actions = 0
        started = time.perf_counter()
        while time.perf_counter() - started < budget or games < 3:
            actions += playout(game, players, options, rng)
            games += 1
        took = time.perf_counter() - started
        print(f"{label}: {games / took:.1f} playouts/s, {actions / took:.0f} actions/s "
              f"({actions / games:.0f} actions a game)")


if __name__ == "__main__":
    main()
