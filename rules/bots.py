"""Bots: players that decide from their own seat's view and legal actions, nothing else.

A bot is asked for a move with exactly what a phone holds: the ``view`` of its seat (JSON-safe
data, ``view["you"]`` is the seat) and the seat's legal actions. It never receives a state, so it
cannot read a hand, a deck order or a seed it may not see; where it needs a model of the unknown
(Hacktrick's hidden cards) it samples one consistent with the view. Randomness comes from the
``rng`` the caller passes, so a bot's choice is a pure function of ``(view, legal, rng state)``.
Chance (die rolls, shuffles) is never a bot's move.

Three levels per game: ``random`` (uniform among the legal actions — the baseline), ``easy`` and
``hard``. The registry finds each game's bots like :func:`rules.get_game` finds its rules.

>>> import random
>>> from rules import get_game
>>> game = get_game("dice216")
>>> state = game.apply(game.start(["Aiko", "Ben"], seed=1), -1, "roll 6")
>>> bot = get_bot("dice216", "hard")
>>> action = bot.choose(game.view(state, 0), list(game.legal_actions(state, 0)), random.Random(1))
>>> action in game.legal_actions(state, 0)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any, Protocol, runtime_checkable

from rules.errors import RulesError

#: The levels every game offers, weakest first.
LEVELS: tuple[str, ...] = ("random", "easy", "hard")

#: Game id → "module:attribute" of its mapping level → :class:`Bot`.
_BOTS: dict[str, str] = {
    "hacktrick": "rules.hacktrick.bots:BOTS",
    "ico": "rules.ico.bots:BOTS",
    "dice216": "rules.dice216.bots:BOTS",
}

#: The games with bots (UNLOCK's guessers are built on its hint engine, apart from these).
BOT_GAMES: tuple[str, ...] = tuple(_BOTS)


@runtime_checkable
class Bot(Protocol):
    """A player of one game at one level."""

    @property
    def level(self) -> str:
        """``random``, ``easy`` or ``hard``."""
        ...

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        """One of ``legal`` for the seat whose ``view`` this is; raises :class:`NoLegalAction`
        when ``legal`` is empty (the seat is not to act)."""
        ...


class UnknownBot(RulesError):
    """A game without bots, or a level that does not exist."""


class NoLegalAction(RulesError):
    """A bot was asked to move for a seat that has no legal action."""


def require_legal(legal: Sequence[str], view: Mapping[str, Any]) -> None:
    """Raise :class:`NoLegalAction` unless there is something to choose from."""
    if not legal:
        raise NoLegalAction(
            f"seat {view.get('you')!r} has no legal action in {view.get('game')!r}: "
            "a bot is only asked to move for a seat that is to act"
        )


class RandomBot:
    """Uniform among the legal actions: the baseline every other level is measured against."""

    level = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        return legal[rng.randrange(len(legal))]


def get_bot(game_id: str, level: str) -> Bot:
    """The bot of ``game_id`` (one of :data:`BOT_GAMES`) at ``level`` (one of :data:`LEVELS`)."""
    try:
        target = _BOTS[game_id]
    except KeyError:
        raise UnknownBot(
            f"no bots for game {game_id!r} (games with bots: {', '.join(BOT_GAMES)})"
        ) from None
    if level not in LEVELS:
        raise UnknownBot(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    module_name, _, attribute = target.partition(":")
    bots: Mapping[str, Bot] = getattr(import_module(module_name), attribute)
    return bots[level]
