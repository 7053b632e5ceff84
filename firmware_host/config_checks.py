"""Reading the config's TOML tables key by key, and the value checks the sections share.

A check takes a TOML value and returns it checked (or converted), or raises :class:`BadValue`;
:meth:`Section.get` turns that into a :class:`~firmware_host.errors.ConfigError` naming the key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from firmware_host.errors import ConfigError
from hardware.errors import PinMapError

#: A DNS label: the box's mDNS host name and its club name (an MQTT user name and topic level).
LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?", re.ASCII)
#: A host PIN: 6 to 12 ASCII digits (other scripts' digits, such as ٢٤٦, are refused).
PIN_TEXT = re.compile(r"[0-9]{6,12}", re.ASCII)

Check = Callable[[object], Any]


class BadValue(ValueError):
    """A value refused by a check; the message completes "key: …"."""


class Section:
    """One TOML table (``prefix`` names it in messages; ``""`` for the top level)."""

    def __init__(self, data: Mapping[str, Any], prefix: str) -> None:
        self.data = data
        self.prefix = prefix

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def get(self, name: str, check: Check, default: Any) -> Any:
        if name not in self.data:
            return default
        try:
            return check(self.data[name])
        except BadValue as bad:
            raise ConfigError(self.key(name), str(bad)) from None

    def choice(self, name: str, choices: tuple[str, ...], default: str, *,
               upper: bool = False) -> Any:
        def check(value: object) -> str:
            text = value.upper() if upper and isinstance(value, str) else value
            if text not in choices:
                raise BadValue(f"expected one of {', '.join(choices)}, got {value!r}")
            return str(text)

        return self.get(name, check, default)


def table(data: Mapping[str, Any], name: str, keys: tuple[str, ...]) -> Section:
    """The table ``[name]`` of ``data`` (empty when absent), holding no key but ``keys``."""
    section = data.get(name, {})
    if not isinstance(section, Mapping):
        raise ConfigError(name, f"expected a [{name}] table, got {section!r}")
    no_unknown(section, name, keys)
    return Section(section, name)


def no_unknown(data: Mapping[str, Any], prefix: str, known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known:
            where = f"{prefix}.{key}" if prefix else key
            raise ConfigError(where, f"unknown key (known here: {', '.join(known)})")


def build(key: str, make: Callable[[], Any]) -> Any:
    """Run a hardware dataclass's own checks; their refusal names the section."""
    try:
        return make()
    except (PinMapError, ValueError) as error:
        if isinstance(error, ConfigError):
            raise
        raise ConfigError(key, str(error)) from None


def whole_number(low: int, high: int) -> Check:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadValue(f"expected a whole number {low}–{high}, got {value!r}")
        if not low <= value <= high:
            raise BadValue(f"{value} is outside {low}–{high}")
        return value

    return check


def true_or_false(value: object) -> bool:
    if not isinstance(value, bool):
        raise BadValue(f"expected true or false, got {value!r}")
    return value


def non_empty_text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadValue(f"expected a non-empty text, got {value!r}")
    return value.strip()


def pin_digits(value: object) -> str:
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(text, str) or not PIN_TEXT.fullmatch(text):
        raise BadValue(f"expected 6–12 digits 0–9 (in quotes, e.g. \"246813\"), got {value!r}")
    return text


def dns_label(value: object) -> str:
    if not isinstance(value, str) or not LABEL.fullmatch(value):
        raise BadValue("expected a name of 1–32 lowercase letters, digits and inner hyphens "
                       f"(like table-2), got {value!r}")
    return value


def existing_file(base: Path | None) -> Check:
    def check(value: object) -> Path:
        path: Path = path_from(base)(value)
        if not path.is_file():
            raise BadValue(f"no such file: {path}")
        return path

    return check


def path_from(base: Path | None) -> Check:
    """A path; a relative one is taken from ``base`` (the config file's folder) when given."""

    def check(value: object) -> Path:
        path = Path(non_empty_text(value)).expanduser()
        return path if path.is_absolute() or base is None else base / path

    return check
