"""Names and text on the OLED: Latin names in the bitmap font, Japanese names with the CJK font
when installed, else the seat's romanized label; wrapping of messages and the address."""

from __future__ import annotations

from firmware_host.screens.start import wrap_address
from firmware_host.screens.text import (
    CJK_FONT_PATHS,
    Pen,
    blank,
    cjk_font,
    name_glyphs,
    text_font,
    wrap,
)


def drawn_name(name: str, seat: int) -> bytes:
    image = blank()
    Pen(image).name(0, 0, name, seat)
    return image.tobytes()


def drawn_text(text: str) -> bytes:
    image = blank()
    Pen(image).text(0, 0, text)
    return image.tobytes()


def test_latin_names_use_the_bitmap_font() -> None:
    assert name_glyphs("Chloé", 3) == ("Chloé", text_font())


def test_japanese_name_without_cjk_font_falls_back_to_seat_label() -> None:
    assert name_glyphs("愛子", 1, cjk_paths=("/nonexistent/font.ttc",)) == ("P2", text_font())


def test_japanese_name_is_drawn_with_the_installed_cjk_font() -> None:
    # scripts/bootstrap dev installs Debian's fonts-noto-cjk with Chromium
    font = cjk_font(CJK_FONT_PATHS)
    assert font is not None, f"no CJK font in {CJK_FONT_PATHS}: apt-get install fonts-noto-cjk"
    assert name_glyphs("愛子", 1) == ("愛子", font)
    pixels = drawn_name("愛子", 1)
    assert any(pixels) and pixels != drawn_text("P2")
    assert drawn_name("愛子", 1) != drawn_name("健二", 0)


def test_long_name_is_cut_with_a_mark() -> None:
    assert drawn_name("Bartholomew", 0) != drawn_name("Bartholomew Jr", 0)
    image = blank()
    end = Pen(image).name(0, 0, "Bartholomew", 0, chars=6)
    assert end == 36 and drawn_text("Barth~") == image.tobytes()


def test_wrap_keeps_words_and_splits_overlong_ones() -> None:
    assert wrap("lines 1-5 and 2-4 cross", 10) == ["lines 1-5", "and 2-4", "cross"]
    assert wrap("abcdefghijkl", 5) == ["abcde", "fghij", "kl"]


def test_address_breaks_after_dots_or_before_the_port() -> None:
    assert wrap_address("192.168.100.123:8080", 11) == ["192.168.", "100.123", ":8080"]
    assert wrap_address("tabletop.local:8080", 11) == ["tabletop.", "local:8080"]
