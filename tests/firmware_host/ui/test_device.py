"""The device bundle built from the daemon's own config, and its status and close."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from firmware_host.companion import Companion
from firmware_host.config import Config
from firmware_host.device import open_device
from firmware_host.screens.start import start_screen
from tests.firmware_host.ui.conftest import shows


def test_settings_come_from_the_daemon_config() -> None:
    config = replace(Config(), url="http://10.1.2.3:9000/", debounce=0.05, retry_interval=2.0)
    settings = config.device_settings()
    assert (settings.url, settings.debounce, settings.retry_interval) == (
        "http://10.1.2.3:9000/", 0.05, 2.0)
    assert settings.buttons == config.buttons and settings.oled == config.oled
    assert settings.serial == config.serial and settings.input == config.input


def test_simulator_device_from_config_shows_its_address_reports_and_closes_twice(
    tmp_path: Path,
) -> None:
    config = replace(Config(), url="http://10.1.2.3:9000/", data_dir=tmp_path)
    with Companion.open(tmp_path / "data", host_pin="1122") as companion:
        device = open_device(config.device_settings(), companion, mode="simulator")
        companion.attach_status(device.status)
        try:
            assert device.simulator is not None
            assert device.die is not None and device.die.wait_connected(5.0)
            assert shows(device.pad, start_screen("http://10.1.2.3:9000/", "1122"))
            assert companion.status() == {"hardware": "simulator", "oled": "ok", "die": True,
                                          "die_port": "loop://", "pad": "ok",
                                          "firmware": None, "lights": "ok", "tft": "ok",
                                          "host_pin_set": True}
        finally:
            device.close()
        device.close()
        assert device.status()["die"] is False
