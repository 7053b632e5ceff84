"""docs/rules-notes.md: every option that departs from a seed, with the seed's sentence beside it.

The seeds are the original rule documents in ``shared/seeds`` beside the checkout. Each quoted
sentence must be in its seed verbatim; each departing option's help must say it departs; and
every option whose help says it departs must be in the table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import get_game

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "docs" / "rules-notes.md"
SEEDS = ROOT.parent / "shared" / "seeds"
GAMES = ("unlock", "hacktrick", "ico", "dice216")


def squeezed(text: str) -> str:
    """Text without whitespace or markdown emphasis, to compare quotes with the seeds."""
    return re.sub(r"\s+", "", text).replace("*", "")


def seed(number: str) -> str:
    (path,) = SEEDS.glob(f"{number}_*.txt")
    return squeezed(path.read_text(encoding="utf-8"))


def table(heading: str) -> list[list[str]]:
    """The rows (cells) of the first table under ``heading``."""
    section = NOTES.read_text(encoding="utf-8").split(f"## {heading}\n", 1)[1].split("\n## ")[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[1:]]


def helps() -> dict[tuple[str, str], str]:
    return {(game, o["name"]): str(o["help"]) for game in GAMES
            for o in get_game(game).describe()["options"]}


DEPARTURES = table("Options that depart from a seed")
READINGS = table("Readings where a seed is open (not departures)")


@pytest.mark.parametrize("row", DEPARTURES, ids=lambda r: f"{r[0]}-{r[1]}")
def test_each_departing_option_quotes_its_seed_and_says_so_in_its_help(row: list[str]) -> None:
    game, option, _, number, sentence = row
    name = option.strip("`")
    assert squeezed(sentence) in seed(number), f"not in seed {number}: {sentence}"
    help_text = helps()[game, name]
    assert "depart" in help_text, f"{game} {name}: the help does not say it departs"


def test_every_option_whose_help_says_it_departs_is_listed() -> None:
    listed = {(row[0], row[1].strip("`")) for row in DEPARTURES}
    departing = {key for key, text in helps().items() if "depart" in text}
    assert departing == listed


@pytest.mark.parametrize("row", READINGS, ids=lambda r: f"{r[0]}-{r[1]}")
def test_each_reading_quotes_its_seed_verbatim(row: list[str]) -> None:
    _, _, _, number, sentences = row
    for sentence in sentences.split(" / "):
        assert squeezed(sentence) in seed(number), f"not in seed {number}: {sentence}"


def test_the_issue_13_options_are_listed_with_their_seed_sentences() -> None:
    listed = {(row[0], row[1].strip("`")): row[4] for row in DEPARTURES}
    assert "山札からカードをドロー等" in listed["hacktrick", "ask_under_play"]
    assert "6マスの部分のみを計算する" in listed["dice216", "diagonal_cells"]
