"""The pad's lights while UNLOCK is played on the pad, on a WS2812 chain (luma.led_matrix's
``ws2812`` over a recording DMA interface): whose entry it is, a guesser's trail and the dots
the level allows next (checked against the level's codes, enumerated), a refused dot flashed —
and while the Lock draws the secret, how many dots and never which."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from luma.led_matrix.device import ws2812

from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from firmware_host.pad_lighting import ALLOWED, REFUSED
from hardware.pad_lights import KEYS, ChainLights
from hardware.pinmap import DOTS
from rules.unlock import all_codes
from tests.firmware_host.ui.conftest import PIN, URL, WAIT, Box, colour, lit
from tests.hardware.ws2812_dma import RecordingDma

DARK = (0, 0, 0)


@pytest.fixture
def chain() -> RecordingDma:
    return RecordingDma()


@pytest.fixture
def box(tmp_path: Path, chain: RecordingDma) -> Iterator[Box]:
    """The simulated box with its lights on a WS2812 chain at full brightness."""
    companion = Companion.open(tmp_path / "data", host_pin=PIN)
    device = open_device(
        DeviceSettings(url=URL, menu_hold=0.3), companion, mode="simulator",
        rng=random.Random(5),
        lights=lambda: ChainLights(ws2812(dma_interface=chain, cascaded=11), KEYS, 255))
    assert device.simulator is not None
    try:
        assert device.die is not None and device.die.wait_connected(WAIT)
        yield Box(companion, device, device.simulator, tmp_path / "data" / JOURNAL_FILE)
    finally:
        device.close()
        companion.close()


def shown(chain: RecordingDma) -> list[tuple[int, int, int]]:
    """What the chain's eleven LEDs show, dots 1–9, OK, Back."""
    return [(v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF) for v in chain.shown()]


def tap(box: Box, dot: int) -> None:
    box.sim.tap(dot)
    lit(box)


def renders_while(box: Box, chain: RecordingDma, *dots: int) -> list[list[int]]:
    """The chain's renders while ``dots`` are tapped one by one (each tap settled, a flash
    over, before the next)."""
    first = len(chain.renders)
    for dot in dots:
        tap(box, dot)
    return [leds for leds, _ in chain.renders[first:]]


def secret_entry(box: Box, chain: RecordingDma, dots: tuple[int, ...]) -> list[list[int]]:
    """A new game whose Lock opens the entry and taps ``dots``: every render meanwhile."""
    for game in box.companion.games(status="active"):
        box.companion.abandon(game["id"])
    box.companion.create_game("unlock", ["Kenji", "Aiko", "Ben"], {"difficulty": "easy"})
    lit(box)
    box.sim.ok()
    lit(box)
    return renders_while(box, chain, *dots)


def test_while_the_lock_draws_the_lights_show_how_many_dots_never_which(
    box: Box, chain: RecordingDma
) -> None:
    # two secrets of three dots, each with a dot refused on the way (a used one: the flash must
    # not say which; the next tap closes the refusal), tapped in the same rhythm: the chain
    # shows exactly the same
    first = secret_entry(box, chain, (4, 5, 5, 6, 6))
    second = secret_entry(box, chain, (9, 8, 9, 7, 7))
    assert first == second
    view = box.companion.view(box.companion.games(status="active")[0]["id"], None)
    red = colour(0, view)
    # the progress bar: three dots drawn → dots 1–3 in the Lock's colour, OK ready
    assert shown(chain)[:9] == [red] * 3 + [DARK] * 6 and shown(chain)[9] == red
    # the refusal flashed every key, never the refused dot alone
    flashes = [leds for leds in first if any(v == 0xFF1800 for v in leds)]
    assert flashes and all(all(v == 0xFF1800 for v in leds) for leds in flashes)


def test_a_guessers_trail_and_the_dots_the_level_allows_next(box: Box, chain: RecordingDma) -> None:
    options = {"difficulty": "medium", "auto_connect": False}
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko", "Ben"], options)
    view = box.companion.view(gid, None)
    assert lit(box)["ok"] == colour(0, view)  # the Lock's entry comes first
    box.sim.ok()
    for dot in (1, 2, 3):
        tap(box, dot)
    box.sim.ok()
    box.wait_actions(gid, 1)
    assert lit(box)["ok"] == colour(1, view)  # Aiko's privacy screen: pass the pad to her
    box.sim.ok()
    blue = colour(1, view)
    codes = [code.path for code in all_codes("medium", auto_connect=False)]

    def allowed_after(drawn: list[int]) -> set[int]:
        """The dots some code of the level continues ``drawn`` with (either direction)."""
        k = len(drawn)
        found = set()
        for path in codes:
            for way in (path, path[::-1]):
                if len(way) > k and list(way[:k]) == drawn:
                    found.add(way[k])
        return found

    drawn: list[int] = []
    assert {d for d in DOTS if lit(box)[d] == ALLOWED} == allowed_after(drawn) == set(DOTS)
    for dot in (5, 9, 6):
        tap(box, dot)
        drawn.append(dot)
        lights = lit(box)
        assert {d for d in DOTS if lights[d] == ALLOWED} == allowed_after(drawn), drawn
        assert lights[dot] == blue  # the trail's last dot, full
        assert all(lights[d] not in (DARK, ALLOWED) for d in drawn)
        assert lights["ok"] == (blue if len(drawn) >= 2 else lights["ok"])


def test_a_refused_dot_flashes_alone_then_the_lights_come_back(
    box: Box, chain: RecordingDma
) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
    box.sim.ok()
    for dot in (1, 2):
        tap(box, dot)
    box.sim.ok()
    box.wait_actions(gid, 1)
    box.sim.ok()
    tap(box, 5)
    before = shown(chain)
    first = len(chain.renders)
    box.sim.tap(5)  # used already: refused
    box.settle()
    deadline = time.monotonic() + WAIT
    while shown(chain) != before:  # the flash ends by itself
        assert time.monotonic() < deadline, "the flash did not end"
        time.sleep(0.02)
    flash = next(leds for leds, _ in chain.renders[first:] if 0xFF1800 in leds)
    lit_flash = [(v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF) for v in flash]
    assert lit_flash[4] == REFUSED
    assert [c for i, c in enumerate(lit_flash) if i != 4] == [
        c for i, c in enumerate(before) if i != 4]
