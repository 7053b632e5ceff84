"""The systemd unit runs the command as the install guide sets it up."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

from firmware_host import cli

ROOT = Path(__file__).resolve().parents[2]


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(ROOT / "deploy" / "tabletop.service")
    return parser


def test_unit_restarts_on_failure_as_the_tabletop_user_with_hardware_groups() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["User"] == "tabletop"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi", "dialout"}
    assert service["Environment"] == "PYTHONUNBUFFERED=1"  # the last of the Environment lines
    text = (ROOT / "deploy" / "tabletop.service").read_text()
    assert "Environment=GPIOZERO_PIN_FACTORY=lgpio\n" in text


def test_unit_command_line_is_one_the_cli_accepts() -> None:
    program, *args = shlex.split(unit()["Service"]["ExecStart"])
    assert program.endswith("/bin/tabletop")
    parsed = cli._parser().parse_args(args)
    assert (parsed.command, parsed.hardware, str(parsed.data_dir)) == (
        "run", "auto", unit()["Service"]["ReadWritePaths"])


def test_install_guide_uses_the_unit_and_the_pi_extra() -> None:
    guide = (ROOT / "docs" / "install-pi.md").read_text()
    for needed in ("deploy/tabletop.service", ".[pi]", "i2c_arm_baudrate=400000",
                   "journalctl -u tabletop", "systemctl enable --now tabletop"):
        assert needed in guide, needed
