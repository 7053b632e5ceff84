"""Button press → OLED bytes on the bus, and OLED traffic per pattern-entry step (for Back,
which acts when let go — held, it opens the games menu —, from its release).

Drives the real path: a gpiozero MockFactory pin goes low, our ButtonGrid and the pad loop
handle it, the UNLOCK controller redraws from the companion's view, and hardware.oled sends
the changed bytes through luma's real ssd1306 driver and i2c interface to a bus that notes the
time of the first byte. Prints median and p99 latency and bytes per update against a full
frame. Usage: .venv/bin/python bench/pad_latency.py [STEPS]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from hardware.pinmap import ButtonPins
from hardware.serial_die import SerialConfig

FULL_FRAME = 128 * 64 // 8


class TimingBus:
    """Counts the bytes of each update and notes when the first one arrives."""

    def __init__(self) -> None:
        self.first = threading.Event()
        self.at = 0.0
        self.bytes = 0

    def arm(self) -> None:
        self.first.clear()
        self.bytes = 0

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        if not self.first.is_set():
            self.at = time.perf_counter()
            self.first.set()
        self.bytes += len(data)


def main(steps: int) -> None:
    pins = ButtonPins().keys()
    factory = MockFactory()
    bus = TimingBus()
    with tempfile.TemporaryDirectory() as data:
        companion = Companion.open(Path(data), host_pin="0000")
        settings = DeviceSettings(debounce=0.0, serial=SerialConfig(port=f"{data}/no-die"))
        device = open_device(settings, companion, mode="pi", pin_factory=factory,
                             oled=lambda: ssd1306(i2c(bus=bus, address=0x3C)))
        try:
            companion.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "hard"})
            device.pad.wait_idle(5)
            factory.pin(pins["ok"]).drive_low()
            factory.pin(pins["ok"]).drive_high()
            device.pad.wait_idle(5)
            # a pattern entered and taken back again and again: 1-2-3-6-9-8-7-4-5, then Back
            keys: list[int | str] = [1, 2, 3, 6, 9, 8, 7, 4, 5] + ["back"] * 9
            latencies: list[float] = []
            sizes: list[int] = []
            for step in range(steps):
                key = keys[step % len(keys)]
                pin = factory.pin(pins[key])  # type: ignore[index]
                if key == "back":  # Back acts when let go (held, it opens the games menu)
                    pin.drive_low()
                    device.pad.wait_idle(5)
                bus.arm()
                start = time.perf_counter()
                if key == "back":
                    pin.drive_high()
                else:
                    pin.drive_low()
                if not bus.first.wait(5):
                    raise SystemExit(f"no OLED update after {key}")
                device.pad.wait_idle(5)
                latencies.append((bus.at - start) * 1000)
                sizes.append(bus.bytes)
                if key != "back":
                    pin.drive_high()
                device.pad.wait_idle(5)
        finally:
            device.close()
            companion.close()
    latencies.sort()
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    print(f"press (Back: release) -> first OLED byte on the bus over {steps} presses: "
          f"median {statistics.median(latencies):.2f} ms, p99 {p99:.2f} ms "
          f"(budget p99 <= 5 ms)")
    print(f"bytes per update (data + commands): median {statistics.median(sizes):.0f}, "
          f"max {max(sizes)}, full frame {FULL_FRAME} -> median "
          f"{100 * statistics.median(sizes) / FULL_FRAME:.0f}% / max "
          f"{100 * max(sizes) / FULL_FRAME:.0f}% (budget <= 40%)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 360)
