"""UNLOCK's hint engine: how strong its suggestion is and how long a hint takes.

    .venv/bin/python bench/unlock_hints.py [--level easy medium hard] [--secrets N] [--jobs J]

For each level, games with one guesser who plays the hint's suggestion every turn, played on
the rules engine (``GAME.apply``) against a Lock whose secret is each code of the level in turn
(Easy: all 3 560; Medium and Hard: ``--secrets`` codes drawn evenly from the level's table, all
of them with ``--secrets 0``). The hint is asked exactly as the box asks it: from the spectator's
view (``rules.unlock.hints.hint``). It prints the guesses each secret needed (the found code
included: average, maximum, how often each count), the share of games solved within the game's
turn limit (10 turns), and each hint's time (p50, p99, max) on this machine.

The issue's targets: Easy, average ≤ 5.95 and never more than 7 guesses over all 3 560 secrets;
Medium and Hard, solved within the turn limit in ≥ 99% of games; each hint ≤ 250 ms p99.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.unlock import GAME, code_table
from rules.unlock.hints import hint

TURN_LIMIT = 10
TARGETS = {"easy": (5.95, 7)}


def play(difficulty: str, secret: str) -> tuple[int, list[float]]:
    """Guesses the hint-follower needed against ``secret`` (0: not found), and each hint's time."""
    state = GAME.start(["Lock", "Guesser"], {"difficulty": difficulty, "turn_limit": "none"},
                       seed=0)
    state = GAME.apply(state, 0, f"secret {secret}")
    times: list[float] = []
    for turn in range(1, 40):
        view = GAME.view(state, None)
        started = time.perf_counter()
        answer = hint(view, 1)
        times.append(time.perf_counter() - started)
        state = GAME.apply(state, 1, f"guess {answer['suggestion']}")
        if GAME.outcome(state) is not None:
            return turn, times
    return 0, times


def play_many(difficulty: str, secrets: list[str]) -> list[tuple[int, list[float]]]:
    return [play(difficulty, secret) for secret in secrets]


def secrets_of(difficulty: str, count: int) -> list[str]:
    table = code_table(difficulty)
    if count <= 0 or count >= len(table):
        return [table.text(i) for i in range(len(table))]
    step = len(table) / count
    return [table.text(int(k * step)) for k in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--secrets", type=int, default=600,
                        help="secrets per level on Medium and Hard (0: all); Easy plays all")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    for difficulty in args.level:
        secrets = secrets_of(difficulty, 0 if difficulty == "easy" else args.secrets)
        started = time.perf_counter()
        chunks = [secrets[k::args.jobs] for k in range(args.jobs)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                parts = list(pool.map(play_many, [difficulty] * args.jobs, chunks))
        else:
            parts = [play_many(difficulty, secrets)]
        results = [result for part in parts for result in part]
        wall = time.perf_counter() - started
        guesses = [n for n, _ in results if n]
        times = sorted(t * 1000 for _, ts in results for t in ts)
        within = sum(1 for n, _ in results if 0 < n <= TURN_LIMIT)
        counts = Counter(guesses)
        print(f"{difficulty}: {len(results)} secrets, {wall:.0f} s")
        print(f"  guesses: average {statistics.fmean(guesses):.4f}, max {max(guesses)}, "
              f"not found {len(results) - len(guesses)}")
        print("  how often: " + ", ".join(f"{n}: {counts[n]}" for n in sorted(counts)))
        print(f"  solved within {TURN_LIMIT} turns: {within}/{len(results)} "
              f"({100 * within / len(results):.2f}%)")
        print(f"  hint time: p50 {times[len(times) // 2]:.1f} ms, "
              f"p99 {times[int(len(times) * 0.99)]:.1f} ms, max {times[-1]:.1f} ms "
              f"over {len(times)} hints")
        if difficulty in TARGETS:
            average, most = TARGETS[difficulty]
            met = statistics.fmean(guesses) <= average and max(guesses) <= most
            print(f"  target average ≤ {average}, max ≤ {most}: {'met' if met else 'MISSED'}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
