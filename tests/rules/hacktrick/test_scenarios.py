"""Whole rounds worked out by hand, as data files (``tests/data/hacktrick/*.json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import IllegalAction
from rules.hacktrick import GAME, HacktrickState, position

SCENARIOS = sorted((Path(__file__).parents[2] / "data" / "hacktrick").glob("*.json"))


def _observed(view: dict[str, Any], key: str) -> Any:
    """The part of a spectator's view a scenario names, in the scenario's terms."""
    if key == "board":
        return {
            square: "".join("WR"[m["owner"]] + "*" * m["x2"] for m in markers)
            for square, markers in view["board"].items() if markers
        }
    if key == "hand_sizes":
        return [hand["size"] for hand in view["hands"]]
    if key in ("own", "x2", "captured"):
        return [supply[key] for supply in view["supply"]]
    if key == "declaration":
        d = view["declaration"]
        return None if d is None else f"{d['kind']} by {d['by']}"
    return view[key]


def _initial(scenario: dict[str, Any]) -> HacktrickState:
    """A new game, or the position the scenario starts from."""
    if "position" not in scenario:
        return GAME.start(scenario["players"], scenario.get("options"), seed=0)
    given = dict(scenario["position"])
    for key in ("board", "captured"):
        given[key] = {int(k): v for k, v in given.get(key, {}).items()}
    given["hands"] = tuple(given["hands"])
    given["declaration"] = tuple(given["declaration"]) if given.get("declaration") else None
    return position(players=tuple(scenario["players"]), **given)


def test_scenarios_are_present() -> None:
    assert SCENARIOS


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_plays_out_as_worked_by_hand(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    state = _initial(scenario)
    for number, step in enumerate(scenario["steps"], start=1):
        state = GAME.apply(state, step["seat"], step["action"])
        view = GAME.view(state, None)
        for key, expected in step["expect"].items():
            assert _observed(view, key) == expected, f"step {number} ({step['action']}): {key}"
        for seat, cards in step.get("holder_sees", {}).items():
            assert GAME.view(state, int(seat))["hands"][int(seat)]["cards"] == cards
        for refused in step.get("refused_next", []):
            with pytest.raises(IllegalAction):
                GAME.apply(state, GAME.to_act(state)[0], refused)
