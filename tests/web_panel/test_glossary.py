"""docs/glossary.md: the panel's Japanese uses every seed word, and every seed word is its seed's.

Checked everywhere: each listed panel message's Japanese carries its glossary word. Checked
against the seeds themselves (the original rule documents, which the repository does not hold)
only where ``TABLETOP_SEEDS_DIR`` names them (``tests/seeds.py``): every glossary word is in its
seed verbatim, UNLOCK's English words are seed 002's, and the seed sentences the rules quote (in
option help and refusals) are verbatim.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.games import builtin_games
from firmware_host.refusals import REFUSAL_WORDS
from rules.dice216.options import SEED_SIX_CELLS
from rules.hacktrick.turns import UNDER_PLAY_SEED
from rules.unlock.codes import CROSS_TWICE
from tests.seeds import seeds, squeezed, squeezed_seed
from web_panel.games import builtin_panel_games
from web_panel.messages import MESSAGES as CORE


def every_text() -> dict[str, dict[str, str]]:
    """The panel's texts and every game's, by key, with the refusals a page says (the one
    phrasebook the OLED and the panel share)."""
    texts: dict[str, dict[str, str]] = {key: dict(words) for key, words in CORE.items()}
    for game in builtin_panel_games().values():
        texts.update({key: dict(words) for key, words in game.texts.items()})
    texts.update({key: dict(words) for key, words in REFUSAL_WORDS.items()})
    for box in builtin_games().values():
        texts.update({key: dict(words) for key, words in (box.words or {}).items()
                      if key.startswith("refusal.")})
    return texts


MESSAGES = every_text()

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"

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
def test_the_panels_japanese_uses_each_seed_word(
    english: str, word: str, seed: str, keys: list[str]
) -> None:
    for key in keys:
        assert key in MESSAGES, f"{key} (listed for {word!r}) is not a panel message"
        assert word in MESSAGES[key]["ja"], f"{key}: {MESSAGES[key]['ja']!r} lacks {word!r}"


@seeds
@pytest.mark.parametrize(("english", "word", "seed", "keys"), rows(), ids=lambda v: str(v))
def test_each_seed_word_is_in_its_seed(
    english: str, word: str, seed: str, keys: list[str]
) -> None:
    assert squeezed(word) in squeezed_seed(seed), f"{word!r} is not in seed {seed}"


@seeds
@pytest.mark.parametrize(("english", "words"), english_rows(), ids=lambda v: str(v))
def test_unlocks_english_words_are_seed_002s(english: str, words: str) -> None:
    assert squeezed(words).lower() in squeezed_seed("002").lower()


def test_a_2_1_6_line_is_never_named_by_the_columns_word_alone() -> None:
    # Seed 004: "列と行の支配を争う" — rows and columns are 行 and 列; a line is either.
    assert MESSAGES["line_row"]["ja"] == "行" and MESSAGES["line_column"]["ja"] == "列"
    assert MESSAGES["line"]["ja"] != MESSAGES["line_column"]["ja"]
    assert "行" in MESSAGES["line"]["ja"] and "列" in MESSAGES["line"]["ja"]


@seeds
def test_the_seed_sentences_the_rules_quote_are_verbatim() -> None:
    assert "Thepathcan'tcrossthesamedottwice" in squeezed_seed("002")
    assert CROSS_TWICE.startswith("the path can't cross the same dot twice")
    assert squeezed(UNDER_PLAY_SEED) in squeezed_seed("001")
    assert SEED_SIX_CELLS in squeezed_seed("004")
