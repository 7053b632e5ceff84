"""The daemon's configuration: a TOML file with validated defaults.

Looked for at ``--config``, else ``/etc/tabletop/config.toml``, else
``~/.config/tabletop/config.toml``; without any file every default applies. A bad value raises
:class:`firmware_host.errors.ConfigError` whose one-line message names the key, e.g.
``config error: display.address: expected an I2C address like 0x3C, got 'abc'``.

Hardware settings reuse the hardware layer's own dataclasses (``ButtonPins``, ``TouchConfig``,
``OledConfig``, ``SerialConfig``), so their checks (pins on the header, no pin twice) apply here
too. A complete example with every key is ``deploy/config.example.toml``.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from firmware_host.errors import ConfigError
from hardware.errors import PinMapError
from hardware.oled import OledConfig
from hardware.pinmap import ButtonPins, PinMap
from hardware.serial_die import SerialConfig
from hardware.touch import TouchConfig

STANDARD_PATHS: tuple[Path, ...] = (
    Path("/etc/tabletop/config.toml"),
    Path("~/.config/tabletop/config.toml"),
)

InputKind = Literal["buttons", "touch"]
#: Whether the panel is advertised by mDNS: ``auto`` when it listens on every interface.
Advertise = Literal["auto", "on", "off"]
#: A DNS label: the box's mDNS host name and its club name (an MQTT user name and topic level).
LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?", re.ASCII)
#: A host PIN: 6 to 12 ASCII digits (other scripts' digits, such as ٢٤٦, are refused).
PIN_TEXT = re.compile(r"[0-9]{6,12}", re.ASCII)


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
class ClubConfig:
    """Club mode (docs/club.md). ``box``: this box's name in the club; it publishes its live
    tables and finished games to the club's broker with its own ``password``. ``hub``: this box
    also runs the league (ingest, ratings, pages) and, with ``broker = "local"``, its own
    Mosquitto. Neither set: club mode is off and nothing of it is loaded."""

    box: str | None = None
    hub: bool = False
    #: A box: ``auto`` (the hub found by mDNS) or ``host[:port]``. A hub: ``local`` (run
    #: Mosquitto here) or the ``host[:port]`` of a broker the club already has.
    broker: str = "auto"
    password: str | None = None
    #: The local broker's port and listening address (a hub with ``broker = "local"``).
    broker_port: int = 1883
    listen: str = "0.0.0.0"
    #: How the hub logs in to a broker the club already has.
    hub_user: str = "hub"
    hub_password: str | None = None
    #: TLS: a box (and the hub) verifies the broker with ``tls_ca``; a local broker serves TLS
    #: with ``tls_cert`` and ``tls_key``.
    tls_ca: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    #: Longest wait between two connection attempts, and before unacknowledged results are
    #: sent again.
    retry_seconds: int = 10
    resend_seconds: int = 30

    @property
    def enabled(self) -> bool:
        """Whether club mode is on."""
        return self.hub or self.box is not None


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
                              oled=self.oled, serial=self.serial, url=self.url,
                              debounce=self.debounce, retry_interval=self.retry_interval,
                              menu_hold=self.menu_hold, language=self.language)

    def pin_map(self) -> PinMap:
        """Every GPIO in use, checked as a whole."""
        return PinMap(
            buttons=self.buttons if self.input == "buttons" else None,
            touch_irq=self.touch.irq_pin if self.input == "touch" else None,
            oled_spi=self.oled.spi_pins,
            uart=self.serial.port.startswith(("/dev/serial0", "/dev/ttyAMA", "/dev/ttyS0")),
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
             "display", "serial", "web", "pad", "bots", "club", "names")
_CLUB_KEYS = ("box", "hub", "broker", "password", "password_file", "broker_port", "listen",
              "hub_user", "hub_password", "hub_password_file", "tls_ca", "tls_cert", "tls_key",
              "retry_seconds", "resend_seconds")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def parse_config(data: Mapping[str, Any], base: Path | None = None) -> Config:
    """A validated :class:`Config` from the TOML document ``data``."""
    _no_unknown(data, "", _TOP_KEYS)
    config = Config()
    reader = _Section(data, "")
    input_kind = reader.choice("input", ("buttons", "touch"), config.input)
    data_dir = reader.get("data_dir", _path(base), config.data_dir)
    host_pin = reader.get("host_pin", _pin, None)
    log_level = reader.choice("log_level", _LOG_LEVELS, config.log_level, upper=True)
    language = reader.choice("language", ("en", "ja"), config.language)

    buttons = _section(data, "buttons", ("dots", "ok", "back", "pull_up"))
    button_pins = _build("buttons", lambda: ButtonPins(
        dots=tuple(buttons.get("dots", _gpio_list(9), ButtonPins().dots)),
        ok=buttons.get("ok", _gpio_or_off, ButtonPins().ok),
        back=buttons.get("back", _gpio_or_off, ButtonPins().back),
        pull_up=buttons.get("pull_up", _bool, True),
    ))

    touch = _section(data, "touch", ("bus", "address", "irq_pin", "electrodes", "ok_electrode",
                                     "back_electrode", "touch_threshold", "release_threshold"))
    default_touch = TouchConfig()
    touch_config = _build("touch", lambda: TouchConfig(
        bus=touch.get("bus", _int(0, 10), default_touch.bus),
        address=touch.get("address", _i2c_address, default_touch.address),
        irq_pin=touch.get("irq_pin", _gpio, default_touch.irq_pin),
        electrodes=tuple(touch.get("electrodes", _electrode_list(9), default_touch.electrodes)),
        ok_electrode=touch.get("ok_electrode", _electrode_or_off, default_touch.ok_electrode),
        back_electrode=touch.get("back_electrode", _electrode_or_off,
                                 default_touch.back_electrode),
        touch_threshold=touch.get("touch_threshold", _int(1, 255),
                                  default_touch.touch_threshold),
        release_threshold=touch.get("release_threshold", _int(1, 255),
                                    default_touch.release_threshold),
    ))

    display = _section(data, "display", ("driver", "interface", "bus", "address", "spi_port",
                                         "spi_device", "spi_speed_hz", "dc_pin", "reset_pin",
                                         "rotation", "contrast", "width", "height"))
    default_oled = OledConfig()
    oled = _build("display", lambda: OledConfig(
        driver=display.choice("driver", ("ssd1306", "sh1106"), default_oled.driver),
        interface=display.choice("interface", ("i2c", "spi"), default_oled.interface),
        port=display.get("bus", _int(0, 10), default_oled.port),
        address=display.get("address", _i2c_address, default_oled.address),
        spi_port=display.get("spi_port", _int(0, 6), default_oled.spi_port),
        spi_device=display.get("spi_device", _int(0, 1), default_oled.spi_device),
        spi_speed_hz=display.get("spi_speed_hz", _int(100_000, 32_000_000),
                                 default_oled.spi_speed_hz),
        dc_pin=display.get("dc_pin", _gpio, default_oled.dc_pin),
        reset_pin=display.get("reset_pin", _gpio_or_off, default_oled.reset_pin),
        rotation=display.get("rotation", _rotation, default_oled.rotation),
        contrast=display.get("contrast", _int(0, 255), default_oled.contrast),
        width=display.get("width", _int(32, 256), default_oled.width),
        height=display.get("height", _multiple_of_8, default_oled.height),
    ))

    serial = _section(data, "serial", ("device", "baudrate"))
    serial_config = _build("serial", lambda: SerialConfig(
        port=serial.get("device", _text, SerialConfig().port),
        baudrate=serial.get("baudrate", _int(300, 4_000_000), SerialConfig().baudrate),
    ))

    web = _section(data, "web", ("host", "port", "threads"))
    web_config = WebConfig(
        host=web.get("host", _text, WebConfig().host),
        port=web.get("port", _int(1, 65535), WebConfig().port),
        threads=web.get("threads", _int(4, 512), WebConfig().threads),
    )

    pad = _section(data, "pad", ("debounce_ms", "retry_seconds", "menu_hold_ms"))
    debounce = pad.get("debounce_ms", _int(0, 500), 20) / 1000
    retry = pad.get("retry_seconds", _int(1, 3600), 5)
    menu_hold = pad.get("menu_hold_ms", _int(200, 5000), 1000) / 1000

    bots = _section(data, "bots", ("delay_ms",))
    bot_delay = bots.get("delay_ms", _int(0, 10_000), 1000) / 1000

    config = Config(input=input_kind, buttons=button_pins, touch=touch_config, oled=oled,
                    serial=serial_config, web=web_config, data_dir=data_dir, host_pin=host_pin,
                    debounce=debounce, retry_interval=float(retry), log_level=log_level,
                    menu_hold=menu_hold, language=language, bot_delay=bot_delay,
                    club=parse_club(data.get("club", {}), base), names=_names(data))
    _build("pins", config.pin_map)
    return config


def parse_club(section: object, base: Path | None = None) -> ClubConfig:
    """The ``[club]`` table (also the file ``tabletop run --join-club`` saves)."""
    if not isinstance(section, Mapping):
        raise ConfigError("club", f"expected a [club] table, got {section!r}")
    _no_unknown(section, "club", _CLUB_KEYS)
    club = _Section(section, "club")
    default = ClubConfig()
    hub = club.get("hub", _bool, False)
    box = club.get("box", _label, None)
    broker = club.get("broker", _broker, "local" if hub else "auto")
    if broker == "local" and not hub:
        raise ConfigError("club.broker", "'local' runs a broker for the hub: set hub = true, or "
                                         "give the hub's host[:port] (or 'auto')")
    if broker == "auto" and hub:
        raise ConfigError("club.broker", "a hub runs its own broker ('local') or uses the "
                                         "club's (host[:port]); 'auto' is for boxes")
    password = _secret(club, "password", base)
    if box is not None and password is None and not (hub and broker == "local"):
        raise ConfigError("club.password", f"box {box!r} needs its club password (password or "
                                           "password_file; 'tabletop club add-box' on the hub "
                                           "prints it)")
    hub_password = _secret(club, "hub_password", base)
    if hub and broker != "local" and hub_password is None:
        raise ConfigError("club.hub_password", "a hub on the club's own broker needs its "
                                               "password (hub_password or hub_password_file)")
    tls = {key: club.get(key, _existing_file(base), None)
           for key in ("tls_ca", "tls_cert", "tls_key")}
    if (tls["tls_cert"] is None) != (tls["tls_key"] is None):
        raise ConfigError("club.tls_cert", "give both tls_cert and tls_key, or neither")
    return ClubConfig(
        box=box, hub=hub, broker=broker, password=password,
        broker_port=club.get("broker_port", _int(1, 65535), default.broker_port),
        listen=club.get("listen", _text, default.listen),
        hub_user=club.get("hub_user", _label, default.hub_user), hub_password=hub_password,
        tls_ca=tls["tls_ca"], tls_cert=tls["tls_cert"], tls_key=tls["tls_key"],
        retry_seconds=club.get("retry_seconds", _int(1, 3600), default.retry_seconds),
        resend_seconds=club.get("resend_seconds", _int(1, 86400), default.resend_seconds),
    )


def _names(data: Mapping[str, Any]) -> NamesConfig:
    names = _section(data, "names", ("advertise", "host", "service", "check_seconds"))
    default = NamesConfig()

    def advertise(value: object) -> Advertise:
        if value is True or value == "on":
            return "on"
        if value is False or value == "off":
            return "off"
        if value == "auto":
            return "auto"
        raise _Bad(f"expected true, false or \"auto\", got {value!r}")

    return NamesConfig(
        advertise=names.get("advertise", advertise, default.advertise),
        host=names.get("host", _label, default.host),
        service=names.get("service", _service_name, None),
        check_seconds=names.get("check_seconds", _int(1, 3600), default.check_seconds),
    )


def broker_address(text: str, tls: bool = False) -> tuple[str, int]:
    """``host[:port]`` (``[v6]:port`` too) as a host and a port (1883, or 8883 with TLS).

    >>> broker_address("hub.local:1884"), broker_address("[::1]"), broker_address("h", True)
    (('hub.local', 1884), ('::1', 1883), ('h', 8883))
    """
    port = 8883 if tls else 1883
    host = text
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest.startswith(":"):
            port = int(rest[1:])
    elif text.count(":") == 1:
        host, _, number = text.partition(":")
        port = int(number)
    return host, port


def _broker(value: object) -> str:
    text = _text(value)
    if text in ("auto", "local"):
        return text
    try:
        host, port = broker_address(text)
    except ValueError:
        raise _Bad(f"expected host[:port], 'auto' or 'local', got {value!r}") from None
    if not host or not 1 <= port <= 65535 or any(c in host for c in "/@ "):
        raise _Bad(f"expected host[:port], 'auto' or 'local', got {value!r}")
    return text


def _secret(section: _Section, key: str, base: Path | None) -> str | None:
    """A password given inline (``key``) or in a file (``key_file``), never both."""
    inline: str | None = section.get(key, _text, None)
    path: Path | None = section.get(f"{key}_file", _path(base), None)
    if inline is not None and path is not None:
        raise ConfigError(section.key(key), f"give {key} or {key}_file, not both")
    if path is None:
        return inline
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(section.key(f"{key}_file"), f"cannot read {path}: {error}") from None
    if not text:
        raise ConfigError(section.key(f"{key}_file"), f"{path} is empty")
    return text


# --- validation helpers ------------------------------------------------------------------------

Check = Callable[[object], Any]


class _Bad(ValueError):
    """A value refused by a check; the message completes "key: …"."""


class _Section:
    def __init__(self, data: Mapping[str, Any], prefix: str) -> None:
        self.data = data
        self.prefix = prefix

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def get(self, name: str, check: Check, default: Any) -> Any:
        if name not in self.data:
            return default
        try:
            return check(self.data[name])
        except _Bad as bad:
            raise ConfigError(self.key(name), str(bad)) from None

    def choice(self, name: str, choices: tuple[str, ...], default: str, *,
               upper: bool = False) -> Any:
        def check(value: object) -> str:
            text = value.upper() if upper and isinstance(value, str) else value
            if text not in choices:
                raise _Bad(f"expected one of {', '.join(choices)}, got {value!r}")
            return str(text)

        return self.get(name, check, default)


def _section(data: Mapping[str, Any], name: str, keys: tuple[str, ...]) -> _Section:
    section = data.get(name, {})
    if not isinstance(section, Mapping):
        raise ConfigError(name, f"expected a [{name}] table, got {section!r}")
    _no_unknown(section, name, keys)
    return _Section(section, name)


def _no_unknown(data: Mapping[str, Any], prefix: str, known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known:
            where = f"{prefix}.{key}" if prefix else key
            raise ConfigError(where, f"unknown key (known here: {', '.join(known)})")


def _build(key: str, make: Callable[[], Any]) -> Any:
    """Run a hardware dataclass's own checks; their refusal names the section."""
    try:
        return make()
    except (PinMapError, ValueError) as error:
        if isinstance(error, ConfigError):
            raise
        raise ConfigError(key, str(error)) from None


def _int(low: int, high: int) -> Check:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"expected a whole number {low}–{high}, got {value!r}")
        if not low <= value <= high:
            raise _Bad(f"{value} is outside {low}–{high}")
        return value

    return check


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"expected true or false, got {value!r}")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(f"expected a non-empty text, got {value!r}")
    return value.strip()


def _gpio(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
        raise _Bad(f"expected a BCM GPIO number 0–27, got {value!r}")
    return value


def _gpio_or_off(value: object) -> int | None:
    if value is False or value == "none":
        return None
    return _gpio(value)


def _gpio_list(count: int) -> Check:
    def check(value: object) -> list[int]:
        if not isinstance(value, list) or len(value) != count:
            raise _Bad(f"expected a list of {count} GPIO numbers, got {value!r}")
        return [_gpio(v) for v in value]

    return check


def _electrode(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 11:
        raise _Bad(f"expected an MPR121 electrode 0–11, got {value!r}")
    return value


def _electrode_or_off(value: object) -> int | None:
    return None if value is False else _electrode(value)


def _electrode_list(count: int) -> Check:
    def check(value: object) -> list[int]:
        if not isinstance(value, list) or len(value) != count:
            raise _Bad(f"expected a list of {count} electrodes, got {value!r}")
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
        raise _Bad(f"expected an I2C address like 0x3C, got {value!r}")
    return number


def _rotation(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 90, 180, 270):
        raise _Bad(f"expected 0, 90, 180 or 270 (degrees clockwise), got {value!r}")
    return value


def _multiple_of_8(value: object) -> int:
    number = _int(8, 256)(value)
    if number % 8:
        raise _Bad(f"expected a multiple of 8, got {number}")
    return int(number)


def _pin(value: object) -> str:
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(text, str) or not PIN_TEXT.fullmatch(text):
        raise _Bad(f"expected 6–12 digits 0–9 (in quotes, e.g. \"246813\"), got {value!r}")
    return text


def _label(value: object) -> str:
    if not isinstance(value, str) or not LABEL.fullmatch(value):
        raise _Bad("expected a name of 1–32 lowercase letters, digits and inner hyphens "
                   f"(like table-2), got {value!r}")
    return value


def _service_name(value: object) -> str:
    text = _text(value)
    if len(text.encode()) > 63 or "." in text:
        raise _Bad(f"expected a name of at most 63 bytes without dots, got {value!r}")
    return text


def _existing_file(base: Path | None) -> Check:
    def check(value: object) -> Path:
        path: Path = _path(base)(value)
        if not path.is_file():
            raise _Bad(f"no such file: {path}")
        return path

    return check


def _path(base: Path | None) -> Check:
    def check(value: object) -> Path:
        path = Path(_text(value)).expanduser()
        return path if path.is_absolute() or base is None else base / path

    return check
