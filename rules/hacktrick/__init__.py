"""Hacktrick for two players: the rules engine (see ``docs/rules/hacktrick.md``).

>>> from rules.hacktrick import GAME
>>> state = GAME.start(["Aiko", "Ben"], seed=1)
>>> GAME.to_act(state), state.phase
([0], 'lead')
"""

from rules.hacktrick.actions import Action
from rules.hacktrick.board import LAYOUT, LINES, Marker
from rules.hacktrick.disclosure import reveals_hidden
from rules.hacktrick.game import GAME, OPTIONS, Hacktrick
from rules.hacktrick.positions import position
from rules.hacktrick.state import HacktrickState, RoundResult, Supply
from rules.hacktrick.text import render, render_view

__all__ = [
    "GAME",
    "LAYOUT",
    "LINES",
    "OPTIONS",
    "Action",
    "Hacktrick",
    "HacktrickState",
    "Marker",
    "RoundResult",
    "Supply",
    "position",
    "render",
    "render_view",
    "reveals_hidden",
]
