"""Which Broadcom (BCM) GPIO each input and display line uses, with validated defaults.

The defaults keep clear of the pins the Pi's buses own: I²C-1 (GPIO2 SDA, GPIO3 SCL), SPI0
(GPIO7–11), the UART (GPIO14/15) and the HAT ID EEPROM (GPIO0/1). Dots are numbered 1–9 in
reading order (1 top left, 9 bottom right)::

    1 2 3        GPIO5  GPIO6  GPIO13
    4 5 6   ->   GPIO19 GPIO26 GPIO12
    7 8 9        GPIO16 GPIO20 GPIO21      OK GPIO17, Back GPIO27, MPR121 IRQ GPIO22

>>> PinMap().used()[17]
'OK button'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from hardware.errors import PinMapError

Key = int | Literal["ok", "back"]
"""A pad key: a dot number 1–9, or ``"ok"`` / ``"back"``."""

DOTS: tuple[int, ...] = tuple(range(1, 10))
KEYS: tuple[Key, ...] = (*DOTS, "ok", "back")

I2C_PINS: dict[int, str] = {2: "I2C-1 SDA", 3: "I2C-1 SCL"}
SPI_PINS: dict[int, str] = {
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
}
UART_PINS: dict[int, str] = {14: "UART TXD", 15: "UART RXD"}
EEPROM_PINS: dict[int, str] = {0: "HAT ID_SD", 1: "HAT ID_SC"}
GPIO_RANGE = range(0, 28)


def assign(roles: list[tuple[int, str]], reserved: dict[int, str]) -> dict[int, str]:
    """GPIO → role for ``roles``; `PinMapError` naming both roles if a pin is used twice,
    or the bus if a pin is reserved."""
    used: dict[int, str] = {}
    for pin, role in roles:
        if pin in reserved:
            raise PinMapError(f"{role}: GPIO{pin} is reserved for {reserved[pin]}")
        if pin in used:
            raise PinMapError(f"{role}: GPIO{pin} is already used by the {used[pin]}")
        used[pin] = role
    return used


def _check_gpio(pin: int, role: str) -> None:
    if isinstance(pin, bool) or not isinstance(pin, int) or pin not in GPIO_RANGE:
        raise PinMapError(f"{role}: GPIO{pin!r} is not a header GPIO (use BCM numbers 0-27)")


@dataclass(frozen=True)
class ButtonPins:
    """The nine dot buttons (in dot order 1–9) and the OK / Back buttons.

    Buttons connect the GPIO to ground; the internal pull-up is used (``pull_up=True``).
    """

    dots: tuple[int, ...] = (5, 6, 13, 19, 26, 12, 16, 20, 21)
    ok: int | None = 17
    back: int | None = 27
    pull_up: bool = True

    def __post_init__(self) -> None:
        if len(self.dots) != len(DOTS):
            raise PinMapError(f"buttons.dots: need 9 pins (dots 1-9), got {len(self.dots)}")
        for dot, pin in zip(DOTS, self.dots, strict=True):
            _check_gpio(pin, f"buttons.dots (dot {dot})")
        for name in ("ok", "back"):
            pin = getattr(self, name)
            if pin is not None:
                _check_gpio(pin, f"buttons.{name}")

    def roles(self) -> list[tuple[int, str]]:
        """(GPIO, role) for every configured button."""
        names = {"ok": "OK button", "back": "Back button"}
        return [(pin, f"dot {key} button" if isinstance(key, int) else names[key])
                for key, pin in self.keys().items()]

    def keys(self) -> dict[Key, int]:
        """Every configured key with its GPIO, dots first."""
        keys: dict[Key, int] = dict(zip(DOTS, self.dots, strict=True))
        if self.ok is not None:
            keys["ok"] = self.ok
        if self.back is not None:
            keys["back"] = self.back
        return keys


@dataclass(frozen=True)
class SpiDisplayPins:
    """Extra GPIOs an SPI OLED needs besides the SPI0 bus (luma's defaults: DC 24, RST 25)."""

    dc: int = 24
    reset: int | None = 25

    def __post_init__(self) -> None:
        _check_gpio(self.dc, "oled.dc_pin")
        if self.reset is not None:
            _check_gpio(self.reset, "oled.reset_pin")


@dataclass(frozen=True)
class PinMap:
    """Every GPIO the box uses, validated as a whole: no pin twice, no bus pin taken.

    ``buttons`` is ``None`` when the touch grid replaces them; ``touch_irq`` is ``None``
    without a touch grid; ``oled_spi`` is set only for an SPI display; ``uart`` says the
    die/keypad uses the header UART (GPIO14/15) rather than USB; ``lights`` are the pad
    lights' pins (a WS2812 chain's data line, or one per PWM LED).
    """

    buttons: ButtonPins | None = field(default_factory=ButtonPins)
    touch_irq: int | None = None
    oled_spi: SpiDisplayPins | None = None
    uart: bool = False
    i2c: bool = True
    #: (GPIO, role) of the pad's lights (``hardware.pad_lights.LightsConfig.roles``).
    lights: tuple[tuple[int, str], ...] = ()
    #: (GPIO, role) of the colour TFT's DC, reset and backlight (it is on the SPI0 bus).
    tft: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        self.used()

    def reserved(self) -> dict[int, str]:
        """Pins owned by the buses in use, by GPIO."""
        reserved = dict(EEPROM_PINS)
        if self.i2c or self.touch_irq is not None:
            reserved.update(I2C_PINS)
        if self.oled_spi is not None or self.tft:
            reserved.update(SPI_PINS)
        if self.uart:
            reserved.update(UART_PINS)
        return reserved

    def used(self) -> dict[int, str]:
        """Every GPIO we drive or read, with its role; raises `PinMapError` on a clash."""
        roles: list[tuple[int, str]] = []
        if self.buttons is not None:
            roles += self.buttons.roles()
        if self.touch_irq is not None:
            _check_gpio(self.touch_irq, "touch.irq_pin")
            roles.append((self.touch_irq, "MPR121 IRQ"))
        if self.oled_spi is not None:
            roles.append((self.oled_spi.dc, "OLED DC"))
            if self.oled_spi.reset is not None:
                roles.append((self.oled_spi.reset, "OLED reset"))
        for pin, role in (*self.lights, *self.tft):
            _check_gpio(pin, role)
            roles.append((pin, role))
        return assign(roles, self.reserved())
