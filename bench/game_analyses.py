"""The post-game analysis of Hacktrick, ICO and 2 1 6 (``rules.evaluation``, issue 34): how
long one game's analysis takes.

    .venv/bin/python bench/game_analyses.py [--games N] [--only TEXT]

For each kind of game below, ``--games`` whole games (seeds 1…N) are played on the rules between
bots — seat 0 ``hard``, the others ``easy``, ``random``, ``easy`` (as
``tests/rules/test_evaluation.py`` plays them), chance drawn from the seed — and each is then
analysed from its :class:`GameRecord` (what the journal keeps: seats, options, seed, actions)
by ``analyse_record``, which replays it and asks the game's ``hard`` bot to weigh every chosen
move. For each game: its actions, the steps weighed, the analysis's CPU time
(``time.process_time``: the analysis runs no threads, so one core) and wall time, and CPU ms
per step. Then per kind the median and the worst, and whether they stay within the issue's
target: a typical game in at most 2 s of one core (a long Hacktrick match may take longer).

These analyses run in this one process, one after the other: a kind's first game pays for the
lazy imports and the caches its bot builds. The box computes them in a child interpreter started
when a game ends (``firmware_host.analysis_process``), which leaves after 30 s without work: so
the **cold** column gives each kind's first game analysed in a fresh interpreter (its imports of
the rules done first, as the child's ``builtin_games()`` does), and the last line what starting
that interpreter costs (``python -m firmware_host.analysis_process``'s imports).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules import CHANCE, get_game  # noqa: E402
from rules.bots import get_bot  # noqa: E402
from rules.evaluation import GameRecord, analyse_record  # noqa: E402

#: The issue's target for a typical game: seconds of one core.
TARGET = 2.0
NAMES = ("Aiko", "Ben", "Chie", "Dai")
LEVELS = ("hard", "easy", "random", "easy")
#: (label, game, options, players, typical): the kinds timed. "Long" is the issue's own
#: exception, a long Hacktrick match; 12×12 2 1 6 is the rules' grid for 3–4 players.
KINDS: tuple[tuple[str, str, dict[str, Any], int, bool], ...] = (
    ("Hacktrick, to 5 (default)", "hacktrick", {}, 2, True),
    ("Hacktrick, to 9 (a long match)", "hacktrick", {"target": 9}, 2, False),
    ("ICO level 1, 2 players", "ico", {"level": "1"}, 2, True),
    ("ICO level 1, 4 players", "ico", {"level": "1"}, 4, True),
    ("ICO level 2, 3 players", "ico", {"level": "2"}, 3, True),
    ("ICO level 2+, 2 players", "ico", {"level": "2+"}, 2, True),
    ("ICO level 4, 3 players", "ico", {"level": "4"}, 3, True),
    ("ICO level 4, 4 players", "ico", {"level": "4"}, 4, True),
    ("2 1 6 6×6 d6, 2 players", "dice216", {}, 2, True),
    ("2 1 6 4×4 d4, 2 players", "dice216", {"size": 4}, 2, True),
    ("2 1 6 8×8 d8, 2 players", "dice216", {"size": 8}, 2, True),
    ("2 1 6 12×12, 3 players", "dice216", {}, 3, True),
    ("2 1 6 12×12, 4 players", "dice216", {}, 4, True),
    ("2 1 6 12×12 diagonals, 4 players", "dice216", {"diagonals": True}, 4, True),
)
#: No bots' game is this long: a game that does not end is a bug, not a figure.
MAX_ACTIONS = 5_000


def play(game_id: str, options: Mapping[str, Any], players: int, seed: int,
         levels: Sequence[str] = LEVELS) -> GameRecord:
    """A whole game, seat ``i`` played by a bot of ``levels[i]``, chance drawn from ``seed``."""
    game = get_game(game_id)
    names = list(NAMES[:players])
    state = game.start(names, dict(options), seed=seed)
    rng = random.Random(seed)
    bots = [get_bot(game_id, level) for level in levels[:players]]
    actions: list[tuple[int, str]] = []
    while game.outcome(state) is None:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{game_id} {options} seed {seed}: the bots' game does not end")
        seat = game.to_act(state)[0]
        legal = list(game.legal_actions(state, seat))
        if seat == CHANCE:
            action = legal[rng.randrange(len(legal))]
        else:
            action = bots[seat].choose(game.view(state, seat), legal, rng)
        state = game.apply(state, seat, action)
        actions.append((seat, action))
    return GameRecord(tuple(names), dict(options), seed, tuple(actions))


def timed(game_id: str, record: GameRecord) -> tuple[float, float, int]:
    """CPU and wall seconds of the game's analysis, and the steps it weighed."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = analyse_record(game_id, record)
    return time.process_time() - cpu, time.perf_counter() - wall, len(result.steps)


def cold(game_id: str, record: GameRecord) -> float:
    """CPU seconds of the game's analysis in a fresh interpreter (its rules imported first)."""
    data = json.dumps([game_id, list(record.players), dict(record.options), record.seed,
                       [list(action) for action in record.actions]])
    done = subprocess.run([sys.executable, __file__, "--child"], input=data, text=True,
                          capture_output=True, check=True, timeout=600)
    return float(json.loads(done.stdout)[0])


def child() -> None:
    from firmware_host.games import builtin_games

    builtin_games()  # as the analysis process does before its first game
    game_id, players, options, seed, actions = json.load(sys.stdin)
    record = GameRecord(tuple(players), options, seed, tuple((s, a) for s, a in actions))
    print(json.dumps(timed(game_id, record)))


def interpreter_start() -> float:
    """CPU seconds of starting the box's analysis interpreter and its imports (it leaves at
    once: no work within 0 s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "firmware_host.analysis_process", "0", "1"],
                   cwd=ROOT, stdin=subprocess.PIPE, check=True, timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games per kind (seeds 1…N)")
    parser.add_argument("--only", help="only the kinds whose label contains this text")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child()
        return
    kinds = [k for k in KINDS if args.only is None or args.only.lower() in k[0].lower()]
    print(f"{'game':<34} seed actions steps |  CPU ms  wall ms | ms/step")
    summary = []
    for label, game_id, options, players, typical in kinds:
        cpus, per_step, steps_seen = [], [], []
        first: GameRecord | None = None
        for seed in range(1, args.games + 1):
            record = play(game_id, options, players, seed)
            first = first or record
            cpu, wall, steps = timed(game_id, record)
            cpus.append(cpu)
            steps_seen.append(steps)
            per_step.append(cpu / steps * 1000 if steps else 0.0)
            print(f"{label:<34} {seed:>4} {len(record.actions):>7} {steps:>5} | "
                  f"{cpu * 1000:7.0f} {wall * 1000:8.0f} | {per_step[-1]:7.1f}", flush=True)
        assert first is not None
        summary.append((label, typical, statistics.median(steps_seen), statistics.median(cpus),
                        max(cpus), statistics.median(per_step), cold(game_id, first)))
    print()
    print(f"{'kind':<34} steps | CPU p50  worst |  cold | ms/step | within {TARGET:.0f} s")
    for label, typical, median_steps, p50, worst, step_ms, first_cold in summary:
        verdict = ("yes" if max(worst, first_cold) <= TARGET
                   else "median only" if p50 <= TARGET else "no")
        print(f"{label:<34} {median_steps:>5.0f} | {p50 * 1000:7.0f} {worst * 1000:6.0f} | "
              f"{first_cold * 1000:5.0f} | {step_ms:7.1f} | {verdict}"
              f"{'' if typical else ' (long: allowed longer)'}")
    print(f"starting the analysis interpreter (imports, builtin_games()): "
          f"{interpreter_start() * 1000:.0f} ms of CPU")


if __name__ == "__main__":
    main()
