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


def directives() -> dict[str, list[str]]:
    """Every ``Key=value`` of the [Service] section, repeated keys kept in order."""
    found: dict[str, list[str]] = {}
    section = ""
    for raw in (ROOT / "deploy" / "tabletop.service").read_text().splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


#: What keeps `systemd-analyze security` at 1.8 (docs/install-pi.md) instead of 8.5 EXPOSED.
HARDENING = {
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "PrivateMounts": "yes",
    "CapabilityBoundingSet": "",
    "AmbientCapabilities": "",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "ProtectHostname": "yes",
    "ProtectProc": "invisible",
    "RestrictNamespaces": "yes",
    "RestrictRealtime": "yes",
    "RestrictSUIDSGID": "yes",
    "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes",
    "RemoveIPC": "yes",
    "SystemCallArchitectures": "native",
    "SystemCallErrorNumber": "EPERM",
    "UMask": "0077",
}


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


def test_unit_keeps_its_hardening_directives() -> None:
    found = directives()
    for key, value in HARDENING.items():
        assert found.get(key) == [value], f"{key}={value} (found {found.get(key)})"
    assert found["SystemCallFilter"] == ["@system-service", "~@privileged @resources"]
    assert set(found["RestrictAddressFamilies"][0].split()) == {
        "AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK"}


def test_unit_writes_only_its_data_dir() -> None:
    found = directives()
    assert found["ReadWritePaths"] == ["/var/lib/tabletop"]
    assert found["StateDirectory"] == ["tabletop"]
    assert found["WorkingDirectory"] == ["/var/lib/tabletop"]


def test_unit_keeps_the_devices_and_proc_files_the_hardware_needs() -> None:
    # The GPIO, I2C, SPI and serial devices stay reachable through the groups, and
    # /proc/device-tree stays readable for `--hardware auto` and gpiozero.
    found = directives()
    for hiding in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProcSubset",
                   "ProtectClock", "PrivateUsers", "PrivateNetwork"):
        assert hiding not in found, hiding


def test_a_config_or_journal_error_is_not_restarted() -> None:
    assert directives()["RestartPreventExitStatus"] == [f"{cli.EXIT_CONFIG} {cli.EXIT_JOURNAL}"]
