"""A box with no smart die paired loads nothing of bleak when it starts (docs/dice.md): the
simulator's own fake dice included, until the host scans; a box whose config turns smart dice
off, or whose Pi has no Bluetooth, never does."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from tests.firmware_host.daemon import ROOT, Lines, clean_env
from tests.ports import free_port
from tests.web_panel.served import HOST_PIN, Phone, Served

WAIT = 30.0


def test_the_box_starts_without_bleak_and_brings_it_in_for_a_scan(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'host_pin = "{HOST_PIN}"\n')
    proc = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "firmware_host.cli", "run", "--hardware",
         "simulator", "--host", "127.0.0.1", "--port", str(port), "--config", str(config),
         "--data-dir", str(tmp_path / "d")],
        cwd=ROOT, env=clean_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    lines = Lines(proc.stdout)
    try:
        imported = lines.imports_until("tabletop: panel at", WAIT)
        assert "firmware_host.smart_dice" in imported
        assert [name for name in imported if name.split(".")[0] in ("bleak", "dbus_fast")
                or name == "hardware.smart_dice.fake_ble"] == []
        host = Phone(Served(app=None, host="127.0.0.1", port=port,  # type: ignore[arg-type]
                            server=None, thread=None))  # type: ignore[arg-type]
        host.login_host()
        status, scanned = host.post("/api/host/dice/scan")
        assert status == 200, scanned
        assert len(scanned["dice"]) == 8
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT) == 0


def test_no_bluetooth_adapter_or_dice_turned_off_means_no_smart_dice() -> None:
    from firmware_host.config import DeviceSettings
    from firmware_host.device import _dice_link
    from firmware_host.smart_dice import SimulatedTable
    from hardware.smart_dice.link import DiceConfig

    missing = DeviceSettings(dice=DiceConfig(adapter="hci97"))
    assert _dice_link(missing, "pi", None) is None
    off = DeviceSettings(dice=DiceConfig(enabled=False))
    assert _dice_link(off, "pi", None) is None
    assert _dice_link(off, "simulator", SimulatedTable()) is None
    assert _dice_link(DeviceSettings(), "simulator", SimulatedTable()) is not None


def test_check_hardware_says_whether_the_box_can_read_smart_dice(tmp_path: Path) -> None:
    from dataclasses import replace

    from firmware_host.config import Config
    from firmware_host.hardware_check import check_dice
    from hardware.smart_dice.link import DiceConfig

    [missing] = check_dice(replace(Config(), dice=DiceConfig(adapter="hci97")))
    assert missing.ok is None and missing.detail.endswith(": this box reads no smart die")
    assert "no Bluetooth adapter hci97" in missing.detail or "no Bluetooth" in missing.detail
    [off] = check_dice(replace(Config(), dice=DiceConfig(enabled=False)))
    assert (off.ok, off.detail) == (None, "off ([dice] enabled = false)")
