"""ICO on the box: the registration of its pad. ICO hides nothing, so the generic undo rule
allows taking back any placement or roll."""

from __future__ import annotations

from firmware_host.games import BoxGame, weighed_by_bot
from firmware_host.games.ico.pad import IcoPad
from firmware_host.games.ico.words import REFUSALS, WORDS
from rules.ico import GAME
from rules.ico.bots import BOTS

BOX = BoxGame(rules=GAME, pad=IcoPad(), bots=BOTS, words=WORDS, refusals=REFUSALS,
              analysis=weighed_by_bot("ico"))
