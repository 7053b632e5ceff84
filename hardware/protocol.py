"""The die / keypad line protocol on the host side: typed messages over `hardware.pico.protocol`.

The encoder and parser live in ``hardware/pico/protocol.py`` — the very file the Pico runs — so
the two ends cannot drift. This module turns its tuples into frozen dataclasses and its
``FrameError`` into `hardware.ProtocolError`.

>>> decode_line(b"DIE 6 4*4A")
DieRoll(faces=6, value=4)
>>> encode(Roll(6))
b'ROLL 6*0B\\n'
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.errors import ProtocolError
from hardware.pico import protocol as wire

MAX_LINE: int = wire.MAX_LINE
REASONS: tuple[str, ...] = (wire.GARBAGE, wire.CHECKSUM, wire.OVERLONG, wire.UNKNOWN,
                            wire.BAD_FIELD)


@dataclass(frozen=True)
class Hello:
    """The device introduced itself (at start-up, or answering `Ping`)."""

    device: str
    version: str


@dataclass(frozen=True)
class DieRoll:
    """A die of ``faces`` faces shows ``value``."""

    faces: int
    value: int


@dataclass(frozen=True)
class KeyPress:
    """A keypad key: '0'-'9', 'A'-'D', '*' or '#'."""

    key: str


@dataclass(frozen=True)
class DeviceError:
    """The device refused a command."""

    text: str


@dataclass(frozen=True)
class Roll:
    """Host to device: roll a die of ``faces`` faces yourself."""

    faces: int = 6


@dataclass(frozen=True)
class Ping:
    """Host to device: say hello."""


DeviceMessage = Hello | DieRoll | KeyPress | DeviceError
HostCommand = Roll | Ping


def decode_line(line: bytes | str) -> DeviceMessage:
    """One line from the device as a message; `ProtocolError` (with ``reason``) otherwise."""
    try:
        parsed = wire.decode(line)
    except wire.FrameError as exc:
        raise ProtocolError(exc.reason, str(exc)) from None
    kind = parsed[0]
    if kind == "DIE":
        return DieRoll(parsed[1], parsed[2])
    if kind == "KEY":
        return KeyPress(parsed[1])
    if kind == "HELLO":
        return Hello(parsed[1], parsed[2])
    if kind == "ERR":
        return DeviceError(parsed[1])
    raise ProtocolError(wire.UNKNOWN, f"{kind} is a host command, not a device message")


def encode(message: DeviceMessage | HostCommand) -> bytes:
    """The framed line for a message or command (device messages are for tests/simulators)."""
    try:
        match message:
            case Roll(faces):
                text = wire.encode_roll(faces)
            case Ping():
                text = wire.encode_ping()
            case DieRoll(faces, value):
                text = wire.encode_die(faces, value)
            case KeyPress(key):
                text = wire.encode_key(key)
            case Hello(device, version):
                text = wire.encode_hello(device, version)
            case DeviceError(error):
                text = wire.encode_error(error)
    except wire.FrameError as exc:
        raise ProtocolError(exc.reason, str(exc)) from None
    return str(text).encode("ascii")
