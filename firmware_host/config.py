"""The daemon's configuration: a TOML file with validated defaults.

Looked for at ``--config``, else ``/etc/tabletop/config.toml``, else
``~/.config/tabletop/config.toml``; without any file every default applies. A bad value raises
:class:`firmware_host.errors.ConfigError` whose one-line message names the key, e.g.
``config error: display.address: expected an I2C address like 0x3C, got 'abc'``.

Tables are read key by key (:mod:`~firmware_host.config_checks`). The hardware ones become the
hardware layer's own dataclasses (:mod:`~firmware_host.config_hardware`), so their checks (pins on
the header, no pin twice) apply here too; ``[club]`` is :mod:`~firmware_host.config_club`'s. This
module holds the rest and hands every name on. A complete example with every key is
``deploy/config.example.toml``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from firmware_host.config_checks import (
    LABEL,
    PIN_TEXT,
    BadValue,
    Section,
    build,
    dns_label,
    no_unknown,
    non_empty_text,
    path_from,
    pin_digits,
    table,
    whole_number,
)
from firmware_host.config_club import ClubConfig, broker_address, parse_club
from firmware_host.config_hardware import (
    parse_buttons,
    parse_dice,
    parse_display,
    parse_lights,
    parse_serial,
    parse_tft,
    parse_touch,
)
from firmware_host.errors import ConfigError
from hardware.oled import OledConfig
from hardware.pad_lights import LightsConfig
from hardware.pinmap import ButtonPins, PinMap
from hardware.serial_die import SerialConfig
from hardware.smart_dice.link_state import DiceConfig
from hardware.tft import TftConfig
from hardware.touch import TouchConfig

__all__ = ["LABEL", "PIN_TEXT", "STANDARD_PATHS", "Advertise", "ClubConfig", "Config",
           "DeviceSettings", "InputKind", "NamesConfig", "WebConfig", "broker_address",
           "default_data_dir", "find_config", "load_config", "parse_club", "parse_config"]

STANDARD_PATHS: tuple[Path, ...] = (
    Path("/etc/tabletop/config.toml"),
    Path("~/.config/tabletop/config.toml"),
)

InputKind = Literal["buttons", "touch"]
#: Whether the panel is advertised by mDNS: ``auto`` when it listens on every interface.
Advertise = Literal["auto", "on", "off"]


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/tabletop`` (``~/.local/share/tabletop``); the service sets its own."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tabletop"


@dataclass(frozen=True)
class WebConfig:
    """Where the panel listens, and how many waitress threads serve its pages and actions
    (live pages hold none: one thread feeds every live stream). ``host`` unset: every
    interface on a Pi, only this computer (127.0.0.1) in the simulator — whose ``/device`` page
    plays any seat."""

    host: str | None = None
    port: int = 8080
    threads: int = 16


@dataclass(frozen=True)
class NamesConfig:
    """Finding the box by name (mDNS/DNS-SD): ``http://<host>.local/`` and an ``_http._tcp``
    service named after the box (``service``, default the club box name or ``host``).
    ``advertise = "auto"``: only when the panel listens on every interface."""

    advertise: Advertise = "auto"
    host: str = "tabletop"
    service: str | None = None
    #: How often the box's addresses are looked at again (a new Wi-Fi, a new lease).
    check_seconds: int = 10


@dataclass(frozen=True)
class DeviceSettings:
    """What the device bundle (``firmware_host.device``) is built from: the pad (``buttons``,
    or the MPR121 ``touch`` grid), the OLED, the serial die, the panel's address for the start
    screen, the debounce window and how often a missing OLED is looked for again. The simulator
    always uses buttons."""

    input: InputKind = "buttons"
    buttons: ButtonPins = field(default_factory=ButtonPins)
    touch: TouchConfig = field(default_factory=TouchConfig)
    oled: OledConfig = field(default_factory=OledConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    tft: TftConfig | None = None
    #: Smart dice over Bluetooth LE (docs/dice.md).
    dice: DiceConfig = field(default_factory=DiceConfig)
    url: str = "http://tabletop.local:8080/"
    debounce: float = 0.02
    retry_interval: float = 5.0
    #: How long Back is held to open the games menu (seconds).
    menu_hold: float = 1.0
    #: The OLED's language (``en``/``ja``) unless the host chose another.
    language: str = "en"


@dataclass(frozen=True)
class Config:
    """Everything ``tabletop run`` is built from, validated once (:func:`parse_config`)."""

    input: InputKind = "buttons"
    buttons: ButtonPins = field(default_factory=ButtonPins)
    touch: TouchConfig = field(default_factory=TouchConfig)
    oled: OledConfig = field(default_factory=OledConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    tft: TftConfig | None = None
    dice: DiceConfig = field(default_factory=DiceConfig)
    web: WebConfig = field(default_factory=WebConfig)
    data_dir: Path = field(default_factory=default_data_dir)
    host_pin: str | None = None
    debounce: float = 0.02
    retry_interval: float = 5.0
    log_level: str = "INFO"
    menu_hold: float = 1.0
    language: str = "en"
    #: Seconds a bot seat waits before it moves, so the table can follow (``[bots] delay_ms``).
    bot_delay: float = 1.0
    club: ClubConfig = field(default_factory=ClubConfig)
    names: NamesConfig = field(default_factory=NamesConfig)
    source: Path | None = None
    #: The panel's address shown on the OLED start screen (set by ``tabletop run``).
    url: str = "http://tabletop.local:8080/"

    def device_settings(self) -> DeviceSettings:
        """The part of the config the device bundle is built from."""
        return DeviceSettings(input=self.input, buttons=self.buttons, touch=self.touch,
                              oled=self.oled, serial=self.serial, lights=self.lights,
                              tft=self.tft, dice=self.dice, url=self.url,
                              debounce=self.debounce, retry_interval=self.retry_interval,
                              menu_hold=self.menu_hold, language=self.language)

    def pin_map(self) -> PinMap:
        """Every GPIO in use, checked as a whole."""
        return PinMap(
            buttons=self.buttons if self.input == "buttons" else None,
            touch_irq=self.touch.irq_pin if self.input == "touch" else None,
            oled_spi=self.oled.spi_pins,
            uart=self.serial.port.startswith(("/dev/serial0", "/dev/ttyAMA", "/dev/ttyS0")),
            lights=tuple(self.lights.roles()),
            tft=tuple(self.tft.roles()) if self.tft is not None else (),
        )


# --- reading ---------------------------------------------------------------------------------


def find_config(explicit: Path | None) -> Path | None:
    """The config file to read: ``explicit`` (which must exist), else the first standard path
    that exists, else ``None``."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError("--config", f"no such file: {explicit}")
        return explicit
    for path in STANDARD_PATHS:
        path = path.expanduser()
        if path.is_file():
            return path
    return None


def load_config(explicit: Path | None = None) -> Config:
    """Read and validate the config (see the module docstring)."""
    path = find_config(explicit)
    if path is None:
        return Config()
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(path), f"not valid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(
            str(path), f"not valid TOML: not UTF-8 text (byte {error.start})"
        ) from None
    except OSError as error:
        raise ConfigError(str(path), f"cannot read it: {error.strerror}") from None
    return replace(parse_config(data, base=path.parent), source=path)


_TOP_KEYS = ("input", "data_dir", "host_pin", "log_level", "language", "buttons", "touch",
             "display", "serial", "lights", "dice", "web", "pad", "bots", "club", "names")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def parse_config(data: Mapping[str, Any], base: Path | None = None) -> Config:
    """A validated :class:`Config` from the TOML document ``data``."""
    no_unknown(data, "", _TOP_KEYS)
    config = Config()
    reader = Section(data, "")
    input_kind = reader.choice("input", ("buttons", "touch"), config.input)
    data_dir = reader.get("data_dir", path_from(base), config.data_dir)
    host_pin = reader.get("host_pin", pin_digits, None)
    log_level = reader.choice("log_level", _LOG_LEVELS, config.log_level, upper=True)
    language = reader.choice("language", ("en", "ja"), config.language)
    button_pins = parse_buttons(data)
    touch_config = parse_touch(data)
    oled = parse_display(data)
    serial_config = parse_serial(data)
    lights = parse_lights(data)
    tft = parse_tft(data)
    dice = parse_dice(data)
    if tft is not None and oled.interface == "spi" and (tft.spi_port, tft.spi_device) == (
            oled.spi_port, oled.spi_device):
        raise ConfigError("display.tft.spi_device", f"SPI {tft.spi_port}.{tft.spi_device} is "
                          "the OLED's: give the TFT the other chip select (spi_device = 1)")

    web = table(data, "web", ("host", "port", "threads"))
    web_config = WebConfig(
        host=web.get("host", non_empty_text, WebConfig().host),
        port=web.get("port", whole_number(1, 65535), WebConfig().port),
        threads=web.get("threads", whole_number(4, 512), WebConfig().threads),
    )

    pad = table(data, "pad", ("debounce_ms", "retry_seconds", "menu_hold_ms"))
    debounce = pad.get("debounce_ms", whole_number(0, 500), 20) / 1000
    retry = pad.get("retry_seconds", whole_number(1, 3600), 5)
    menu_hold = pad.get("menu_hold_ms", whole_number(200, 5000), 1000) / 1000

    bots = table(data, "bots", ("delay_ms",))
    bot_delay = bots.get("delay_ms", whole_number(0, 10_000), 1000) / 1000

    config = Config(input=input_kind, buttons=button_pins, touch=touch_config, oled=oled,
                    serial=serial_config, lights=lights, tft=tft, dice=dice, web=web_config,
                    data_dir=data_dir,
                    host_pin=host_pin,
                    debounce=debounce, retry_interval=float(retry), log_level=log_level,
                    menu_hold=menu_hold, language=language, bot_delay=bot_delay,
                    club=parse_club(data.get("club", {}), base), names=_names(data))
    build("pins", config.pin_map)
    return config


def _names(data: Mapping[str, Any]) -> NamesConfig:
    names = table(data, "names", ("advertise", "host", "service", "check_seconds"))
    default = NamesConfig()

    def advertise(value: object) -> Advertise:
        if value is True or value == "on":
            return "on"
        if value is False or value == "off":
            return "off"
        if value == "auto":
            return "auto"
        raise BadValue(f"expected true, false or \"auto\", got {value!r}")

    return NamesConfig(
        advertise=names.get("advertise", advertise, default.advertise),
        host=names.get("host", dns_label, default.host),
        service=names.get("service", _service_name, None),
        check_seconds=names.get("check_seconds", whole_number(1, 3600), default.check_seconds),
    )


def _service_name(value: object) -> str:
    text = non_empty_text(value)
    if len(text.encode()) > 63 or "." in text:
        raise BadValue(f"expected a name of at most 63 bytes without dots, got {value!r}")
    return text
