"""``tabletop check-hardware``: what the configured box finds on its pins, buses and ports.

Each check gives a :class:`Finding` — what was looked for, where, whether it answered, and what
to do when it did not. First what this machine offers (the hardware layer's probes: GPIO chips,
I²C buses and what answers on them, serial ports), then what the config asks for (the board,
the pins in use, the pin factory, groups, the OLED's and the touch grid's bus and address, the
colour TFT's SPI device, the pad's lights, the die's serial device, the Bluetooth adapter for
smart dice, the data directory).
"""

from __future__ import annotations

import grp
import importlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from firmware_host.config import Config


@dataclass(frozen=True)
class Finding:
    """One check: ``ok`` (``None``: information only), what and where, and advice on failure."""

    what: str
    ok: bool | None
    detail: str
    advice: str = ""

    def lines(self) -> list[str]:
        mark = {True: "ok  ", False: "FAIL", None: "info"}[self.ok]
        out = [f"[{mark}] {self.what}: {self.detail}"]
        if self.advice and self.ok is False:
            out.append(f"       → {self.advice}")
        return out


def report(config: Config, checks: Iterable[Callable[[Config], list[Finding]]] | None = None
           ) -> tuple[str, bool]:
    """The report's text and whether every check passed."""
    findings: list[Finding] = []
    for check in checks if checks is not None else CHECKS:
        findings.extend(check(config))
    text = "\n".join(line for f in findings for line in f.lines()) + "\n"
    failed = [f for f in findings if f.ok is False]
    text += (f"\n{len(failed)} problem(s) found.\n" if failed else "\nEverything answered.\n")
    return text, not failed


def check_platform(config: Config) -> list[Finding]:
    model_file = Path("/proc/device-tree/model")
    try:
        model = model_file.read_bytes().decode("utf-8", "replace").rstrip("\x00")
    except OSError:
        model = ""
    if "Raspberry Pi" in model:
        return [Finding("board", True, model)]
    return [Finding("board", False, f"not a Raspberry Pi ({model or 'no device-tree model'})",
                    "'tabletop run' will use the simulator here; run this on the Pi")]


def check_config(config: Config) -> list[Finding]:
    source = str(config.source) if config.source else "none found (every default applies)"
    used = config.pin_map().used()
    pins = ", ".join(f"GPIO{pin} {role}" for pin, role in sorted(used.items()))
    return [Finding("config file", None, source),
            Finding("pins in use", None, pins or "none")]


def check_machine(config: Config) -> list[Finding]:
    """The hardware layer's view of this machine (``hardware.probe.probe_all``)."""
    from hardware.probe import probe_all

    return [Finding(f"{found.kind} {found.name}", found.ok, found.detail, found.advice)
            for found in probe_all()]


def check_pin_factory(config: Config) -> list[Finding]:
    factory = os.environ.get("GPIOZERO_PIN_FACTORY", "")
    try:
        importlib.import_module("lgpio")
        has_lgpio = True
    except ImportError:
        has_lgpio = False
    except OSError as error:  # lgpio opens its notification pipe in the working directory
        return [Finding(
            "pin factory", False, f"lgpio is installed but cannot start here: {error}",
            f"run it from a directory this user can write ({os.getcwd()} is not), e.g. "
            "cd /tmp first; the service runs in /var/lib/tabletop")]
    return [Finding(
        "pin factory", has_lgpio and factory in ("", "lgpio"),
        f"GPIOZERO_PIN_FACTORY={factory or '(unset)'}, lgpio "
        f"{'installed' if has_lgpio else 'missing'}",
        "sudo apt install python3-lgpio (in a venv made with --system-site-packages; see "
        "docs/install-pi.md) and set GPIOZERO_PIN_FACTORY=lgpio (the service unit does)")]


def check_groups(config: Config) -> list[Finding]:
    needed = ["gpio", "i2c", "dialout"]
    if config.oled.interface == "spi" or config.tft is not None:
        needed.append("spi")
    mine = set(os.getgroups())
    missing = []
    for name in needed:
        try:
            gid = grp.getgrnam(name).gr_gid
        except KeyError:
            continue  # the group does not exist on this system
        if gid not in mine and os.geteuid() != 0:
            missing.append(name)
    if missing:
        return [Finding("groups", False, f"this user is not in {', '.join(missing)}",
                        f"sudo usermod -aG {','.join(missing)} $USER, then log in again")]
    return [Finding("groups", True, "this user may use the GPIO, buses and serial ports")]


def _i2c_device(bus: int, address: int, name: str, advice: str) -> Finding:
    path = Path(f"/dev/i2c-{bus}")
    where = f"I2C bus {bus} address 0x{address:02X}"
    if not path.exists():
        return Finding(name, False, f"{where}: no {path}", advice)
    try:
        from smbus2 import SMBus
    except ImportError:
        return Finding(name, False, f"{where}: smbus2 is not installed",
                       "pip install 'tabletop-companion[pi]'")
    try:
        with SMBus(bus) as smbus:
            smbus.read_byte(address)
    except OSError as error:
        return Finding(name, False, f"{where}: no answer ({error.strerror or error})", advice)
    return Finding(name, True, f"{where} answers")


def check_display(config: Config) -> list[Finding]:
    oled = config.oled
    name = f"OLED ({oled.driver}, {oled.interface})"
    if oled.interface == "i2c":
        return [_i2c_device(oled.port, oled.address, name, oled.advice())]
    path = Path(f"/dev/spidev{oled.spi_port}.{oled.spi_device}")
    return [Finding(name, path.exists(), f"{path} {'present' if path.exists() else 'missing'}",
                    oled.advice())]


def check_tft(config: Config) -> list[Finding]:
    """The colour TFT (``[display.tft]``), when the config has one: its SPI device."""
    tft = config.tft
    if tft is None:
        return []
    path = Path(f"/dev/spidev{tft.spi_port}.{tft.spi_device}")
    return [Finding(f"TFT ({tft.driver}, {tft.width}x{tft.height})", path.exists(),
                    f"{path} {'present' if path.exists() else 'missing'}", tft.advice())]


def check_touch(config: Config) -> list[Finding]:
    if config.input != "touch":
        return []
    touch = config.touch
    return [_i2c_device(touch.bus, touch.address, "touch grid (MPR121)",
                        f"check the MPR121's wiring (SDA GPIO2, SCL GPIO3, IRQ "
                        f"GPIO{touch.irq_pin}) and its address jumper")]


def check_lights(config: Config) -> list[Finding]:
    """The pad's lights: a WS2812 chain needs its DMA driver and root (``/dev/mem``); PWM LEDs
    need only their pins (in the pin map above) and the pin factory."""
    lights = config.lights
    if lights.kind == "none":
        return [Finding("pad lights", None, "none configured ([lights] kind = \"none\")")]
    if lights.kind == "pwm":
        pins = ", ".join(f"{key}: GPIO{pin}" for key, pin in lights.pins.items())
        return [Finding("pad lights (PWM LEDs)", None, f"{pins}; driven through the pin factory")]
    from hardware.pad_lights import WS2812_ADVICE

    try:
        importlib.import_module("_rpi_ws281x")
    except ImportError:
        return [Finding("pad lights (WS2812 chain)", False, "rpi_ws281x is not installed",
                        WS2812_ADVICE)]
    if not os.access("/dev/mem", os.R_OK | os.W_OK):
        return [Finding("pad lights (WS2812 chain)", False,
                        "GPIO18: the DMA driver needs /dev/mem, which this user cannot open",
                        WS2812_ADVICE)]
    return [Finding("pad lights (WS2812 chain)", True,
                    f"GPIO18, {len(lights.order)} LEDs; the driver and /dev/mem are there")]


def check_serial(config: Config) -> list[Finding]:
    device = config.serial.port
    if "://" in device:
        return [Finding("die/keypad", None, f"{device} is a URL; not checked")]
    path = Path(device)
    if not path.exists():
        return [Finding("die/keypad", False, f"{device} not found",
                        "plug in the die/keypad (USB) or set [serial] device in the config; "
                        "the box runs without it and waits")]
    if not os.access(path, os.R_OK | os.W_OK):
        return [Finding("die/keypad", False, f"{device} exists but is not accessible",
                        "add this user to the 'dialout' group")]
    return [Finding("die/keypad", True, f"{device} present")]


def check_dice(config: Config) -> list[Finding]:
    """The Bluetooth adapter smart dice need (docs/dice.md); without one the box has none,
    which is no fault: information only."""
    from hardware.smart_dice.link_state import adapter_problem

    dice = config.dice
    if not dice.enabled:
        return [Finding("smart dice", None, "off ([dice] enabled = false)")]
    problem = adapter_problem(dice.adapter)
    if problem is not None:
        return [Finding("smart dice", None, f"{problem}: this box reads no smart die")]
    return [Finding("smart dice", True, f"Bluetooth adapter {dice.adapter} present (pair the "
                                        "dice on the host page)")]


def check_data_dir(config: Config) -> list[Finding]:
    path = Path(config.data_dir)
    probe = path if path.exists() else next((p for p in path.parents if p.exists()), path)
    writable = os.access(probe, os.W_OK)
    return [Finding("data directory", writable, f"{path}",
                    f"make {path} writable by this user (the service uses /var/lib/tabletop)")]


CHECKS: tuple[Callable[[Config], list[Finding]], ...] = (
    check_machine, check_platform, check_config, check_pin_factory, check_groups, check_display,
    check_tft, check_touch, check_lights, check_serial, check_dice, check_data_dir,
)
