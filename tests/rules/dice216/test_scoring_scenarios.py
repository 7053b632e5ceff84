"""Full grids scored by hand (data/*.json), replayed through ``apply`` and checked line by line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.dice216 import GAME, render
from tests.rules.dice216.boards import LETTERS, line_texts, play_board

DATA = Path(__file__).parent / "data"
SCENARIOS = sorted(DATA.glob("*.json"))


def _letters(seats: list[int]) -> list[str]:
    return [LETTERS[s] for s in seats]


def _play(path: Path) -> tuple[dict[str, Any], dict[str, Any], str]:
    case = json.loads(path.read_text())
    state = play_board(
        case["players"], case["options"], case["owners"], case["values"],
        handicap_roll=case.get("handicap_roll"),
    )
    return case, GAME.view(state, None), render(state)


def test_every_option_combination_that_matters_has_a_scenario() -> None:
    assert {p.stem for p in SCENARIOS} >= {
        "plain_6x6", "own_6x6", "diagonals_handicap_6x6", "area_6x6", "draw_4x4_d4",
        "own_8x8_d8", "three_players_12x12", "four_players_all_variants_12x12",
    }


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_hand_scored_grid_scores_line_by_line(path: Path) -> None:
    case, view, picture = _play(path)
    assert view["phase"] == "over" and view["final"], picture
    assert line_texts(view) == case["expected"]["lines"], picture


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_hand_scored_grid_totals_and_winner(path: Path) -> None:
    case, view, picture = _play(path)
    expected = case["expected"]
    totals = {LETTERS[s]: total for s, total in enumerate(view["totals"])}
    assert totals == expected["totals"], picture
    assert view["outcome"]["scores"] == view["totals"]
    assert _letters(view["outcome"]["winners"]) == expected["winners"], picture
    assert view["outcome"]["draw"] == (len(expected["winners"]) > 1)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_hand_scored_grid_handicap_and_area(path: Path) -> None:
    case, view, picture = _play(path)
    expected = case["expected"]
    if expected["handicap"] is None:
        assert view["handicap"] is None, picture
    else:
        assert view["handicap"] == {
            "seat": LETTERS.index(expected["handicap"]["seat"]),
            "roll": expected["handicap"]["roll"],
        }, picture
    if expected["area"] is None:
        assert view["area"] is None, picture
    else:
        area = expected["area"]
        winner = area["winner"]
        assert view["area"] == {
            "groups": [area["groups"][letter] for letter in LETTERS[: len(view["seats"])]],
            "winner": None if winner is None else LETTERS.index(winner),
            "points": area["points"],
        }, picture
