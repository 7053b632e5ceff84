"""OLED bytes per update: our partial updates against luma's full-frame ``display()``.

A realistic pattern-entry sequence on a 128×64 frame: a title line, the 3×3 dot grid, and for
each code of 3–9 dots, the dots lit and the lines drawn one by one with the code so far in text,
then the same frame again (an unchanged redraw). Both paths drive luma's real ssd1306 and sh1106
drivers and i2c interface into a bus that counts bytes on the wire (address + control +
payload per transaction). Also times our own ``Display.show`` per update.

Usage: .venv/bin/python bench/bench_oled.py [CODES]
"""

from __future__ import annotations

import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from hardware.oled import Display

DOT_XY = {d: (12 + 20 * ((d - 1) % 3), 14 + 20 * ((d - 1) // 3)) for d in range(1, 10)}
I2C_HZ = 400_000


class CountingBus:
    """Counts the bytes each SMBus block write puts on the wire."""

    def __init__(self) -> None:
        self.bytes = 0

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.bytes += 2 + len(data)


def random_code(rng: random.Random) -> list[int]:
    return rng.sample(range(1, 10), rng.randint(3, 9))


def frames(code: list[int], turn: int) -> list[Image.Image]:
    """The screens shown while ``code`` is entered: one per dot, then an unchanged redraw."""
    shown: list[Image.Image] = []
    for n in range(len(code) + 1):
        image = Image.new("1", (128, 64))
        draw = ImageDraw.Draw(image)
        draw.text((0, 0), f"UNLOCK  turn {turn}", fill=1)
        for d, (x, y) in DOT_XY.items():
            filled = d in code[:n]
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), outline=1, fill=1 if filled else 0)
        for a, b in itertools.pairwise(code[:n]):
            draw.line((DOT_XY[a], DOT_XY[b]), fill=1)
        draw.text((72, 20), "code", fill=1)
        draw.text((72, 32), "-".join(map(str, code[:n])) or "...", fill=1)
        shown.append(image)
    shown.append(shown[-1].copy())
    return shown


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(driver: type, codes: int) -> None:
    rng = random.Random(2024)
    ours_bus, luma_bus = CountingBus(), CountingBus()
    ours = Display(driver(i2c(bus=ours_bus)))
    baseline = driver(i2c(bus=luma_bus))
    for device in (ours.device, baseline):
        device.persist = True
    ours.show(Image.new("1", (128, 64)))  # the first frame is always sent whole
    changed: list[int] = []  # a dot (and its line) added
    cleared: list[int] = []  # a new code starts: the previous pattern is wiped
    unchanged: list[int] = []
    full: list[int] = []
    times: list[float] = []
    for turn in range(codes):
        previous = None
        for step, image in enumerate(frames(random_code(rng), turn % 12 + 1)):
            before, lbefore = ours_bus.bytes, luma_bus.bytes
            start = time.perf_counter()
            ours.show(image)
            times.append(time.perf_counter() - start)
            baseline.display(image)
            sent, whole = ours_bus.bytes - before, luma_bus.bytes - lbefore
            full.append(whole)
            same = previous is not None and previous.tobytes() == image.tobytes()
            (unchanged if same else cleared if step == 0 else changed).append(sent)
            previous = image
    frame = statistics.median(full)
    median, p99 = statistics.median(changed), percentile(changed, 0.99)
    print(f"{driver.__name__}: {len(changed)} entry steps, {len(cleared)} new-code wipes, "
          f"{len(unchanged)} unchanged redraws")
    wire_ms = frame * 9 / I2C_HZ * 1000
    print(f"  luma full frame        {frame:7.0f} B  ({wire_ms:.1f} ms at 400 kHz)")
    print(f"  ours, entry    median  {median:7.0f} B  ({median / frame:.1%} of a frame, "
          f"{median * 9 / I2C_HZ * 1000:.2f} ms)")
    print(f"  ours, entry    p99     {p99:7.0f} B  ({p99 / frame:.1%} of a frame)")
    print(f"  ours, entry    max     {max(changed):7.0f} B  ({max(changed) / frame:.1%})")
    wipe = statistics.median(cleared)
    print(f"  ours, new-code wipe    {wipe:7.0f} B  median ({wipe / frame:.1%}), "
          f"max {max(cleared)} B ({max(cleared) / frame:.1%})")
    print(f"  ours, unchanged        {max(unchanged):7.0f} B  (max over {len(unchanged)})")
    print(f"  Display.show time      median {statistics.median(times) * 1e3:.2f} ms, "
          f"p99 {percentile(times, 0.99) * 1e3:.2f} ms")


def main() -> None:
    codes = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    for driver in (ssd1306, sh1106):
        run(driver, codes)


if __name__ == "__main__":
    main()
