"""The smart dice's pairing screen on the OLED, as the pad loop runs it (docs/dice.md): opened
from the games menu's "Pair dice…", it scans in the background and carries out the pairings
its pure step (:mod:`firmware_host.pad.dice_menu`) asks for."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from PIL import Image

from firmware_host.errors import SessionError
from firmware_host.pad.dice_menu import DiceMenu, OwnerChange, dice_screen, dice_step
from firmware_host.pad.inputs import Input
from firmware_host.smart_dice import SmartDice
from rules import RulesError

log = logging.getLogger(__name__)

#: Owners a die steps through when the pad has no game: the table, then four players.
SEATS_WITHOUT_A_GAME = 4


class DiceScreen:
    """The pairing screen while it is open; :meth:`feed` and :meth:`draw` run on the pad
    loop's thread. ``redraw`` queues a redraw (a scan ends on a thread of its own)."""

    def __init__(self, dice: SmartDice, redraw: Callable[[], None]) -> None:
        self.dice = dice
        self._redraw = redraw
        self.menu = DiceMenu()
        dice.scan_in_background(redraw)

    def feed(self, event: Input, seats: Sequence[str], lang: str) -> tuple[bool, str | None]:
        """One input: whether the screen stays open, and a refusal to show (a key it has no
        use for, a die the game cannot use)."""
        rows = self.dice.rows()
        result = dice_step(self.menu, event, rows, len(seats) or SEATS_WITHOUT_A_GAME, lang)
        refusal = result.refusal
        if result.menu is None:
            return False, refusal
        self.menu = result.menu
        if result.rescan:
            self.dice.scan_in_background(self._redraw)
        if result.change is not None:
            refusal = self._pair(result.change) or refusal
            # the cursor stays on that die, wherever its row went (paired dice come first)
            addresses = [r["address"] for r in self.dice.rows()]
            if result.change.address in addresses:
                self.menu = DiceMenu(addresses.index(result.change.address))
        return True, refusal

    def _pair(self, change: OwnerChange) -> str | None:
        try:
            if change.unpair:
                self.dice.unpair(change.address)
            else:
                self.dice.pair(change.address, change.owner)
        except (RulesError, SessionError) as error:
            log.info("pad: pairing die %s refused: %s", change.address, error)
            return str(error)
        return None

    def draw(self, seats: Sequence[str], lang: str) -> Image.Image:
        return dice_screen(self.menu, self.dice.rows(), seats, scanning=self.dice.scanning,
                           problem=self.dice.problem, lang=lang)
