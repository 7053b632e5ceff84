"""Names and text on the OLED: Latin text in Pillow's bitmap font, Japanese in the Misaki pixel
font (Debian's fonts-misaki); a name no font can draw falls back to the seat's romanized
label; wrapping of messages (Japanese by character, never breaking before a closing mark) and
of the address."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import ImageDraw

from firmware_host.screens.start import wrap_address
from firmware_host.screens.text import (
    JAPANESE_FONT_PATHS,
    Pen,
    blank,
    has_glyph,
    japanese_font,
    shown_name,
    text_font,
    text_width,
    wrap,
    wrap_to,
)

ROOT = Path(__file__).resolve().parents[3]


def drawn_name(name: str, seat: int, lang: str = "en") -> bytes:
    image = blank()
    Pen(image, lang).name(0, 0, name, seat)
    return image.tobytes()


def drawn_text(text: str) -> bytes:
    image = blank()
    Pen(image).text(0, 0, text)
    return image.tobytes()


def test_latin_names_use_the_bitmap_font() -> None:
    image = blank()
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    draw.text((0, -2), "Chloé", font=text_font(), fill=1)
    assert drawn_name("Chloé", 3) == image.tobytes()
    assert text_width("Chloé") == 30


def test_japanese_font_is_installed_and_draws_kana_and_kanji() -> None:
    # scripts/bootstrap installs Debian's fonts-misaki
    font = japanese_font()
    assert font is not None, f"no Misaki font in {JAPANESE_FONT_PATHS}: apt-get install " \
                             "fonts-misaki"
    assert all(has_glyph(ch) for ch in "愛子ケンジのターン、。")
    assert text_width("愛子", "ja") == 16  # 8 px a full-width character


def test_japanese_name_is_drawn_with_the_japanese_font() -> None:
    assert shown_name("愛子", 1) == "愛子"
    pixels = drawn_name("愛子", 1)
    assert any(pixels) and pixels != drawn_text("P2")
    assert drawn_name("愛子", 1) != drawn_name("健二", 0)


def test_a_character_no_font_has_falls_back_to_the_seat_label() -> None:
    assert not has_glyph("愛", ("/nonexistent/font.ttf",))
    assert not has_glyph("\U0001f3b2")  # a die emoji: neither font has it
    assert shown_name("\U0001f3b2 Aiko", 1) == "P2"
    assert drawn_name("\U0001f3b2 Aiko", 1) == drawn_text("P2")


def test_long_name_is_cut_with_a_mark() -> None:
    assert drawn_name("Bartholomew", 0) != drawn_name("Bartholomew Jr", 0)
    image = blank()
    end = Pen(image).name(0, 0, "Bartholomew", 0, chars=6)
    assert end == 36 and drawn_text("Barth~") == image.tobytes()


def test_wrap_keeps_words_and_splits_overlong_ones() -> None:
    assert wrap("lines 1-5 and 2-4 cross", 10) == ["lines 1-5", "and 2-4", "cross"]
    assert wrap("abcdefghijkl", 5) == ["abcde", "fghij", "kl"]


def test_japanese_wraps_between_characters_but_not_before_a_closing_mark() -> None:
    lines = wrap_to("線1-5と2-4が交差しています(やさしいでは交差できません)。", 128, "ja")
    assert "".join(lines) == "線1-5と2-4が交差しています(やさしいでは交差できません)。"
    assert all(text_width(line, "ja") <= 128 for line in lines)
    assert not any(line.startswith(("。", ")", "、")) for line in lines)
    assert not any(line.endswith("(") for line in lines)
    assert len(wrap_to("パッドをケンジに渡す", 40, "ja")) == 2


def test_address_breaks_after_dots_or_before_the_port() -> None:
    assert wrap_address("192.168.100.123:8080", 11) == ["192.168.", "100.123", ":8080"]
    assert wrap_address("tabletop.local:8080", 11) == ["tabletop.", "local:8080"]


def test_a_screen_drawn_by_several_threads_at_first_use_is_the_same(tmp_path: Path) -> None:
    # The pad loop and another thread (a test, the simulator) draw at once while the fonts and
    # the glyph caches are still cold: a fresh interpreter, eight threads, one frame each.
    script = (
        "import threading\n"
        "from firmware_host.screens.start import start_screen\n"
        "frames = [None] * 8\n"
        "def draw(i): frames[i] = start_screen('http://192.168.1.23:8080/', '2468').tobytes()\n"
        "threads = [threading.Thread(target=draw, args=(i,)) for i in range(8)]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "again = start_screen('http://192.168.1.23:8080/', '2468').tobytes()\n"
        "print(sum(frame == again for frame in frames))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, check=True)
    assert done.stdout.strip() == "8"
