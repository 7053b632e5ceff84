"""Build 2 1 6 games for tests through the real ``apply`` sequence (rolls and placements).

A board is given as rows of owner letters (``A`` is seat 0) and rows of values (a string of
one-digit values, or a list of numbers); each seat's cells are placed in reading order on that
seat's turns, each after chance rolls its value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import CHANCE
from rules.dice216 import GAME, State

LETTERS = "ABCD"


Values = Sequence[str] | Sequence[Sequence[int]]


def placements(owners: Sequence[str], values: Values) -> list[list[tuple[int, int, int]]]:
    """For each seat, its ``(row, col, value)`` cells (1-based) in reading order."""
    seats = max(LETTERS.index(letter) for row in owners for letter in row) + 1
    cells: list[list[tuple[int, int, int]]] = [[] for _ in range(seats)]
    for r, (owner_row, value_row) in enumerate(zip(owners, values, strict=True)):
        for c, (letter, digit) in enumerate(zip(owner_row, value_row, strict=True)):
            cells[LETTERS.index(letter)].append((r + 1, c + 1, int(digit)))
    return cells


def play_board(
    players: Sequence[str],
    options: Mapping[str, object] | None,
    owners: Sequence[str],
    values: Values,
    handicap_roll: int | None = None,
    seed: int = 0,
) -> State:
    """Play the game whose final grid is ``owners``/``values``; returns the final state."""
    state = GAME.start(list(players), options, seed=seed)
    if GAME.view(state, None)["phase"] == "handicap":
        assert handicap_roll is not None, "this game rolls a handicap: give its value"
        state = GAME.apply(state, CHANCE, f"roll {handicap_roll}")
    queues = placements(owners, values)
    while GAME.to_act(state):
        seat = GAME.view(state, None)["roll_for"]["seat"]
        row, col, value = queues[seat].pop(0)
        state = GAME.apply(state, CHANCE, f"roll {value}")
        assert GAME.to_act(state) == [seat]
        state = GAME.apply(state, seat, f"place {row} {col}")
    assert not any(queues), "the board does not fit the turn order"
    return state


def line_texts(view: Mapping[str, Any]) -> list[str]:
    """The view's lines as a person writes them: ``row 1: A 21 +10``, ``column 3: -``."""
    texts = []
    for line in view["lines"]:
        name = f"{line['kind']} {line['index']}"
        if line["dominator"] is None:
            texts.append(f"{name}: -")
        else:
            bonus = f" +{line['bonus']}" if line["bonus"] else ""
            texts.append(f"{name}: {LETTERS[line['dominator']]} {line['total']}{bonus}")
    return texts


def board_of(state: State) -> tuple[list[str], list[list[int]]]:
    """The owners and values rows of a full grid (for replaying it another way)."""
    rows = GAME.view(state, None)["cells"]
    owners = ["".join(LETTERS[cell["owner"]] for cell in row) for row in rows]
    values = [[cell["value"] for cell in row] for row in rows]
    return owners, values
