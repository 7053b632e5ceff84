"""The pad's lights: a light under each dot and under OK and Back, shown a frame at a time.

A frame gives each key a colour (``(r, g, b)``, 0–255; a key it leaves out is dark). Two kinds
of lights, chosen in the config's ``[lights]``:

- ``ws2812``: a chain of WS2812 ("NeoPixel") RGB LEDs, one under each key, through
  ``luma.led_matrix``'s ``ws2812`` device (the Pi's PWM0 on GPIO18, driven by DMA through
  ``rpi_ws281x``). The frame is drawn on luma's canvas as a row of pixels, one per LED in the
  chain's order (``order``: which key each LED sits under), so it is drawn like any luma device
  (the simulator draws it on luma's ``dummy``).
- ``pwm``: one LED per key (LED arcade buttons), each on a GPIO of its own through gpiozero's
  ``PWMLED``. A single-colour LED cannot show a colour: it shows the frame's brightness (the
  brightest of the three channels), so a lit key is still lit and a dim one dim.

Only a frame that differs from the last is sent. ``brightness`` (0–255) scales every frame: a
WS2812 at full power is too bright to look at across a table. A driver error never escapes
:meth:`PadLights.show`: :attr:`PadLights.problem` says what went wrong and the next frame is
sent whole.
"""

from __future__ import annotations

import logging
import threading
from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from PIL import Image

from hardware.closing import Closing
from hardware.errors import DeviceNotFound, PinMapError
from hardware.pinmap import KEYS, Key

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]
#: What the lights show: a colour per key (a key left out is dark).
Frame = Mapping[Key, Colour]
LightsKind = Literal["none", "ws2812", "pwm"]
DARK: Colour = (0, 0, 0)
#: The GPIO luma's ``ws2812`` drives (PWM0, DMA channel 10).
WS2812_PIN = 18

WS2812_ADVICE = (
    "check the wiring (data in on GPIO18 through a 3.3 V to 5 V level shifter, 5 V and GND "
    "from a supply that can feed the chain), that rpi_ws281x is installed (pip install "
    "'tabletop-companion[lights]'), that the box runs as root or with /dev/mem access (the "
    "WS2812 driver needs DMA), and that on-board audio is off (dtparam=audio=off: it uses PWM0)"
)


@dataclass(frozen=True)
class LightsConfig:
    """The pad's lights: their ``kind``, the chain's ``order`` (``ws2812``: the key under each
    LED, from the LED nearest the Pi), the GPIO of each key's LED (``pwm``; a key without one
    is dark), and the ``brightness`` (0–255) every frame is scaled to."""

    kind: LightsKind = "none"
    order: tuple[Key, ...] = KEYS
    pins: Mapping[Key, int] = field(default_factory=dict)
    brightness: int = 96

    def __post_init__(self) -> None:
        if self.kind not in ("none", "ws2812", "pwm"):
            raise PinMapError(f"lights.kind: expected none, ws2812 or pwm, got {self.kind!r}")
        unknown = [key for key in (*self.order, *self.pins) if key not in KEYS]
        if unknown:
            raise PinMapError(f"lights: {unknown[0]!r} is not a pad key (dots 1-9, ok, back)")
        if len(set(self.order)) != len(self.order):
            raise PinMapError("lights.order: a key appears twice")
        if not 0 <= self.brightness <= 255:
            raise PinMapError(f"lights.brightness: expected 0-255, got {self.brightness}")
        if self.kind == "pwm" and not self.pins:
            raise PinMapError("lights.pins: pwm lights need a GPIO for at least one key")

    def roles(self) -> list[tuple[int, str]]:
        """(GPIO, role) of every pin the lights use, for the pin map."""
        if self.kind == "ws2812":
            return [(WS2812_PIN, "pad lights (WS2812 data)")]
        if self.kind == "pwm":
            return [(pin, f"{_key_name(key)} light") for key, pin in self.pins.items()]
        return []


class PadLights(Protocol):
    """What the pad needs of its lights."""

    @property
    def problem(self) -> str | None: ...
    def show(self, frame: Frame) -> None: ...
    def close(self) -> None: ...


def scaled(colour: Colour, brightness: int) -> Colour:
    """``colour`` at ``brightness`` (0–255) of its full power."""
    r, g, b = colour
    return (r * brightness // 255, g * brightness // 255, b * brightness // 255)


class _Sender(Closing):
    """What both kinds share: the last frame sent, the brightness, and a driver error held as
    :attr:`problem` (the next frame is then sent whole)."""

    def __init__(self, brightness: int) -> None:
        self.brightness = brightness
        self.problem: str | None = None
        self._last: dict[Key, Colour] | None = None
        self._lock = threading.Lock()

    def show(self, frame: Frame) -> None:
        wanted = {key: scaled(frame.get(key, DARK), self.brightness) for key in KEYS}
        with self._lock:
            if wanted == self._last:
                return
            try:
                self._send(wanted)
            except Exception as error:  # a driver error is held, never raised to the pad
                if self.problem is None:
                    log.warning("pad lights: %s", error)
                self.problem = str(error) or type(error).__name__
                self._last = None
                return
            self.problem = None
            self._last = wanted

    @abstractmethod
    def _send(self, frame: dict[Key, Colour]) -> None:
        """Put ``frame`` (every key, scaled) on the lights; raises on a driver error."""


class ChainLights(_Sender):
    """A chain of RGB LEDs drawn through a luma device one pixel wide per LED (``ws2812``, or
    ``dummy`` in the simulator); :attr:`image` is the last frame as drawn."""

    def __init__(self, device: Any, order: tuple[Key, ...] = KEYS, brightness: int = 96) -> None:
        super().__init__(brightness)
        if tuple(device.size) != (len(order), 1):
            raise ValueError(f"the device is {device.size[0]}x{device.size[1]} pixels; the "
                             f"chain has {len(order)} LEDs in a row")
        self.device = device
        self.order = order
        self.image = Image.new("RGB", (len(order), 1))
        self._closed = False
        # luma's ws2812 dims the chain itself (0x70 of 0xFF by default): the frames are
        # scaled by ``brightness`` already, so the device's own scaling is set to full
        device.contrast(0xFF)

    def _send(self, frame: dict[Key, Colour]) -> None:
        image = Image.new("RGB", (len(self.order), 1))
        image.putdata([frame[key] for key in self.order])
        self.device.display(image)
        self.image = image

    def close(self) -> None:
        """Darkens the chain and lets the driver go; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self.device.display(Image.new("RGB", (len(self.order), 1)))
            self.device.cleanup()
            if hasattr(self.device, "_ws"):
                # luma's ws2812 cleans up again when collected, on a channel already let go
                self.device._ws = None
        except Exception as error:  # closing must not fail the box's shutdown
            log.debug("pad lights: closing: %s", error)


class PwmLights(_Sender):
    """One single-colour LED per key on a PWM GPIO (gpiozero ``PWMLED``s): a colour shows as
    its brightest channel."""

    def __init__(self, leds: Mapping[Key, Any], brightness: int = 96) -> None:
        super().__init__(brightness)
        self.leds = dict(leds)

    def _send(self, frame: dict[Key, Colour]) -> None:
        for key, led in self.leds.items():
            led.value = max(frame[key]) / 255

    def close(self) -> None:
        """Darkens and releases every LED's pin; safe to call twice."""
        for led in self.leds.values():
            try:
                led.close()
            except Exception as error:  # closing must not fail the box's shutdown
                log.debug("pad lights: closing: %s", error)


class MissingLights(Closing):
    """Lights the config asks for that could not be opened: they show nothing, and
    :attr:`problem` says why (the box runs dark)."""

    def __init__(self, why: str) -> None:
        self.problem: str | None = f"missing: {why}"

    def show(self, frame: Frame) -> None:
        """Nothing to show it on."""

    def close(self) -> None:
        """Nothing to release."""


def open_lights(config: LightsConfig, *, pin_factory: Any = None,
                ws2812: Callable[..., Any] | None = None) -> PadLights | None:
    """The pad's lights as ``config`` says (``None`` for ``kind = "none"``). ``pin_factory``
    is gpiozero's for ``pwm``; ``ws2812`` opens luma's device (default: luma.led_matrix's,
    which tests give a recording DMA interface). `DeviceNotFound` says what to check."""
    if config.kind == "none":
        return None
    if config.kind == "pwm":
        from gpiozero import PWMLED

        leds: dict[Key, Any] = {}
        try:
            for key, pin in config.pins.items():
                leds[key] = PWMLED(pin, pin_factory=pin_factory)
        except Exception as error:
            for led in leds.values():
                led.close()
            pins = ", ".join(f"GPIO{pin}" for pin in config.pins.values())
            raise DeviceNotFound("pad lights (PWM LEDs)", pins, f"{error}; check that those "
                                 "pins are free and that you are in the 'gpio' group") from error
        return PwmLights(leds, config.brightness)
    try:
        if ws2812 is None:
            from luma.led_matrix.device import ws2812 as luma_ws2812

            ws2812 = luma_ws2812
        device = ws2812(cascaded=len(config.order))
    except Exception as error:
        raise DeviceNotFound("pad lights (WS2812 chain)", f"GPIO{WS2812_PIN}",
                             f"{error}; {WS2812_ADVICE}") from error
    return ChainLights(device, config.order, config.brightness)


def _key_name(key: Key) -> str:
    return f"dot {key}" if isinstance(key, int) else {"ok": "OK", "back": "Back"}[key]
