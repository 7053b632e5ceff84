"""The device bundle: the grid, the OLED and the die built from config through `hardware/`,
wired to the pad & OLED interface (docs/session-api.md, "The device bundle").

In ``simulator`` mode the buttons sit on their own gpiozero ``MockFactory``, the OLED is a luma
``dummy`` device and the die is a pyserial ``loop://`` port, so the real driver code runs and a
`firmware_host.simulator.Simulator` drives it. In ``pi`` mode the real pins, bus and port are
used; a missing OLED or die does not stop the box: `Device.status` says so and both are retried.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

import serial as pyserial
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from firmware_host.config import DeviceSettings
from firmware_host.games import Registry, builtin_games
from firmware_host.pad.inputs import Input
from firmware_host.pad_loop import PadLoop
from firmware_host.screens.start import die_note
from firmware_host.session_api import DeviceStatus, SessionApi
from firmware_host.simulator import MessageCount, Simulator
from firmware_host.smart_dice import LinkMaker, SimulatedTable, SmartDice
from hardware.buttons import ButtonGrid
from hardware.errors import DeviceNotFound
from hardware.events import PadEvent, PadEventKind
from hardware.oled import Display, LumaDevice
from hardware.pad_lights import ChainLights, MissingLights, PadLights, open_lights
from hardware.pinmap import Key
from hardware.protocol import DeviceMessage, DieRoll, Hello, KeyPress
from hardware.serial_die import SerialDie
from hardware.smart_dice.link_state import adapter_problem
from hardware.tft import TftConfig, TftScreen
from hardware.touch import TouchGrid

if TYPE_CHECKING:
    from hardware.smart_dice.link import DiceLink

log = logging.getLogger(__name__)

Mode = Literal["simulator", "pi"]

#: The pad's keys that report a hold: Back held opens the games menu, OK held asks for a hint
#: (UNLOCK, docs/pad.md).
MENU_KEYS: tuple[Key, ...] = ("back",)
HINT_KEYS: tuple[Key, ...] = ("ok",)
HOLD_KEYS: tuple[Key, ...] = (*MENU_KEYS, *HINT_KEYS)
#: Keypad keys that act as the pad's OK and Back.
KEYPAD_OK = "#"
KEYPAD_BACK = "*"


class PadKeys:
    """The pad's key events as inputs: a dot and OK act when pressed; Back acts when let go,
    unless it was held (``hold_time``, the config's ``menu_hold``): then it opens the games
    menu (``Input("menu")``) the moment the hold is reached, and its release does nothing.
    OK still held then adds ``Input("hold_ok")`` (its press has acted already): UNLOCK's
    hint. Called on the grid's threads; ``submit`` only queues."""

    def __init__(self, submit: Callable[[Input], None]) -> None:
        self._submit = submit
        self._lock = threading.Lock()
        self._held = False

    def __call__(self, event: PadEvent) -> None:
        converted = self.convert(event)
        if converted is not None:
            self._submit(converted)

    def convert(self, event: PadEvent) -> Input | None:
        """The input of one key event (None: nothing yet)."""
        if event.key == "back":
            with self._lock:
                if event.kind is PadEventKind.PRESSED:
                    self._held = False
                    return None
                if event.kind is PadEventKind.HELD:
                    self._held = True
                    return Input("menu")
                held, self._held = self._held, False
            return None if held else Input("back")
        if event.key == "ok" and event.kind is PadEventKind.HELD:
            return Input("hold_ok")
        if event.kind is not PadEventKind.PRESSED:
            return None
        if event.key == "ok":
            return Input("ok")
        return Input("dot", int(event.key))


def _input_of_message(message: DeviceMessage) -> Input | None:
    if isinstance(message, DieRoll):
        return Input("die", message.value)
    if isinstance(message, KeyPress):
        key = message.key
        if key.isdigit():
            return Input("digit", int(key), key=key)
        if key == KEYPAD_OK:
            return Input("ok", key=key)
        if key == KEYPAD_BACK:
            return Input("back", key=key)
        if key in ("A", "B", "C", "D"):
            return Input("letter", key=key)
    return None


def _open_lights(settings: DeviceSettings, mode: Mode, pin_factory: Factory | None,
                 opener: Callable[[], PadLights | None] | None) -> PadLights | None:
    """The pad's lights: ``opener``'s, else the simulator's (a chain drawn on luma's
    ``dummy``), else the config's; missing ones are logged and the box runs dark."""
    try:
        if opener is not None:
            return opener()
        if mode == "simulator":
            from luma.core.device import dummy

            order = settings.lights.order
            return ChainLights(dummy(width=len(order), height=1, mode="RGB"), order,
                               brightness=255)
        return open_lights(settings.lights, pin_factory=pin_factory)
    except DeviceNotFound as error:
        log.warning("no pad lights: %s; running without them", error)
        return MissingLights(str(error))


def _dice_link(settings: DeviceSettings, mode: Mode,
               table: SimulatedTable | None) -> LinkMaker | None:
    """How the smart dice's link is made: over the simulator's fake dice, or BlueZ on the
    config's adapter; ``None`` (nothing of it loaded) with ``[dice] enabled = false`` or no
    Bluetooth adapter."""
    config = settings.dice
    if not config.enabled:
        return None
    if table is not None:
        return table.make_link
    problem = adapter_problem(config.adapter)
    if problem is not None:
        log.info("no smart dice: %s", problem)
        return None

    def make(listener: Any, on_state: Any) -> DiceLink:
        from hardware.smart_dice.link import DiceLink  # asyncio, only once a link is made

        return DiceLink(listener=listener, on_state=on_state, adapter=config.adapter)

    return make


def _open_tft(settings: DeviceSettings, mode: Mode,
              opener: Callable[[], TftScreen | None] | None) -> tuple[TftScreen | None, str | None]:
    """The colour TFT: ``opener``'s, else the simulator's (luma's ``dummy``), else the
    config's (none without ``[display.tft]``); and why a configured one is missing (it is
    logged and the box runs without it)."""
    try:
        if opener is not None:
            return opener(), None
        if mode == "simulator":
            from luma.core.device import dummy

            config = settings.tft or TftConfig()
            turned = config.rotation in (90, 270)
            size = (config.height, config.width) if turned else (config.width, config.height)
            return TftScreen(dummy(width=size[0], height=size[1], mode="RGB")), None
        if settings.tft is None:
            return None, None
        return TftScreen.from_config(settings.tft), None
    except DeviceNotFound as error:
        log.warning("no TFT: %s; running without it", error)
        return None, f"missing: {error}"


class Device:
    """The built hardware and the pad loop; see the module docstring."""

    def __init__(
        self,
        *,
        mode: Mode,
        pad: PadLoop,
        grid: ButtonGrid | TouchGrid | None,
        die: SerialDie,
        display: Display | None,
        messages: MessageCount,
        grid_problem: str | None = None,
        simulator: Simulator | None = None,
        dice: SmartDice | None = None,
    ) -> None:
        self.mode = mode
        self.pad = pad
        self.grid = grid
        self.die = die
        self.grid_problem = grid_problem
        #: The simulated box's controls (simulator mode only).
        self.simulator = simulator
        #: The smart dice (docs/dice.md); ``None`` without Bluetooth or with ``[dice]``
        #: turned off.
        self.dice = dice
        #: Die/keypad messages handed to the pad so far.
        self.messages = messages
        self._display = display
        self._closed = False
        self._lock = threading.Lock()

    def status(self) -> DeviceStatus:
        """``oled`` (``ok`` / ``missing...`` / ``error: ...``), ``die`` (connected),
        ``die_port``, ``pad`` (``ok`` or the problem), ``firmware`` (the die's ``device`` and
        ``version`` from its HELLO, or None)."""
        firmware = self.die.firmware
        return {
            "oled": self.pad.oled_status(),
            "die": self.die.connected,
            "die_port": self.die.port,
            "pad": self.grid_problem or "ok",
            "firmware": None if firmware is None else {"device": firmware.device,
                                                       "version": firmware.version},
            "lights": self.pad.lights.status(),
            "tft": self.pad.tft.status(),
        }

    def close(self) -> None:
        """Stops the pad loop and releases pins, port and display; safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self.dice is not None:
            self.dice.close()
        self.pad.close()
        self.pad.lights.close()
        self.pad.tft.close()
        if self.grid is not None:
            self.grid.close()
        self.die.close()
        display = self.pad.display or self._display
        if display is not None:
            display.close()

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_device(
    settings: DeviceSettings,
    session: SessionApi,
    *,
    mode: Mode,
    games: Registry | None = None,
    rng: random.Random | None = None,
    pin_factory: Factory | None = None,
    oled: Callable[[], LumaDevice] | None = None,
    lights: Callable[[], PadLights | None] | None = None,
    tft: Callable[[], TftScreen | None] | None = None,
    dice_link: LinkMaker | None = None,
) -> Device:
    """Builds the device bundle (see the module docstring) for ``session``'s games.

    As gpiozero devices do, the hardware can be injected: ``pin_factory`` for the buttons
    (``pi`` mode; the simulator always makes its own ``MockFactory``), ``oled``, a function
    opening the luma device (default: from the settings' ``oled``), and ``lights``, one opening
    the pad's lights (default: from the settings' ``lights``; the simulator draws a WS2812
    chain's frame on luma's ``dummy``), and ``tft``, one opening the colour TFT (default: from
    the settings' ``tft``; the simulator's is luma's ``dummy`` at the TFT's size, 320×240
    unless the config gives another), and ``dice_link``, one making the smart dice's link
    (default: BlueZ when the Pi has Bluetooth; the simulator's fake dice, ``SimulatedTable``).
    ``games`` are the pad controllers' registrations (default: the built-in games).
    """
    rng = rng if rng is not None else random.SystemRandom()
    loop_ports: list[pyserial.SerialBase] = []

    def open_oled() -> Display:
        if oled is not None:
            return Display(oled(), contrast=settings.oled.contrast)
        return Display.from_config(settings.oled)

    opener: Callable[[str], pyserial.SerialBase] | None = None
    if mode == "simulator":
        pin_factory = MockFactory()
        if oled is None:
            from luma.core.device import dummy

            size = (settings.oled.width, settings.oled.height)
            oled = lambda: dummy(width=size[0], height=size[1], mode="1")  # noqa: E731
        serial = replace(settings.serial, port="loop://", backoff_initial=0.05,
                         backoff_max=0.5)

        def opener(url: str) -> pyserial.SerialBase:
            port = pyserial.serial_for_url(url, timeout=0.5)
            loop_ports.append(port)
            return port
    else:
        serial = settings.serial

    display: Display | None = None
    problem: str | None = None
    try:
        display = open_oled()
    except DeviceNotFound as error:
        problem = f"missing: {error}"
        log.warning("no OLED: %s; running without it, and looking for it again", error)

    die_link: list[SerialDie] = []

    def die_line() -> str | None:
        if not die_link:
            return die_note(False, None, pad.language())
        firmware = die_link[0].firmware  # read once: the reader thread resets it
        return die_note(die_link[0].connected,
                        firmware.version if firmware is not None else None, pad.language())

    tft_screen, tft_missing = _open_tft(settings, mode, tft)
    pad = PadLoop(
        session, games if games is not None else builtin_games(), display, url=settings.url,
        open_display=open_oled, rng=rng, retry_interval=settings.retry_interval,
        note=die_line, lang=settings.language,
        lights=_open_lights(settings, mode, pin_factory, lights),
        tft=tft_screen,
    )
    if tft_missing is not None:
        pad.tft.missing = tft_missing
    if problem is not None:
        pad.oled.problem = problem
    delivered = MessageCount()

    def on_message(message: DeviceMessage) -> None:
        event = _input_of_message(message)
        if event is not None:
            pad.submit(event)
        if isinstance(message, Hello):
            pad.submit_redraw()  # the start screen shows the firmware version
        delivered.bump()

    die = SerialDie(serial, listener=on_message, opener=opener,
                    on_state=lambda _state: pad.submit_redraw())
    die_link.append(die)
    grid: ButtonGrid | TouchGrid | None = None
    grid_problem: str | None = None
    keys = PadKeys(pad.submit)
    try:
        if mode == "pi" and settings.input == "touch":
            grid = TouchGrid.open(settings.touch, listener=keys, hold_time=settings.menu_hold,
                                  hold_keys=HOLD_KEYS, pin_factory=pin_factory)
        else:
            grid = ButtonGrid(
                settings.buttons,
                listener=keys,
                debounce=0.0 if mode == "simulator" else settings.debounce,
                hold_time=settings.menu_hold,
                hold_keys=HOLD_KEYS,
                pin_factory=pin_factory,
            )
    except DeviceNotFound as error:
        grid_problem = str(error)
        log.warning("no pad: %s; the box runs on phones and the keypad", error)
    table = SimulatedTable() if mode == "simulator" else None
    make_link = dice_link if dice_link is not None else _dice_link(settings, mode, table)
    dice = None
    if make_link is not None and settings.dice.enabled:
        config = settings.dice if table is None else replace(settings.dice, scan_seconds=0.5)
        dice = SmartDice(session, pad, config, make_link)
    simulator = None
    if mode == "simulator":
        assert isinstance(pin_factory, MockFactory) and isinstance(grid, ButtonGrid)
        assert display is not None
        simulator = Simulator(session, factory=pin_factory, grid=grid, die=die, pad=pad,
                              messages=delivered, loop_ports=loop_ports, display=display,
                              rng=rng, dice_table=table if dice_link is None else None)
    device = Device(mode=mode, pad=pad, grid=grid, die=die, display=display,
                    messages=delivered, grid_problem=grid_problem, simulator=simulator,
                    dice=dice)
    pad.follower.dice = dice
    pad.start()
    die.start()
    if dice is not None:
        dice.start()
    return device

