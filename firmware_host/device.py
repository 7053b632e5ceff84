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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Literal

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from firmware_host.pad.inputs import Input
from firmware_host.pad.interface import CompanionApi, PadInterface
from firmware_host.screens.start import die_note
from hardware.buttons import ButtonGrid
from hardware.errors import DeviceNotFound
from hardware.events import PadEvent, PadEventKind
from hardware.oled import Display, LumaDevice, OledConfig
from hardware.pinmap import ButtonPins
from hardware.protocol import DeviceMessage, DieRoll, Hello, KeyPress
from hardware.serial_die import SerialConfig, SerialDie
from hardware.touch import TouchConfig, TouchGrid

if TYPE_CHECKING:
    from firmware_host.simulator import Simulator

log = logging.getLogger(__name__)

Mode = Literal["simulator", "pi"]

#: Keypad keys that act as the pad's OK and Back.
KEYPAD_OK = "#"
KEYPAD_BACK = "*"


@dataclass(frozen=True)
class DeviceSettings:
    """What the device bundle needs from the config, with the defaults used when a key is
    absent: the pad (``buttons``, or the MPR121 ``touch`` grid: any object with ``bus``,
    ``address`` and ``irq_pin``), the OLED, the serial die, the panel's address for the start
    screen, the debounce window and how often a missing OLED is looked for again. The
    simulator always uses buttons."""

    input: Literal["buttons", "touch"] = "buttons"
    buttons: ButtonPins = field(default_factory=ButtonPins)
    touch: object = field(default_factory=TouchConfig)
    oled: OledConfig = field(default_factory=OledConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    url: str = "http://tabletop.local:8080/"
    debounce: float = 0.02
    retry_interval: float = 5.0


def settings_from(config: object) -> DeviceSettings:
    """`DeviceSettings` from a `DeviceSettings`, a mapping, or any object with those
    attributes (the daemon's config); missing keys keep their defaults."""
    if isinstance(config, DeviceSettings):
        return config
    if config is None:
        return DeviceSettings()
    names = {f.name for f in fields(DeviceSettings)}
    if isinstance(config, Mapping):
        given = {k: v for k, v in config.items() if k in names}
    else:
        given = {n: getattr(config, n) for n in names if getattr(config, n, None) is not None}
    return replace(DeviceSettings(), **given)


def touch_config(given: object) -> TouchConfig:
    """The hardware's `TouchConfig` from the daemon's touch section (``bus``, ``address``,
    ``irq_pin`` and any other field it shares)."""
    if isinstance(given, TouchConfig):
        return given
    names = {f.name for f in fields(TouchConfig)}
    return replace(TouchConfig(), **{n: getattr(given, n) for n in names if hasattr(given, n)})


def _input_of(event: PadEvent) -> Input | None:
    if event.kind is not PadEventKind.PRESSED:
        return None
    if event.key == "ok":
        return Input("ok")
    if event.key == "back":
        return Input("back")
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


class Device:
    """The built hardware and the pad loop; see the module docstring."""

    def __init__(
        self,
        *,
        mode: Mode,
        pad: PadInterface,
        grid: ButtonGrid | TouchGrid | None,
        die: SerialDie | None,
        display: Display | None,
        grid_problem: str | None = None,
    ) -> None:
        self.mode = mode
        self.pad = pad
        self.grid = grid
        self.die = die
        self.grid_problem = grid_problem
        self.simulator: Simulator | None = None
        #: Die/keypad messages handed to the pad so far.
        self.messages = MessageCount()
        self._display = display
        self._closed = False
        self._lock = threading.Lock()

    def status(self) -> dict[str, Any]:
        """``oled`` (``ok`` / ``missing...`` / ``error: ...``), ``die`` (connected),
        ``die_port``, ``pad`` (``ok`` or the problem), ``firmware`` (the die's ``device`` and
        ``version`` from its HELLO, or None)."""
        firmware = self.die.firmware if self.die is not None else None
        return {
            "oled": self.pad.oled_status(),
            "die": bool(self.die is not None and self.die.connected),
            "die_port": self.die.port if self.die is not None else None,
            "pad": self.grid_problem or "ok",
            "firmware": None if firmware is None else {"device": firmware.device,
                                                       "version": firmware.version},
        }

    def close(self) -> None:
        """Stops the pad loop and releases pins, port and display; safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.pad.close()
        if self.grid is not None:
            self.grid.close()
        if self.die is not None:
            self.die.close()
        display = self.pad.display or self._display
        if display is not None:
            display.close()

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_device(
    config: object,
    companion: CompanionApi,
    *,
    mode: Mode,
    rng: random.Random | None = None,
    pin_factory: Factory | None = None,
    oled: Callable[[], LumaDevice] | None = None,
) -> Device:
    """Builds the device bundle (see the module docstring) and attaches it to ``companion``.

    As gpiozero devices do, the hardware can be injected: ``pin_factory`` for the buttons
    (``pi`` mode; the simulator always makes its own ``MockFactory``) and ``oled``, a function
    opening the luma device (default: from the config's ``oled`` section).
    """
    settings = settings_from(config)
    rng = rng if rng is not None else random.SystemRandom()
    loop_ports: list[Any] = []

    def open_oled() -> Display:
        if oled is not None:
            return Display(oled(), contrast=settings.oled.contrast)
        return Display.from_config(settings.oled)

    opener: Callable[[str], Any] | None = None
    if mode == "simulator":
        pin_factory = MockFactory()
        if oled is None:
            from luma.core.device import dummy

            size = (settings.oled.width, settings.oled.height)
            oled = lambda: dummy(width=size[0], height=size[1], mode="1")  # noqa: E731
        serial = replace(settings.serial, port="loop://", backoff_initial=0.05,
                         backoff_max=0.5)

        def opener(url: str) -> Any:
            import serial as pyserial

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

    die: SerialDie | None = None

    def die_line() -> str | None:
        firmware = die.firmware if die is not None else None  # read once: a thread resets it
        return die_note(die is not None and die.connected,
                        firmware.version if firmware is not None else None)

    pad = PadInterface(
        companion, display, url=settings.url, open_display=open_oled, rng=rng,
        retry_interval=settings.retry_interval, note=die_line,
    )
    if problem is not None:
        pad.display_problem = problem
    delivered = MessageCount()

    def on_message(message: DeviceMessage) -> None:
        if isinstance(message, Hello):
            pad.submit_redraw()  # the start screen shows the firmware version
        event = _input_of_message(message)
        if event is not None:
            pad.submit(event)
        delivered.bump()

    die = SerialDie(serial, listener=on_message, opener=opener,
                    on_state=lambda _state: pad.submit_redraw())
    grid: ButtonGrid | TouchGrid | None = None
    grid_problem: str | None = None
    try:
        if mode == "pi" and settings.input == "touch":
            grid = TouchGrid.open(touch_config(settings.touch),
                                  listener=lambda event: _submit_pad_event(pad, event),
                                  hold_time=None, pin_factory=pin_factory)
        else:
            grid = ButtonGrid(
                settings.buttons,
                listener=lambda event: _submit_pad_event(pad, event),
                debounce=0.0 if mode == "simulator" else settings.debounce,
                hold_time=None,
                pin_factory=pin_factory,
            )
    except DeviceNotFound as error:
        grid_problem = str(error)
        log.warning("no pad: %s; the box runs on phones and the keypad", error)
    device = Device(mode=mode, pad=pad, grid=grid, die=die, display=display,
                    grid_problem=grid_problem)
    device.messages = delivered
    if mode == "simulator":
        from firmware_host.simulator import Simulator

        assert isinstance(pin_factory, MockFactory) and display is not None
        device.simulator = Simulator(device, factory=pin_factory, loop_ports=loop_ports,
                                     display=display, rng=rng)
    if hasattr(companion, "attach_status"):
        companion.attach_status(device.status)
    pad.start()
    die.start()
    return device


def _submit_pad_event(pad: PadInterface, event: PadEvent) -> None:
    converted = _input_of(event)
    if converted is not None:
        pad.submit(converted)
