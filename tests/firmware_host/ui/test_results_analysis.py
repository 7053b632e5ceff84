"""The post-game analysis's line on the OLED's results (issue 34): under the winner, in the
box's language — UNLOCK's turn the code became certain, the other games' largest turning point —
"analysing" while it is computed, then the line itself once it is kept (the pad draws the
results again while it waits); nothing for a game without one."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from firmware_host.games import builtin_games
from firmware_host.screens.results import analysis_line
from firmware_host.screens.start import start_screen
from rules.evaluation import GameRecord
from rules.unlock.analysis import analyse_actions
from tests.firmware_host.ui.conftest import PIN, URL, WAIT, Box, has_line, shows

PLAYERS = ["Lock", "Aiko", "Ben"]
#: Aiko's and Ben's cards leave one code after turn 2, when Ben draws the secret.
ACTIONS = [(0, "secret 1-2-3"), (1, "guess 4-5-6"), (2, "guess 1-2"), (1, "guess 2-3"),
           (2, "guess 1-2-3")]


def play(box: Box) -> int:
    gid = box.companion.create_game("unlock", PLAYERS, {"difficulty": "easy"})
    for seat, action in ACTIONS:
        box.companion.act(gid, seat, action)
    return gid


def to_results(box: Box, winner: str = "Winner: Ben", lang: str = "en") -> None:
    """OK until the OLED shows the ended game's results (from the screen the pad was on)."""
    for _ in range(4):
        if has_line(box.screen(), winner, lang):
            return
        box.sim.ok()
    assert has_line(box.screen(), winner, lang), "the results never came"


def results_show(box: Box, text: str, lang: str = "en", timeout: float = WAIT) -> Image.Image:
    """Waits until the OLED's results show ``text`` on a line; the frame."""
    deadline = time.monotonic() + timeout
    while True:
        frame = box.screen()
        if has_line(frame, text, lang):
            return frame
        assert time.monotonic() < deadline, f"the results never said {text!r}"
        box.device.pad.wait_frame(box.device.pad.frame_version, 0.5)


def test_unlocks_results_say_the_turn_the_code_became_certain(box: Box) -> None:
    play(box)
    box.companion.settle()
    to_results(box)
    frame = results_show(box, "Certain on turn 2")
    assert has_line(frame, "Winner: Ben")


def test_in_japanese(box: Box) -> None:
    box.companion.set_box_language("ja")
    play(box)
    box.companion.settle()
    to_results(box, "勝者: Ben", "ja")
    results_show(box, "ターン2で確定", "ja")


@pytest.fixture
def slow_box(tmp_path: Path) -> Iterator[tuple[Box, threading.Event]]:
    """A box whose UNLOCK analysis waits for the test's word before it is computed."""
    release = threading.Event()

    def slow(record: GameRecord,
             progress: Callable[[float], None] | None = None) -> Mapping[str, Any]:
        assert release.wait(20)
        return analyse_actions(record.players, record.options, record.actions,
                               abandoned=record.abandoned).as_dict()

    games = builtin_games()
    games = games.with_game(replace(games["unlock"], analysis=slow))
    companion = Companion.open(tmp_path / "data", host_pin=PIN, games=games)
    device = open_device(DeviceSettings(url=URL), companion, mode="simulator", games=games,
                         rng=random.Random(34))
    assert device.simulator is not None
    try:
        assert shows(device.pad, start_screen(URL, PIN))
        yield (Box(companion, device, device.simulator, tmp_path / "data" / JOURNAL_FILE),
               release)
    finally:
        release.set()
        device.close()
        companion.close()


def test_analysing_until_it_is_kept_then_the_line(slow_box: tuple[Box, threading.Event]) -> None:
    box, release = slow_box
    gid = play(box)
    to_results(box)
    results_show(box, "Analysing...")
    assert box.companion.analysis(gid)["status"] == "pending"
    release.set()
    box.companion.settle()
    # nobody tells the pad the analysis is kept: it draws the results again by itself
    results_show(box, "Certain on turn 2", timeout=WAIT + 3)


def test_the_line_of_each_kind() -> None:
    def ready(analysis: dict[str, Any]) -> dict[str, Any]:
        return {"status": "ready", "analysis": analysis}

    assert analysis_line(ready({"certain_turn": 4, "found_turn": 5}), "en") == (
        "Certain on turn 4")  # an analysis kept before ``kind``: UNLOCK's
    assert analysis_line(ready({"kind": "codes", "certain_turn": None, "turns": [
        {"codes_after": 12}]}), "en") == "Uncertain: 12 left"
    assert analysis_line(ready({"kind": "codes", "enumerable": False}), "en") == ""
    steps = [{"step": 1, "n": 2, "loss": 0.1, "turning_point": True},
             {"step": 2, "n": 5, "loss": 0.4, "turning_point": True},
             {"step": 3, "n": 7, "loss": 0.0, "turning_point": False}]
    assert analysis_line(ready({"kind": "evaluation", "steps": steps}), "en") == (
        "Turning point: #5")
    assert analysis_line(ready({"kind": "evaluation", "steps": steps[2:]}), "en") == (
        "No turning point")
    assert analysis_line(ready({"kind": "evaluation", "evaluated": False, "steps": []}),
                         "en") == ""
    assert analysis_line({"status": "unavailable", "analysis": None}, "en") == ""
    assert analysis_line({"status": "pending", "analysis": None}, "en") == "Analysing..."
    assert analysis_line(None, "en") == ""
