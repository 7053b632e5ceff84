"""The config's hardware tables — ``[buttons]``, ``[touch]``, ``[display]`` (the OLED, and the
colour TFT in ``[display.tft]``), ``[lights]``, ``[serial]``, ``[dice]`` — read
into the hardware layer's own dataclasses, whose checks (pins on the header, no pin twice) apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_host.config_checks import (
    BadValue,
    Check,
    Section,
    build,
    no_unknown,
    non_empty_text,
    table,
    true_or_false,
    whole_number,
)
from firmware_host.errors import ConfigError
from hardware.oled import OledConfig
from hardware.pad_lights import LightsConfig
from hardware.pinmap import KEYS, ButtonPins, Key
from hardware.serial_die import SerialConfig
from hardware.smart_dice.link_state import DiceConfig
from hardware.tft import TftConfig
from hardware.touch import TouchConfig


def parse_buttons(data: Mapping[str, Any]) -> ButtonPins:
    """The ``[buttons]`` table: the nine dots', OK's and Back's GPIOs."""
    buttons = table(data, "buttons", ("dots", "ok", "back", "pull_up"))
    pins: ButtonPins = build("buttons", lambda: ButtonPins(
        dots=tuple(buttons.get("dots", _gpio_list(9), ButtonPins().dots)),
        ok=buttons.get("ok", _gpio_or_off, ButtonPins().ok),
        back=buttons.get("back", _gpio_or_off, ButtonPins().back),
        pull_up=buttons.get("pull_up", true_or_false, True),
    ))
    return pins


def parse_touch(data: Mapping[str, Any]) -> TouchConfig:
    """The ``[touch]`` table: the MPR121 and which electrode is which key."""
    touch = table(data, "touch", ("bus", "address", "irq_pin", "electrodes", "ok_electrode",
                                  "back_electrode", "touch_threshold", "release_threshold"))
    default = TouchConfig()
    config: TouchConfig = build("touch", lambda: TouchConfig(
        bus=touch.get("bus", whole_number(0, 10), default.bus),
        address=touch.get("address", _i2c_address, default.address),
        irq_pin=touch.get("irq_pin", _gpio, default.irq_pin),
        electrodes=tuple(touch.get("electrodes", _electrode_list(9), default.electrodes)),
        ok_electrode=touch.get("ok_electrode", _electrode_or_off, default.ok_electrode),
        back_electrode=touch.get("back_electrode", _electrode_or_off, default.back_electrode),
        touch_threshold=touch.get("touch_threshold", whole_number(1, 255),
                                  default.touch_threshold),
        release_threshold=touch.get("release_threshold", whole_number(1, 255),
                                    default.release_threshold),
    ))
    return config


def parse_display(data: Mapping[str, Any]) -> OledConfig:
    """The ``[display]`` table: the OLED, on I2C or SPI."""
    display = table(data, "display", ("driver", "interface", "bus", "address", "spi_port",
                                      "spi_device", "spi_speed_hz", "dc_pin", "reset_pin",
                                      "rotation", "contrast", "width", "height", "tft"))
    default = OledConfig()
    oled: OledConfig = build("display", lambda: OledConfig(
        driver=display.choice("driver", ("ssd1306", "sh1106"), default.driver),
        interface=display.choice("interface", ("i2c", "spi"), default.interface),
        port=display.get("bus", whole_number(0, 10), default.port),
        address=display.get("address", _i2c_address, default.address),
        spi_port=display.get("spi_port", whole_number(0, 6), default.spi_port),
        spi_device=display.get("spi_device", whole_number(0, 1), default.spi_device),
        spi_speed_hz=display.get("spi_speed_hz", whole_number(100_000, 32_000_000),
                                 default.spi_speed_hz),
        dc_pin=display.get("dc_pin", _gpio, default.dc_pin),
        reset_pin=display.get("reset_pin", _gpio_or_off, default.reset_pin),
        rotation=display.get("rotation", _rotation, default.rotation),
        contrast=display.get("contrast", whole_number(0, 255), default.contrast),
        width=display.get("width", whole_number(32, 256), default.width),
        height=display.get("height", _multiple_of_8, default.height),
    ))
    return oled


def parse_tft(data: Mapping[str, Any]) -> TftConfig | None:
    """The ``[display.tft]`` table: the colour TFT beside the OLED (``None`` without one)."""
    display = data.get("display", {})
    if not isinstance(display, Mapping) or "tft" not in display:
        return None
    found = display["tft"]
    if not isinstance(found, Mapping):
        raise ConfigError("display.tft", f"expected a [display.tft] table, got {found!r}")
    keys = ("driver", "width", "height", "spi_port", "spi_device", "spi_speed_hz", "dc_pin",
            "reset_pin", "backlight_pin", "rotation")
    no_unknown(found, "display.tft", keys)
    tft = Section(found, "display.tft")
    default = TftConfig()
    config: TftConfig = build("display.tft", lambda: TftConfig(
        driver=tft.choice("driver", ("ili9341", "st7789"), default.driver),
        width=tft.get("width", whole_number(240, 320), default.width),
        height=tft.get("height", whole_number(240, 320), default.height),
        spi_port=tft.get("spi_port", whole_number(0, 6), default.spi_port),
        spi_device=tft.get("spi_device", whole_number(0, 1), default.spi_device),
        spi_speed_hz=tft.get("spi_speed_hz", whole_number(1_000_000, 80_000_000),
                             default.spi_speed_hz),
        dc_pin=tft.get("dc_pin", _gpio, default.dc_pin),
        reset_pin=tft.get("reset_pin", _gpio_or_off, default.reset_pin),
        backlight_pin=tft.get("backlight_pin", _gpio_or_off, default.backlight_pin),
        rotation=tft.get("rotation", _rotation, default.rotation),
    ))
    return config


def parse_lights(data: Mapping[str, Any]) -> LightsConfig:
    """The ``[lights]`` table: the pad's lights (none, a WS2812 chain, or PWM LEDs)."""
    lights = table(data, "lights", ("kind", "order", "pins", "brightness"))
    default = LightsConfig()
    config: LightsConfig = build("lights", lambda: LightsConfig(
        kind=lights.choice("kind", ("none", "ws2812", "pwm"), default.kind),
        order=tuple(lights.get("order", _key_list, default.order)),
        pins=lights.get("pins", _key_pins, {}),
        brightness=lights.get("brightness", whole_number(0, 255), default.brightness),
    ))
    return config


def _key(value: object) -> Key:
    """A pad key: a dot 1–9 (a number, or its digit as text) or ``ok`` / ``back``."""
    key = int(value) if isinstance(value, str) and value.isdigit() else value
    if key in KEYS and not isinstance(key, bool):
        return key
    raise BadValue(f"expected a pad key (a dot 1-9, \"ok\" or \"back\"), got {value!r}")


def _key_list(value: object) -> list[Key]:
    if not isinstance(value, list) or not value:
        raise BadValue(f"expected a list of pad keys (dots 1-9, \"ok\", \"back\"), got {value!r}")
    return [_key(v) for v in value]


def _key_pins(value: object) -> dict[Key, int]:
    if not isinstance(value, Mapping):
        raise BadValue(f"expected a table of key = GPIO (e.g. 1 = 4, ok = 23), got {value!r}")
    return {_key(key): _gpio(pin) for key, pin in value.items()}


def parse_serial(data: Mapping[str, Any]) -> SerialConfig:
    """The ``[serial]`` table: the die's serial device and speed."""
    serial = table(data, "serial", ("device", "baudrate"))
    config: SerialConfig = build("serial", lambda: SerialConfig(
        port=serial.get("device", non_empty_text, SerialConfig().port),
        baudrate=serial.get("baudrate", whole_number(300, 4_000_000), SerialConfig().baudrate),
    ))
    return config


def parse_dice(data: Mapping[str, Any]) -> DiceConfig:
    """The ``[dice]`` table: smart dice over Bluetooth LE (docs/dice.md)."""
    dice = table(data, "dice", ("enabled", "adapter", "battery_warning", "scan_seconds"))
    default = DiceConfig()
    config: DiceConfig = build("dice", lambda: DiceConfig(
        enabled=dice.get("enabled", true_or_false, default.enabled),
        adapter=dice.get("adapter", non_empty_text, default.adapter),
        battery_warning=dice.get("battery_warning", whole_number(0, 100),
                                 default.battery_warning),
        scan_seconds=float(dice.get("scan_seconds", whole_number(1, 60),
                                    int(default.scan_seconds))),
    ))
    return config


def _gpio(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
        raise BadValue(f"expected a BCM GPIO number 0–27, got {value!r}")
    return value


def _gpio_or_off(value: object) -> int | None:
    if value is False or value == "none":
        return None
    return _gpio(value)


def _gpio_list(count: int) -> Check:
    def check(value: object) -> list[int]:
        if not isinstance(value, list) or len(value) != count:
            raise BadValue(f"expected a list of {count} GPIO numbers, got {value!r}")
        return [_gpio(v) for v in value]

    return check


def _electrode(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 11:
        raise BadValue(f"expected an MPR121 electrode 0–11, got {value!r}")
    return value


def _electrode_or_off(value: object) -> int | None:
    return None if value is False else _electrode(value)


def _electrode_list(count: int) -> Check:
    def check(value: object) -> list[int]:
        if not isinstance(value, list) or len(value) != count:
            raise BadValue(f"expected a list of {count} electrodes, got {value!r}")
        return [_electrode(v) for v in value]

    return check


def _i2c_address(value: object) -> int:
    number: object = value
    if isinstance(value, str):
        try:
            number = int(value, 0)
        except ValueError:
            number = None
    if isinstance(number, bool) or not isinstance(number, int) or not 0x03 <= number <= 0x77:
        raise BadValue(f"expected an I2C address like 0x3C, got {value!r}")
    return number


def _rotation(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 90, 180, 270):
        raise BadValue(f"expected 0, 90, 180 or 270 (degrees clockwise), got {value!r}")
    return value


def _multiple_of_8(value: object) -> int:
    number = whole_number(8, 256)(value)
    if number % 8:
        raise BadValue(f"expected a multiple of 8, got {number}")
    return int(number)
