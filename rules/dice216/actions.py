"""The two actions of 2 1 6 as value objects with a text form that parses and prints back.

>>> parse_action("roll 4")
Roll(value=4)
>>> str(parse_action("place 2 5"))
'place 2 5'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.errors import IllegalAction

# At most nine digits: a number is read for the error message, never to allocate anything.
_NUMBER = r"(0|[1-9][0-9]{0,8})"
_ROLL = re.compile(rf"roll {_NUMBER}", re.ASCII)
_PLACE = re.compile(rf"place {_NUMBER} {_NUMBER}", re.ASCII)


@dataclass(frozen=True, order=True)
class Roll:
    """The die showed ``value``: chance's action (a physical die, a keypad or the device's RNG)."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True, order=True)
class Place:
    """Write the pending roll in the cell at ``row``, ``col`` (1-based, row 1 at the top)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"place {self.row} {self.col}"


def parse_action(text: str) -> Roll | Place:
    """The action ``text`` names; raises ``IllegalAction`` if it is neither form.

    Only the canonical forms are read (``roll N``, ``place ROW COL``, single spaces), so that a
    journal holds one spelling of each action.
    """
    if match := _ROLL.fullmatch(text):
        return Roll(int(match[1]))
    if match := _PLACE.fullmatch(text):
        return Place(int(match[1]), int(match[2]))
    raise IllegalAction(
        f"{text[:40]!r} is not an action of 2 1 6 (expected 'roll N' or 'place ROW COL')"
    )
