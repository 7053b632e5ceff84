"""How long the 2 1 6 rules take per step: apply, and the view with its full live score sheet.

Run: .venv/bin/python bench/dice216_tally.py — prints median and p99 per call, in microseconds,
and the time of a whole random playout (to_act, legal_actions and apply at every step, no view).
"""

from __future__ import annotations

import random
import statistics
import time

from rules.dice216 import GAME, State

TABLES = [
    ("2p 6×6 defaults", ["A", "B"], {}),
    ("2p 8×8 all variants", ["A", "B"], {"size": 8, "diagonals": True, "area": True}),
    ("4p 12×12 all variants", ["A", "B", "C", "D"], {"diagonals": True, "area": True}),
]


def states(players: list[str], options: dict[str, object], seed: int) -> list[State]:
    """Every state along one random game."""
    rng = random.Random(seed)
    state = GAME.start(players, options, seed)
    seen = [state]
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat))))
        seen.append(state)
    return seen


def timed(call: object, runs: list[tuple[object, ...]]) -> tuple[float, float]:
    """Median and p99 in µs of ``call(*args)`` over ``runs``."""
    times = []
    for args in runs:
        start = time.perf_counter_ns()
        call(*args)  # type: ignore[operator]
        times.append((time.perf_counter_ns() - start) / 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99)]


def main() -> None:
    print(f"{'table':<24} {'step':<26} {'median µs':>10} {'p99 µs':>8}")
    for name, players, options in TABLES:
        seen = [s for seed in range(5) for s in states(players, options, seed)]
        # A fresh state each time: the score sheet is cached per state, so this is the cold cost.
        fresh = [(GAME.load(GAME.dump(s)), None) for s in seen]
        median, p99 = timed(GAME.view, fresh)
        print(f"{name:<24} {'view (live score sheet)':<26} {median:>10.0f} {p99:>8.0f}")
        steps = []
        for s in seen:
            seats = GAME.to_act(s)
            if seats:
                steps.append((s, seats[0], next(iter(GAME.legal_actions(s, seats[0])))))
        median, p99 = timed(GAME.apply, steps)
        print(f"{name:<24} {'apply (roll or place)':<26} {median:>10.0f} {p99:>8.0f}")
        start = time.perf_counter_ns()
        for _ in range(20):
            states(players, options, 99)
        per_game = (time.perf_counter_ns() - start) / 20 / 1000
        print(f"{name:<24} {'random playout, one game':<26} {per_game:>10.0f}")


if __name__ == "__main__":
    main()
