"""scripts/bootstrap installs the Pi extra on a Raspberry Pi, deciding what a Pi is exactly as
the daemon's ``--hardware auto`` does (`firmware_host.hardware_mode.is_raspberry_pi`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from firmware_host.hardware_mode import is_raspberry_pi

ROOT = Path(__file__).resolve().parents[2]
BOOTSTRAP = ROOT / "scripts" / "bootstrap"


def bootstrap_says_pi(model: Path, chips: str) -> bool:
    """Run bootstrap's own ``is_raspberry_pi`` function (cut from the script) in bash."""
    text = BOOTSTRAP.read_text()
    start = text.index("is_raspberry_pi() {")
    function = text[start : text.index("\n}\n", start) + 3]
    done = subprocess.run(
        ["bash", "-c", function + "is_raspberry_pi"], capture_output=True, timeout=30,
        env={"PATH": "/usr/bin:/bin", "TABLETOP_DT_MODEL": str(model),
             "TABLETOP_GPIOCHIPS": chips})
    return done.returncode == 0


@pytest.mark.parametrize(("model_text", "chip"), [
    (b"Raspberry Pi 4 Model B Rev 1.5\0", True),
    (b"Raspberry Pi Zero 2 W Rev 1.0\0", True),
    (b"Raspberry Pi 5 Model B Rev 1.0\0", False),  # no GPIO chip visible
    (b"Pine64 RockPro64\0", True),
    (None, False),  # no device tree: a laptop
])
def test_bootstrap_detects_a_pi_as_the_daemon_does(
        tmp_path: Path, model_text: bytes | None, chip: bool) -> None:
    model = tmp_path / "model"
    if model_text is not None:
        model.write_bytes(model_text)
    if chip:
        (tmp_path / "gpiochip0").touch()
    chips = str(tmp_path / "gpiochip*")
    assert bootstrap_says_pi(model, chips) == is_raspberry_pi(model, chips)


def test_on_a_pi_bootstrap_adds_the_pi_extra_over_the_systems_lgpio() -> None:
    text = BOOTSTRAP.read_text()
    detected = text[text.index("if is_raspberry_pi; then"):]
    block = detected[: detected.index("\nfi\n")]
    assert "extras+=(pi)" in block
    assert "venv_options+=(--system-site-packages)" in block
    assert "apt-get install -y -qq python3-lgpio" in block


def test_bootstrap_installs_the_oleds_japanese_font_in_every_mode() -> None:
    from firmware_host.screens.text import JAPANESE_FONT_PATHS

    text = BOOTSTRAP.read_text()
    block = text[text.index("misaki="):]
    block = block[: block.index("\nfi\n")]
    assert f"misaki={JAPANESE_FONT_PATHS[0]}" in block  # the file the OLED looks for first
    assert "apt-get install -y -qq fonts-misaki" in block
    assert '"${1:-}" = "dev"' not in block  # not only for developers: the box needs it
