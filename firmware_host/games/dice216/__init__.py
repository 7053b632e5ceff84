"""2 1 6 on the box: the registration of its pad. Rolls are chance and never undone; a
placement may be taken back (the generic undo rule)."""

from __future__ import annotations

from firmware_host.games import BoxGame, weighed_by_bot
from firmware_host.games.dice216.pad import Dice216Pad
from firmware_host.games.dice216.words import REFUSALS, WORDS
from rules.dice216 import GAME
from rules.dice216.bots import BOTS

BOX = BoxGame(rules=GAME, pad=Dice216Pad(), bots=BOTS, words=WORDS, refusals=REFUSALS,
              analysis=weighed_by_bot("dice216"))
