"""The Pico firmware's logic, run on the host with a model of the keypad wiring; everything it
sends must parse with the host's decoder."""

from __future__ import annotations

import random

import pytest

from hardware.pico import main as firmware
from hardware.protocol import DeviceError, DieRoll, Hello, KeyPress, Ping, Roll, decode_line, encode


class Wiring:
    """A 4×4 key matrix, a roll button and a tilt switch, as the Pico's pins see them."""

    class Pin:
        def __init__(self, read=None) -> None:
            self.level = 1
            self._read = read

        def value(self, level: int | None = None) -> int | None:
            if level is None:
                return self._read() if self._read else self.level
            self.level = level
            return None

    def __init__(self) -> None:
        self.down: set[tuple[int, int]] = set()
        self.button_down = False
        self.tilt_closed = False
        self.rows = [self.Pin() for _ in range(4)]
        self.cols = [self.Pin(read=lambda c=c: self._column(c)) for c in range(4)]
        self.roll = self.Pin(read=lambda: 0 if self.button_down else 1)
        self.tilt = self.Pin(read=lambda: 0 if self.tilt_closed else 1)

    def _column(self, col: int) -> int:
        # A key connects its row to its column; a driven-low row pulls the column low.
        return 0 if any(self.rows[r].level == 0 for r, c in self.down if c == col) else 1

    def key(self, label: str) -> tuple[int, int]:
        for r, row in enumerate(firmware.LAYOUT):
            if label in row:
                return r, row.index(label)
        raise KeyError(label)


@pytest.fixture
def rig():
    wiring = Wiring()
    sent: list[str] = []
    clock = [0]
    device = firmware.Firmware(
        firmware.Keypad(wiring.rows, wiring.cols), wiring.roll, wiring.tilt, sent.append,
        random.Random(7).getrandbits, lambda: clock[0],
    )

    def run(scans: int = firmware.STABLE_SCANS) -> list[object]:
        for _ in range(scans):
            device.step()
            clock[0] += firmware.SCAN_MS
        out = [decode_line(line) for line in sent]
        sent.clear()
        return out

    return wiring, device, run, sent


@pytest.mark.parametrize("label", "0123456789ABCD*#")
def test_each_key_of_the_matrix_is_sent_and_parsed_by_the_host(rig, label: str) -> None:
    wiring, _, run, _ = rig
    wiring.down.add(wiring.key(label))
    assert run() == [KeyPress(label)]
    assert run() == []  # held: no repeat


def test_a_key_must_be_stable_for_several_scans(rig) -> None:
    wiring, _, run, _ = rig
    k5 = wiring.key("5")
    for _ in range(3):
        wiring.down.add(k5)
        assert run(firmware.STABLE_SCANS - 1) == []
        wiring.down.discard(k5)
        assert run(1) == []


def test_two_keys_at_once_are_both_sent(rig) -> None:
    wiring, _, run, _ = rig
    wiring.down |= {wiring.key("1"), wiring.key("D")}
    assert run() == [KeyPress("1"), KeyPress("D")]


def test_roll_button_rolls_the_current_die(rig) -> None:
    wiring, _, run, _ = rig
    wiring.button_down = True
    (message,) = run()
    assert isinstance(message, DieRoll) and message.faces == 6 and 1 <= message.value <= 6


def test_shaking_the_tilt_switch_rolls(rig) -> None:
    wiring, _, run, _ = rig
    out: list[object] = []
    for _ in range(firmware.TILT_CHANGES):
        wiring.tilt_closed = not wiring.tilt_closed
        out += run()
    assert len(out) == 1 and isinstance(out[0], DieRoll)


def test_slow_tilting_does_not_roll(rig) -> None:
    wiring, _, run, _ = rig
    out: list[object] = []
    for _ in range(firmware.TILT_CHANGES):
        wiring.tilt_closed = not wiring.tilt_closed
        out += run(firmware.TILT_WINDOW_MS // firmware.SCAN_MS)
    assert out == []


def test_roll_command_from_the_host_is_answered_with_that_die(rig) -> None:
    _, device, _, sent = rig
    device.receive(encode(Roll(20)).decode())
    (message,) = [decode_line(line) for line in sent]
    assert isinstance(message, DieRoll) and message.faces == 20 and 1 <= message.value <= 20


def test_ping_is_answered_with_hello(rig) -> None:
    _, device, _, sent = rig
    device.receive(encode(Ping()).decode().replace("\n", "\r\n"))
    assert [decode_line(line) for line in sent] == [Hello("pico-keypad", "1.0")]


def test_bad_command_is_answered_with_err(rig) -> None:
    _, device, _, sent = rig
    device.receive("ROLL 6*00\n")
    device.receive("garbage\n")
    assert [decode_line(line) for line in sent] == [DeviceError("checksum"),
                                                    DeviceError("garbage")]


def test_command_split_across_reads_is_reassembled(rig) -> None:
    _, device, _, sent = rig
    for char in encode(Ping()).decode():
        device.receive(char)
    assert len(sent) == 1


@pytest.mark.parametrize("faces", [2, 3, 6, 7, 20, 100])
def test_roll_is_fair_over_every_bit_pattern(faces: int) -> None:
    # Feeding each n-bit pattern once, the rejection sampler yields each face exactly once.
    bits = max(1, (faces - 1).bit_length())
    patterns = iter(range(2**bits))
    results = []
    for _ in range(faces):
        results.append(firmware.roll(faces, lambda n: next(patterns)))
    assert sorted(results) == list(range(1, faces + 1))
