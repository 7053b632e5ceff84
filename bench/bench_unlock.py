"""UNLOCK benchmarks: enumerating every code of a level, and filtering codes by a clue board.

Run: ``.venv/bin/python bench/bench_unlock.py`` (add ``--full-4x4-easy`` to also count every
Easy code of the 4×4 card, ~10 s). Prints one line per figure; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from rules.unlock import (
    DIFFICULTIES,
    Clue,
    code_masks,
    code_table,
    consistent_codes,
    consistent_masks,
    count_consistent,
    feedback,
    line_index,
    random_code,
)
from rules.unlock.enumeration import search


def best_of(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    """Median and best wall time of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def enumerate_3x3() -> None:
    print("== every code of a level, 3×3, best of 3: lazy search / masks only / full table")
    for auto in (True, False):
        for level in DIFFICULTIES:
            count = sum(1 for _ in search(level, 3, auto))
            _, med = best_of(3, lambda lv=level, a=auto: sum(1 for _ in search(lv, 3, a)))

            def masks(lv: str = level, a: bool = auto) -> object:
                code_masks.cache_clear()
                return code_masks(lv, 3, a)

            def build(lv: str = level, a: bool = auto) -> object:
                code_table.cache_clear()
                return code_table(lv, 3, a)

            _, masks_ms = best_of(3, masks)
            _, table_ms = best_of(3, build)
            table = code_table(level, 3, auto)
            size = (
                table.masks.itemsize * len(table.masks)
                + len(table.dots)
                + len(table.texts)
                + (table.offsets.itemsize + table.text_offsets.itemsize) * len(table.masks)
            )
            print(
                f"3x3 {level:6} auto_connect={'on ' if auto else 'off'} {count:7} codes  "
                f"search {med:6.1f} ms  masks {masks_ms:6.1f} ms  table {table_ms:6.1f} ms "
                f"({size / 1e6:4.2f} MB)"
            )


def enumerate_4x4(full_easy: bool) -> None:
    print("== 4×4: codes with at most N lines (a full listing is infeasible above Easy)")
    for level in DIFFICULTIES:
        for lines in (3, 4, 5):
            start = time.perf_counter()
            count = sum(1 for _ in search(level, 4, True, lines))
            spent = time.perf_counter() - start
            print(
                f"4x4 {level:6} <= {lines} lines {count:8} codes  {spent * 1000:8.0f} ms  "
                f"{count / spent / 1000:6.0f} k codes/s"
            )
    if full_easy:
        start = time.perf_counter()
        count = sum(1 for _ in search("easy", 4, True))
        print(f"4x4 easy   every code     {count:8} codes  {time.perf_counter() - start:8.1f} s")


def filter_hard(runs: int) -> None:
    print(f"== filter every Hard code by a clue board of 10 cards (median of {runs})")
    rng = random.Random(2026)
    for auto in (True, False):
        table = code_table("hard", 3, auto)
        secret = random_code(rng, "hard", 3, auto)
        board: list[Clue] = []
        while len(board) < 10:
            guess = random_code(rng, "hard", 3, auto)
            if guess != secret and all(guess != clue.code for clue in board):
                board.append(Clue(guess, feedback(secret, guess)[0]))
        survivors = consistent_masks(table.masks, board)
        assert secret.lines in survivors
        code_masks.cache_clear()
        line_index.cache_clear()
        start = time.perf_counter()
        count_consistent(board, "hard", 3, auto)
        cold_ms = (time.perf_counter() - start) * 1000
        count, _ = best_of(runs, lambda b=board, a=auto: count_consistent(b, "hard", 3, a))
        masks, _ = best_of(runs, lambda t=table, b=board: consistent_masks(t.masks, b))
        codes = list(table)
        objects, _ = best_of(
            max(3, runs // 4), lambda c=codes, b=board: list(consistent_codes(c, b))
        )
        print(
            f"hard auto_connect={'on ' if auto else 'off'} {len(table):7} codes -> "
            f"{len(survivors):4} consistent  bitset count {count:5.1f} ms "
            f"(first call, masks + index: {cold_ms:5.0f} ms)  per-mask {masks:5.1f} ms  "
            f"per-Code {objects:6.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full-4x4-easy", action="store_true", help="count every 4×4 Easy code")
    parser.add_argument("--runs", type=int, default=20, help="repetitions of the filter timing")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]} on {sys.platform}")
    enumerate_3x3()
    enumerate_4x4(args.full_4x4_easy)
    filter_hard(args.runs)


if __name__ == "__main__":
    main()
