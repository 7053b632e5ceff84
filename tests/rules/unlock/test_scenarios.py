"""Whole games written down as data, with every card's score worked out by hand from the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.unlock import GAME

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_plays_out_as_written(path: Path) -> None:
    scenario: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    state = GAME.start(scenario["players"], scenario["options"])
    for seat, action in scenario["actions"]:
        assert GAME.outcome(state) is None, f"the game ended before {action!r}"
        state = GAME.apply(state, seat, action)
    spectator = GAME.view(state, None)
    board = [
        [c["turn"], c["seat"], c["code"], c["matches"], c["misses"], c["points"], c["repeat"]]
        for c in spectator["clue_board"]
    ]
    assert board == scenario["board"]
    assert spectator["secret"] == scenario["secret"]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert {key: outcome[key] for key in scenario["outcome"]} == scenario["outcome"]
    assert spectator["scores"] == scenario["outcome"]["scores"]


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 2
