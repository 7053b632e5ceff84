"""The 50-box scenario (``bench/club_boxes.py``) as a proof, behind ``--runslow``: 50 boxes × 4
tables publishing to one real Mosquitto, every game's record reaches the hub's league exactly once
and is acknowledged back to its box. Only counts are checked; the bench's timings go to
docs/club.md, not into a test."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.firmware_host.daemon import ROOT


@pytest.mark.slow
def test_fifty_boxes_of_four_tables_every_game_once_in_the_league() -> None:
    done = subprocess.run([sys.executable, "bench/club_boxes.py", "--boxes", "50", "--tables",
                           "4", "--seconds", "20", "--json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["tables"] == 200
    assert figures["games"] >= 200  # every table finished a game at least
    assert (figures["lost"], figures["counted_twice"], figures["dropped"],
            figures["unacknowledged"]) == (0, 0, 0, 0)
