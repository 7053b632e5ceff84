"""The smart dice paired with this box (docs/dice.md): which die, whose it is.

A pairing is a box-wide setting kept in the journal (``setting.dice`` in ``meta``): so a box
connects only to the dice its host paired — two boxes side by side never take each other's —
and a restart finds them again. A die belongs to a seat (its player rolls it) or to the table
(anyone does). Commands: :mod:`firmware_host.dice_commands`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

log = logging.getLogger(__name__)

#: The makers whose dice the box reads (``hardware.smart_dice``).
VENDORS = ("godice", "pixels")
#: The seats a die can belong to (a game has at most four players).
MAX_SEAT = 3
#: A die's name as the journal records it (``die <name>``): at most this long.
MAX_NAME = 40
#: A Bluetooth address (BlueZ) — or, on macOS, a UUID.
ADDRESS = re.compile(r"^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$|^[0-9A-Fa-f-]{36}$")


@dataclass(frozen=True)
class PairedDie:
    """A die the host paired: its Bluetooth ``address``, maker, ``name`` (the journal enters
    its rolls as ``die <name>``), its ``faces``, its ``owner`` (a seat from 0; ``None``: the
    table's die) and its colour as its maker names it."""

    address: str
    vendor: Literal["godice", "pixels"]
    name: str
    faces: int
    owner: int | None = None
    colour: str | None = None

    def problem(self) -> str | None:
        """What is wrong with this pairing, in words (``None``: nothing)."""
        if not isinstance(self.address, str) or not ADDRESS.match(self.address):
            return f"{self.address!r} is not a Bluetooth address"
        if self.vendor not in VENDORS:
            return f"the box reads GoDice and Pixels dice, not {self.vendor!r}"
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > MAX_NAME:
            return f"a die's name is 1 to {MAX_NAME} characters"
        if isinstance(self.faces, bool) or not isinstance(self.faces, int) or not (
                2 <= self.faces <= 20):
            return f"a die has 2 to 20 faces, not {self.faces!r}"
        if self.owner is not None and (isinstance(self.owner, bool)
                                       or not isinstance(self.owner, int)
                                       or not 0 <= self.owner <= MAX_SEAT):
            return f"a die belongs to a player (1 to {MAX_SEAT + 1}) or to the table"
        return None

    def as_json(self) -> dict[str, Any]:
        return {"address": self.address, "vendor": self.vendor, "name": self.name,
                "faces": self.faces, "owner": self.owner, "colour": self.colour}


def from_json(data: Mapping[str, Any]) -> PairedDie | None:
    """A pairing read back from the journal (``None``, logged, if it is not one)."""
    try:
        die = PairedDie(str(data["address"]), cast(Any, data["vendor"]), str(data["name"]),
                        data["faces"], data.get("owner"),
                        data.get("colour") if isinstance(data.get("colour"), str) else None)
    except (KeyError, TypeError) as error:
        log.error("a smart die pairing in the journal is unreadable (%s): %r", error, data)
        return None
    problem = die.problem()
    if problem is not None:
        log.error("a smart die pairing in the journal is refused (%s): %r", problem, data)
        return None
    return die


def pairings_from(saved: object) -> tuple[PairedDie, ...]:
    """The pairings of the journal's ``setting.dice`` (a list; anything else: none)."""
    if not isinstance(saved, list):
        return ()
    dice = (from_json(item) for item in saved if isinstance(item, Mapping))
    return tuple(d for d in dice if d is not None)


def as_setting(dice: Iterable[PairedDie]) -> list[dict[str, Any]]:
    return [die.as_json() for die in dice]


__all__ = ["MAX_NAME", "MAX_SEAT", "VENDORS", "PairedDie", "as_setting", "from_json",
           "pairings_from"]
