"""docs/glossary.md: every seed word is in its seed, and the panel's Japanese uses it.

The seeds are the original rule documents in ``shared/seeds`` (beside the checkout). The test
also checks that the seed sentences the rules quote (in option help and refusals) are verbatim.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.dice216.options import SEED_SIX_CELLS
from rules.hacktrick.turns import UNDER_PLAY_SEED
from rules.unlock.codes import CROSS_TWICE
from web_panel.games import builtin_panel_games
from web_panel.messages import MESSAGES as CORE


def every_text() -> dict[str, dict[str, str]]:
    """The panel's texts and every game's, by key."""
    texts: dict[str, dict[str, str]] = {key: dict(words) for key, words in CORE.items()}
    for game in builtin_panel_games().values():
        texts.update({key: dict(words) for key, words in game.texts.items()})
    return texts


MESSAGES = every_text()

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
SEEDS = ROOT.parent / "shared" / "seeds"


def seed_text(number: str) -> str:
    (path,) = SEEDS.glob(f"{number}_*.txt")
    return re.sub(r"\s+", "", path.read_text(encoding="utf-8"))


def rows() -> list[tuple[str, str, str, list[str]]]:
    """(English, seed word, seed, message keys) of every four-column row of the glossary."""
    found = []
    row = re.compile(r"^\| ([^|]+) \| ([^|]+) \| (\d{3}) \| ([^|]+) \|$")
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        match = row.match(line)
        if match:
            keys = re.findall(r"`([a-z0-9_.]+)`", match[4])
            found.append((match[1], match[2], match[3], keys))
    return found


def english_rows() -> list[tuple[str, str]]:
    """(software's English, seed 002's words) of the two-column UNLOCK table."""
    text = GLOSSARY.read_text(encoding="utf-8")
    table = text.split("(checked in seed 002):", 1)[1].split("\n\n", 2)[1]
    out = []
    for line in table.splitlines()[2:]:
        english, words = (cell.strip() for cell in line.strip("|").split("|"))
        out.append((english, words))
    return out


def test_the_glossary_covers_every_game_and_its_named_terms() -> None:
    seeds = {seed for _, _, seed, _ in rows()}
    assert seeds == {"000", "001", "003", "004"}
    words = {word for _, word, _, _ in rows()}
    for term in ("カーソルマーカー", "アスク・ザ・サム", "カード列", "エクセレンスポイント",
                 "秘密のコード", "色バランス", "個数バランス", "アクティブな三角形", "行", "列"):
        assert term in words


@pytest.mark.parametrize(("english", "word", "seed", "keys"), rows(), ids=lambda v: str(v))
def test_each_seed_word_is_in_its_seed_and_in_the_panels_japanese(
    english: str, word: str, seed: str, keys: list[str]
) -> None:
    assert re.sub(r"\s+", "", word) in seed_text(seed), f"{word!r} is not in seed {seed}"
    for key in keys:
        assert word in MESSAGES[key]["ja"], f"{key}: {MESSAGES[key]['ja']!r} lacks {word!r}"


@pytest.mark.parametrize(("english", "words"), english_rows(), ids=lambda v: str(v))
def test_unlocks_english_words_are_seed_002s(english: str, words: str) -> None:
    assert re.sub(r"\s+", "", words).lower() in seed_text("002").replace("*", "").lower()


def test_a_2_1_6_line_is_never_named_by_the_columns_word_alone() -> None:
    # Seed 004: "列と行の支配を争う" — rows and columns are 行 and 列; a line is either.
    assert MESSAGES["line_row"]["ja"] == "行" and MESSAGES["line_column"]["ja"] == "列"
    assert MESSAGES["line"]["ja"] != MESSAGES["line_column"]["ja"]
    assert "行" in MESSAGES["line"]["ja"] and "列" in MESSAGES["line"]["ja"]


def test_the_seed_sentences_the_rules_quote_are_verbatim() -> None:
    assert "Thepathcan'tcrossthesamedottwice" in seed_text("002").replace("*", "")
    assert CROSS_TWICE.startswith("the path can't cross the same dot twice")
    assert re.sub(r"\s+", "", UNDER_PLAY_SEED) in seed_text("001")
    assert SEED_SIX_CELLS in seed_text("004")
