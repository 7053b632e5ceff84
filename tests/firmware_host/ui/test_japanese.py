"""Every text the OLED shows exists in English and Japanese, and every Japanese text, drawn
with the Misaki pixel font on luma's dummy 128×64 device, fits the screen with no missing glyph
(no "tofu" box): each character has a bitmap of its own in the font that draws it."""

from __future__ import annotations

import re
import string
from functools import cache
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import ImageFont

from firmware_host.games import builtin_games
from firmware_host.refusals import REFUSAL_WORDS
from firmware_host.screens.text import (
    HEIGHT,
    JAPANESE_FONT_PATHS,
    JAPANESE_SIZE,
    LINE_H,
    WIDTH,
    Pen,
    blank,
    japanese_font,
    text_width,
)
from firmware_host.screens.words import WORDS, Words, check_words
from tests.seeds import seeds, squeezed, squeezed_seed

TABLES: dict[str, Words] = {
    "box": WORDS, "refusals": REFUSAL_WORDS,
    **{game.id: game.words for game in builtin_games().values() if game.words is not None},
}
TEXTS = [(table, key) for table, words in TABLES.items() for key in sorted(words)]

#: What the blanks are filled with: Japanese names and words, numbers, codes.
SAMPLES = {"name": "愛子", "who": "愛子", "winner": "愛子", "names": "愛子, 健二",
           "player": "健二", "game": "ハックトリック", "pad": "アンロック 3", "rule": "色バランス",
           "legal": "1か3", "reach": "1, 2, 3, 4, 5", "how": "相手のマーカーが尽きた",
           "score": "愛子 1, 健二 0", "level": "やさしい", "key": "キーA", "cards": "1 5 2",
           "counts": "0/1", "code": "1-2-3-6", "line": "1-9", "a": "1-5", "b": "2-4",
           "detail": "the rules refuse it", "roll": "roll 9", "version": "1.1",
           "taken": "2026-11-28 02:44", "address": "192.168.100.200:8080/host"}
#: Texts of the games drawn in a narrow place (a key, or all keys starting with a prefix that
#: ends in "."), and the pixels they have there: the board's right column.
NARROW = {"prompt.": 62, "name": 62, "level.": 62, "secret": 62, "turn": 62, "status": 62,
          "left": 62, "row": 62, "captured": 62, "versus": 62, "versus_sum": 62,
          "must_play": 62, "no_play": 62, "declared.": 62, "col.": 22, "repeat": 22,
          "cell": 66, "cell_empty": 66, "game_over": 62}
#: The 2 1 6 column is 66 pixels wide.
WIDER = {("dice216", "prompt.roll"): 66, ("dice216", "prompt.place"): 66}
#: Texts that are the same in both languages on purpose (names, keys, numbers).
SAME_IN_BOTH = {("ico", "name"), ("dice216", "name"), ("box", "pin"), ("box", "key.ok"),
                ("box", "key.back"), ("box", "game_row"), ("unlock", "ok_back")}


def filled(text: str) -> str:
    blanks = [f for _, f, _, _ in string.Formatter().parse(text) if f]
    return text.format(**{b: SAMPLES.get(b, "12") for b in blanks})


@cache
def missing_glyph(font: ImageFont.FreeTypeFont) -> bytes:
    """The bitmap the font draws for a character it does not have."""
    return bytes(font.getmask("\U0010fffd"))


def test_the_japanese_font_is_installed() -> None:
    assert japanese_font() is not None, (
        f"no Misaki font in {JAPANESE_FONT_PATHS}: scripts/bootstrap installs fonts-misaki")


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_text_has_both_languages_with_the_same_blanks(table: str) -> None:
    assert check_words(TABLES[table]) == []


@pytest.mark.parametrize(("table", "key"), TEXTS)
def test_japanese_text_has_a_glyph_for_every_character(table: str, key: str) -> None:
    text = filled(TABLES[table][key]["ja"])
    font = ImageFont.truetype(JAPANESE_FONT_PATHS[0], JAPANESE_SIZE)
    for ch in text:
        if ch.isspace() or ord(ch) < 256:  # Latin-1: Pillow's bitmap font
            continue
        mask = font.getmask(ch)
        assert mask.getbbox() is not None, f"{ch!r} in {key} draws nothing"
        assert bytes(mask) != missing_glyph(font), f"{ch!r} in {key} is a missing-glyph box"


@pytest.mark.parametrize(("table", "key"), TEXTS)
def test_japanese_text_fits_the_oled(table: str, key: str) -> None:
    text = filled(TABLES[table][key]["ja"])
    image = blank()
    pen = Pen(image, "ja")
    lines = [line for part in text.split("\n") for line in pen.wrap(part)]
    # under a screen's title bar: at most six lines, each within the screen's width
    assert len(lines) <= (HEIGHT - LINE_H) // LINE_H, f"{key}: {len(lines)} lines"
    assert all(pen.width(line) <= WIDTH for line in lines)
    pen.lines(0, 0, lines)
    device = dummy(width=WIDTH, height=HEIGHT, mode="1")
    device.display(image)
    shown = device.image
    assert shown.size == (WIDTH, HEIGHT) and shown.tobytes() == image.tobytes()
    box = shown.getbbox()
    assert box is not None and box[2] <= WIDTH and box[3] <= HEIGHT
    if table in ("box", "refusals"):
        return
    width = WIDER.get((table, key)) or next(
        (w for k, w in NARROW.items() if key == k or (k.endswith(".") and key.startswith(k))),
        None)
    if width is None:  # wrapped to the screen's width, checked above
        return
    for line in text.split("\n"):
        assert text_width(line, "ja") <= width, f"{key}: {line!r} is wider than {width}"


@pytest.mark.parametrize(("table", "key"), TEXTS)
def test_japanese_text_is_not_the_english_one(table: str, key: str) -> None:
    entry = TABLES[table][key]
    if (table, key) not in SAME_IN_BOTH:
        assert entry["ja"] != entry["en"], f"{table}.{key} is not translated"
    else:
        assert entry["ja"] == entry["en"]


#: OLED texts that name a rule, and the seed's own word for it (docs/glossary.md).
SEED_WORDS = [
    ("unlock", "name", "000", "アンロック"), ("unlock", "secret", "000", "秘密のコード"),
    ("unlock", "turn", "000", "ターン"), ("unlock", "level.easy", "000", "やさしい"),
    ("unlock", "level.medium", "000", "ふつう"), ("unlock", "level.hard", "000", "むずかしい"),
    ("unlock", "col.hit", "000", "一致"), ("unlock", "refusal.cross", "000", "交差"),
    ("unlock", "refusal.repeat", "000", "すでに描かれたコード"),
    ("unlock", "refusal.crossed", "000", "同じドットを2回通過することはできません"),
    ("hacktrick", "name", "001", "ハックトリック"), ("hacktrick", "round", "001", "ラウンド"),
    ("hacktrick", "hint_open", "001", "手札"), ("hacktrick", "refusal.ask_once", "001",
                                               "アスク・ザ・サム"),
    ("hacktrick", "refusal.under_play", "001", "プレイの宣言"),
    ("hacktrick", "refusal.under_guard", "001", "ガードの宣言"),
    ("hacktrick", "reason.target_reached", "001", "エクセレンスポイント"),
    ("ico", "name", "003", "ICO"), ("ico", "rule.colour balance", "003", "色バランス"),
    ("ico", "rule.count balance", "003", "個数バランス"), ("ico", "prompt.move", "003", "移動"),
    ("dice216", "prompt.roll", "004", "サイコロ"), ("dice216", "cell_empty", "004", "マス"),
    ("dice216", "reason.highest_total", "004", "合計値"),
    ("dice216", "reason.equal_totals", "004", "引き分け"),
]


GLOSSARY = Path(__file__).resolve().parents[3] / "docs" / "glossary.md"


def glossary_words(seed: str) -> list[str]:
    """The seed words ``docs/glossary.md`` gives for ``seed``."""
    row = re.compile(rf"^\| [^|]+ \| ([^|]+) \| {seed} \| [^|]+ \|$")
    lines = GLOSSARY.read_text(encoding="utf-8").splitlines()
    return [match[1] for line in lines if (match := row.match(line))]


@pytest.mark.parametrize(("table", "key", "seed", "word"), SEED_WORDS)
def test_the_oled_speaks_the_glossarys_words(table: str, key: str, seed: str, word: str) -> None:
    assert word in TABLES[table][key]["ja"], f"{table}.{key} lacks {word!r}"
    assert any(word in term for term in glossary_words(seed)), (
        f"{word!r} is not (part of) a seed {seed} word in docs/glossary.md")


@seeds
@pytest.mark.parametrize(("table", "key", "seed", "word"), SEED_WORDS)
def test_the_oled_speaks_the_seeds_words(table: str, key: str, seed: str, word: str) -> None:
    assert squeezed(word) in squeezed_seed(seed), f"{word} not in seed {seed}"
