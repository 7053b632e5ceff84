"""What the pad's controllers react to, whatever device it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

InputKind = Literal["dot", "ok", "back", "die", "digit", "letter", "menu", "hold_ok"]

#: The Pico keypad's keys by position, row by row (hardware/pico/firmware.py ``LAYOUT``).
KEYPAD_LAYOUT = ("123A", "456B", "789C", "*0#D")
#: Keypad key → the 4×4 card's dot in the same place (1–16, row by row).
KEYPAD_DOTS = {key: 4 * r + c + 1 for r, row in enumerate(KEYPAD_LAYOUT)
               for c, key in enumerate(row)}


@dataclass(frozen=True)
class RolledBy:
    """Which smart die a roll came from (docs/dice.md): its name (the journal enters the roll
    as ``die <name>``), its owner's seat (``None``: the table's die, anyone's) and its
    faces."""

    name: str
    owner: int | None
    faces: int


@dataclass(frozen=True)
class Input:
    """One input: a dot pressed (``value`` 1–9 or 1–16), OK, Back, a die reading, a keypad
    digit (``value`` the number), a keypad letter A–D, ``menu`` (Back held: the games
    menu) or ``hold_ok`` (OK still held after its press acted: UNLOCK's hint). ``key`` is the
    keypad key that sent it (None for the pad's buttons and the die); ``rolled_by`` the smart
    die a die reading came from (None: the serial die)."""

    kind: InputKind
    value: int | None = None
    key: str | None = field(default=None, compare=False)
    rolled_by: RolledBy | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.kind if self.value is None else f"{self.kind} {self.value}"


def as_dot(event: Input) -> Input:
    """A keypad digit 1–9 as the pad's dot of that number (the keypad mirrors the pad where
    no number is asked for); any other input unchanged."""
    if event.kind == "digit" and event.value is not None and 1 <= event.value <= 9:
        return Input("dot", event.value)
    return event


def as_grid4_dot(event: Input) -> Input:
    """A keypad key as the 4×4 card's dot in the same place (``#`` and ``*`` too: they are
    dots there, OK and Back are the pad's buttons); any other input unchanged."""
    if event.key is not None and event.key in KEYPAD_DOTS:
        return Input("dot", KEYPAD_DOTS[event.key], key=event.key)
    return event


OK = Input("ok")
BACK = Input("back")
MENU = Input("menu")
HOLD_OK = Input("hold_ok")


def dot(n: int) -> Input:
    return Input("dot", n)
