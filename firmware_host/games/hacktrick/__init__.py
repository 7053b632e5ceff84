"""Hacktrick on the box: the registration of its pad and its undo rule.

Undo: an action may be taken back only when the rules say it disclosed nothing hidden and drew
on no chance (``rules.hacktrick.disclosure``): a lead, a play or a draw shows or draws cards, so
nearly nothing is undoable.
"""

from __future__ import annotations

from typing import Any

from firmware_host.games import BoxGame, weighed_by_bot
from firmware_host.games.hacktrick.pad import HacktrickPad
from firmware_host.games.hacktrick.words import REFUSALS, WORDS
from rules import Game
from rules.hacktrick import GAME
from rules.hacktrick.bots import BOTS


def undo_refusal(game: Game[Any], before: Any, seat: int, action: str,
                 after: Any) -> str | None:
    """Why a Hacktrick action may not be taken back, or ``None``."""
    if GAME.reveals_hidden(before, seat, action):
        return "the last action revealed hidden information"
    return None


BOX = BoxGame(rules=GAME, pad=HacktrickPad(), undo=undo_refusal, bots=BOTS, words=WORDS,
              refusals=REFUSALS, analysis=weighed_by_bot("hacktrick"))
