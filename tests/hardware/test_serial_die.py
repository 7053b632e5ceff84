"""The die / keypad link over pyserial: framing, dropping bad lines, unplug and re-plug —
every case through both ``loop://`` and a real pty pair."""

from __future__ import annotations

import os
import queue
import select
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from hardware import DeviceNotFound
from hardware.pico.protocol import MAX_LINE, checksum
from hardware.protocol import DeviceError, DieRoll, Hello, KeyPress, Ping, Roll, encode
from hardware.serial_die import LinkState, SerialDie

pytestmark = pytest.mark.timeout(30)
WAIT = 5.0  # generous: only reached when something is broken


class LoopDevice:
    """The device end of ``loop://``: what we write is what the host reads."""

    def __init__(self) -> None:
        self.ports: list[Any] = []
        self.plugged = True
        self.url = "loop://"

    def opener(self, url: str) -> Any:
        if not self.plugged:
            raise serial.SerialException(f"could not open port {url}: unplugged")
        port = serial.serial_for_url(url)
        self.ports.append(port)
        return port

    def send(self, data: bytes) -> None:
        self.ports[-1].write(data)

    def unplug(self) -> None:
        self.plugged = False
        if self.ports:
            self.ports[-1].close()

    def replug(self) -> None:
        self.plugged = True

    def close(self) -> None:
        for port in self.ports:
            port.close()


class PtyDevice:
    """The device end of a pty pair, reached through a symlink (like /dev/serial/by-id)."""

    def __init__(self, directory: Path) -> None:
        self.url = str(directory / "ttyDIE")
        self.master = -1
        self.opener = None
        self.replug()

    def replug(self) -> None:
        master, slave = os.openpty()
        name = os.ttyname(slave)
        os.close(slave)
        self.master = master
        if os.path.lexists(self.url):
            os.unlink(self.url)
        os.symlink(name, self.url)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_line(self, timeout: float = WAIT) -> bytes:
        line = b""
        while not line.endswith(b"\n"):
            ready, _, _ = select.select([self.master], [], [], timeout)
            assert ready, f"no line from the host (got {line!r})"
            line += os.read(self.master, 1)
        return line

    def unplug(self) -> None:
        os.close(self.master)
        self.master = -1
        os.unlink(self.url)

    def close(self) -> None:
        if self.master >= 0:
            os.close(self.master)
        if os.path.lexists(self.url):
            os.unlink(self.url)


@pytest.fixture(params=["loop", "pty"])
def device(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LoopDevice | PtyDevice]:
    dev: LoopDevice | PtyDevice = LoopDevice() if request.param == "loop" else PtyDevice(tmp_path)
    yield dev
    dev.close()


@pytest.fixture
def link(device: LoopDevice | PtyDevice) -> Iterator[tuple[SerialDie, queue.Queue[Any]]]:
    messages: queue.Queue[Any] = queue.Queue()
    die = SerialDie(device.url, listener=messages.put, backoff_initial=0.01, backoff_max=0.05,
                    opener=device.opener, ping_on_connect=False)
    die.start()
    assert die.wait_connected(WAIT)
    yield die, messages
    die.close()


def test_die_roll_arrives_as_a_message(device, link) -> None:
    die, messages = link
    device.send(encode(DieRoll(6, 4)))
    assert messages.get(timeout=WAIT) == DieRoll(6, 4)
    assert die.counters.frames_ok == 1


def test_every_keypad_key_arrives(device, link) -> None:
    _, messages = link
    keys = "0123456789ABCD*#"
    device.send(b"".join(encode(KeyPress(k)) for k in keys))
    assert [messages.get(timeout=WAIT).key for _ in keys] == list(keys)


def test_hello_is_remembered_as_the_firmware(device, link) -> None:
    die, messages = link
    assert die.firmware is None
    device.send(encode(Hello("pico-keypad", "1.0")))
    assert messages.get(timeout=WAIT) == Hello("pico-keypad", "1.0")
    assert die.firmware == Hello("pico-keypad", "1.0")


def test_a_line_split_across_writes_is_reassembled(device, link) -> None:
    _, messages = link
    line = encode(DieRoll(20, 17))
    for i in range(len(line)):
        device.send(line[i : i + 1])
    assert messages.get(timeout=WAIT) == DieRoll(20, 17)


def test_crlf_line_endings_are_accepted(device, link) -> None:
    _, messages = link
    device.send(encode(KeyPress("7")).replace(b"\n", b"\r\n"))
    assert messages.get(timeout=WAIT) == KeyPress("7")


def test_garbage_is_dropped_and_counted_and_the_next_frame_still_arrives(device, link) -> None:
    die, messages = link
    device.send(b"\x00\xff\xfe noise\n" + b"hello world\n" + encode(KeyPress("A")))
    assert messages.get(timeout=WAIT) == KeyPress("A")
    assert die.counters.dropped()["garbage"] == 2
    assert die.counters.frames_ok == 1


def test_bad_checksum_is_dropped_and_counted(device, link) -> None:
    die, messages = link
    good = encode(DieRoll(6, 3))
    device.send(good.replace(b"DIE 6 3", b"DIE 6 5") + good)
    assert messages.get(timeout=WAIT) == DieRoll(6, 3)
    assert die.counters.dropped()["checksum"] == 1
    assert messages.empty()


def test_overlong_line_is_dropped_without_growing_and_counted(device, link) -> None:
    die, messages = link
    device.send(b"X" * 500)
    device.send(b"Y" * 500 + b"\n" + encode(KeyPress("B")))
    assert messages.get(timeout=WAIT) == KeyPress("B")
    assert die.counters.dropped()["overlong"] == 1


def test_overlong_line_in_one_piece_is_dropped(device, link) -> None:
    die, messages = link
    device.send(b"Z" * 70 + b"\n" + encode(KeyPress("C")))
    assert messages.get(timeout=WAIT) == KeyPress("C")
    assert die.counters.dropped()["overlong"] == 1


def test_unknown_message_and_bad_field_are_counted(device, link) -> None:
    die, messages = link
    from hardware.pico.protocol import frame

    device.send(frame("TILT 3").encode() + frame("DIE 6 9").encode() + encode(DeviceError("x")))
    assert messages.get(timeout=WAIT) == DeviceError("x")
    assert die.counters.dropped() == {
        "garbage": 0, "checksum": 0, "overlong": 0, "unknown": 1, "bad_field": 1,
    }


def test_a_failing_listener_does_not_kill_the_reader(device) -> None:
    got: queue.Queue[Any] = queue.Queue()

    def listener(message: Any) -> None:
        got.put(message)
        if message == KeyPress("1"):
            raise RuntimeError("listener bug")

    with SerialDie(device.url, listener=listener, opener=device.opener) as die:
        assert die.wait_connected(WAIT)
        device.send(encode(KeyPress("1")) + encode(KeyPress("2")))
        assert [got.get(timeout=WAIT), got.get(timeout=WAIT)] == [KeyPress("1"), KeyPress("2")]
        assert die.connected


def test_unplug_is_detected_and_replug_reconnects(device, link) -> None:
    die, messages = link
    device.unplug()
    assert die.wait_state(LinkState.DISCONNECTED, WAIT)
    # still retrying, with back-off
    assert die.counters.wait_until(lambda c: c["open_failures"] >= 2, WAIT)
    device.replug()
    assert die.wait_connected(WAIT)
    device.send(encode(DieRoll(6, 2)))
    assert messages.get(timeout=WAIT) == DieRoll(6, 2)
    snapshot = die.counters.snapshot()
    assert snapshot["connects"] == 2 and snapshot["disconnects"] == 1


def test_device_absent_at_start_is_waited_for(device) -> None:
    device.unplug()
    states: queue.Queue[LinkState] = queue.Queue()
    with SerialDie(device.url, on_state=states.put, backoff_initial=0.01, backoff_max=0.02,
                   opener=device.opener) as die:
        assert die.counters.wait_until(lambda c: c["open_failures"] >= 1, WAIT)
        assert not die.connected
        device.replug()
        assert die.wait_connected(WAIT)
    assert states.get(timeout=WAIT) is LinkState.CONNECTING


def test_required_device_absent_names_the_port_and_what_to_check(device) -> None:
    device.unplug()
    die = SerialDie(device.url, opener=device.opener)
    with pytest.raises(DeviceNotFound) as info:
        die.start(require=True)
    message = str(info.value)
    assert "die/keypad" in message and device.url in message and "dialout" in message


def test_roll_command_reaches_the_device(tmp_path: Path) -> None:
    device = PtyDevice(tmp_path)
    try:
        with SerialDie(device.url) as die:
            assert die.wait_connected(WAIT)
            assert device.read_line() == encode(Ping())  # sent on connecting
            die.roll(12)
            assert device.read_line() == encode(Roll(12))
            die.ping()
            assert device.read_line() == b"PING*10\n"
    finally:
        device.close()


def test_host_command_echoed_back_by_loop_is_not_a_device_message() -> None:
    device = LoopDevice()
    got: queue.Queue[Any] = queue.Queue()
    with SerialDie("loop://", listener=got.put, opener=device.opener) as die:
        assert die.wait_connected(WAIT)
        die.roll(6)
        # the PING sent on connecting and the ROLL both come back, and both are dropped
        assert die.counters.wait_until(lambda c: c.dropped()["unknown"] == 2, WAIT)
    assert got.empty()


def test_command_while_disconnected_is_device_not_found(device) -> None:
    device.unplug()
    with SerialDie(device.url, backoff_initial=0.01, opener=device.opener) as die,\
            pytest.raises(DeviceNotFound, match="not connected"):
        die.roll(6)


def test_close_is_idempotent_and_stops_the_threads(device) -> None:
    die = SerialDie(device.url, opener=device.opener)
    die.start()
    assert die.wait_connected(WAIT)
    die.close()
    die.close()
    assert die.state is LinkState.CLOSED


class Pauses:
    """A back-off pause that records its delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.changed = threading.Condition()

    def __call__(self, delay: float) -> None:
        with self.changed:
            self.delays.append(delay)
            self.changed.notify_all()

    def wait_for(self, count: int) -> list[float]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.delays) >= count, WAIT)
            return self.delays[:count]


def test_back_off_doubles_up_to_the_maximum(device) -> None:
    device.unplug()
    pauses = Pauses()
    with SerialDie(device.url, backoff_initial=0.25, backoff_max=5.0, opener=device.opener,
                   wait=pauses):
        assert pauses.wait_for(8) == [0.25, 0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]


def test_back_off_starts_again_small_after_a_good_connection(device) -> None:
    pauses = Pauses()
    got: queue.Queue[Any] = queue.Queue()
    with SerialDie(device.url, listener=got.put, backoff_initial=0.25, backoff_max=5.0,
                   opener=device.opener, wait=pauses) as die:
        assert die.wait_connected(WAIT)
        device.send(encode(KeyPress("1")))
        assert got.get(timeout=WAIT) == KeyPress("1")
        device.unplug()
        assert pauses.wait_for(3) == [0.25, 0.5, 1.0]
        device.replug()
        assert die.wait_connected(WAIT)
        device.send(encode(KeyPress("2")))
        assert got.get(timeout=WAIT) == KeyPress("2")
        count = len(pauses.delays)
        device.unplug()
        assert pauses.wait_for(count + 1)[count] == 0.25


@pytest.mark.parametrize("chunk", [1, 7, 200])
def test_longest_line_passes_and_one_byte_more_is_dropped_in_any_chunking(device, link,
                                                                           chunk: int) -> None:
    die, messages = link
    longest = DeviceError("y" * (MAX_LINE - len("ERR ") - 3))
    body = "ERR " + "y" * (MAX_LINE - len("ERR ") - 2)
    too_long = f"{body}*{checksum(body):02X}\r\n".encode()
    data = too_long + encode(longest).replace(b"\n", b"\r\n") + too_long + encode(KeyPress("0"))
    for i in range(0, len(data), chunk):
        device.send(data[i : i + chunk])
    assert messages.get(timeout=WAIT) == longest
    assert messages.get(timeout=WAIT) == KeyPress("0")
    assert die.counters.dropped()["overlong"] == 2


def test_required_device_present_is_opened_at_start(device) -> None:
    got: queue.Queue[Any] = queue.Queue()
    die = SerialDie(device.url, listener=got.put, opener=device.opener)
    try:
        die.start(require=True)
        assert die.wait_connected(WAIT)
        device.send(encode(Hello("pico-keypad", "1.0")))
        assert got.get(timeout=WAIT) == Hello("pico-keypad", "1.0")
        assert die.counters["open_failures"] == 0
    finally:
        die.close()


def test_ping_on_every_connect_learns_the_firmware_and_a_disconnect_forgets_it(
        tmp_path: Path) -> None:
    device = PtyDevice(tmp_path)
    try:
        with SerialDie(device.url, backoff_initial=0.01, backoff_max=0.02) as die:
            for plug in (1, 2):
                assert die.wait_connected(WAIT)
                assert device.read_line() == encode(Ping())
                assert die.firmware is None
                device.send(encode(Hello("pico-keypad", f"1.{plug}")))
                assert die.counters.wait_until(lambda c, n=plug: c.frames_ok >= n, WAIT)
                assert die.firmware == Hello("pico-keypad", f"1.{plug}")
                device.unplug()
                assert die.wait_state(LinkState.DISCONNECTED, WAIT)
                assert die.firmware is None
                device.replug()
    finally:
        device.close()


def test_no_ping_on_connect_when_switched_off(tmp_path: Path) -> None:
    device = PtyDevice(tmp_path)
    try:
        with SerialDie(device.url, ping_on_connect=False) as die:
            assert die.wait_connected(WAIT)
            die.roll(4)
            assert device.read_line() == encode(Roll(4))
    finally:
        device.close()


def test_the_pico_firmware_answers_the_connect_ping_with_its_version(tmp_path: Path) -> None:
    # The real firmware logic (hardware/pico/firmware.py, run here by CPython) on the device end
    # of a pty pair, as the Pico is on the end of /dev/ttyACM0.
    import random
    import time

    from hardware.pico import firmware
    from tests.hardware import pico_models as models

    device = PtyDevice(tmp_path)
    stop = threading.Event()
    master = device.master

    def available() -> int:
        return 1 if select.select([master], [], [], 0)[0] else 0

    board = models.PicoBoard()
    keypad = firmware.Keypad([board.pin(n) for n in board.rows],
                             [board.pin(n) for n in board.cols])
    link = firmware.StreamLink("usb", available, lambda n: os.read(master, n),
                               lambda data: os.write(master, data))
    pico = firmware.Firmware(keypad, None, None, [link], random.Random(5).getrandbits,
                             lambda: int(time.monotonic() * 1000))
    loop = threading.Thread(target=firmware.serve, args=(pico, lambda ms: time.sleep(ms / 1000)),
                            kwargs={"running": lambda: not stop.is_set()}, daemon=True)
    got: queue.Queue[Any] = queue.Queue()
    try:
        with SerialDie(device.url, listener=got.put) as die:
            assert die.wait_connected(WAIT)  # the tty is raw now: it echoes nothing back
            loop.start()
            hello = Hello(firmware.DEVICE, firmware.FIRMWARE_VERSION)
            assert got.get(timeout=WAIT) == hello
            assert die.firmware == hello
    finally:
        stop.set()
        loop.join(WAIT)
        device.close()
