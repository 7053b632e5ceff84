"""The commands of smart dice pairing (:mod:`firmware_host.dice_pairs`): a die paired, given to
another seat, or unpaired — journaled as the box-wide setting ``dice``."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from firmware_host.commands import BOX, Done, Step, kinds
from firmware_host.dice_pairs import PairedDie, as_setting
from firmware_host.errors import NotAllowed
from firmware_host.pad_choice import set_setting
from firmware_host.session_state import Session

log = logging.getLogger(__name__)


def _saved(session: Session, dice: tuple[PairedDie, ...]) -> Step[None]:
    def done(_: None, version: int | None) -> Done[None]:
        session.dice = dice
        return Done(None, kinds=kinds(BOX))

    return Step(lambda version: set_setting(session.journal, "dice", as_setting(dice)), done)


@dataclass(frozen=True)
class PairDie:
    """Pair ``die`` with the box, or give a paired die to another seat (its address says
    which)."""

    die: PairedDie

    def check(self, session: Session) -> Step[None]:
        die = self.die
        problem = die.problem() if isinstance(die, PairedDie) else "not a die"
        if problem is not None:
            raise NotAllowed(problem)
        others = [d for d in session.dice if d.address != die.address]
        if any(d.name == die.name for d in others):
            raise NotAllowed(f"another die is already called {die.name!r}")
        log.info("smart die %s (%s) paired: %s", die.name, die.address,
                 "the table's" if die.owner is None else f"seat {die.owner}'s")
        return _saved(session, (*others, die))


@dataclass(frozen=True)
class UnpairDie:
    """Forget the die at ``address``: the box no longer connects to it."""

    address: str

    def check(self, session: Session) -> Step[None]:
        if not any(d.address == self.address for d in session.dice):
            raise NotAllowed(f"no die at {self.address!r} is paired with this box")
        log.info("smart die %s unpaired", self.address)
        return _saved(session, tuple(d for d in session.dice if d.address != self.address))
