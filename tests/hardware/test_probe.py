"""Probing reports what exists, with advice, and reports 'none found' cleanly on a laptop."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from serial.tools.list_ports_common import ListPortInfo

from hardware.probe import Finding, gpio_chips, i2c_buses, i2c_devices, probe_all, serial_ports


class BusWithDevices:
    """An smbus2-shaped bus where only the given addresses acknowledge."""

    def __init__(self, present: set[int]) -> None:
        self.present = present
        self.closed = False

    def read_byte(self, address: int) -> int:
        if address not in self.present:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return 0

    def close(self) -> None:
        self.closed = True


def port(device: str, vid: int | None = None, description: str = "n/a") -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.description = vid, description
    return info


def test_nothing_found_on_a_laptop_gives_one_finding_each_with_advice(tmp_path: Path) -> None:
    findings = probe_all(tmp_path, comports=list)
    assert [(f.kind, f.ok, f.detail) for f in findings] == [
        ("gpio", False, "none found"), ("i2c", False, "none found"),
        ("serial", False, "none found"),
    ]
    assert "i2c_arm_baudrate=400000" in findings[1].advice
    assert all(f.advice for f in findings)


def test_present_nodes_are_listed_in_order(tmp_path: Path) -> None:
    for name in ("i2c-10", "i2c-1", "gpiochip0", "gpiochip4"):
        (tmp_path / name).touch()
    assert [f.name for f in i2c_buses(tmp_path)] == [str(tmp_path / "i2c-1"),
                                                      str(tmp_path / "i2c-10")]
    assert all(f.ok for f in gpio_chips(tmp_path))


def test_inaccessible_node_advises_the_group(tmp_path: Path) -> None:
    (tmp_path / "gpiochip0").touch()
    (tmp_path / "i2c-1").touch()
    refused: list[tuple[Path, int]] = []

    def access(path: Path, mode: int) -> bool:
        refused.append((path, mode))
        return False

    (gpio,) = gpio_chips(tmp_path, access=access)
    (i2c,) = i2c_buses(tmp_path, access=access)
    assert not gpio.ok and "'gpio' group" in gpio.advice
    assert not i2c.ok and "'i2c' group" in i2c.advice
    assert refused[0] == (tmp_path / "gpiochip0", os.R_OK | os.W_OK)


def test_i2c_scan_names_what_answers() -> None:
    bus = BusWithDevices({0x3C, 0x5A})
    findings = i2c_devices(1, open_bus=lambda number: bus)
    assert [(f.name, f.detail) for f in findings] == [
        ("bus 1 address 0x3C", "answers: OLED (SSD1306/SH1106)"),
        ("bus 1 address 0x5A", "answers: MPR121 touch controller"),
    ]
    assert bus.closed


def test_i2c_scan_with_nothing_answering_advises_i2cdetect() -> None:
    (finding,) = i2c_devices(1, open_bus=lambda number: BusWithDevices(set()))
    assert not finding.ok and "i2cdetect -y 1" in finding.advice


def test_i2c_bus_that_cannot_be_opened_is_reported() -> None:
    def refuse(number: int) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    (finding,) = i2c_devices(1, open_bus=refuse)
    assert not finding.ok and "Permission denied" in finding.detail


def test_probe_all_scans_each_present_bus(tmp_path: Path) -> None:
    (tmp_path / "i2c-1").touch()
    findings = probe_all(tmp_path, comports=list, open_bus=lambda n: BusWithDevices({0x3C}))
    assert Finding("i2c", "bus 1 address 0x3C", True, "answers: OLED (SSD1306/SH1106)") \
        in findings


def test_pico_is_marked_as_the_likely_die() -> None:
    findings = serial_ports(lambda: [port("/dev/ttyUSB0", 0x0403, "FT232R"),
                                     port("/dev/ttyACM0", 0x2E8A, "Board in FS mode")])
    assert [f.name for f in findings] == ["/dev/ttyACM0", "/dev/ttyUSB0"]
    assert "Pico" in findings[0].detail and findings[1].detail == "FT232R"


def test_real_port_list_of_this_machine_is_readable() -> None:
    findings = serial_ports()
    assert findings and all(f.kind == "serial" for f in findings)
