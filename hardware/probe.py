"""What hardware this machine offers, with advice — for ``tabletop check-hardware``.

Every function only looks (device nodes, the serial port list, a one-byte read per I²C
address) and returns `Finding` s; none raises for missing hardware, so on a laptop the
report simply says "none found" with what to do on a Pi.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PICO_VID = 0x2E8A  # Raspberry Pi (RP2040 boards enumerate with this USB vendor id)
KNOWN_I2C = {
    0x3C: "OLED (SSD1306/SH1106)",
    0x3D: "OLED (SSD1306/SH1106, alternate address)",
    0x5A: "MPR121 touch controller",
    0x5B: "MPR121 touch controller (ADDR to 3V3)",
    0x5C: "MPR121 touch controller (ADDR to SDA)",
    0x5D: "MPR121 touch controller (ADDR to SCL)",
}
I2C_ADVICE = (
    "enable I2C at 400 kHz: add 'dtparam=i2c_arm=on,i2c_arm_baudrate=400000' to "
    "/boot/firmware/config.txt (or raspi-config > Interface Options > I2C) and reboot"
)
GPIO_ADVICE = (
    "no GPIO chip: this is not a Raspberry Pi (or the kernel lacks gpiochip); "
    "'tabletop run' will use the simulator"
)
SERIAL_ADVICE = (
    "plug the Pico die/keypad in by USB (it appears as /dev/ttyACM0; 'dmesg | tail' shows it), "
    "or leave the die to the device's own random rolls"
)


@dataclass(frozen=True)
class Finding:
    """One thing looked for: ``ok`` says whether it is usable; ``advice`` what to do if not."""

    kind: str
    name: str
    ok: bool
    detail: str
    advice: str = ""

    def __str__(self) -> str:
        mark = "ok " if self.ok else "-- "
        text = f"{mark}{self.kind}: {self.name}: {self.detail}"
        return f"{text} ({self.advice})" if self.advice else text


Access = Callable[[Path, int], bool]


def _access(path: Path, kind: str, group: str, access: Access) -> Finding:
    if access(path, os.R_OK | os.W_OK):
        return Finding(kind, str(path), True, "present and accessible")
    return Finding(kind, str(path), False, "present but not accessible",
                   f"add yourself to the '{group}' group (sudo adduser $USER {group}) and "
                   "log in again")


def i2c_buses(dev: Path = Path("/dev"), access: Access = os.access) -> list[Finding]:
    """Every /dev/i2c-N, or one finding saying none was found."""
    found = sorted(dev.glob("i2c-*"), key=lambda p: (len(p.name), p.name))
    if not found:
        return [Finding("i2c", str(dev / "i2c-*"), False, "none found", I2C_ADVICE)]
    return [_access(path, "i2c", "i2c", access) for path in found]


def gpio_chips(dev: Path = Path("/dev"), access: Access = os.access) -> list[Finding]:
    """Every /dev/gpiochipN, or one finding saying none was found."""
    found = sorted(dev.glob("gpiochip*"), key=lambda p: (len(p.name), p.name))
    if not found:
        return [Finding("gpio", str(dev / "gpiochip*"), False, "none found", GPIO_ADVICE)]
    return [_access(path, "gpio", "gpio", access) for path in found]


def serial_ports(comports: Callable[[], Iterable[Any]] | None = None) -> list[Finding]:
    """Serial ports from pyserial's list, a Pico marked as the likely die/keypad."""
    if comports is None:
        from serial.tools.list_ports import comports as list_comports

        comports = list_comports
    findings = []
    for port in sorted(comports(), key=lambda p: p.device):
        is_pico = getattr(port, "vid", None) == PICO_VID
        label = "Raspberry Pi Pico (likely the die/keypad)" if is_pico else port.description
        by_id = _by_id_link(port.device)
        detail = label + (f"; stable name {by_id}" if by_id else "")
        findings.append(Finding("serial", port.device, True, detail))
    if not findings:
        return [Finding("serial", "serial ports", False, "none found", SERIAL_ADVICE)]
    return findings


def _by_id_link(device: str, by_id: Path = Path("/dev/serial/by-id")) -> str | None:
    if not by_id.is_dir():
        return None
    for link in sorted(by_id.iterdir()):
        if os.path.realpath(link) == os.path.realpath(device):
            return str(link)
    return None


def i2c_devices(
    bus: int, open_bus: Callable[[int], Any] | None = None, addresses: Iterable[int] = KNOWN_I2C
) -> list[Finding]:
    """Which of the expected addresses answer on I²C bus ``bus`` (a one-byte read each,
    like ``i2cdetect -r``)."""
    if open_bus is None:
        import smbus2

        open_bus = smbus2.SMBus
    try:
        handle = open_bus(bus)
    except OSError as exc:
        return [Finding("i2c", f"bus {bus}", False, f"cannot open: {exc}", I2C_ADVICE)]
    findings = []
    try:
        for address in addresses:
            name = KNOWN_I2C.get(address, "device")
            try:
                handle.read_byte(address)
            except OSError:
                continue
            findings.append(Finding("i2c", f"bus {bus} address 0x{address:02X}", True,
                                    f"answers: {name}"))
    finally:
        close = getattr(handle, "close", None)
        if close is not None:
            close()
    if not findings:
        wanted = ", ".join(f"0x{a:02X}" for a in addresses)
        findings.append(Finding("i2c", f"bus {bus}", False, f"nothing answers at {wanted}",
                                "check the OLED / MPR121 wiring and power; "
                                f"'i2cdetect -y {bus}' should show 3c and 5a"))
    return findings


def probe_all(
    dev: Path = Path("/dev"),
    *,
    comports: Callable[[], Iterable[Any]] | None = None,
    open_bus: Callable[[int], Any] | None = None,
) -> list[Finding]:
    """Everything above: GPIO chips, I²C buses and what answers on them, serial ports."""
    findings = gpio_chips(dev)
    buses = i2c_buses(dev)
    findings += buses
    for finding in buses:
        if finding.ok:
            number = int(Path(finding.name).name.removeprefix("i2c-"))
            findings += i2c_devices(number, open_bus)
    findings += serial_ports(comports)
    return findings
