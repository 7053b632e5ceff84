"""Hacktrick rules speed: apply, legal_actions and view per call, and whole random games.

Run: ``.venv/bin/python bench/hacktrick_playouts.py``. Prints median and p99 microseconds per
call over every state of 20 random games per card mode, and the time of one whole game.
"""

from __future__ import annotations

import random
import statistics
import time

from rules.hacktrick import GAME, HacktrickState


def _micros(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{statistics.median(ordered) * 1e6:7.0f} / {p99 * 1e6:6.0f} µs"


def main() -> None:
    for options in ({}, {"cards": "table"}):
        applies: list[float] = []
        legals: list[float] = []
        views: list[float] = []
        games: list[float] = []
        steps = 0
        for seed in range(20):
            rng = random.Random(seed)
            began = time.perf_counter()
            state: HacktrickState = GAME.start(["Aiko", "Ben"], options, seed=seed)
            while GAME.outcome(state) is None:
                seat = GAME.to_act(state)[0]
                t0 = time.perf_counter()
                legal = list(GAME.legal_actions(state, seat))
                t1 = time.perf_counter()
                GAME.view(state, seat)
                t2 = time.perf_counter()
                state = GAME.apply(state, seat, rng.choice(legal))
                t3 = time.perf_counter()
                legals.append(t1 - t0)
                views.append(t2 - t1)
                applies.append(t3 - t2)
                steps += 1
            games.append(time.perf_counter() - began)
        mode = options.get("cards", "virtual")
        print(f"{mode:8} apply {_micros(applies)} · legal_actions {_micros(legals)} · "
              f"view {_micros(views)} · game median {statistics.median(games) * 1e3:.1f} ms "
              f"({steps / len(games):.0f} actions)")


if __name__ == "__main__":
    main()
