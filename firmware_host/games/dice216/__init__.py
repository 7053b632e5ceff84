"""2 1 6 on the box: the registration of its pad. Rolls are chance and never undone; a
placement may be taken back (the generic undo rule)."""

from __future__ import annotations

from firmware_host.games import BoxGame
from firmware_host.games.dice216.pad import Dice216Pad
from rules.dice216 import GAME
from rules.dice216.bots import BOTS

BOX = BoxGame(rules=GAME, pad=Dice216Pad(), bots=BOTS)
