"""The options of 2 1 6: the table's defaults, dependent defaults, bad combinations."""

from __future__ import annotations

import json

import pytest

from rules import OptionError, get_game
from rules.dice216 import GAME


def chosen(options: dict[str, object] | None, players: int = 2) -> dict[str, object]:
    view = GAME.view(GAME.start([f"P{n}" for n in range(players)], options), None)
    return dict(view["options"])


def test_registry_serves_this_game() -> None:
    assert get_game("dice216") is GAME


def test_defaults_follow_the_rules_table() -> None:
    assert chosen(None) == {
        "line_total": "all", "diagonals": False, "handicap": False, "size": 6,
        "die_faces": 6, "area": False, "diagonal_cells": "six", "first_player": 0,
    }


@pytest.mark.parametrize(("size", "faces"), [(4, 4), (6, 6), (8, 8)])
def test_die_follows_the_grid_size(size: int, faces: int) -> None:
    assert chosen({"size": size})["die_faces"] == faces


def test_three_and_four_players_default_to_12x12_with_a_d6() -> None:
    for players in (3, 4):
        options = chosen(None, players)
        assert (options["size"], options["die_faces"]) == (12, 6)


def test_die_faces_can_be_overridden() -> None:
    assert chosen({"size": 4, "die_faces": 6})["die_faces"] == 6
    assert chosen({"die_faces": "8"}, 3)["die_faces"] == 8


def test_handicap_defaults_on_with_diagonals() -> None:
    assert chosen({"diagonals": True})["handicap"] is True
    assert chosen({"diagonals": "on", "handicap": "off"})["handicap"] is False
    assert chosen({"handicap": True})["diagonals"] is False


def test_every_variant_combines() -> None:
    options = {"line_total": "own", "diagonals": True, "handicap": True, "area": True,
               "size": 8, "die_faces": 12, "diagonal_cells": "full", "first_player": 1}
    assert chosen(options) == options


@pytest.mark.parametrize(
    ("options", "players", "named", "says"),
    [
        ({"size": 6}, 3, "size", "12×12"),
        ({"size": 8}, 4, "size", "12×12"),
        ({"size": 12}, 2, "size", "3–4 players"),
        ({"size": 5}, 2, "size", "not one of"),
        ({"die_faces": 1}, 2, "die_faces", "minimum"),
        ({"die_faces": 21}, 2, "die_faces", "maximum"),
        ({"line_total": "half"}, 2, "line_total", "not one of"),
        ({"first_player": 2}, 2, "first_player", "does not exist"),
        ({"diagonals": "maybe"}, 2, "diagonals", "on or off"),
        ({"diagonal_cells": "seven"}, 2, "diagonal_cells", "not one of"),
        ({"size": 4, "diagonals": True}, 2, "diagonal_cells", "no diagonal of the 4×4 grid"),
        ({"colours": "red"}, 2, "colours", "unknown option"),
    ],
)
def test_bad_option_or_combination_is_refused_by_name(
    options: dict[str, object], players: int, named: str, says: str
) -> None:
    with pytest.raises(OptionError, match=says) as refusal:
        GAME.start([f"P{n}" for n in range(players)], options)
    assert refusal.value.option == named


def test_resolve_options_checks_the_combination_too() -> None:
    with pytest.raises(OptionError) as refusal:
        GAME.resolve_options({"size": 6}, 3)
    assert refusal.value.option == "size"


def test_description_lists_every_option_of_the_table() -> None:
    described = GAME.describe()
    json.dumps(described)
    assert [o["name"] for o in described["options"]] == [
        "line_total", "diagonals", "diagonal_cells", "handicap", "size", "die_faces", "area",
        "first_player",
    ]
    by_name = {o["name"]: o for o in described["options"]}
    assert by_name["handicap"]["default_depends"] and by_name["die_faces"]["default_depends"]
    assert by_name["size"]["choices"] == [4, 6, 8, 12]
    assert by_name["first_player"]["allow_random"]
    assert (described["min_players"], described["max_players"]) == (2, 4)
