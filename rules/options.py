"""Declared game options: name, type, default, choices and a one-line help.

Every game declares its options as a tuple of :class:`Option`. :func:`resolve_options` checks what a
host asked for against that declaration and fills in the defaults, so a game's ``start`` only ever
sees a complete, valid option dictionary. Values may come as Python values or as the text a form or
a TOML file gives (``"on"``, ``"off"``, ``"none"``, ``"7"``).

>>> opts = (Option("turn_limit", "int", 10, "Turns before everyone loses.", allow_none=True),)
>>> resolve_options(opts, {"turn_limit": "none"})
{'turn_limit': None}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.errors import OptionError

OptionType = Literal["bool", "int", "choice", "seat", "str"]
OptionValue = bool | int | str | None

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


@dataclass(frozen=True)
class Option:
    """One declared option of a game.

    ``kind`` is ``bool``, ``int``, ``choice`` (one of ``choices``), ``seat`` (a seat number valid
    for the players of the game) or ``str``. ``allow_none`` accepts ``None``/``"none"`` as well
    (e.g. a turn limit of "none"); ``allow_random`` accepts ``"random"`` (e.g. a first player).
    ``default_from`` computes a default that depends on other options or on the number of players
    (e.g. the handicap of 2 1 6 is on when diagonals are on). ``extended`` lists choices that
    implement rules known only in part; the interface marks them.
    """

    name: str
    kind: OptionType
    default: OptionValue
    help: str
    choices: tuple[int | str, ...] = ()
    allow_none: bool = False
    allow_random: bool = False
    minimum: int | None = None
    maximum: int | None = None
    default_from: Callable[[Mapping[str, OptionValue], int], OptionValue] | None = field(
        default=None, compare=False
    )
    extended: tuple[int | str, ...] = ()

    def describe(self) -> dict[str, Any]:
        """A JSON-safe description for the panel's "new game" form."""
        return {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices),
            "allow_none": self.allow_none,
            "allow_random": self.allow_random,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "extended": list(self.extended),
            "default_depends": self.default_from is not None,
        }

    def coerce(self, value: object, n_players: int) -> OptionValue:
        """Return ``value`` as this option's type, or raise :class:`OptionError`."""
        if isinstance(value, str):
            text = value.strip().lower()
            if self.allow_none and text == "none":
                return None
            if self.allow_random and text == "random":
                return "random"
        elif value is None:
            if self.allow_none:
                return None
            raise OptionError(self.name, "a value is required")
        if self.kind == "bool":
            return self._coerce_bool(value)
        if self.kind in ("int", "seat"):
            number = self._coerce_int(value)
            if self.kind == "seat" and not 0 <= number < n_players:
                raise OptionError(
                    self.name,
                    f"seat {_short(number)} does not exist (seats are 0…{n_players - 1})"
                )
            if self.minimum is not None and number < self.minimum:
                raise OptionError(self.name, f"{_short(number)} is below the minimum "
                                             f"{self.minimum}")
            maximum = self.maximum if self.maximum is not None else LARGEST
            if number > maximum:
                raise OptionError(self.name, f"{_short(number)} is above the maximum {maximum}")
            if self.choices and number not in self.choices:
                raise OptionError(self.name, f"{number} is not one of {self._choice_list()}")
            return number
        if self.kind == "choice":
            for choice in self.choices:
                if str(choice) == str(value).strip():
                    return choice
            raise OptionError(self.name, f"{value!r} is not one of {self._choice_list()}")
        if not isinstance(value, str):
            raise OptionError(self.name, f"expected text, got {value!r}")
        return value

    def _choice_list(self) -> str:
        return ", ".join(str(c) for c in self.choices)

    def _coerce_bool(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise OptionError(self.name, f"expected on or off, got {value!r}")

    def _coerce_int(self, value: object) -> int:
        if isinstance(value, bool):
            raise OptionError(self.name, f"expected a whole number, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.strip().isascii() and len(value) <= 30:
            try:
                return int(value.strip())
            except ValueError:
                pass
        extra = " or 'none'" if self.allow_none else ""
        extra += " or 'random'" if self.allow_random else ""
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise OptionError(self.name, f"expected a whole number{extra}, got {shown}")


def resolve_options(
    declared: Sequence[Option], given: Mapping[str, object] | None, n_players: int = 2
) -> dict[str, OptionValue]:
    """Validate ``given`` against ``declared`` and fill in every default.

    Raises :class:`OptionError` naming the first unknown or invalid option.
    """
    given = dict(given or {})
    names = {o.name for o in declared}
    for name in given:
        if name not in names:
            known = ", ".join(sorted(names)) or "none"
            raise OptionError(name, f"unknown option (this game has: {known})")
    resolved: dict[str, OptionValue] = {}
    for option in declared:
        if option.name in given:
            resolved[option.name] = option.coerce(given[option.name], n_players)
    for option in declared:
        if option.name not in resolved:
            if option.default_from is not None:
                resolved[option.name] = option.default_from(resolved, n_players)
            else:
                resolved[option.name] = option.default
    return resolved


#: The largest whole number an option takes when it declares no maximum of its own.
LARGEST = 10_000


def _short(number: int) -> str:
    """``number`` as text, shortened when it is absurdly long (it goes into a message)."""
    if abs(number) < 10**30:
        return str(number)
    return f"{'-' if number < 0 else ''}a number of {number.bit_length()} bits"
