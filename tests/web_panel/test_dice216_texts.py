"""2 1 6's words on the panel (``web_panel/games/dice216``): a label and help for every option
of its rules and a label for every choice, a text for every way a game ends, both in English and
Japanese, with no identifier left for a player to read."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from rules import CHANCE, get_game
from tests.web_panel.served import CSRF, HOST_PIN
from web_panel.games import builtin_panel_games

GAME = get_game("dice216")
PANEL = builtin_panel_games()["dice216"]
OPTIONS = GAME.describe()["options"]
NOTES = Path(__file__).resolve().parents[2] / "docs" / "rules-notes.md"
#: A snake_case identifier (an option id, a reason code).
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


def blanks(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: str(o["name"]))
def test_every_option_has_a_label_a_help_and_a_label_for_each_choice(
    option: dict[str, object],
) -> None:
    name = option["name"]
    keys = [f"option.{name}", f"help.{name}"]
    keys += [f"choice.{name}.{value}" for value in option["choices"]]  # type: ignore[attr-defined]
    for key in keys:
        for lang in ("en", "ja"):
            text = PANEL.text(key, lang)
            assert text, f"{key} has no {lang} text"
            assert not IDENTIFIER.search(text), f"{key} ({lang}) shows an identifier: {text!r}"


def departing_options() -> list[str]:
    """The 2 1 6 options docs/rules-notes.md lists as departing from seed 004."""
    notes = NOTES.read_text(encoding="utf-8")
    table = notes.split("## Options that depart from a seed\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| dice216 \| `([a-z_]+)` \|", table, re.M)
    assert rows, "docs/rules-notes.md lists no 2 1 6 option"
    return rows


@pytest.mark.parametrize("name", departing_options())
def test_the_help_of_an_option_that_can_depart_from_the_seed_says_so(name: str) -> None:
    assert "departs from the seed" in (PANEL.text(f"help.{name}", "en") or "")
    assert "ルールとは異なる" in (PANEL.text(f"help.{name}", "ja") or "")


def an_outcome() -> dict[str, object]:
    """The outcome of a 4×4 game played to its end."""
    state = GAME.start(["Aiko", "Ben"], {"size": 4})
    for row in range(1, 5):
        for col in range(1, 5):
            state = GAME.apply(state, CHANCE, "roll 2")
            state = GAME.apply(state, GAME.to_act(state)[0], f"place {row} {col}")
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome


@pytest.mark.parametrize("reason", list(GAME.reasons), ids=str)
def test_every_way_a_game_ends_has_words_filled_from_its_outcome(reason: object) -> None:
    # the outcome's keys, and the winner's and the tied players' names the board adds
    # (static/kit.js's reasonText)
    outcome_keys = {*an_outcome(), "winner", "tied"}
    for lang in ("en", "ja"):
        text = PANEL.text(f"reason.{reason}", lang)
        assert text, f"reason.{reason} has no {lang} text"
        assert blanks(text) <= outcome_keys


def test_a_draw_is_not_worded_as_one_players_win() -> None:
    for lang in ("en", "ja"):
        assert "winner" not in blanks(PANEL.text("reason.equal_totals", lang) or "")


@pytest.mark.parametrize(("lang", "default"), [("en", "the six-cell parts"),
                                               ("ja", "6マスの部分のみ")])
def test_the_new_game_form_names_a_default_choice_by_its_label(
    client: FlaskClient, lang: str, default: str
) -> None:
    client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    client.set_cookie("tt_lang", lang)
    page = client.get("/host/new/dice216").get_data(as_text=True)
    option = page.split('data-option="diagonal_cells"', 1)[1].split('class="option"', 1)[0]
    help_line = option.split('class="help"', 1)[1].split("</p>", 1)[0]
    assert help_line.endswith(f"{default}</span>")
