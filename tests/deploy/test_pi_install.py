"""The Pi install guide, run for real: deploy/pi-install-check builds an arm64 Raspberry Pi OS
stand-in (Debian + a local python3-lgpio, under qemu-user-static) and runs the guide's own
install steps in it. Minutes per suite, root and network needed: only with ``--runslow``."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "pi-install-check"
PYTHON = {"bookworm": "3.11", "trixie": "3.13"}


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("suite", sorted(PYTHON))
def test_the_install_guide_works_on_raspberry_pi_os(suite: str) -> None:
    assert os.geteuid() == 0, "deploy/pi-install-check needs root (debootstrap, chroot, mounts)"
    done = subprocess.run([str(SCRIPT), suite], capture_output=True, text=True, timeout=3500)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"pi-install-check: {suite}: venv Python {PYTHON[suite]}" in done.stdout
    assert f"pi-install-check: {suite}: PASSED" in done.stdout


def test_the_check_runs_the_guides_install_steps() -> None:
    # The blocks deploy/pi-install-check runs, found as it finds them.
    guide = (ROOT / "docs" / "install-pi.md").read_text()
    blocks = "".join(re.findall(r"<!-- pi-install-check -->\s*```sh\n(.*?)```", guide, re.S))
    for step in ("apt install -y git python3-venv python3-lgpio i2c-tools",
                 "--groups gpio,i2c,spi,dialout tabletop",
                 "python3 -m venv --system-site-packages /opt/tabletop/venv",
                 "pip install '.[pi]'", "pip install '.[pi,spi]'",
                 "cp /opt/tabletop/src/deploy/config.example.toml /etc/tabletop/config.toml",
                 "cp /opt/tabletop/src/deploy/tabletop.service /etc/systemd/system/",
                 "systemctl enable --now tabletop"):
        assert step in blocks, step
