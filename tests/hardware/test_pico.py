"""The Pico firmware's logic on the host (CPython), with the build guide's wiring modelled
(`tests.hardware.pico_models`, the same models the MicroPython runs use); everything it sends
must parse with the host's decoder."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hardware.pico import board, firmware, protocol
from hardware.protocol import (
    DeviceError,
    DeviceMessage,
    DieRoll,
    Hello,
    KeyPress,
    Ping,
    Roll,
    decode_line,
    encode,
)
from tests.hardware import pico_models as models

HELLO = Hello(firmware.DEVICE, firmware.FIRMWARE_VERSION)


class Wire:
    """The host's end of one link: bytes it sends wait in ``incoming``; what the firmware
    writes collects in ``outgoing``."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    def available(self) -> int:
        return len(self.incoming)

    def read(self, count: int) -> bytes:
        chunk = bytes(self.incoming[:count])
        del self.incoming[:count]
        return chunk

    def write(self, data: bytes) -> int:
        self.outgoing.extend(data)
        return len(data)

    def link(self, name: str = "usb") -> firmware.StreamLink:
        return firmware.StreamLink(name, self.available, self.read, self.write)

    def messages(self) -> list[DeviceMessage]:
        lines = bytes(self.outgoing).splitlines()
        self.outgoing.clear()
        return [decode_line(line) for line in lines]


@dataclass
class Rig:
    board: models.PicoBoard
    clock: models.Clock
    device: firmware.Firmware
    usb: Wire
    uart: Wire
    scans: list[int] = field(default_factory=lambda: [0])

    def run(self, scans: int | None = None, step_ms: int = firmware.SCAN_MS) -> list[DeviceMessage]:
        """``scans`` passes of the main loop (enough for a change to be stable by default);
        what the device sent on USB."""
        count = scans if scans is not None else firmware.STABLE_MS // step_ms + 1
        for _ in range(count):
            self.device.poll()
            self.device.step()
            self.clock.advance(step_ms)
        return self.usb.messages()


@pytest.fixture
def rig() -> Iterator[Rig]:
    board = models.PicoBoard()
    clock = models.Clock(start=(1 << 30) - 30)  # the ticks wrap during every test
    usb, uart = Wire(), Wire()
    keypad = firmware.Keypad([board.pin(n) for n in board.rows],
                             [board.pin(n) for n in board.cols])
    device = firmware.Firmware(keypad, board.pin(board.roll), board.pin(board.tilt),
                               [usb.link("usb"), uart.link("uart")],
                               random.Random(7).getrandbits, clock.ticks_ms, clock.ticks_diff)
    yield Rig(board, clock, device, usb, uart)
    assert board.shorts == [], "an output drove against another through the key matrix"


@pytest.mark.parametrize("label", "0123456789ABCD*#")
def test_each_key_of_the_matrix_is_sent_once_and_parsed_by_the_host(rig: Rig, label: str) -> None:
    rig.board.press(label)
    assert rig.run() == [KeyPress(label)]
    assert rig.run() == []  # held: no repeat


def test_a_key_counts_only_after_reading_down_for_the_whole_stable_window(rig: Rig) -> None:
    rig.board.press("5")
    # the first reading starts the window; it must still read down STABLE_MS later
    assert rig.run(firmware.STABLE_MS // firmware.SCAN_MS) == []
    assert rig.run(1) == [KeyPress("5")]


def test_chattering_contact_is_not_a_press_until_it_settles(rig: Rig) -> None:
    for _ in range(10):  # a bounce every other scan never holds for the window
        rig.board.press("5")
        assert rig.run(2) == []
        rig.board.release("5")
        assert rig.run(1) == []
    rig.board.press("5")
    assert rig.run() == [KeyPress("5")]


def test_a_bounce_on_release_does_not_make_a_second_press(rig: Rig) -> None:
    rig.board.press("8")
    assert rig.run() == [KeyPress("8")]
    for _ in range(6):
        rig.board.release("8")
        assert rig.run(1) == []
        rig.board.press("8")
        assert rig.run(1) == []
    rig.board.release("8")
    assert rig.run() == []
    rig.board.press("8")
    assert rig.run() == [KeyPress("8")]


def test_the_window_is_time_not_a_count_of_scans(rig: Rig) -> None:
    # Scans that come fast (the loop was busy answering the host) do not shorten the window.
    rig.board.press("2")
    assert rig.run(firmware.STABLE_MS, step_ms=0) == []
    rig.clock.advance(firmware.STABLE_MS)
    assert rig.run(1) == [KeyPress("2")]


def test_two_keys_in_one_column_are_both_sent_without_shorting_the_rows(rig: Rig) -> None:
    rig.board.press("1")
    rig.board.press("7")  # same column, rows 1 and 3
    assert rig.run() == [KeyPress("1"), KeyPress("7")]
    # the fixture asserts that no net had one output high and another low


def test_every_pair_of_keys_is_read_without_a_short(rig: Rig) -> None:
    labels = "0123456789ABCD*#"
    for first in labels:
        for second in labels:
            if first >= second:
                continue
            rig.board.press(first)
            rig.board.press(second)
            assert rig.run() == [KeyPress(first), KeyPress(second)]
            rig.board.release(first)
            rig.board.release(second)
            assert rig.run() == []


def test_the_model_catches_push_pull_rows_shorting_through_two_keys() -> None:
    # The check above can fail: rows driven push-pull (the old firmware's Pin.OUT, high when
    # idle) short through two keys in one column, and the model records it.
    board = models.PicoBoard()
    rows = [board.pin(n) for n in board.rows]
    for row in rows:
        row.init(row.OUT, value=1)
    board.press("1")
    board.press("7")
    rows[0].value(0)
    assert board.shorts == [[2, 4]]  # GP2 low, GP4 high, joined through column 1


def test_rows_are_open_drain_and_columns_pulled_up(rig: Rig) -> None:
    for n in rig.board.rows:
        assert rig.board.pin(n).mode == models.ModelPin.OPEN_DRAIN
    for n in rig.board.cols:
        assert rig.board.pin(n).mode == models.ModelPin.IN
        assert rig.board.pin(n).pull == models.ModelPin.PULL_UP
    for n in (rig.board.roll, rig.board.tilt):
        assert rig.board.pin(n).pull == models.ModelPin.PULL_UP


def test_roll_button_rolls_the_current_die_on_every_link(rig: Rig) -> None:
    rig.board.set_switch(rig.board.roll, True)
    (message,) = rig.run()
    assert isinstance(message, DieRoll) and message.faces == 6 and 1 <= message.value <= 6
    assert rig.uart.messages() == [message]


def test_shaking_the_tilt_switch_rolls(rig: Rig) -> None:
    out: list[DeviceMessage] = []
    closed = False
    for _ in range(firmware.TILT_CHANGES):
        closed = not closed
        rig.board.set_switch(rig.board.tilt, closed)
        out += rig.run()
    assert len(out) == 1 and isinstance(out[0], DieRoll)


def test_slow_tilting_does_not_roll(rig: Rig) -> None:
    out: list[DeviceMessage] = []
    closed = False
    for _ in range(firmware.TILT_CHANGES):
        closed = not closed
        rig.board.set_switch(rig.board.tilt, closed)
        out += rig.run(firmware.TILT_WINDOW_MS // firmware.SCAN_MS)
    assert out == []


def test_roll_command_is_answered_with_that_die_on_its_own_link(rig: Rig) -> None:
    rig.uart.incoming += encode(Roll(20))
    assert rig.run(1) == []  # nothing on USB
    (message,) = rig.uart.messages()
    assert isinstance(message, DieRoll) and message.faces == 20 and 1 <= message.value <= 20
    rig.board.set_switch(rig.board.roll, True)  # the button now rolls a d20
    (pressed,) = rig.run()
    assert isinstance(pressed, DieRoll) and pressed.faces == 20


def test_ping_is_answered_with_hello(rig: Rig) -> None:
    rig.usb.incoming += encode(Ping()).replace(b"\n", b"\r\n")
    assert rig.run(1) == [HELLO]


def test_bad_commands_are_answered_with_the_reason(rig: Rig) -> None:
    rig.usb.incoming += (b"ROLL 6*00\n" b"garbage\n" + protocol.frame("ROLL 1").encode()
                         + protocol.frame("TILT").encode() + encode(KeyPress("5"))
                         + b"x" * 300 + b"\n")
    assert rig.run(5) == [DeviceError("checksum"), DeviceError("garbage"),
                          DeviceError("bad_field"), DeviceError("unknown"),
                          DeviceError("unexpected KEY"), DeviceError("overlong")]


def test_command_split_across_reads_is_reassembled(rig: Rig) -> None:
    answers: list[DeviceMessage] = []
    for byte in encode(Ping()):
        rig.usb.incoming.append(byte)
        answers += rig.run(1)
    assert answers == [HELLO]


def test_a_runaway_line_never_grows_the_buffer(rig: Rig) -> None:
    link = rig.device.links[0]
    for _ in range(40):
        rig.usb.incoming += bytes(range(32, 127)) * 3  # no newline
        rig.run(1)
        assert len(link.lines.buffer) <= protocol.MAX_LINE + 1
    rig.usb.incoming += b"\n" + encode(Ping())
    assert rig.run(10) == [DeviceError("overlong"), HELLO]


def test_reading_is_bounded_per_pass_so_scanning_goes_on(rig: Rig) -> None:
    rig.usb.incoming += b"\x00" * 10_000
    rig.board.press("3")
    assert rig.run() == [KeyPress("3")]
    assert len(rig.usb.incoming) > 0  # still draining, a budget per pass


def test_a_text_mode_stream_with_non_utf8_bytes_is_read_as_garbage() -> None:
    # CPython's text streams refuse invalid UTF-8 as MicroPython's sys.stdin does.
    stream = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\n" + encode(Ping())), encoding="utf-8")
    stream._CHUNK_SIZE = 1  # type: ignore[attr-defined]  # a character at a time, as MicroPython
    sent = bytearray()
    link = firmware.StreamLink("usb", lambda: 1, stream.read, sent.extend)
    device = firmware.Firmware(firmware.Keypad([], []), None, None, [link],
                               random.Random(1).getrandbits, lambda: 0)
    for _ in range(5):
        device.poll()
    assert [decode_line(x) for x in bytes(sent).splitlines()][-1] == HELLO


def test_a_link_that_fails_to_write_drops_the_line() -> None:
    def broken(_: bytes) -> None:
        raise OSError(11, "EAGAIN")

    wire = Wire()
    link = firmware.StreamLink("uart", wire.available, wire.read, broken)
    device = firmware.Firmware(firmware.Keypad([], []), None, None, [link],
                               random.Random(1).getrandbits, lambda: 0)
    wire.incoming += encode(Ping())
    device.poll()  # does not raise


@pytest.mark.parametrize("faces", [2, 3, 6, 7, 20, 100])
def test_roll_is_fair_over_every_bit_pattern(faces: int) -> None:
    # Feeding each n-bit pattern once, the rejection sampler yields each face exactly once.
    bits = max(1, (faces - 1).bit_length())
    patterns = iter(range(2**bits))
    results = [firmware.roll(faces, lambda n: next(patterns)) for _ in range(faces)]
    assert sorted(results) == list(range(1, faces + 1))


def _serve(rig: Rig, passes: int, calls: list[object]) -> bool:
    left = [passes]

    def running() -> bool:
        left[0] -= 1
        return left[0] >= 0

    def kbd_intr(char: int) -> None:
        calls.append(("kbd_intr", char, len(rig.usb.outgoing)))

    return firmware.serve(rig.device, rig.clock.advance, kbd_intr, running)


def test_serve_switches_ctrl_c_off_before_saying_hello(rig: Rig) -> None:
    calls: list[object] = []
    rig.usb.incoming += b"\x03" + encode(Ping())
    assert _serve(rig, 3, calls) is True
    assert calls == [("kbd_intr", -1, 0)]
    assert rig.usb.messages() == [HELLO, DeviceError("garbage")]


def test_holding_roll_at_start_up_leaves_the_repl_free(rig: Rig) -> None:
    calls: list[object] = []
    rig.board.set_switch(rig.board.roll, True)
    assert _serve(rig, 3, calls) is False
    assert calls == [] and rig.usb.outgoing == b""


def test_serve_answers_and_scans_until_told_to_stop(rig: Rig) -> None:
    rig.usb.incoming += encode(Ping())
    rig.board.press("#")
    assert _serve(rig, 6, []) is True
    assert rig.usb.messages() == [HELLO, HELLO, KeyPress("#")]
    assert rig.uart.messages() == [HELLO, KeyPress("#")]


def test_the_build_guide_names_the_pins_the_firmware_uses() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "hardware.md").read_text()

    def gp(pins: tuple[int, ...]) -> str:
        return ", ".join(f"GP{n}" for n in pins)

    assert f"keypad rows 1–4 | {gp(board.ROW_PINS)} (open-drain" in guide
    assert f"keypad columns 1–4 | {gp(board.COL_PINS)} (inputs with pull-ups)" in guide
    assert f"roll button | GP{board.ROLL_PIN} → button → GND" in guide
    assert f"tilt switch | GP{board.TILT_PIN} → switch → GND" in guide
    uart = f"UART{board.UART_ID}"
    assert f"| pin 8, GPIO14 TXD | pin 2, GP{board.UART_RX_PIN} ({uart} RX) |" in guide
    assert f"| pin 10, GPIO15 RXD | pin 1, GP{board.UART_TX_PIN} ({uart} TX) |" in guide
    assert "mpremote cp protocol.py firmware.py board.py main.py :" in guide
