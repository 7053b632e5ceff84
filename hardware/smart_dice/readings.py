"""What a smart die reports, whichever vendor made it: the values the vendors' decoders
(:mod:`hardware.smart_dice.godice`, :mod:`hardware.smart_dice.pixels`) give and the link
(:mod:`hardware.smart_dice.link`) hands on.

Only a :class:`Settled` reading is a roll. Everything the die says while it tumbles, while it is
held, when it lands crooked or when it is nudged from one face to another is an
:class:`Unsettled` reading: shown, never counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The two makers whose dice the box reads.
Vendor = Literal["godice", "pixels"]

#: Why a reading is not a roll: the die is ``rolling`` (tumbling), ``handling`` (picked up,
#: held), ``crooked`` (resting on no face), ``tilted`` (resting, but not flat), ``moved``
#: (turned from one face to another without a roll: nudged), ``fake`` (stable after a movement
#: too small to be a roll), ``on_face`` (at rest without having been rolled), ``unknown``.
Unsteady = Literal["rolling", "handling", "crooked", "tilted", "moved", "fake", "on_face",
                   "unknown"]


@dataclass(frozen=True)
class Settled:
    """The die came to rest after a proper roll with ``face`` up: the only reading that is a
    roll."""

    face: int


@dataclass(frozen=True)
class Unsettled:
    """The die moved, or rests in a way that is no roll (see :data:`Unsteady`); ``face`` is
    the face it shows, when it reports one."""

    why: Unsteady
    face: int | None = None


@dataclass(frozen=True)
class Battery:
    """The die's battery charge in percent (0–100), and whether it is charging (``None``:
    the die does not say)."""

    percent: int
    charging: bool | None = None


@dataclass(frozen=True)
class Colour:
    """The die's colour as its maker names it (GoDice: the dots' colour; Pixels: the
    colourway)."""

    name: str


@dataclass(frozen=True)
class Identity:
    """What a die says about itself when asked (Pixels' ``IAmADie``): its type as its maker
    names it (``d6``, ``d20``...), its faces (``None``: not numbered 1 to N, such as a d10's
    0–9), its colour, its battery and, when it has one, its own name."""

    die_type: str
    faces: int | None
    colour: str | None
    battery: Battery | None
    name: str | None = None


Reading = Settled | Unsettled | Battery | Colour | Identity


@dataclass(frozen=True)
class FoundDie:
    """A die heard during a scan: its Bluetooth ``address``, maker, advertised name, and what
    is known of it before it is paired (``None`` where unknown: a GoDice tells its colour and
    battery only once connected; its faces depend on the shell the host says it wears)."""

    address: str
    vendor: Vendor
    name: str
    colour: str | None = None
    battery: int | None = None
    faces: int | None = None
    die_type: str | None = None
    rssi: int | None = None


@dataclass(frozen=True)
class DieTarget:
    """A paired die the link keeps connected: its address, maker and faces (how a GoDice's
    accelerometer reading is turned into a face depends on its shell)."""

    address: str
    vendor: Vendor
    faces: int


__all__ = ["Battery", "Colour", "DieTarget", "FoundDie", "Identity", "Reading", "Settled",
           "Unsettled", "Unsteady", "Vendor"]
