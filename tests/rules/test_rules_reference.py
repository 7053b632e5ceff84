"""docs/rules/<game>.md: each game's rules as the box plays them, options as the code has them.

Every game has its page; its ``## Options`` table lists exactly the game's declared options, in
order, each with its default and every value it accepts; and it says what is secret from whom.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rules import GAME_IDS, get_game

ROOT = Path(__file__).resolve().parents[2]
HEADER = "| option | default | values | what it does |"


def page(game: str) -> str:
    return (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")


def options_table(game: str) -> list[list[str]]:
    """The cells of each row of the page's ``## Options`` table."""
    section = page(game).split("\n## Options\n", 1)[1].split("\n## ")[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert lines[0] == HEADER, f"{game}: the options table's header is {lines[0]!r}"
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            for line in lines[2:]]


def written(value: Any) -> str:
    """A value as the pages write it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_game_has_its_rules_page_with_what_is_secret(game: str) -> None:
    text = page(game)
    assert text.startswith("# ")
    assert "\n## What is secret, and from whom\n" in text


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_options_table_lists_the_games_options_in_order(game: str) -> None:
    declared = [o["name"] for o in get_game(game).describe()["options"]]
    assert [row[0] for row in options_table(game)] == [f"`{name}`" for name in declared]


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_option_row_gives_its_default_and_every_value(game: str) -> None:
    rows = {row[0].strip("`"): row for row in options_table(game)}
    for option in get_game(game).describe()["options"]:
        _, default, values, _ = rows[option["name"]]
        first = re.match(r"`([^`]*)`", default)
        assert first and first[1] == written(option["default"]), (
            f"{game} {option['name']}: the default cell {default!r} does not begin with "
            f"`{written(option['default'])}`")
        for choice in option["choices"]:
            assert f"`{written(choice)}`" in values, (
                f"{game} {option['name']}: {choice!r} is not among the values {values!r}")
        if option["allow_none"]:
            assert "`none`" in values or "`none`" in default, f"{game} {option['name']}: none"
