"""UNLOCK's post-game analysis (``rules.unlock.analysis``): how long one game's analysis takes.

    .venv/bin/python bench/unlock_analysis.py [--runs N]

Plays a few typical games on the rules engine (Medium and Hard, auto-connection on and off, 3
to 5 guessers, 10 turns): ``random`` guessers draw random codes (``random_code``: a table that
does not deduce much, so the boards stay wide and the game runs to the turn limit, the costliest
case), ``mixed`` tables alternate such guessers with ones that draw a code still fitting the
board. Each game is then analysed from its actions (``analyse_actions``, as the journal keeps
them) and timed twice:

- **cold**: in a fresh process, the first analysis of its level (it builds the level's code
  table, line index and opening book, which the box otherwise builds once for its hints);
- **warm**: the median and the worst of ``--runs`` analyses in this process (tables built).

Times are the process's CPU time (one core: the analysis runs no threads) and wall time.
The issue's target: a typical game in at most 2 s of one core.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.unlock import GAME, UnlockState, random_code
from rules.unlock.analysis import analyse_actions
from rules.unlock.clues import consistent_indices, line_index
from rules.unlock.enumeration import code_table

TURNS = 10
#: (difficulty, auto_connect, guessers, table, seed)
GAMES = [
    ("medium", True, 3, "random", 1),
    ("medium", False, 4, "mixed", 2),
    ("hard", True, 4, "random", 3),
    ("hard", True, 5, "mixed", 4),
    ("hard", False, 5, "random", 5),
]

Actions = list[tuple[int, str]]


def play(difficulty: str, auto: bool, guessers: int, table: str,
         seed: int) -> tuple[list[str], dict[str, object], Actions]:
    """A game to its end: the seats' names, its options and its actions (seat, text)."""
    rng = random.Random(seed)
    names = ["Lock", *(f"G{k}" for k in range(1, guessers + 1))]
    options: dict[str, object] = {"difficulty": difficulty, "auto_connect": auto,
                                  "turn_limit": TURNS}
    state = GAME.start(names, options)
    actions: Actions = [(0, f"secret {random_code(rng, difficulty, 3, auto)}")]
    state = GAME.apply(state, *actions[-1])
    while state.end is None:
        for seat in list(state.guessers):
            deduces = table == "mixed" and seat % 2 == 0
            text = fitting_code(state, rng) if deduces else fresh_code(state, rng)
            actions.append((seat, f"guess {text}"))
            state = GAME.apply(state, *actions[-1])
    return names, options, actions


def fresh_code(state: UnlockState, rng: random.Random) -> str:
    """A random code of the level not played yet."""
    played = {card.code for card in state.board}
    while True:
        code = random_code(rng, state.difficulty, 3, state.auto_connect)
        if code not in played:
            return str(code)


def fitting_code(state: UnlockState, rng: random.Random) -> str:
    """A random code still fitting the public clue board (as a deducing player draws)."""
    index = line_index(state.difficulty, 3, state.auto_connect)
    fits = consistent_indices(index, state.clues)
    return code_table(state.difficulty, 3, state.auto_connect).text(rng.choice(fits))


def timed(names: list[str], options: dict[str, object], actions: Actions) -> tuple[float, float]:
    """CPU and wall seconds of one analysis."""
    cpu, wall = time.process_time(), time.perf_counter()
    analyse_actions(names, options, actions)
    return time.process_time() - cpu, time.perf_counter() - wall


def cold(game: tuple[list[str], dict[str, object], Actions]) -> tuple[float, float]:
    """CPU and wall seconds of the game's analysis in a fresh process."""
    done = subprocess.run([sys.executable, __file__, "--child"], input=json.dumps(game),
                          text=True, capture_output=True, check=True)
    cpu, wall = json.loads(done.stdout)
    return float(cpu), float(wall)


def child() -> None:
    names, options, actions = json.load(sys.stdin)
    print(json.dumps(timed(names, options, [(seat, text) for seat, text in actions])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child()
        return
    print(f"{'game':<40} turns cards | cold cpu / wall | warm cpu p50 / max")
    worst = 0.0
    for difficulty, auto, guessers, table, seed in GAMES:
        game = play(difficulty, auto, guessers, table, seed)
        names, options, actions = game
        result = analyse_actions(names, options, actions)
        first_cpu, first_wall = cold(game)
        warm = [timed(names, options, actions)[0] for _ in range(args.runs)]
        worst = max(worst, first_cpu, *warm)
        label = (f"{difficulty} {'auto' if auto else 'plain'}, {guessers} guessers, {table}"
                 f"{', found' if result.found_turn else ''}")
        print(f"{label:<40} {len(result.turns):>5} {len(actions) - 1:>5} | "
              f"{first_cpu * 1000:6.0f} / {first_wall * 1000:4.0f} ms | "
              f"{statistics.median(warm) * 1000:6.0f} / {max(warm) * 1000:4.0f} ms")
    print(f"worst: {worst * 1000:.0f} ms of CPU (target: 2000 ms)")


if __name__ == "__main__":
    main()
