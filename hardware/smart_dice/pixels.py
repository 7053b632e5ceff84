"""Pixels (Systemic Games): the messages a die sends and the requests it takes, as the
maker's developer packages and firmware define them (GameWithPixels/pixels-js
``packages/pixels-core-connect``: ``Messages.ts``, ``PixelsBluetoothIds.ts``,
``PixelRollState.ts``, ``DiceUtils.ts``, ``ChunkMessage.ts``; ``react-native-pixels-connect``
``getScannedPixel.ts``; GameWithPixels/DiceFirmware ``src/bluetooth/bluetooth_messages.h``;
docs/dice.md cites them).

A Pixel serves ``a6b90001-…`` (notifying on ``a6b90002-…``, taking writes on ``a6b90003-…``);
dice on older firmware serve the Nordic UART service ``6e400001-…`` instead (notifying on
``6e400001-…`` itself, writes on ``6e400002-…``). A message is its type byte and its fields,
little-endian:

=====  ==================  =====================================================
type   message             fields
=====  ==================  =====================================================
1      WhoAreYou           (the box asks; the die answers IAmADie)
2      IAmADie             the die's type, colourway, name, battery, roll state
3      RollState           state (0 unknown, 1 rolled, 2 handling, 3 rolling,
                           4 crooked, 5 onFace), face index
23     RequestRollState    (the box asks)
33     RequestBatteryLevel (the box asks)
34     BatteryLevel        level in percent, state (2 charging, 3 done...)
=====  ==================  =====================================================

Only ``rolled`` is a roll ("the die finished rolling and is now on a face, and it looked like a
proper roll"); ``onFace`` is a die set down or nudged without a roll. The face index counts
from 0; the SDK turns it into the face's number for each die type (a d4 reports as a d6).

>>> decode(bytes([3, 1, 3]), "d6")   # RollState: rolled, face index 3
Settled(face=4)
>>> decode(bytes([3, 3, 0]), "d6")   # rolling
Unsettled(why='rolling', face=1)
>>> decode(bytes([34, 12, 0]), "d6")
Battery(percent=12, charging=False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hardware.errors import ProtocolError
from hardware.smart_dice.readings import Battery, Identity, Reading, Settled, Unsettled, Unsteady

#: The die's service and characteristics (``PixelsBluetoothIds.die``).
SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
#: Older firmware's (``PixelsBluetoothIds.legacyDie``): the Nordic UART service.
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
#: Systemic Games' Bluetooth company identifier.
COMPANY_ID = 0x0D39

# Message types (``MessageTypeValues``; the firmware's ``MessageType``).
WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
REQUEST_BATTERY_LEVEL = 33
BATTERY_LEVEL = 34
#: Message types 0 (none) and from this one on are none the SDK knows.
MESSAGE_TYPES_END = 81

#: The requests the box sends.
ASK_IDENTITY = bytes([WHO_ARE_YOU])
ASK_BATTERY = bytes([REQUEST_BATTERY_LEVEL])
ASK_ROLL_STATE = bytes([REQUEST_ROLL_STATE])

#: ``PixelRollStateValues``: what each roll state is to the box; ``rolled`` is the roll.
ROLLED = 1
ROLL_STATES: Sequence[Unsteady | None] = ("unknown", None, "handling", "rolling", "crooked",
                                          "on_face")
#: ``PixelDieTypeValues``.
DIE_TYPES = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge")
#: The dice whose faces are numbered 1 to N, by type (a d10's are 0–9, a d00's 00–90, a
#: fudge die's −, blank, +: no game of the box rolls them).
FACES: Mapping[str, int] = {"d4": 4, "d6": 6, "d6pipped": 6, "d8": 8, "d12": 12, "d20": 20}
#: How many face indexes each type reports (a d4 reports as a d6).
INDEXES: Mapping[str, int] = {"d4": 6, "d6": 6, "d6pipped": 6, "d6fudge": 6, "d8": 8,
                              "d10": 10, "d00": 10, "d12": 12, "d20": 20}
#: ``PixelColorwayValues``.
COLOURWAYS: Mapping[int, str] = {0: "unknown", 1: "onyx black", 2: "hematite grey",
                                 3: "midnight galaxy", 4: "aurora sky", 5: "clear",
                                 6: "white aurora", 0xFF: "custom"}
#: ``PixelBatteryStateValues``: 2 charging and 3 done mean the die is on its charger.
BATTERY_STATES = ("ok", "low", "charging", "done", "badCharging", "error")
CHARGING_STATES = (2, 3)
#: A legacy ``IAmADie`` is exactly this long (``LegacyIAmADie.expectedSize``); any other
#: length is the chunked one.
LEGACY_IDENTITY_SIZE = 22
#: The chunks of an ``IAmADie``, in order (``IAmADie`` in ``Messages.ts``).
CHUNKS = ("version", "die", "design_name", "name", "settings", "status")


def face_from_index(index: int, die_type: str) -> int:
    """The number on the face of index ``index`` (``DiceUtils.faceFromIndex``)."""
    if die_type == "d4":
        return {2: 2, 3: 3, 5: 4}.get(index, 1)
    if die_type == "d10":
        return index
    if die_type == "d00":
        return index * 10
    return index + 1


def index_of_face(face: int, die_type: str) -> int:
    """The face index of the face numbered ``face`` (``DiceUtils.indexFromFace``)."""
    if die_type == "d4":
        return {2: 2, 3: 3, 4: 5}.get(face, 0)
    if die_type == "d10":
        return face
    if die_type == "d00":
        return face // 10
    return face - 1


def die_type_of(value: int, led_count: int = 0) -> str:
    """The die type of a ``dieType`` value; ``unknown`` guessed from the LED count as the SDK
    does (``DiceUtils.estimateDieType``)."""
    if 0 < value < len(DIE_TYPES):
        return DIE_TYPES[value]
    return {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20",
            21: "d6pipped"}.get(led_count, "unknown")


def battery_of(level: int, state: int) -> Battery:
    if level > 100:
        raise ProtocolError("bad_value", f"a Pixels battery level of {level} %")
    return Battery(level, state in CHARGING_STATES)


def decode(frame: bytes | bytearray, die_type: str) -> Reading | None:
    """One message of a Pixel of type ``die_type`` as a reading (``None``: a message the SDK
    knows that tells the box nothing, such as a debug log); `ProtocolError` (``reason``:
    ``empty``, ``short``, ``bad_value``, ``unknown``) for one it does not."""
    data = bytes(frame)
    if not data:
        raise ProtocolError("empty", "an empty Pixels message")
    kind = data[0]
    if kind == ROLL_STATE:
        if len(data) < 3:
            raise ProtocolError("short", f"a Pixels RollState of {len(data)} bytes")
        return roll_reading(data[1], data[2], die_type)
    if kind == BATTERY_LEVEL:
        if len(data) < 3:
            raise ProtocolError("short", f"a Pixels BatteryLevel of {len(data)} bytes")
        return battery_of(data[1], data[2])
    if kind == I_AM_A_DIE:
        return identity(data)
    if 0 < kind < MESSAGE_TYPES_END:
        return None
    raise ProtocolError("unknown", f"a Pixels message of type {kind}, which the SDK does not "
                                   "know")


def roll_reading(state: int, index: int, die_type: str) -> Settled | Unsettled:
    """A ``RollState``'s state and face index as a reading."""
    if state >= len(ROLL_STATES):
        raise ProtocolError("bad_value", f"a Pixels roll state {state} (0–5 are known)")
    if index >= INDEXES.get(die_type, 20):
        raise ProtocolError("bad_value", f"face index {index} on a {die_type}")
    face = face_from_index(index, die_type)
    why = ROLL_STATES[state]
    return Settled(face) if why is None else Unsettled(why, face)


def identity(data: bytes) -> Identity:
    """An ``IAmADie``: the legacy layout (22 bytes) or the chunked one."""
    if len(data) == LEGACY_IDENTITY_SIZE:
        led_count, colourway, die_value = data[1], data[2], data[3]
        level, state = data[20], data[21]
        die_type = die_type_of(die_value, led_count)
        return Identity(die_type, FACES.get(die_type), COLOURWAYS.get(colourway, "unknown"),
                        battery_of(level, state))
    chunks = _chunks(data)
    die, status = chunks.get("die", b""), chunks.get("status", b"")
    if len(die) < 9:
        raise ProtocolError("short", "a Pixels IAmADie without its die info")
    die_type = die_type_of(die[6], die[7])
    name = chunks.get("name", b"\0")[1:].split(b"\0", 1)[0].decode("utf-8", "replace")
    battery = battery_of(status[1], status[2]) if len(status) >= 3 else None
    return Identity(die_type, FACES.get(die_type), COLOURWAYS.get(die[8], "unknown"), battery,
                    name or None)


def _chunks(data: bytes) -> dict[str, bytes]:
    """The chunks of a chunked ``IAmADie``, each with its size byte (which counts itself)."""
    chunks: dict[str, bytes] = {}
    offset = 1
    for name in CHUNKS:
        if offset >= len(data):
            break
        size = data[offset]
        if size == 0 or offset + size > len(data):
            raise ProtocolError("bad_value", f"a Pixels IAmADie whose {name} chunk claims "
                                             f"{size} bytes at byte {offset} of {len(data)}")
        chunks[name] = data[offset:offset + size]
        offset += size
    return chunks


def advertised(manufacturer_data: Mapping[int, bytes],
               service_data: Mapping[str, bytes]) -> Identity | None:
    """What a Pixel's advertisement says of it (``getScannedPixel``): from its manufacturer
    data (LED count; die type and colourway; roll state; face; battery, its top bit
    charging) with its service data (the die's id and firmware date), or the layout of
    before July 2022 (7 bytes of manufacturer data, the LED count in the company id);
    ``None`` when neither is there."""
    if not manufacturer_data:
        return None
    company, data = next(iter(manufacturer_data.items()))
    service = next(iter(service_data.values()), b"")
    if len(service) >= 8 and len(data) >= 5:
        design = data[1]
        die_type = die_type_of((design >> 4) & 0xF, data[0])
        battery = Battery(data[4] & 0x7F, bool(data[4] & 0x80))
        return Identity(die_type, FACES.get(die_type), COLOURWAYS.get(design & 0xF, "unknown"),
                        battery)
    if not service and len(data) == 7:
        die_type = die_type_of(0, (company >> 8) & 0xFF)
        battery = Battery(round(data[6] / 255 * 100))
        return Identity(die_type, FACES.get(die_type), None, battery)
    return None


def is_pixel(service_uuids: Sequence[str], manufacturer_data: Mapping[int, bytes],
             name: str | None) -> bool:
    """Whether an advertisement is a Pixel's: it names the die's service, or the legacy
    service with a Pixel's manufacturer data (a GoDice serves the same legacy service)."""
    uuids = {u.lower() for u in service_uuids}
    if SERVICE in uuids:
        return True
    return (LEGACY_SERVICE in uuids and not (name or "").startswith("GoDice")
            and any(len(d) in (5, 7) for d in manufacturer_data.values()))


__all__ = ["ASK_BATTERY", "ASK_IDENTITY", "ASK_ROLL_STATE", "BATTERY_LEVEL", "COLOURWAYS",
           "COMPANY_ID", "DIE_TYPES", "FACES", "I_AM_A_DIE", "LEGACY_NOTIFY", "LEGACY_SERVICE",
           "LEGACY_WRITE", "NOTIFY", "ROLL_STATE", "SERVICE", "WHO_ARE_YOU", "WRITE",
           "advertised", "decode", "die_type_of", "face_from_index", "identity",
           "index_of_face", "is_pixel"]
