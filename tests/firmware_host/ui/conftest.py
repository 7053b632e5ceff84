"""Fixtures: a real companion on a journal file in a temporary directory, with the simulated
device (gpiozero mock pins, luma dummy OLED, the die on pyserial's loop://) attached."""

from __future__ import annotations

import io
import random
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import Device, open_device
from firmware_host.pad_loop import PadLoop
from firmware_host.screens.start import start_screen
from firmware_host.screens.text import HEIGHT, Pen, blank
from firmware_host.simulator import Simulator
from firmware_host.tft_screens.frames import game_frame
from hardware.pad_lights import Colour
from hardware.pinmap import Key

WAIT = 10.0
URL = "http://192.168.1.23:8080/"
PIN = "2468"


@dataclass
class Box:
    """The companion, the device and its simulator, and the journal's path."""

    companion: Companion
    device: Device
    sim: Simulator
    journal: Path

    def actions(self, game_id: int) -> list[tuple[int, str]]:
        """The game's actions as committed in the journal file (seat, action), in order."""
        with sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY n",
                              (game_id,)).fetchall()
        return [(int(seat), str(action)) for seat, action in rows]

    def settle(self) -> None:
        assert self.sim.settle(WAIT), "the pad did not finish its queued inputs in time"

    def screen(self) -> Image.Image:
        """What the OLED (the luma dummy device) shows now, after the pad settled."""
        self.settle()
        return Image.open(io.BytesIO(self.sim.frame_png())).convert("1")

    def wait_actions(self, game_id: int, count: int) -> list[tuple[int, str]]:
        """Waits (on the companion's change signal) until the journal holds ``count`` actions
        of the game; then lets the pad redraw."""
        deadline = time.monotonic() + WAIT
        version = self.companion.version()
        while len(actions := self.actions(game_id)) < count:
            left = deadline - time.monotonic()
            assert left > 0, f"journal has {len(actions)} actions, expected {count}"
            version = self.companion.wait_for_change(version, left)
        self.settle()
        return actions


def lit(box: Box) -> dict[Key, Colour]:
    """What the pad's lights show once the pad settled and any refusal's flash is over."""
    box.settle()
    deadline = time.monotonic() + WAIT
    while box.device.pad.lights.flashing:
        assert time.monotonic() < deadline, "the lights flashed for too long"
        time.sleep(0.02)
    return box.device.pad.lights.frame()


def tft_shows(box: Box, game_id: int) -> bool:
    """Whether the colour TFT shows the game as the table may see it: drawn from the
    spectator's view (no seat's), at the TFT's size, in the OLED's language."""
    box.settle()
    pad = box.device.pad
    shown = pad.tft.frame()
    assert shown is not None and pad.tft.screen is not None
    view = box.companion.view(game_id, None)
    info = next(e for e in box.companion.catalog() if e["id"] == view["game"])
    expected = game_frame(view, info=info, title=pad.reads.title(game_id),
                          size=pad.tft.screen.size, lang=pad.reads.language())
    return shown.tobytes() == expected.tobytes()


def colour(seat: int, view: dict[str, Any]) -> Colour:
    """A seat's colour on the lights: the panel's colour for it (its own palette here)."""
    palette = ["#b71c1c", "#1a237e", "#fdd835", "#66bb6a"]
    named = {"white": "#f7f7f2", "red": "#b71c1c"}
    hex_colour = named.get(str((view.get("colours") or [None] * 8)[seat]), palette[seat])
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def shows(pad: PadLoop, expected: Image.Image, timeout: float = WAIT) -> bool:
    """Waits (on the pad's frame changes) until the pad's frame is ``expected``; for changes
    that reach the pad on another thread after the event a test can wait on (the die link's
    state)."""
    deadline = time.monotonic() + timeout
    version = pad.frame_version
    while not same(pad.frame(), expected):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        version = pad.wait_frame(version, left)
    return True


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    companion = Companion.open(tmp_path / "data", host_pin=PIN)
    device = open_device(DeviceSettings(url=URL, menu_hold=0.3), companion, mode="simulator",
                         rng=random.Random(216))
    assert device.simulator is not None
    try:
        # the simulated die is plugged in: the start screen no longer says "no die"
        assert device.die is not None and device.die.wait_connected(WAIT)
        assert shows(device.pad, start_screen(URL, PIN))
        yield Box(companion, device, device.simulator, tmp_path / "data" / JOURNAL_FILE)
    finally:
        device.close()
        companion.close()


def drawn_text(text: str, lang: str = "en", x: int = 0) -> Image.Image:
    """``text`` drawn alone on a blank frame at ``x``, its top line at 0."""
    image = blank()
    Pen(image, lang).text(x, 0, text)
    return image


def has_line(frame: Image.Image, text: str, lang: str = "en", *, x: int = 0,
             inverted: bool = False) -> bool:
    """Whether ``frame`` shows ``text`` at ``x`` on some line: the rows of its glyphs match
    pixel for pixel over the text's width (on a white bar when ``inverted``)."""
    sample = drawn_text(text, lang, x)
    box = sample.getbbox()
    assert box is not None, f"{text!r} draws nothing"
    _, top, _, bottom = box
    width = Pen(blank(), lang).width(text)
    glyphs = sample.crop((x, top, x + width, bottom)).tobytes()
    frame = frame.convert("1")
    for y in range(HEIGHT - (bottom - top) + 1):
        strip = frame.crop((x, y, x + width, y + bottom - top))
        if inverted:
            strip = ImageChops.invert(strip.convert("L")).convert("1")
        if strip.tobytes() == glyphs:
            return True
    return False


def end_game_screens(box: Box, gid: int, *, onward: str, winner: str | None) -> None:
    """From an ended game's last screen: OK shows the results — the winner named (or a draw)
    and how to go on (``onward``, the last line) — and OK goes on."""
    box.sim.ok()
    results = box.screen()
    headline = f"Winner: {winner}" if winner is not None else "A draw: no winner"
    assert has_line(results, headline), f"the results do not say {headline!r}"
    assert has_line(results, onward), f"the results do not say {onward!r}"
    box.sim.ok()
    box.settle()
