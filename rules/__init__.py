"""Pure rules engines for the four games: no I/O, no clock, no global randomness.

>>> from rules import get_game, GAME_IDS
>>> GAME_IDS
('unlock', 'hacktrick', 'ico', 'dice216')
"""

from rules.errors import IllegalAction, OptionError, RulesError
from rules.game import CHANCE, Game
from rules.options import Option, OptionValue, resolve_options
from rules.registry import GAME_IDS, UnknownGame, get_game

__all__ = [
    "CHANCE",
    "GAME_IDS",
    "Game",
    "IllegalAction",
    "Option",
    "OptionError",
    "OptionValue",
    "RulesError",
    "UnknownGame",
    "get_game",
    "resolve_options",
]
