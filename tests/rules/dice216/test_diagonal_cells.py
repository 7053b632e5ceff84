"""Which diagonals score: seed 004's "6マスの部分のみを計算する" (count only the six-cell parts).

On the seed's 6×6 grid the six-cell diagonals are the two corner-to-corner ones. On 8×8 and
12×12 they are the four diagonals of exactly six cells; on 4×4 there is none, so six-cell
diagonals are refused there. ``diagonal_cells=full`` scores the corner-to-corner diagonals on
every size instead (a departure from the seed, said in its help). Hand-scored grids of both
readings: ``data/diagonals_six_8x8_d8.json``, ``data/diagonals_six_12x12.json`` (six),
``data/draw_4x4_d4.json``, ``data/four_players_all_variants_12x12.json`` (full).
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import OptionError
from rules.dice216 import GAME
from tests.rules.dice216.boards import line_texts, play_board

SEED = "6マスの部分のみを計算する"
#: The own_8x8_d8 board: columns 1-4 Aiko's, 5-8 Ben's, with cells (1,4) and (1,5) swapped.
OWNERS_8 = ["AAABABBB", *["AAAABBBB"] * 7]
VALUES_8 = ["12345678"] * 8


def diagonals(size: int, players: int = 2, **options: object) -> list[dict[str, Any]]:
    state = GAME.start(["Aiko", "Ben", "Chie", "Dai"][:players],
                       {"size": size, "diagonals": True, **options})
    return [line for line in GAME.view(state, None)["lines"] if line["kind"] == "diagonal"]


def ends(line: dict[str, Any]) -> tuple[str, list[int], list[int], int]:
    return line["direction"], line["cells"][0], line["cells"][-1], len(line["cells"])


def test_six_cell_diagonals_are_the_default_and_the_help_quotes_the_seed() -> None:
    (option,) = [o for o in GAME.describe()["options"] if o["name"] == "diagonal_cells"]
    assert option["default"] == "six" and option["choices"] == ["six", "full"]
    assert SEED in option["help"] and "departs from the seed" in option["help"]
    options = GAME.view(GAME.start(["Aiko", "Ben"], {"diagonals": True}), None)["options"]
    assert options["diagonal_cells"] == "six"


@pytest.mark.parametrize("which", ["six", "full"])
def test_on_6x6_both_readings_are_the_two_corner_to_corner_diagonals(which: str) -> None:
    # Seed 004: "6マスの部分のみを計算する" — on its own 6×6 grid, the corner-to-corner ones.
    assert [ends(d) for d in diagonals(6, diagonal_cells=which)] == [
        ("↘", [1, 1], [6, 6], 6), ("↙", [1, 6], [6, 1], 6)]


def test_4x4_has_no_six_cell_diagonal_so_six_is_refused_by_name() -> None:
    # Seed 004: "6マスの部分のみを計算する": no diagonal of 4×4 has six cells.
    with pytest.raises(OptionError, match="no diagonal of the 4×4 grid has six cells") as no:
        GAME.start(["Aiko", "Ben"], {"size": 4, "diagonals": True})
    assert no.value.option == "diagonal_cells" and SEED in str(no.value)
    GAME.start(["Aiko", "Ben"], {"size": 4, "diagonal_cells": "six"})  # no diagonals: fine


def test_4x4_full_scores_the_two_four_cell_diagonals() -> None:
    assert [ends(d) for d in diagonals(4, diagonal_cells="full")] == [
        ("↘", [1, 1], [4, 4], 4), ("↙", [1, 4], [4, 1], 4)]


def test_8x8_six_scores_the_four_six_cell_diagonals() -> None:
    # Seed 004: "6マスの部分のみを計算する".
    assert [ends(d) for d in diagonals(8)] == [
        ("↘", [1, 3], [6, 8], 6), ("↘", [3, 1], [8, 6], 6),
        ("↙", [1, 6], [6, 1], 6), ("↙", [3, 8], [8, 3], 6)]


def test_8x8_full_scores_the_two_eight_cell_diagonals() -> None:
    assert [ends(d) for d in diagonals(8, diagonal_cells="full")] == [
        ("↘", [1, 1], [8, 8], 8), ("↙", [1, 8], [8, 1], 8)]


def test_12x12_six_scores_the_four_six_cell_diagonals() -> None:
    # Seed 004: "6マスの部分のみを計算する".
    assert [ends(d) for d in diagonals(12, players=3)] == [
        ("↘", [1, 7], [6, 12], 6), ("↘", [7, 1], [12, 6], 6),
        ("↙", [1, 6], [6, 1], 6), ("↙", [7, 12], [12, 7], 6)]


def test_12x12_full_scores_the_two_twelve_cell_diagonals() -> None:
    assert [ends(d) for d in diagonals(12, players=3, diagonal_cells="full")] == [
        ("↘", [1, 1], [12, 12], 12), ("↙", [1, 12], [12, 1], 12)]


def test_8x8_the_same_grid_scores_differently_under_the_two_readings() -> None:
    # Seed 004: "6マスの部分のみを計算する": six-cell diagonals win Ben 66 and Aiko 42 here; the
    # full-length ones tie 4–4 and score nobody.
    six = GAME.view(play_board(["Aiko", "Ben"], {"size": 8, "diagonals": True}, OWNERS_8,
                               VALUES_8, handicap_roll=3), None)
    full = GAME.view(play_board(["Aiko", "Ben"], {"size": 8, "diagonals": True,
                                                  "diagonal_cells": "full"},
                                OWNERS_8, VALUES_8, handicap_roll=3), None)
    assert line_texts(six)[16:] == ["diagonal 1: B 33", "diagonal 2: A 21", "diagonal 3: A 21",
                                    "diagonal 4: B 33"]
    assert line_texts(full)[16:] == ["diagonal 1: -", "diagonal 2: -"]
    assert [d["counts"] for d in full["lines"][16:]] == [[4, 4], [4, 4]]
    assert full["totals"] == [110, 241]
    assert six["totals"] == [152, 307]
