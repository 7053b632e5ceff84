"""The registry of games: ``get_game("unlock")`` and friends.

Games are imported on first use, so importing :mod:`rules` stays cheap and one broken game
cannot stop the others from loading.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from rules.errors import RulesError
from rules.game import Game

#: Game id → "module:attribute" of its :class:`Game` instance.
_GAMES: dict[str, str] = {
    "unlock": "rules.unlock:GAME",
    "hacktrick": "rules.hacktrick:GAME",
    "ico": "rules.ico:GAME",
    "dice216": "rules.dice216:GAME",
}

GAME_IDS: tuple[str, ...] = tuple(_GAMES)


class UnknownGame(RulesError):
    """A game id the registry does not know."""


def get_game(game_id: str) -> Game[Any]:
    """The rules of the game ``game_id`` (one of :data:`GAME_IDS`)."""
    try:
        target = _GAMES[game_id]
    except KeyError:
        raise UnknownGame(
            f"unknown game {game_id!r} (known games: {', '.join(GAME_IDS)})"
        ) from None
    module_name, _, attribute = target.partition(":")
    game = getattr(import_module(module_name), attribute)
    if not isinstance(game, Game):
        raise TypeError(f"{target} is not a rules.Game")
    return game
