"""Games worked by hand from the rules, stored as data and replayed through ``apply``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.ico import GAME

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_hand_worked_game_replays(path: Path) -> None:
    scenario: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    state = GAME.start(scenario["players"], scenario["options"], seed=0)
    for turn, step in enumerate(scenario["steps"], start=1):
        where = f"turn {turn}"
        assert GAME.outcome(state) is None, where
        assert GAME.to_act(state) == [step["seat"]], where
        assert state.active_face == step["face"], where
        view = GAME.view(state, step["seat"])
        assert sorted(view["legal_edges"]) == sorted(step["allowed"]), where
        assert view["balance_reason"].startswith(step["rule"]), where
        state = GAME.apply(state, step["seat"], step["action"])
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome["winners"] == scenario["outcome"]["winners"]
    assert outcome["figure"] == scenario["outcome"]["figure"]
    assert state.active_face == scenario["outcome"]["active_face"]


def test_there_are_scenarios() -> None:
    assert SCENARIOS
