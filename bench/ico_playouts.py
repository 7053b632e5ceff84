"""ICO rules: time per call of apply, legal_actions and view over random games, per level.

Run: ``.venv/bin/python bench/ico_playouts.py``. Prints median / p99 microseconds per call over
every state of 20 random 3-player games per level, the time of one whole game, and view sizes.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from rules.ico import GAME

PLAYERS = ["Aiko", "Ben", "Chie"]


def _micro(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{statistics.median(ordered) * 1e6:,.0f} / {p99 * 1e6:,.0f} µs"


T = TypeVar("T")


def _timed(call: Callable[[], T], into: list[float]) -> T:
    start = time.perf_counter()
    result = call()
    into.append(time.perf_counter() - start)
    return result


def bench(level: str, claim: str, games: int = 20) -> None:
    """Print one table row for ``level`` with ``claim`` mode."""
    applies: list[float] = []
    legals: list[float] = []
    views: list[float] = []
    whole: list[float] = []
    actions = 0
    for seed in range(games):
        rng = random.Random(seed)
        started = time.perf_counter()
        state = GAME.start(PLAYERS, {"level": level, "claim": claim}, seed=seed)
        while GAME.outcome(state) is None:
            seat = state.mover
            legal = _timed(partial(GAME.legal_actions, state, seat), legals)
            _timed(partial(GAME.view, state, seat), views)
            action = rng.choice(legal)
            state = _timed(partial(GAME.apply, state, seat, action), applies)
            actions += 1
        whole.append(time.perf_counter() - started)
    print(f"| {level} ({claim}) | {_micro(applies)} | {_micro(legals)} | {_micro(views)} | "
          f"{statistics.mean(whole) * 1e3:.1f} ms ({actions / games:.0f} actions) |")


def main() -> None:
    """Print the table and the sizes of a view and of the catalog's board drawing."""
    print("| level | apply | legal_actions | view | one whole game |")
    print("|---|---|---|---|---|")
    for level in ("1", "1+", "2", "2+", "4"):
        bench(level, "auto")
    bench("1+", "manual")
    state = GAME.start(PLAYERS, seed=1)
    print(f"view JSON: {len(json.dumps(GAME.view(state, 0)))} bytes; "
          f"catalog board drawing: {len(json.dumps(GAME.describe()['board']))} bytes")


if __name__ == "__main__":
    main()
