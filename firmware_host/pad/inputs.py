"""What the pad's controllers react to, whatever device it came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

InputKind = Literal["dot", "ok", "back", "die", "digit"]


@dataclass(frozen=True)
class Input:
    """One input: a dot pressed (``value`` 1–9 or 1–16), OK, Back, a die reading or a keypad
    digit (``value`` the number)."""

    kind: InputKind
    value: int | None = None

    def __str__(self) -> str:
        return self.kind if self.value is None else f"{self.kind} {self.value}"


def as_dot(event: Input) -> Input:
    """A keypad digit 1–9 as the pad's dot of that number (the keypad mirrors the pad where
    no number is asked for); any other input unchanged."""
    if event.kind == "digit" and event.value is not None and 1 <= event.value <= 9:
        return Input("dot", event.value)
    return event


OK = Input("ok")
BACK = Input("back")


def dot(n: int) -> Input:
    return Input("dot", n)
