"""The plain-text grid and score sheet, and the docstring examples of the package."""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path

import pytest

from rules import CHANCE
from rules.dice216 import GAME, render
from tests.rules.dice216.boards import play_board

DRAW = json.loads((Path(__file__).parent / "data" / "draw_4x4_d4.json").read_text())


def test_render_shows_the_grid_every_line_and_the_totals() -> None:
    state = play_board(DRAW["players"], DRAW["options"], DRAW["owners"], DRAW["values"])
    assert render(state) == "\n".join([
        "2 1 6 · 4×4 · d4 · line total: all · diagonals · area",
        "A = Aiko · B = Ben",
        "         1   2   3   4  | dom  pts",
        "   1    4A  1A  2B  3B  |   -    0",
        "   2    3A  2A  4B  1B  |   -    0",
        "   3    1B  1B  2A  4A  |   -    0",
        "   4    1B  4B  3A  1A  |   -    0",
        " dom     -   -   -   -",
        " pts     0   0   0   0",
        "diagonals (full): 1 (↘ from 1,1) A 9 +10; 2 (↙ from 1,4) B 9 +10",
        "area: largest groups A 4, B 4 → nobody",
        "A Aiko: 19 = lines 9 + bonus 10 + area 0 + handicap 0 (projected 19)",
        "B Ben: 19 = lines 9 + bonus 10 + area 0 + handicap 0 (projected 19)",
        "game over: A and B draw",
    ])


def test_render_says_who_acts_next() -> None:
    state = GAME.start(["Aiko", "Ben"], {"diagonals": True})
    assert render(state).splitlines()[-1] == "to act: chance rolls the handicap for B"
    assert "handicap: B not rolled yet" in render(state)
    state = GAME.apply(state, CHANCE, "roll 2")
    assert render(state).splitlines()[-1] == "to act: chance rolls for A"
    state = GAME.apply(state, CHANCE, "roll 4")
    assert render(state).splitlines()[-1] == "to act: A places 4"


def test_render_marks_empty_cells_and_column_bonuses() -> None:
    state = GAME.start(["Aiko", "Ben"], {"size": 4})
    for n, cell in enumerate(["1 1", "1 2", "2 1", "2 2", "3 1", "3 2", "4 1"]):
        state = GAME.apply(GAME.apply(state, CHANCE, "roll 2"), n % 2, f"place {cell}")
    lines = render(state).splitlines()
    assert lines[6] == "   4    2A   .   .   .  |   A    2"
    assert lines[8] == " pts     8   6   0   0"
    assert lines[9] == " +10    10"


@pytest.mark.parametrize(
    "module",
    ["rules.dice216", "rules.dice216.actions", "rules.dice216.grid", "rules.dice216.options",
     "rules.dice216.render", "rules.dice216.scoring"],
)
def test_docstring_examples_hold(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
