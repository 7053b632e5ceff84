"""Build the UNLOCK hint engine's opening books (``rules/unlock/books/*.json``).

    .venv/bin/pip install -e '.[books]'          # numpy and numba: only this script needs them
    .venv/bin/python scripts/unlock_books.py [--level easy medium hard] [--out DIR]

The books are shipped; run this only when the code tables or the strategy change (a book built
on another table is refused at run time: ``rules.unlock.books``). Each entry maps a set of codes
still possible (``rules.unlock.books.set_key``) to the table position of the guess to play.

- **Medium and Hard**: the first ``--depth`` guesses (default 3) of the one-step strategy over
  the *whole* level — every code as a guess, every candidate counted, which the box cannot
  afford at run time on sets this large (it samples) — for every board those guesses lead to.
- **Easy**: a whole strategy tree found by lookahead over rollouts
  (``scripts/unlock_easy_tree.py``, beside this script).

The Medium and Hard guess score is the engine's own (``rules.unlock.splits.Splitter.score``): the
sum of ``c·ln c`` over the feedback classes, a hit counting nothing and a little less.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]

from rules.unlock.books import book_name, set_key, table_fingerprint  # noqa: E402
from rules.unlock.enumeration import code_masks  # noqa: E402

HIT = 15  # the class of the guess itself, in the kernels' feedback tables


@nb.njit(cache=True)
def popcount(x: np.uint64) -> np.int64:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@nb.njit(cache=True)
def best_over_level(masks: Any, survivors: Any, clogc: Any) -> np.int64:
    """The guess (any code of the level) with the lowest score over ``survivors``; ties to the
    earlier code, as the engine breaks them."""
    counts = np.zeros(16, np.int64)
    best_score, best = 1e300, -1
    for guess in range(masks.shape[0]):
        lines = masks[guess]
        counts[:] = 0
        for i in range(survivors.shape[0]):
            code = survivors[i]
            if code == guess:
                counts[HIT] += 1
            else:
                counts[popcount(lines & masks[code])] += 1
        score = 0.0
        for v in range(HIT):
            score += clogc[counts[v]]
        score -= 1e-3 * counts[HIT]
        if score < best_score:
            best_score, best = score, guess
    return best


@nb.njit(cache=True)
def classes(masks: Any, survivors: Any, guess: np.int64) -> Any:
    """The feedback of ``guess`` against each survivor (``HIT`` for the guess itself)."""
    out = np.empty(survivors.shape[0], np.int64)
    for i in range(survivors.shape[0]):
        code = survivors[i]
        out[i] = HIT if code == guess else popcount(masks[guess] & masks[code])
    return out


def clogc_table(size: int) -> Any:
    counts = np.arange(size + 2, dtype=np.float64)
    return np.where(counts > 1, counts * np.log(np.maximum(counts, 1)), 0.0)


def opening(difficulty: str, auto_connect: bool, depth: int) -> dict[str, int]:
    """Book entries for the first ``depth`` guesses of the whole-level one-step strategy."""
    masks = np.array(code_masks(difficulty, 3, auto_connect), dtype=np.uint64)
    clogc = clogc_table(len(masks))
    entries: dict[str, int] = {}
    level = [np.arange(len(masks), dtype=np.int32)]
    for turn in range(depth):
        started, following = time.monotonic(), []
        for survivors in level:
            if len(survivors) <= 2:
                continue
            guess = int(best_over_level(masks, survivors, clogc))
            entries[set_key(survivors.tolist())] = guess
            feedback = classes(masks, survivors, guess)
            following += [survivors[feedback == v] for v in np.unique(feedback) if v != HIT]
        print(f"  {difficulty} {'auto' if auto_connect else 'plain'}: guess {turn + 1} for "
              f"{len(level)} boards, {time.monotonic() - started:.0f} s", flush=True)
        level = following
    return entries


def write(out: Path, difficulty: str, auto_connect: bool, entries: dict[str, int],
          note: dict[str, Any]) -> None:
    path = out / book_name(difficulty, auto_connect)
    document = {"difficulty": difficulty, "auto_connect": auto_connect,
                "table": table_fingerprint(difficulty, 3, auto_connect), **note,
                "entries": dict(sorted(entries.items()))}
    path.write_text(json.dumps(document, indent=0, separators=(",", ":")) + "\n")
    print(f"wrote {path}: {len(entries)} boards", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "unlock" / "books")
    args = parser.parse_args()
    for difficulty in args.level:
        if difficulty == "easy":
            from unlock_easy_tree import easy_tree  # the long search, beside this script

            entries, note = easy_tree()
            write(args.out, "easy", True, entries, note)
            continue
        for auto_connect in (True, False):
            entries = opening(difficulty, auto_connect, args.depth)
            write(args.out, difficulty, auto_connect, entries,
                  {"strategy": f"whole-level one-step, first {args.depth} guesses"})


if __name__ == "__main__":
    main()
