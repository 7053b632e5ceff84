"""GoDice (Particula): the frames a die sends and the commands it takes, as the maker's SDKs
document them (ParticulaCode/GoDiceJavaScriptAPI ``godice.js`` and GoDicePythonAPI
``godice/dice.py``, ``godice/xyzinterpret.py``; docs/dice.md cites them).

A GoDice speaks over the Nordic UART service: it notifies on ``6e400003-…`` and takes commands
written to ``6e400002-…``. It advertises a local name beginning with ``GoDice``.

Frames (first bytes in ASCII):

====================  ===========================================================
``R``                 a roll has started: tumbling, not a roll
``S`` x y z           stable after a legit roll: the face is read from x, y, z
``FS`` x y z          stable after a "fake" roll (too small a movement): no roll
``TS`` x y z          stable, but tilted (not flat): no roll
``MS`` x y z          stable after a small movement from one face to another: nudged
``Bat`` n             battery level, n percent (answers the command ``3``)
``Col`` c             the dots' colour, 0 black … 5 orange (answers the command ``23``)
====================  ===========================================================

x, y and z are signed bytes, the accelerometer at rest. The die does not know which shell it
wears: the face is the nearest of the SDK's vectors for that shell — the d6's own, the d20
shell's (d20), or the d24 shell's, mapped to a d4, d8 or d12 face by the SDK's tables.

>>> decode(b"S" + bytes([0xC0, 0, 0]), faces=6)   # x = -64: face 1 of a d6
Settled(face=1)
>>> decode(b"Bat" + bytes([73]), faces=6)
Battery(percent=73, charging=None)
>>> decode(b"R", faces=6)
Unsettled(why='rolling', face=None)
"""

from __future__ import annotations

from collections.abc import Mapping

from hardware.errors import ProtocolError
from hardware.smart_dice.readings import Battery, Colour, Reading, Settled, Unsettled, Unsteady

#: The Nordic UART service a GoDice serves, the characteristic it notifies on, and the one it
#: takes commands on.
SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
#: A GoDice's advertised local name begins with this (the JavaScript SDK filters on
#: ``GoDice_``).
NAME_PREFIX = "GoDice"

#: Commands (the SDKs' ``messageIdentifiers``).
ASK_BATTERY = bytes([3])
ASK_COLOUR = bytes([23])
SET_LED = 8

#: The dots' colours by the code ``Col`` carries.
COLOURS = ("black", "red", "green", "blue", "yellow", "orange")

Vector = tuple[int, int, int]

#: The SDKs' vectors of each face of the bare die (a d6).
D6_VECTORS: Mapping[int, Vector] = {
    1: (-64, 0, 0), 2: (0, 0, 64), 3: (0, 64, 0), 4: (0, -64, 0), 5: (0, 0, -64), 6: (64, 0, 0),
}
#: The d20 shell's vectors.
D20_VECTORS: Mapping[int, Vector] = {
    1: (-64, 0, -22), 2: (42, -42, 40), 3: (0, 22, -64), 4: (0, 22, 64), 5: (-42, -42, 42),
    6: (22, 64, 0), 7: (-42, -42, -42), 8: (64, 0, -22), 9: (-22, 64, 0), 10: (42, -42, -42),
    11: (-42, 42, 42), 12: (22, -64, 0), 13: (-64, 0, 22), 14: (42, 42, 42), 15: (-22, -64, 0),
    16: (42, 42, -42), 17: (0, -22, -64), 18: (0, -22, 64), 19: (-42, 42, -42), 20: (64, 0, 22),
}
#: The d24 shell's vectors (the d4, d8 and d12 shells rest on one of these 24 positions).
D24_VECTORS: Mapping[int, Vector] = {
    1: (20, -60, -20), 2: (20, 0, 60), 3: (-40, -40, 40), 4: (-60, 0, 20), 5: (40, 20, 40),
    6: (-20, -60, -20), 7: (20, 60, 20), 8: (-40, 20, -40), 9: (-40, 40, 40), 10: (-20, 0, 60),
    11: (-20, -60, 20), 12: (60, 0, 20), 13: (-60, 0, -20), 14: (20, 60, -20),
    15: (20, 0, -60), 16: (40, -20, -40), 17: (-20, 60, -20), 18: (-40, -40, -40),
    19: (40, -20, 40), 20: (20, -60, 20), 21: (60, 0, -20), 22: (40, 20, -40),
    23: (-20, 0, -60), 24: (-20, 60, 20),
}
#: The SDKs' tables from a d24 position to the face of the d4, d8 and d12 shells.
D24_TO_FACE: Mapping[int, tuple[int, ...]] = {
    4: (3, 1, 4, 1, 4, 4, 1, 4, 2, 3, 1, 1, 1, 4, 2, 3, 3, 2, 2, 2, 4, 1, 3, 2),
    8: (3, 3, 6, 1, 2, 8, 1, 1, 4, 7, 5, 5, 4, 4, 2, 5, 7, 7, 8, 2, 8, 3, 6, 6),
    12: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
}
#: The shells whose faces are numbered 1 to N (the SDKs' d10 and d10x read 0–9 and 00–90).
SHELLS = (4, 6, 8, 12, 20)

#: ``FS``, ``TS`` and ``MS``: stable, but no roll.
_UNSTEADY: Mapping[int, Unsteady] = {ord("F"): "fake", ord("T"): "tilted", ord("M"): "moved"}


def nearest(table: Mapping[int, Vector], xyz: Vector) -> int:
    """The key of the vector of ``table`` nearest to ``xyz`` (the first on a tie)."""
    def distance(key: int) -> int:
        vx, vy, vz = table[key]
        return (xyz[0] - vx) ** 2 + (xyz[1] - vy) ** 2 + (xyz[2] - vz) ** 2

    return min(table, key=distance)


def face_of(xyz: Vector, faces: int) -> int:
    """The face up of a GoDice wearing the shell of ``faces`` faces, at rest at ``xyz``."""
    if faces == 6:
        return nearest(D6_VECTORS, xyz)
    if faces == 20:
        return nearest(D20_VECTORS, xyz)
    if faces in D24_TO_FACE:
        return D24_TO_FACE[faces][nearest(D24_VECTORS, xyz) - 1]
    raise ValueError(f"a GoDice shell has {', '.join(map(str, SHELLS))} faces, not {faces}")


def xyz_of(data: bytes, start: int) -> Vector:
    """The three signed bytes from ``start``."""
    x, y, z = (b - 256 if b > 127 else b for b in data[start:start + 3])
    return x, y, z


def decode(frame: bytes | bytearray, faces: int) -> Reading:
    """One notification of a GoDice wearing the shell of ``faces`` faces, as a reading;
    `ProtocolError` (``reason``: ``empty``, ``short``, ``bad_value``, ``unknown``) for a frame
    the SDKs do not describe."""
    data = bytes(frame)
    if not data:
        raise ProtocolError("empty", "an empty GoDice frame")
    first = data[0]
    if first == ord("R"):  # the SDKs read a frame beginning with R as a roll starting
        return Unsettled("rolling")
    if data[:3] in (b"Bat", b"Col"):
        if len(data) < 4:
            raise ProtocolError("short", f"a GoDice {data[:3].decode()} frame without its value")
        value = data[3]
        if data[:3] == b"Bat":
            if value > 100:
                raise ProtocolError("bad_value", f"a GoDice battery level of {value} %")
            return Battery(value)
        if value >= len(COLOURS):
            raise ProtocolError("bad_value", f"a GoDice colour code {value} (0–5 are known)")
        return Colour(COLOURS[value])
    if first == ord("S"):
        if len(data) < 4:
            raise ProtocolError("short", f"a GoDice stable frame of {len(data)} bytes")
        return Settled(face_of(xyz_of(data, 1), faces))
    if len(data) >= 2 and data[1] == ord("S") and first in _UNSTEADY:
        if len(data) < 5:
            raise ProtocolError("short", f"a GoDice {data[:2].decode()} frame of {len(data)} "
                                         "bytes")
        return Unsettled(_UNSTEADY[first], face_of(xyz_of(data, 2), faces))
    raise ProtocolError("unknown", f"a GoDice frame the SDKs do not describe: {data[:8].hex()}")


def set_led(first: tuple[int, int, int], second: tuple[int, int, int]) -> bytes:
    """The command lighting the die's two LEDs (each an RGB triple 0–255; all 0: off)."""
    values = (*first, *second)
    if len(values) != 6 or not all(0 <= v <= 255 for v in values):
        raise ValueError(f"two RGB triples of 0–255, not {first!r} and {second!r}")
    return bytes([SET_LED, *values])


def is_godice(name: str | None) -> bool:
    """Whether an advertised local name is a GoDice's."""
    return bool(name) and str(name).startswith(NAME_PREFIX)


__all__ = ["ASK_BATTERY", "ASK_COLOUR", "COLOURS", "D6_VECTORS", "D20_VECTORS",
           "D24_TO_FACE", "D24_VECTORS", "NAME_PREFIX", "NOTIFY", "SERVICE", "SHELLS", "WRITE",
           "decode", "face_of", "is_godice", "nearest", "set_led", "xyz_of"]
