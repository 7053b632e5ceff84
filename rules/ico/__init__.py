"""ICO (Icosagame) on the flat net of the icosahedron: geometry, balance rules, the game.

>>> from rules import get_game
>>> game = get_game("ico")
>>> state = game.start(["Aiko", "Ben"], {"start_face": "T0"}, seed=1)
>>> game.legal_actions(state, 0)
['place N-U0', 'place U0-U1', 'place N-U1']
>>> game.apply(state, 0, "place U0-U1").active_face
'A0'
"""

from rules.ico.game import OPTIONS, Ico
from rules.ico.state import IcoState

GAME = Ico()

__all__ = ["GAME", "OPTIONS", "Ico", "IcoState"]
