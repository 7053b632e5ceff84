"""The smart dice's frames, decoded as their makers document them: GoDice's ``R``, ``S`` x y z,
``FS``/``TS``/``MS``, ``Bat``, ``Col`` (ParticulaCode's SDKs) and Pixels' ``RollState``,
``BatteryLevel``, ``IAmADie`` and advertisement (pixels-js). The frames here are written out
byte by byte from those documents, not made by the fake dice; anything else is a
``ProtocolError`` with a reason — never another exception."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.errors import ProtocolError
from hardware.smart_dice import godice, pixels
from hardware.smart_dice.readings import Battery, Colour, Identity, Settled, Unsettled


def s8(*values: int) -> bytes:
    return struct.pack(">bbb", *values)


# --- GoDice ---------------------------------------------------------------------------------

#: The SDKs' d6 table (xyzinterpret.py ``d6Vectors``), face by face.
SDK_D6 = {1: (-64, 0, 0), 2: (0, 0, 64), 3: (0, 64, 0), 4: (0, -64, 0), 5: (0, 0, -64),
          6: (64, 0, 0)}


@pytest.mark.parametrize(("face", "vector"), SDK_D6.items())
def test_a_stable_d6_reads_the_face_whose_vector_it_rests_on(face: int,
                                                             vector: tuple[int, int, int]) -> None:
    assert godice.decode(b"S" + s8(*vector), faces=6) == Settled(face)
    # a real accelerometer is a few counts off
    x, y, z = vector
    assert godice.decode(b"S" + s8(x + 5, y - 4, z + 3), faces=6) == Settled(face)


def test_the_shells_read_their_own_faces() -> None:
    # d20 shell: d20Vectors 14 = (42, 42, 42), 7 = (-42, -42, -42)
    assert godice.decode(b"S" + s8(42, 42, 42), faces=20) == Settled(14)
    assert godice.decode(b"S" + s8(-42, -42, -42), faces=20) == Settled(7)
    # d24 positions mapped by the SDK's d4Transform / d8Transform / d12Transform:
    # position 1 = (20, -60, -20) → d4 3, d8 3, d12 1; position 6 = (-20, -60, -20) → d4 4,
    # d8 8, d12 6; position 19 = (40, -20, 40) → d4 2, d8 8, d12 7
    for xyz, d4, d8, d12 in (((20, -60, -20), 3, 3, 1), ((-20, -60, -20), 4, 8, 6),
                             ((40, -20, 40), 2, 8, 7)):
        frame = b"S" + s8(*xyz)
        assert godice.decode(frame, faces=4) == Settled(d4)
        assert godice.decode(frame, faces=8) == Settled(d8)
        assert godice.decode(frame, faces=12) == Settled(d12)


def test_every_face_of_the_d24_shells_is_reachable() -> None:
    for faces in (4, 8, 12):
        seen = {godice.decode(b"S" + s8(*v), faces=faces) for v in godice.D24_VECTORS.values()}
        assert seen == {Settled(f) for f in range(1, faces + 1)}


def test_a_tumbling_die_and_the_stable_frames_that_are_no_roll() -> None:
    assert godice.decode(b"R", faces=6) == Unsettled("rolling")
    assert godice.decode(b"FS" + s8(64, 0, 0), faces=6) == Unsettled("fake", 6)
    assert godice.decode(b"TS" + s8(0, 64, 0), faces=6) == Unsettled("tilted", 3)
    assert godice.decode(b"MS" + s8(0, 0, -64), faces=6) == Unsettled("moved", 5)


def test_battery_and_colour() -> None:
    assert godice.decode(b"Bat" + bytes([42]), faces=6) == Battery(42)
    assert godice.decode(b"Bat" + bytes([100]), faces=6) == Battery(100)
    names = [godice.decode(b"Col" + bytes([c]), faces=6) for c in range(6)]
    assert names == [Colour(n) for n in ("black", "red", "green", "blue", "yellow", "orange")]


@pytest.mark.parametrize(("frame", "reason"), [
    (b"", "empty"),
    (b"S", "short"),
    (b"S\x01\x02", "short"),
    (b"Bat", "short"),
    (b"Col", "short"),
    (b"MS\x00\x00", "short"),
    (b"Bat\x65", "bad_value"),   # 101 %
    (b"Col\x06", "bad_value"),   # colours are 0–5
    (b"XYZ", "unknown"),
    (b"QS\x00\x00\x00", "unknown"),
    (b"\x00", "unknown"),
])
def test_garbage_from_a_godice_is_a_protocol_error_with_its_reason(frame: bytes,
                                                                   reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        godice.decode(frame, faces=6)
    assert caught.value.reason == reason


@given(st.binary(max_size=24), st.sampled_from(godice.SHELLS))
def test_no_godice_frame_raises_anything_but_a_protocol_error(frame: bytes, faces: int) -> None:
    try:
        reading = godice.decode(frame, faces)
    except ProtocolError as error:
        assert error.reason in ("empty", "short", "bad_value", "unknown")
    else:
        if isinstance(reading, Settled):
            assert 1 <= reading.face <= faces


def test_the_led_command_and_the_advertised_name() -> None:
    assert godice.set_led((0, 0, 255), (255, 255, 0)) == bytes([8, 0, 0, 255, 255, 255, 0])
    with pytest.raises(ValueError, match="RGB"):
        godice.set_led((0, 0, 256), (0, 0, 0))
    assert godice.is_godice("GoDice_E39D0A_K_v04") and not godice.is_godice("Pixel Ada")
    assert not godice.is_godice(None)


# --- Pixels ---------------------------------------------------------------------------------

def test_only_rolled_is_a_roll() -> None:
    # RollState: type 3, state, face index (PixelRollStateValues: 0 unknown, 1 rolled,
    # 2 handling, 3 rolling, 4 crooked, 5 onFace)
    assert pixels.decode(bytes([3, 1, 0]), "d6") == Settled(1)
    assert pixels.decode(bytes([3, 1, 5]), "d6") == Settled(6)
    assert pixels.decode(bytes([3, 2, 5]), "d6") == Unsettled("handling", 6)
    assert pixels.decode(bytes([3, 3, 2]), "d6") == Unsettled("rolling", 3)
    assert pixels.decode(bytes([3, 4, 2]), "d6") == Unsettled("crooked", 3)
    assert pixels.decode(bytes([3, 5, 2]), "d6") == Unsettled("on_face", 3)
    assert pixels.decode(bytes([3, 0, 2]), "d6") == Unsettled("unknown", 3)


def test_face_indexes_per_die_type() -> None:
    # DiceUtils.faceFromIndex: a d4 reports as a d6 (indexes 2, 3, 5 are faces 2, 3, 4)
    assert [pixels.decode(bytes([3, 1, i]), "d4") for i in (0, 2, 3, 5)] == [
        Settled(1), Settled(2), Settled(3), Settled(4)]
    assert pixels.decode(bytes([3, 1, 7]), "d8") == Settled(8)
    assert pixels.decode(bytes([3, 1, 19]), "d20") == Settled(20)
    assert pixels.decode(bytes([3, 1, 0]), "d10") == Settled(0)  # a d10 reads 0–9
    for die_type in ("d4", "d6", "d8", "d12", "d20"):
        for face in range(1, pixels.FACES[die_type] + 1):
            index = pixels.index_of_face(face, die_type)
            assert pixels.decode(bytes([3, 1, index]), die_type) == Settled(face)


def test_battery_level() -> None:
    assert pixels.decode(bytes([34, 12, 0]), "d6") == Battery(12, False)
    assert pixels.decode(bytes([34, 60, 2]), "d6") == Battery(60, True)    # charging
    assert pixels.decode(bytes([34, 100, 3]), "d6") == Battery(100, True)  # done


def legacy_i_am_a_die(led_count: int, colourway: int, die_type: int, face_index: int,
                      level: int) -> bytes:
    """``LegacyIAmADie`` as Messages.ts lays it out, field by field (22 bytes)."""
    return (bytes([2, led_count, colourway, die_type])
            + struct.pack("<I", 0x12345678)        # dataSetHash
            + struct.pack("<I", 0xA1B2C3D4)        # pixelId
            + struct.pack("<H", 2048)              # availableFlashSize
            + struct.pack("<I", 1_650_000_000)     # buildTimestamp
            + bytes([1, face_index, level, 0]))    # rollState, currentFaceIndex, battery


def chunked_i_am_a_die(die_type: int, colourway: int, name: bytes, level: int,
                       charging: bool) -> bytes:
    """``IAmADie`` in chunks (ChunkMessage.ts): each starts with its size, which counts
    itself."""
    version = bytes([15]) + struct.pack("<HIHHHH", 0x0300, 1_700_000_000, 3, 1, 1, 1)
    die = bytes([9]) + struct.pack("<I", 0xA1B2C3D4) + bytes([1, die_type, 8, colourway])
    design = bytes([2]) + b"\0"
    named = bytes([1 + len(name) + 1]) + name + b"\0"
    settings = bytes([13]) + struct.pack("<III", 1, 2, 3)
    status = bytes([5, level, 2 if charging else 0, 5, 0])
    return bytes([2]) + version + die + design + named + settings + status


def test_i_am_a_die_in_both_layouts() -> None:
    legacy = legacy_i_am_a_die(6, 1, 2, 3, 77)
    assert len(legacy) == 22
    assert pixels.decode(legacy, "d6") == Identity("d6", 6, "onyx black", Battery(77, False))
    chunked = chunked_i_am_a_die(3, 4, b"Pixel Ben", 9, charging=True)
    assert pixels.decode(chunked, "d6") == Identity("d8", 8, "aurora sky", Battery(9, True),
                                                    "Pixel Ben")
    # a d10 says it is one: its faces are not 1 to N
    assert pixels.decode(chunked_i_am_a_die(4, 5, b"D", 50, False), "d6") == Identity(
        "d10", None, "clear", Battery(50, False), "D")


@pytest.mark.parametrize(("frame", "reason"), [
    (b"", "empty"),
    (bytes([3, 1]), "short"),
    (bytes([34, 50]), "short"),
    (bytes([3, 9, 0]), "bad_value"),        # no roll state 9
    (bytes([3, 1, 6]), "bad_value"),        # a d6 has face indexes 0–5
    (bytes([34, 180, 0]), "bad_value"),     # 180 %
    (bytes([2, 15, 0, 0]), "bad_value"),    # a chunk longer than the message
    (bytes([2, 3, 0, 0, 4, 0, 0, 0]), "short"),  # no die info
    (bytes([0, 1, 2]), "unknown"),
    (bytes([200]), "unknown"),
])
def test_garbage_from_a_pixel_is_a_protocol_error_with_its_reason(frame: bytes,
                                                                  reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        pixels.decode(frame, "d6")
    assert caught.value.reason == reason


def test_messages_the_box_has_no_use_for_are_none() -> None:
    assert pixels.decode(bytes([18]) + b"hello\0", "d6") is None  # DebugLog
    assert pixels.decode(bytes([36, 0xC4]), "d6") is None          # Rssi


@given(st.binary(max_size=40), st.sampled_from(["d4", "d6", "d8", "d12", "d20"]))
def test_no_pixels_frame_raises_anything_but_a_protocol_error(frame: bytes,
                                                             die_type: str) -> None:
    try:
        pixels.decode(frame, die_type)
    except ProtocolError as error:
        assert error.reason in ("empty", "short", "bad_value", "unknown")


def test_the_advertisement_says_type_colour_and_battery() -> None:
    # manufacturer data: ledCount, dieType << 4 | colourway, rollState, faceIndex,
    # battery (top bit: charging); service data: pixelId, firmware date
    manufacturer = {0x0D39: bytes([6, (2 << 4) | 1, 1, 3, 0x80 | 57])}
    service = {pixels.SERVICE: struct.pack("<II", 0x1234, 1_700_000_000)}
    assert pixels.advertised(manufacturer, service) == Identity("d6", 6, "onyx black",
                                                                Battery(57, True))
    # before July 2022: 7 bytes, the LED count in the company id, battery out of 255
    old = {(20 << 8) | 3: bytes([1, 2, 3, 4, 1, 19, 255])}
    assert pixels.advertised(old, {}) == Identity("d20", 20, None, Battery(100))
    assert pixels.advertised({}, {}) is None
    assert pixels.is_pixel([pixels.SERVICE], {}, "Pixel")
    assert pixels.is_pixel([pixels.LEGACY_SERVICE], manufacturer, "Pixel Old")
    assert not pixels.is_pixel([pixels.LEGACY_SERVICE], {}, "GoDice_1234")
