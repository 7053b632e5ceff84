"""Whole games played by bots, straight on a rules engine: a test tool and the benchmark's core.

Each seat's bot sees only ``game.view(state, seat)`` and ``game.legal_actions(state, seat)``.
Chance's actions (die rolls) are drawn by this harness from its own seeded generator — never by
a bot — and every bot gets a generator of its own, so one seed replays a whole game.

>>> from rules.bots import get_bot
>>> played = play_bot_game("dice216", [get_bot("dice216", "easy"), get_bot("dice216", "random")],
...                        seed=3)
>>> played.outcome["reason"] in ("highest_total", "equal_totals")
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.bots import Bot, get_bot
from rules.errors import RulesError
from rules.game import CHANCE
from rules.registry import get_game

#: Player names used when the caller gives none.
NAMES = ("Aiko", "Ben", "Chie", "Dai")


@dataclass(frozen=True)
class BotGame:
    """One bot game: its outcome and every action taken, as ``(seat, action)`` in order
    (``rules.CHANCE`` for the die) — the journal that replays it."""

    outcome: Mapping[str, Any]
    actions: tuple[tuple[int, str], ...]

    @property
    def bot_moves(self) -> int:
        return sum(1 for seat, _ in self.actions if seat != CHANCE)

    @property
    def winners(self) -> list[int]:
        return list(self.outcome["winners"])


def play_bot_game(
    game_id: str,
    bots: Sequence[Bot],
    *,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    players: Sequence[str] | None = None,
    max_actions: int = 20_000,
) -> BotGame:
    """Play one game of ``game_id`` with ``bots[seat]`` at each seat; the seed fixes everything.

    Raises :class:`rules.RulesError` if a bot picks an action outside its legal list (the game
    would refuse it anyway) or the game does not end within ``max_actions``.
    """
    game = get_game(game_id)
    names = list(players) if players is not None else list(NAMES[: len(bots)])
    if len(names) != len(bots):
        raise RulesError(f"{len(bots)} bots for {len(names)} players")
    state = game.start(names, options, seed=seed)
    chance = random.Random(f"{seed}:chance")
    rngs = [random.Random(f"{seed}:bot:{seat}") for seat in range(len(bots))]
    taken: list[tuple[int, str]] = []
    for _ in range(max_actions):
        outcome = game.outcome(state)
        if outcome is not None:
            return BotGame(outcome, tuple(taken))
        seat = game.to_act(state)[0]
        legal = list(game.legal_actions(state, seat))
        if seat == CHANCE:
            action = legal[chance.randrange(len(legal))]
        else:
            action = bots[seat].choose(game.view(state, seat), legal, rngs[seat])
            if action not in legal:
                raise RulesError(f"the {bots[seat].level} bot of seat {seat} chose {action!r}, "
                                 f"which is not among its legal actions")
        taken.append((seat, action))
        state = game.apply(state, seat, action)
    raise RulesError(f"{game_id}: no outcome after {max_actions} actions (seed {seed})")


def duel(game_id: str, strong: str, weak: str, seed: int) -> str:
    """``win``, ``draw`` or ``loss`` for the ``strong`` bot against the ``weak`` one in a
    two-player game of ``game_id``, seated at ``seed % 2`` (so seeds alternate the seats)."""
    seat = seed % 2
    bots = [get_bot(game_id, strong), get_bot(game_id, weak)]
    if seat == 1:
        bots.reverse()
    winners = play_bot_game(game_id, bots, seed=seed).winners
    if winners == [seat]:
        return "win"
    return "loss" if len(winners) == 1 else "draw"
