"""The live tally during play: each line's dominator so far, running and projected totals.

Running: the score if the game ended now. Projected: running plus, in each line that has a
dominator, the die's mean ((faces + 1) / 2) per empty cell, for that dominator. Worked by hand.
"""

from __future__ import annotations

from typing import Any

from rules import CHANCE
from rules.dice216 import GAME, State


def play(state: State, *moves: tuple[int, str]) -> State:
    """Each move is (value, "ROW COL") for the seat whose turn it is."""
    for value, cell in moves:
        state = GAME.apply(state, CHANCE, f"roll {value}")
        state = GAME.apply(state, GAME.to_act(state)[0], f"place {cell}")
    return state


def line(view: dict[str, Any], kind: str, index: int) -> dict[str, Any]:
    return next(x for x in view["lines"] if (x["kind"], x["index"]) == (kind, index))


def test_running_and_projected_totals_mid_game() -> None:
    state = play(GAME.start(["A", "B"], {"size": 4}), (3, "1 1"), (2, "1 2"), (4, "2 1"))
    view = GAME.view(state, None)
    assert view["outcome"] is None and not view["final"]
    assert line(view, "row", 1) == {
        "kind": "row", "index": 1, "direction": None, "cells": [[1, 1], [1, 2], [1, 3], [1, 4]],
        "counts": [1, 1], "dominator": None, "sum": 5, "total": 0, "bonus": 0, "points": 0,
        "empty": 2,
    }
    assert (line(view, "row", 2)["dominator"], line(view, "row", 2)["total"]) == (0, 4)
    assert (line(view, "column", 1)["dominator"], line(view, "column", 1)["total"]) == (0, 7)
    assert (line(view, "column", 2)["dominator"], line(view, "column", 2)["total"]) == (1, 2)
    assert line(view, "row", 3)["dominator"] is None
    assert view["totals"] == [11, 2]
    # A: 11 + (3 empty in row 2 + 2 in column 1) × 2.5; B: 2 + 3 empty in column 2 × 2.5.
    assert view["projected"] == [23.5, 9.5]


def test_bonus_counts_only_once_the_line_is_full() -> None:
    start = GAME.start(["A", "B"], {"size": 4})
    state = play(start, (1, "1 1"), (1, "4 1"), (1, "1 2"), (1, "4 2"), (1, "1 3"), (1, "4 3"))
    view = GAME.view(state, None)
    assert line(view, "row", 1)["bonus"] == 0 and line(view, "row", 1)["dominator"] == 0
    state = play(state, (1, "1 4"))
    view = GAME.view(state, None)
    assert line(view, "row", 1)["bonus"] == 10
    assert line(view, "row", 4)["bonus"] == 0  # B's three cells: not a full line yet
    # A: row 1 4 + 10, column 4 1; B: row 4 3; columns 1-3 tie 1-1.
    assert view["totals"] == [15, 3]
    assert view["projected"] == [22.5, 5.5]
    assert view["breakdown"][0] == {
        "seat": 0, "lines": 5, "bonus": 10, "area": 0, "handicap": 0, "total": 15,
        "projected": 22.5,
    }


def test_own_reading_counts_only_the_dominators_numbers_live() -> None:
    moves = ((3, "1 1"), (2, "1 2"), (4, "1 3"))
    every = GAME.view(play(GAME.start(["A", "B"], {"size": 4}), *moves), None)
    own = GAME.view(
        play(GAME.start(["A", "B"], {"size": 4, "line_total": "own"}), *moves), None
    )
    assert line(every, "row", 1)["total"] == 9 and line(own, "row", 1)["total"] == 7
    assert every["totals"] == [16, 2] and own["totals"] == [14, 2]
    assert own["projected"] == [31.5, 9.5]


def test_handicap_counts_in_the_tally_once_rolled() -> None:
    state = GAME.start(["A", "B"], {"diagonals": True})
    assert GAME.view(state, None)["totals"] == [0, 0]
    view = GAME.view(GAME.apply(state, CHANCE, "roll 3"), None)
    assert view["totals"] == [0, 3] and view["projected"] == [0, 3]
    assert view["breakdown"][1]["handicap"] == 3


def test_area_is_scored_live() -> None:
    state = play(GAME.start(["A", "B"], {"size": 4, "area": True}),
                 (1, "1 1"), (1, "4 4"), (1, "1 2"))
    view = GAME.view(state, None)
    assert view["area"] == {"groups": [2, 1], "winner": 0, "points": 2}
    # A: row 1 2, columns 1 and 2 1 each, area 2; B: row 4 and column 4 1 each.
    assert view["totals"] == [6, 2]


def test_diagonals_are_in_the_live_tally() -> None:
    state = play(GAME.start(["A", "B"], {"diagonals": True, "handicap": False}), (5, "3 3"))
    view = GAME.view(state, None)
    assert line(view, "diagonal", 1)["dominator"] == 0
    assert line(view, "diagonal", 1)["total"] == 5
    assert line(view, "diagonal", 2)["dominator"] is None
    assert view["totals"] == [15, 0]  # row 3, column 3, diagonal 1


def test_three_way_tie_in_a_line_dominates_nothing_live() -> None:
    state = play(GAME.start(["A", "B", "C"]), (6, "1 1"), (6, "1 2"), (6, "1 3"))
    view = GAME.view(state, None)
    assert line(view, "row", 1)["counts"] == [1, 1, 1]
    assert line(view, "row", 1)["dominator"] is None
    assert view["totals"] == [6, 6, 6]  # each dominates one column
