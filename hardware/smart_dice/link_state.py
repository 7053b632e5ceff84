"""What the smart dice's link is told and tells, without the link itself: the ``[dice]``
settings, whether the kernel has the adapter, and each followed die's state.

Kept apart from :mod:`hardware.smart_dice.link` so that the config, the host page and the
checks read them without importing asyncio (about 2 MiB of the box's memory) on a box that
never starts the link.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from hardware.smart_dice.readings import Reading

BLUETOOTH_ADVICE = (
    "check that the Pi has Bluetooth (a Pi 3, 4, 5 or Zero 2 W, or a USB dongle), that it is "
    "not blocked ('rfkill list', 'sudo rfkill unblock bluetooth'), that BlueZ runs ('sudo "
    "systemctl status bluetooth'), and that 'bluetoothctl list' shows the adapter"
)

Listener = Callable[[str, Reading], None]


@dataclass(frozen=True)
class DiceConfig:
    """Smart dice (the config's ``[dice]``): whether the box looks for them at all, the
    Bluetooth adapter, the battery level below which the OLED and the host page warn, and how
    long a scan listens."""

    enabled: bool = True
    adapter: str = "hci0"
    battery_warning: int = 15
    scan_seconds: float = 5.0

    def __post_init__(self) -> None:
        if not self.adapter or "/" in self.adapter:
            raise ValueError(f"dice.adapter: an adapter name such as hci0, not {self.adapter!r}")
        if not 0 <= self.battery_warning <= 100:
            raise ValueError(f"dice.battery_warning: a percentage 0-100, not "
                             f"{self.battery_warning!r}")
        if not 0.5 <= self.scan_seconds <= 60:
            raise ValueError(f"dice.scan_seconds: 0.5 to 60 seconds, not {self.scan_seconds!r}")


class LinkClosed(RuntimeError):
    """The link closed (the box is stopping) before what was asked of it was done."""


class DieState(enum.Enum):
    """Where the link is with one followed die."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    LOST = "lost"
    CLOSED = "closed"


@dataclass
class DieStatus:
    """What the link knows of a followed die: its connection, the last battery and colour it
    reported, and its counters (frames taken, dropped by reason, connections, losses)."""

    state: DieState = DieState.CONNECTING
    battery: int | None = None
    charging: bool | None = None
    colour: str | None = None
    die_type: str | None = None
    name: str | None = None
    last_error: str | None = None
    counts: Counter[str] = field(default_factory=Counter)

    def snapshot(self) -> DieStatus:
        return replace(self, counts=Counter(self.counts))


def adapter_problem(adapter: str, root: Path = Path("/sys/class/bluetooth")) -> str | None:
    """Why the Bluetooth adapter ``adapter`` cannot be used (``None``: the kernel has it)."""
    if not root.is_dir():
        return f"the kernel has no Bluetooth ({root} does not exist)"
    if not (root / adapter).exists():
        present = sorted(p.name for p in root.iterdir())
        return (f"no Bluetooth adapter {adapter} (the kernel has "
                f"{', '.join(present) if present else 'none'})")
    return None
