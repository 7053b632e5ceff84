"""2 1 6: two to four players write die rolls in a grid and fight for its rows and columns.

Rules: ``docs/rules/dice216.md``. The registry loads ``rules.dice216:GAME``.

>>> from rules import CHANCE
>>> state = GAME.start(["Aiko", "Ben"])
>>> GAME.to_act(state) == [CHANCE]
True
>>> state = GAME.apply(GAME.apply(state, CHANCE, "roll 5"), 0, "place 3 4")
>>> GAME.view(state, None)["cells"][2][3]
{'value': 5, 'owner': 0}
"""

from rules.dice216.actions import Place, Roll, parse_action
from rules.dice216.game import Dice216
from rules.dice216.grid import Line, Mark, lines_of
from rules.dice216.render import render
from rules.dice216.scoring import BONUS, AreaResult, Handicap, LineResult, ScoreSheet
from rules.dice216.setup import Setup
from rules.dice216.state import State

GAME = Dice216()

__all__ = [
    "BONUS",
    "GAME",
    "AreaResult",
    "Dice216",
    "Handicap",
    "Line",
    "LineResult",
    "Mark",
    "Place",
    "Roll",
    "ScoreSheet",
    "Setup",
    "State",
    "lines_of",
    "parse_action",
    "render",
]
