"""The dice link through bleak's real ``BleakScanner`` and ``BleakClient`` over a fake backend
(``hardware.smart_dice.fake_ble``) that plays the vendors' frames: scanning, connecting, the
face report, what is no roll, battery, a die lost mid-roll and back, garbage dropped and
counted, two boxes side by side, and a box without Bluetooth."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.errors import DeviceNotFound
from hardware.smart_dice.fake_ble import FakeDie, FakeGoDice, FakePixel, FakeRadio
from hardware.smart_dice.link import DiceLink, DieState, LinkClosed, adapter_problem
from hardware.smart_dice.readings import (
    Battery,
    Colour,
    DieTarget,
    Identity,
    Reading,
    Settled,
    Unsettled,
)

pytestmark = pytest.mark.timeout(60)
WAIT = 5.0  # generous: only reached when something is broken
ROOT = Path(__file__).resolve().parents[2]


class Box:
    """A link and what it heard, reading by reading."""

    def __init__(self, radio: FakeRadio) -> None:
        self.heard: queue.Queue[tuple[str, Reading]] = queue.Queue()
        self.link = DiceLink(listener=lambda address, reading: self.heard.put((address, reading)),
                             scanner=radio.scanner(), client=radio.client(),
                             backoff_initial=0.02, backoff_max=0.1, connect_timeout=2.0,
                             identify_timeout=1.0)

    def next(self, kind: type, timeout: float = WAIT) -> tuple[str, Reading]:
        """The next reading of ``kind`` (skipping others)."""
        while True:
            address, reading = self.heard.get(timeout=timeout)
            if isinstance(reading, kind):
                return address, reading

    def settled(self, timeout: float = WAIT) -> list[tuple[str, int]]:
        """The rolls heard until nothing comes for ``timeout`` seconds."""
        rolls = []
        while True:
            try:
                address, reading = self.heard.get(timeout=timeout)
            except queue.Empty:
                return rolls
            if isinstance(reading, Settled):
                rolls.append((address, reading.face))

    def connected(self, die: FakeDie) -> bool:
        return self.link.wait_state(die.address, DieState.CONNECTED, WAIT)


@pytest.fixture
def radio() -> FakeRadio:
    return FakeRadio()


@pytest.fixture
def box(radio: FakeRadio) -> Iterator[Box]:
    made = Box(radio)
    yield made
    made.link.close()


def follow(box: Box, *dice: tuple[FakeDie, int]) -> None:
    box.link.follow(DieTarget(die.address, die.vendor, faces) for die, faces in dice)


def test_a_scan_lists_godice_and_pixels_with_colour_battery_and_faces(radio: FakeRadio,
                                                                     box: Box) -> None:
    radio.add(FakeGoDice("C0:FF:EE:00:00:01", colour="blue", battery=64, rssi=-40))
    radio.add(FakePixel("C0:FF:EE:00:01:01", "Pixel Ada", die_type="d8",
                        colourway="aurora sky", battery=33, rssi=-70))

    class HeartRateStrap(FakeDie):
        vendor = "godice"  # never read: the strap is not a die
        service = "0000180d-0000-1000-8000-00805f9b34fb"
        notify = write = "00002a37-0000-1000-8000-00805f9b34fb"

    radio.add(HeartRateStrap("C0:FF:EE:00:02:01", "Polar H10"))
    found = box.link.scan(0.2)
    assert [(d.vendor, d.name, d.colour, d.battery, d.faces) for d in found] == [
        ("godice", "GoDice_000001_K_v04", "blue", 64, None),  # strongest first
        ("pixels", "Pixel Ada", "aurora sky", 33, 8),
    ]
    # the GoDice was asked its colour and battery in a short connection, then let go
    godice = radio.die("C0:FF:EE:00:00:01")
    assert godice.received == [bytes([23]), bytes([3])] and not godice.connected


def test_connect_then_the_face_of_each_roll(radio: FakeRadio, box: Box) -> None:
    cube = radio.add(FakeGoDice("C0:FF:EE:00:00:01", colour="red", battery=71))
    pixel = radio.add(FakePixel("C0:FF:EE:00:01:01", "Pixel Ada", die_type="d6"))
    follow(box, (cube, 6), (pixel, 6))
    assert box.connected(cube) and box.connected(pixel)
    # on connecting, the link asks: GoDice its colour and battery, the Pixel who it is
    assert box.next(Colour)[1] == Colour("red")
    assert box.next(Battery)[1] == Battery(71)
    assert box.next(Identity)[1] == Identity("d6", 6, "onyx black", Battery(80, False),
                                             "Pixel Ada")
    assert cube.received[:2] == [bytes([23]), bytes([3])] and pixel.received == [bytes([1])]
    for face in range(1, 7):
        cube.roll(face)
        pixel.roll(7 - face)
    rolls = box.settled(0.5)
    assert [f for a, f in rolls if a == cube.address] == [1, 2, 3, 4, 5, 6]
    assert [f for a, f in rolls if a == pixel.address] == [6, 5, 4, 3, 2, 1]


def test_d4_d8_and_d20_dice(radio: FakeRadio, box: Box) -> None:
    shells = [radio.add(FakeGoDice(f"C0:FF:EE:00:00:0{n}", shell=s)) for n, s in
              ((1, 4), (2, 8), (3, 20))]
    pixels = [radio.add(FakePixel(f"C0:FF:EE:00:01:0{n}", f"P{n}", die_type=t)) for n, t in
              ((1, "d4"), (2, "d8"), (3, "d20"))]
    follow(box, *((d, d.shell) for d in shells),
           *((p, int(p.die_type[1:])) for p in pixels))
    assert all(box.connected(d) for d in (*shells, *pixels))
    for die, faces in zip((*shells, *pixels), (4, 8, 20) * 2, strict=True):
        for face in range(1, faces + 1):
            die.roll(face)
    rolls = box.settled(0.5)
    for die, faces in zip((*shells, *pixels), (4, 8, 20) * 2, strict=True):
        assert [f for a, f in rolls if a == die.address] == list(range(1, faces + 1)), die.name


def test_what_is_no_roll_never_settles(radio: FakeRadio, box: Box) -> None:
    cube = radio.add(FakeGoDice("C0:FF:EE:00:00:01"))
    pixel = radio.add(FakePixel("C0:FF:EE:00:01:01", "Pixel Ada"))
    follow(box, (cube, 6), (pixel, 6))
    assert box.connected(cube) and box.connected(pixel)
    cube.play([b"R", b"R"])      # tumbling
    cube.nudge(3)                # pushed over: MS
    cube.tilt(4)                 # leaning: TS
    cube.fake_roll(5)            # turned by hand: FS
    pixel.pick_up()              # handling
    pixel.nudge(2)               # onFace, no roll
    pixel.land_crooked(4)        # crooked
    heard = []
    while True:
        try:
            heard.append(box.heard.get(timeout=0.5)[1])
        except queue.Empty:
            break
    assert not any(isinstance(r, Settled) for r in heard)
    whys = [r.why for r in heard if isinstance(r, Unsettled)]
    for why in ("rolling", "moved", "tilted", "fake", "handling", "on_face", "crooked"):
        assert why in whys


def test_battery_reported_and_kept(radio: FakeRadio, box: Box) -> None:
    pixel = radio.add(FakePixel("C0:FF:EE:00:01:01", "Pixel Ada", battery=40))
    follow(box, (pixel, 6))
    assert box.connected(pixel)
    pixel.set_battery(12)
    assert box.next(Battery)[1] == Battery(12, False)
    assert box.link.wait_until(lambda link: link.status()[pixel.address].battery == 12, WAIT)


def test_a_die_lost_mid_roll_reconnects_and_its_roll_was_never_counted(radio: FakeRadio,
                                                                        box: Box) -> None:
    cube = radio.add(FakeGoDice("C0:FF:EE:00:00:01"))
    follow(box, (cube, 6))
    assert box.connected(cube)
    cube.play([b"R", b"R"])       # tumbling...
    cube.go_away()                # ...and out of range before it settles
    assert box.link.wait_state(cube.address, DieState.LOST, WAIT)
    cube.send(b"S" + cube.xyz(6))  # nobody hears a die that is gone
    assert box.settled(0.3) == []
    cube.come_back()
    assert box.connected(cube)
    status = box.link.status()[cube.address]
    assert status.counts["connects"] == 2 and status.counts["disconnects"] == 1
    cube.roll(2)
    assert box.settled(0.5) == [(cube.address, 2)]


def test_garbage_frames_are_dropped_counted_and_harmless(radio: FakeRadio, box: Box) -> None:
    cube = radio.add(FakeGoDice("C0:FF:EE:00:00:01"))
    pixel = radio.add(FakePixel("C0:FF:EE:00:01:01", "Pixel Ada"))
    follow(box, (cube, 6), (pixel, 6))
    assert box.connected(cube) and box.connected(pixel)
    for frame in (b"", b"S\x01", b"Bat\xff", b"\xde\xad\xbe\xef", b"Col\x07"):
        cube.send(frame)
    for frame in (bytes([3, 1]), bytes([3, 1, 42]), bytes([250, 1, 2]), bytes([2, 99, 1])):
        pixel.send(frame)
    cube.roll(4)
    pixel.roll(5)
    assert sorted(f for _, f in box.settled(0.5)) == [4, 5]
    assert box.link.dropped() == {"empty": 1, "short": 2, "bad_value": 4, "unknown": 2}
    assert box.link.status()[cube.address].counts["dropped_short"] == 1
    assert box.link.status()[cube.address].state is DieState.CONNECTED


def test_a_legacy_pixel_on_the_nordic_uart_service(radio: FakeRadio, box: Box) -> None:
    old = radio.add(FakePixel("C0:FF:EE:00:01:01", "Pixel Old", die_type="d8", legacy=True))
    found = box.link.scan(0.2)
    assert [(d.vendor, d.faces) for d in found] == [("pixels", 8)]
    follow(box, (old, 8))
    assert box.connected(old)
    assert box.next(Identity)[1].die_type == "d8"  # the 22-byte IAmADie
    old.roll(8)
    assert box.settled(0.5) == [(old.address, 8)]


def test_two_boxes_side_by_side_never_take_each_others_dice(radio: FakeRadio) -> None:
    first, second = Box(radio), Box(radio)
    try:
        mine = radio.add(FakeGoDice("C0:FF:EE:00:00:01", colour="red"))
        theirs = radio.add(FakeGoDice("C0:FF:EE:00:00:02", colour="blue"))
        follow(first, (mine, 6))
        assert first.connected(mine)
        # the second box hears only the die nobody holds, and follows only its own
        assert [d.address for d in second.link.scan(0.2)] == [theirs.address]
        follow(second, (theirs, 6))
        assert second.connected(theirs)
        mine.roll(6)
        theirs.roll(1)
        assert first.settled(0.5) == [(mine.address, 6)]
        assert second.settled(0.2) == [(theirs.address, 1)]
        assert mine.address not in second.link.status()
    finally:
        first.link.close()
        second.link.close()


def test_an_unfollowed_die_is_let_go_and_advertises_again(radio: FakeRadio, box: Box) -> None:
    cube = radio.add(FakeGoDice("C0:FF:EE:00:00:01"))
    follow(box, (cube, 6))
    assert box.connected(cube)
    box.link.follow([])
    assert not cube.connected and box.link.status() == {}
    assert [d.address for d in box.link.scan(0.2)] == [cube.address]


def test_closing_the_link_ends_a_scan_under_way(radio: FakeRadio, box: Box) -> None:
    radio.add(FakeGoDice("C0:FF:EE:00:00:01"))
    ended: list[BaseException] = []

    def scan() -> None:
        try:
            box.link.scan(30.0)
        except LinkClosed as error:
            ended.append(error)

    scanning = threading.Thread(target=scan)
    scanning.start()
    time.sleep(0.3)
    box.link.close()  # the box stops: the scan does not hold it for 30 s
    scanning.join(5.0)
    assert not scanning.is_alive() and len(ended) == 1
    with pytest.raises(LinkClosed):
        box.link.scan(0.1)


def test_a_box_without_bluetooth_says_what_to_check(tmp_path: Path) -> None:
    box = Box(FakeRadio(adapter=False))
    with pytest.raises(DeviceNotFound, match=r"Bluetooth adapter not found on hci0: scanning "
                                             r"failed .*rfkill"):
        box.link.scan(0.1)
    box.link.close()
    assert adapter_problem("hci0", tmp_path / "none") == (
        f"the kernel has no Bluetooth ({tmp_path / 'none'} does not exist)")
    (tmp_path / "bt" / "hci1").mkdir(parents=True)
    assert adapter_problem("hci0", tmp_path / "bt") == (
        "no Bluetooth adapter hci0 (the kernel has hci1)")
    assert adapter_problem("hci1", tmp_path / "bt") is None


def test_bluez_without_the_adapter_is_refused_before_bleak_is_touched() -> None:
    link = DiceLink(listener=lambda address, reading: None, adapter="hci97")
    with pytest.raises(DeviceNotFound, match=r"Bluetooth adapter not found on hci97: .*"
                                             r"bluetoothctl list"):
        link.start()
    assert not link.started


def in_a_fresh_interpreter(code: str) -> None:
    """Run ``code`` in an interpreter of its own (nothing imported yet); it must succeed."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_importing_the_dice_modules_loads_no_bleak() -> None:
    code = ("import sys\n"
            "import hardware.smart_dice.link, hardware.smart_dice.godice,"
            " hardware.smart_dice.pixels, firmware_host.smart_dice, firmware_host.device\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'bleak'], 'bleak'\n")
    in_a_fresh_interpreter(code)


def test_a_box_that_never_starts_the_link_loads_no_asyncio() -> None:
    """The config, the device and the panel read the dice's settings and states from
    ``link_state``; asyncio (about 2 MiB of the box's memory) comes only with a link."""
    code = ("import sys\n"
            "import firmware_host.running_box, firmware_host.device, firmware_host.smart_dice,"
            " firmware_host.config, web_panel\n"
            "assert 'asyncio' not in sys.modules, 'asyncio'\n"
            "import hardware.smart_dice.link\n"
            "assert 'asyncio' in sys.modules\n")
    in_a_fresh_interpreter(code)
