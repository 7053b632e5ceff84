"""The simulator: the box's buttons, die and OLED driven in software, through the real drivers.

Buttons are gpiozero ``MockFactory`` pins (pressing drives the pin low, as a button to ground
does); the die and keypad write protocol lines into the ``loop://`` serial port the die reader
listens on; the OLED is the luma ``dummy`` device the display driver draws on. The web panel's
``/device`` page uses it (docs/session-api.md, "Simulator").
"""

from __future__ import annotations

import io
import random
import threading
from typing import TYPE_CHECKING

import serial as pyserial
from gpiozero.pins.mock import MockFactory, MockPin

from firmware_host.errors import DeviceRefusal
from firmware_host.pad_loop import PadLoop
from firmware_host.session_api import SessionApi
from hardware.buttons import ButtonGrid
from hardware.events import PadEvent, PadEventKind
from hardware.oled import Display
from hardware.pinmap import Key
from hardware.protocol import DieRoll, KeyPress, encode
from hardware.serial_die import SerialDie

if TYPE_CHECKING:
    from firmware_host.smart_dice import SimulatedTable
    from hardware.smart_dice.fake_ble import FakeDie

#: How long `roll` / `key` wait for the serial loop to be connected.
CONNECT_TIMEOUT = 2.0


class MessageCount:
    """How many die/keypad messages reached the pad; lets the simulator wait for its own."""

    def __init__(self) -> None:
        self._count = 0
        self._changed = threading.Condition()

    @property
    def count(self) -> int:
        with self._changed:
            return self._count

    def bump(self) -> None:
        with self._changed:
            self._count += 1
            self._changed.notify_all()

    def wait_beyond(self, count: int, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._count > count, timeout)


class Simulator:
    """Presses, die rolls and keypad keys for a simulated device; its live OLED frame."""

    def __init__(
        self,
        session: SessionApi,
        *,
        factory: MockFactory,
        grid: ButtonGrid,
        die: SerialDie,
        pad: PadLoop,
        messages: MessageCount,
        loop_ports: list[pyserial.SerialBase],
        display: Display,
        rng: random.Random,
        dice_table: SimulatedTable | None = None,
    ) -> None:
        self.session = session
        self.factory = factory
        self.grid = grid
        self.die = die
        self.pad = pad
        self.messages = messages
        self._ports = loop_ports
        self._display = display
        self._rng = rng
        self._dice_table = dice_table

    def _pin(self, key: Key) -> MockPin:
        keys = self.grid.pins.keys()
        if key not in keys:
            if isinstance(key, int):
                raise DeviceRefusal(f"dot {key} is not on the pad: its grid has dots 1-9 "
                                    "(a 4×4 code is drawn on the keypad)")
            raise DeviceRefusal(f"the pad has no {key} button")
        pin = self.factory.pin(keys[key])
        assert isinstance(pin, MockPin)
        return pin

    def _drive(self, key: Key, pressed: bool) -> None:
        pin = self._pin(key)
        if pressed == self.grid.pins.pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def press(self, dot: int) -> None:
        """Holds dot ``dot`` (1–9) down."""
        self._drive(_dot(dot), True)

    def release(self, dot: int) -> None:
        """Lets dot ``dot`` go."""
        self._drive(_dot(dot), False)

    def tap(self, dot: int) -> None:
        """Presses and releases dot ``dot``."""
        self.press(dot)
        self.release(dot)

    def ok(self) -> None:
        self._drive("ok", True)
        self._drive("ok", False)

    def back(self) -> None:
        """Presses and lets go of Back (Back acts when let go)."""
        self._drive("back", True)
        self._drive("back", False)

    def hold_back(self, timeout: float = 5.0) -> None:
        """Holds Back down until the grid reports it held (the games menu opens), then lets
        go: the pad's gesture for the games menu, through the real pins and hold timer."""
        self._hold("back", timeout)

    def hold_ok(self, timeout: float = 5.0) -> None:
        """Holds OK down until the grid reports it held, then lets go: OK acts as it is
        pressed, and held it asks for an UNLOCK hint (docs/pad.md)."""
        self._hold("ok", timeout)

    def _hold(self, key: Key, timeout: float) -> None:
        held = threading.Event()

        def on_event(event: PadEvent) -> None:
            if event.key == key and event.kind is PadEventKind.HELD:
                held.set()

        self.grid.add_listener(on_event)
        try:
            self._drive(key, True)
            if not held.wait(timeout):
                raise DeviceRefusal(f"{key} was held but the pad reported no hold")
        finally:
            self._drive(key, False)
            self.grid.remove_listener(on_event)

    def roll(self, value: int | None = None, faces: int | None = None) -> int:
        """The die shows ``value`` (None: it rolls by itself); returns the value sent.

        ``faces`` defaults to the die of the game on the pad (2 1 6's ``die_faces``), else 6.
        """
        if faces is None:
            faces = self._die_faces()
        if value is None:
            value = self._rng.randint(1, faces)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
            raise DeviceRefusal(f"a {faces}-sided die cannot show {value!r}")
        self._write(encode(DieRoll(faces, value)))
        return value

    def _die_faces(self) -> int:
        game_id = self.pad.game_id
        if game_id is not None:
            faces = self.session.view(game_id, None).get("die_faces")
            if isinstance(faces, int) and faces > 0:
                return faces
        return 6

    def smart_dice(self) -> list[FakeDie]:
        """The simulated table's smart dice (docs/dice.md), made when first asked for."""
        if self._dice_table is None:
            raise DeviceRefusal("this simulated box has no smart dice")
        return self._dice_table.radio().dice

    def smart_die(self, address: str) -> FakeDie:
        """One of the simulated table's smart dice, by address."""
        for die in self.smart_dice():
            if die.address == address.upper():
                return die
        raise DeviceRefusal(f"no simulated smart die at {address!r}")

    def roll_smart_die(self, address: str, face: int | None = None) -> int:
        """The simulated smart die at ``address`` is rolled on the table and lands on ``face``
        (None: at random among its faces); its frames go over the fake Bluetooth to the box,
        which reads them as from a real die. Returns the face."""
        die = self.smart_die(address)
        faces = smart_faces(die)
        if face is None:
            face = self._rng.randint(1, faces)
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= faces:
            raise DeviceRefusal(f"{die.name} has {faces} faces: it cannot show {face!r}")
        die.roll(face)  # type: ignore[attr-defined]
        return face

    def key(self, key: str) -> None:
        """A keypad key: '0'-'9', 'A'-'D', '*' (Back) or '#' (OK)."""
        self._write(encode(KeyPress(key)))

    def _write(self, line: bytes) -> None:
        if not self.die.wait_connected(CONNECT_TIMEOUT) or not self._ports:
            raise DeviceRefusal("the simulated die is not connected")
        before = self.messages.count
        self._ports[-1].write(line)
        # the line reaches the pad on the serial reader's thread: wait for it, so that what
        # the simulator does next (a button) comes after it, as it would at a table
        if not self.messages.wait_beyond(before, CONNECT_TIMEOUT):
            raise DeviceRefusal("the simulated die's message did not arrive")

    def frame_png(self) -> bytes:
        """The OLED's current image (the luma dummy device's) as PNG."""
        image = self._display.image
        if image is None:
            image = self.pad.frame()
        out = io.BytesIO()
        image.convert("1").save(out, format="PNG")
        return out.getvalue()

    def frame_version(self) -> int:
        """Bumped each time the OLED's image changes."""
        return self.pad.frame_version

    def tft_png(self) -> bytes | None:
        """The colour TFT's current image as PNG (``None`` before its first frame)."""
        image = self.pad.tft.frame()
        if image is None:
            return None
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    def tft_version(self) -> int:
        """Bumped each time the TFT's image changes."""
        return self.pad.tft.version

    def lights(self) -> dict[str, str]:
        """What the pad's lights show, key by key (``1``–``9``, ``ok``, ``back``) as
        ``#rrggbb`` (``#000000``: dark)."""
        return {str(key): "#{:02x}{:02x}{:02x}".format(*colour)
                for key, colour in self.pad.lights.frame().items()}

    def settle(self, timeout: float = 5.0) -> bool:
        """Waits until the pad has handled every queued input and redrawn."""
        return self.pad.wait_idle(timeout)


def _dot(dot: int) -> int:
    if isinstance(dot, bool) or not isinstance(dot, int):
        raise DeviceRefusal(f"a dot is a number 1-9, not {dot!r}")
    return dot


def smart_faces(die: FakeDie) -> int:
    """A simulated smart die's faces: a GoDice's shell's, a Pixel's type's."""
    shell = getattr(die, "shell", None)
    if isinstance(shell, int):
        return shell
    from hardware.smart_dice.pixels import FACES

    return FACES.get(str(getattr(die, "die_type", "")), 6)
