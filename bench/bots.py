"""Bots: speed (games per second, move latency) and strength (win rates between levels).

    .venv/bin/python bench/bots.py [--games 200] [--speed-games 30] [--jobs 1] [--game ID]

Speed: for each game and level, ``--speed-games`` seeded games with that level in both seats,
in this one process; it prints games per second and the time of each bot move (p50, p99, max).
UNLOCK is played by the box as the Lock (a bot drawing the secret) and two guessers of the
level, on each difficulty (Hard: a fifth of the games, at least 3); the moves timed are the
guesses (and the Lock's secret), the UNLOCK bots being those of ``rules/unlock/bots.py``.

Strength: for each game, ``--games`` seeded games per pairing (hard–random, hard–easy,
easy–random), the stronger bot in seat 0 in even games and seat 1 in odd ones, chance drawn by
the harness. A game counts as won only when the bot is the sole winner: a draw is not a win
(and is shown). The win rate is won / played; the 95% interval is Wilson's. ``--jobs`` plays
the strength games in that many processes (the games and their results do not change).
Each game uses its default options, two players. Other tables: ``hard``'s move time on the
larger or slower variants (``--table-games`` games each, ``hard`` in one seat against random
bots in the others), the worst a daemon may meet.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from math import sqrt
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.bot_games import duel, play_bot_game
from rules.bots import BOT_GAMES, LEVELS, Bot, get_bot
from rules.unlock.bots import BOTS as UNLOCK_BOTS
from rules.unlock.clues import line_index

NAMES = {"hacktrick": "Hacktrick", "ico": "ICO", "dice216": "2 1 6", "unlock": "UNLOCK"}
#: Every game the speed part plays (UNLOCK's bots are apart from the registry of the others).
SPEED_GAMES = (*BOT_GAMES, "unlock")
#: UNLOCK's table: the box as the Lock and two guessers; each difficulty and its share of
#: ``--speed-games`` (Hard's codes are many: a guess there takes longest).
UNLOCK_PLAYERS = ("Box", "Aiko", "Ben")
UNLOCK_DIFFICULTIES = (("easy", 1.0), ("medium", 1.0), ("hard", 0.2))
PAIRINGS = (("hard", "random"), ("hard", "easy"), ("easy", "random"))
PARTS = ("speed", "tables", "strength")
#: The strength the issue asks for: hard's win rate against each weaker level.
TARGETS = {("hard", "random"): 0.90, ("hard", "easy"): 0.65}
#: (label, game, players, options) of the variants whose hard moves are timed.
TABLES: tuple[tuple[str, str, int, dict[str, Any]], ...] = (
    ("Hacktrick, declare after draw, ask under Play!", "hacktrick", 2,
     {"declare_after_draw": True, "ask_under_play": True}),
    ("ICO, level 1+", "ico", 2, {"level": "1+"}),
    ("ICO, level 2", "ico", 2, {"level": "2"}),
    ("ICO, 4 players, level 4", "ico", 4, {"level": "4"}),
    ("ICO, 3 players, level 1, manual claims", "ico", 3, {"claim": "manual"}),
    ("2 1 6, 8×8, diagonals, area", "dice216", 2,
     {"size": 8, "diagonals": True, "area": True}),
    ("2 1 6, 4 players, 12×12, diagonals, area", "dice216", 4,
     {"diagonals": True, "area": True}),
)


class Timed:
    """A bot whose every move is timed."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.level = bot.level
        self.seconds: list[float] = []

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        began = time.perf_counter()
        action = self.bot.choose(view, legal, rng)
        self.seconds.append(time.perf_counter() - began)
        return action


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _ms(ordered: Sequence[float], share: float) -> str:
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000:.1f}"


def speed(game_id: str, level: str, games: int) -> str:
    timed = Timed(get_bot(game_id, level))
    began = time.perf_counter()
    for seed in range(games):
        play_bot_game(game_id, [timed, timed], seed=seed)
    took = time.perf_counter() - began
    ordered = sorted(timed.seconds)
    return (f"| {NAMES[game_id]} | {level} | {games / took:.1f} | {len(ordered)} | "
            f"{statistics.median(ordered) * 1000:.2f} | {_ms(ordered, 0.99)} | "
            f"{ordered[-1] * 1000:.1f} |")


def unlock_speed(level: str, difficulty: str, games: int) -> str:
    """The box as the Lock and two guessers of ``level`` (the Lock a bot of the same level:
    every level draws the secret the same way). The level's code index is built first, as the
    daemon builds it when a game starts (``ReadSide.warm``): ~0.5 s on Hard, once a process."""
    line_index(difficulty)
    timed = Timed(UNLOCK_BOTS[level])
    guessers = len(UNLOCK_PLAYERS) - 1
    turns = []
    found = 0
    began = time.perf_counter()
    for seed in range(games):
        played = play_bot_game("unlock", [timed] * len(UNLOCK_PLAYERS),
                               options={"difficulty": difficulty}, seed=seed,
                               players=UNLOCK_PLAYERS)
        turns.append((played.bot_moves - 1) / guessers)  # every guesser guesses every turn
        found += bool(played.outcome["found_by"])
    took = time.perf_counter() - began
    ordered = sorted(timed.seconds)
    return (f"| UNLOCK, {difficulty} | box Lock + {guessers} {level} guessers | "
            f"{games / took:.1f} | {len(ordered)} | {statistics.median(ordered) * 1000:.2f} | "
            f"{_ms(ordered, 0.99)} | {ordered[-1] * 1000:.1f} | code found in {found} of "
            f"{games}, {statistics.mean(turns):.1f} turns a game |")


def table_speed(label: str, game_id: str, players: int, options: dict[str, Any],
                games: int) -> str:
    timed = Timed(get_bot(game_id, "hard"))
    other = get_bot(game_id, "random")
    for seed in range(games):
        bots: list[Bot] = [other] * players
        bots[seed % players] = timed
        play_bot_game(game_id, bots, options=options, seed=seed)
    ordered = sorted(timed.seconds)
    return (f"| {label} | {len(ordered)} | {statistics.median(ordered) * 1000:.2f} | "
            f"{_ms(ordered, 0.99)} | {ordered[-1] * 1000:.1f} |")


def wilson(won: int, games: int) -> tuple[float, float]:
    z = 1.96
    share = won / games
    middle = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return middle - half, middle + half


def strength(game_id: str, strong: str, weak: str, games: int, pool: ProcessPoolExecutor | None
             ) -> str:
    seeds = range(games)
    if pool is None:
        results = [duel(game_id, strong, weak, seed) for seed in seeds]
    else:
        n = len(seeds)
        results = list(pool.map(duel, [game_id] * n, [strong] * n, [weak] * n, seeds,
                                chunksize=8))
    won, drawn, lost = (results.count(r) for r in ("win", "draw", "loss"))
    low, high = wilson(won, games)
    target = TARGETS.get((strong, weak))
    verdict = "—" if target is None else ("met" if won / games >= target else "**missed**")
    goal = "" if target is None else f"≥ {target:.0%}"
    return (f"| {NAMES[game_id]} | {strong} vs {weak} | {games} | {won} / {drawn} / {lost} | "
            f"**{won / games:.1%}** ({low:.1%}–{high:.1%}) | {goal} | {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per strength pairing")
    parser.add_argument("--speed-games", type=int, default=30, help="games per speed row")
    parser.add_argument("--table-games", type=int, default=4, help="games per other table")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the strength games")
    parser.add_argument("--game", choices=SPEED_GAMES, action="append",
                        help="only this game (repeatable; UNLOCK has a speed part only)")
    parser.add_argument("--part", choices=PARTS, action="append",
                        help="only this part (repeatable)")
    args = parser.parse_args()
    games = args.game or list(SPEED_GAMES)
    parts = args.part or list(PARTS)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
          f"load average {_load()}")
    if "speed" in parts:
        print("\nSpeed: both seats the same level, default options, one process")
        others = [game_id for game_id in games if game_id != "unlock"]
        if others:
            print("| game | level | games/s | moves timed | move p50 ms | move p99 ms | max ms |")
            print("|---|---|---|---|---|---|---|")
        for game_id in others:
            for level in LEVELS:
                print(speed(game_id, level, args.speed_games), flush=True)
        if "unlock" in games:
            print("| UNLOCK table | seats | games/s | moves timed | move p50 ms | move p99 ms | "
                  "max ms | games |")
            print("|---|---|---|---|---|---|---|---|")
            for difficulty, share in UNLOCK_DIFFICULTIES:
                for level in (level for level in LEVELS if level in UNLOCK_BOTS):
                    print(unlock_speed(level, difficulty, max(3, round(args.speed_games * share))),
                          flush=True)
        print(f"load average {_load()}")
    if "tables" in parts:
        print("\nOther tables: hard in one seat, random bots in the others")
        print("| table | hard moves timed | move p50 ms | move p99 ms | max ms |")
        print("|---|---|---|---|---|")
        for label, game_id, players, options in TABLES:
            if game_id in games:
                print(table_speed(label, game_id, players, options, args.table_games),
                      flush=True)
        print(f"load average {_load()}")
    if "strength" in parts:
        strengths([game for game in games if game in BOT_GAMES], args.games, args.jobs)


def strengths(games: Sequence[str], per_pairing: int, jobs: int) -> None:
    """Print the strength table: every pairing of every game in ``games``."""
    print(f"\nStrength: {per_pairing} games per pairing, seats alternated, seeds 0…"
          f"{per_pairing - 1}; {jobs} process(es)")
    print("| game | pairing | games | won / drawn / lost | win rate (95% CI) | target | verdict |")
    print("|---|---|---|---|---|---|---|")
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        for game_id in games:
            for strong, weak in PAIRINGS:
                print(strength(game_id, strong, weak, per_pairing, pool), flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    print(f"load average {_load()}")


if __name__ == "__main__":
    main()
