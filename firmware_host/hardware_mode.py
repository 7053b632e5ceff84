"""Which hardware the box runs on: a Raspberry Pi's, or the simulator anywhere else.

``scripts/bootstrap`` decides the same way before installing the Pi extra.
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Literal

Mode = Literal["simulator", "pi"]


def is_raspberry_pi(model_file: Path = Path("/proc/device-tree/model"),
                    gpiochips: str = "/dev/gpiochip*") -> bool:
    """True on a Raspberry Pi: it has GPIO chips and its device tree says so."""
    try:
        model = model_file.read_bytes().decode("utf-8", "replace")
    except OSError:
        return False
    return "Raspberry Pi" in model and bool(glob.glob(gpiochips))


def hardware_mode(choice: str) -> Mode:
    """``auto`` becomes ``pi`` on a Raspberry Pi and ``simulator`` anywhere else."""
    if choice == "auto":
        return "pi" if is_raspberry_pi() else "simulator"
    return "pi" if choice == "pi" else "simulator"
