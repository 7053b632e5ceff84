"""docs/rules-notes.md: every option that departs from a seed, with the seed's sentence beside it.

Checked everywhere: each departing option's help says it departs and quotes the table's
sentence; every option whose help says it departs is in the table; every seed quote in an
option's help is one the notes keep; the sentences the rules quote in code are the notes' own.
Checked against the seeds themselves (the original rule documents, which the repository does
not hold) only where ``TABLETOP_SEEDS_DIR`` names them (``tests/seeds.py``): each quoted
sentence is in its seed verbatim.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import get_game
from rules.dice216.options import SEED_SIX_CELLS
from rules.hacktrick.turns import UNDER_PLAY_SEED
from rules.unlock.codes import CROSS_TWICE
from tests.seeds import seeds, squeezed, squeezed_seed

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "docs" / "rules-notes.md"
GAMES = ("unlock", "hacktrick", "ico", "dice216")


def table(heading: str) -> list[list[str]]:
    """The rows (cells) of the first table under ``heading``."""
    section = NOTES.read_text(encoding="utf-8").split(f"## {heading}\n", 1)[1].split("\n## ")[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[1:]]


def helps() -> dict[tuple[str, str], str]:
    return {(game, o["name"]): str(o["help"]) for game in GAMES
            for o in get_game(game).describe()["options"]}


#: A quotation in single quotes: it opens after a space or "(" and closes before a space,
#: punctuation or the end, so an apostrophe inside ("can't") does not end it.
QUOTE = re.compile(r"(?:(?<=\s)|(?<=\()|^)'(.+?)'(?=[\s.,;:)]|$)")


def quotes(help_text: str) -> list[str]:
    """The sentences a help quotes (long enough to be a seed's words, not a value like 'six')."""
    return [q for q in QUOTE.findall(help_text) if len(squeezed(q)) >= 12]


DEPARTURES = table("Options that depart from a seed")
READINGS = table("Readings where a seed is open (not departures)")
KEPT = [squeezed(row[4]).lower() for row in DEPARTURES] + [
    squeezed(s).lower() for row in READINGS for s in row[4].split(" / ")]


def kept(quote: str) -> bool:
    """Whether the notes keep ``quote`` (or a sentence it is a part of)."""
    return any(squeezed(quote).lower() in sentence for sentence in KEPT)


def test_the_notes_list_departures_and_readings() -> None:
    assert len(DEPARTURES) >= 10 and len(READINGS) >= 5
    assert {row[0] for row in DEPARTURES} == set(GAMES)


@pytest.mark.parametrize("row", DEPARTURES, ids=lambda r: f"{r[0]}-{r[1]}")
def test_each_departing_option_says_so_and_quotes_the_notes_sentence(row: list[str]) -> None:
    game, option, _, _, sentence = row
    help_text = helps()[game, option.strip("`")]
    assert "depart" in help_text, f"{game} {option}: the help does not say it departs"
    assert any(squeezed(q) in squeezed(sentence) for q in quotes(help_text)), (
        f"{game} {option}: the help quotes none of the notes' sentence {sentence!r}")


def test_every_option_whose_help_says_it_departs_is_listed() -> None:
    listed = {(row[0], row[1].strip("`")) for row in DEPARTURES}
    departing = {key for key, text in helps().items() if "depart" in text}
    assert departing == listed


@pytest.mark.parametrize("key", sorted(helps()), ids=lambda k: f"{k[0]}-{k[1]}")
def test_every_seed_quote_in_an_options_help_is_kept_in_the_notes(key: tuple[str, str]) -> None:
    for quote in quotes(helps()[key]):
        if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", quote) or key in {
                (row[0], row[1].strip("`")) for row in DEPARTURES}:
            assert kept(quote), f"{key}: {quote!r} is not a sentence docs/rules-notes.md keeps"


def test_the_sentences_the_rules_quote_are_the_notes_own() -> None:
    assert kept(CROSS_TWICE.split(":")[0])
    assert CROSS_TWICE.startswith("the path can't cross the same dot twice")
    assert kept(UNDER_PLAY_SEED)
    assert kept(SEED_SIX_CELLS)


def test_the_issue_13_options_are_listed_with_their_seed_sentences() -> None:
    listed = {(row[0], row[1].strip("`")): row[4] for row in DEPARTURES}
    assert "山札からカードをドロー等" in listed["hacktrick", "ask_under_play"]
    assert "6マスの部分のみを計算する" in listed["dice216", "diagonal_cells"]


@seeds
@pytest.mark.parametrize("row", DEPARTURES, ids=lambda r: f"{r[0]}-{r[1]}")
def test_each_departures_sentence_is_in_its_seed(row: list[str]) -> None:
    _, _, _, number, sentence = row
    assert squeezed(sentence) in squeezed_seed(number), f"not in seed {number}: {sentence}"


@seeds
@pytest.mark.parametrize("row", READINGS, ids=lambda r: f"{r[0]}-{r[1]}")
def test_each_reading_quotes_its_seed_verbatim(row: list[str]) -> None:
    _, _, _, number, sentences = row
    for sentence in sentences.split(" / "):
        assert squeezed(sentence) in squeezed_seed(number), f"not in seed {number}: {sentence}"
