"""Fonts and text drawing for the 128×64 OLED.

Text uses Pillow's bundled bitmap font (6 px per character, Latin-1 only): it ships with
Pillow, so every machine renders the same pixels and the reference images stay exact.
Player names outside Latin-1 (Japanese names) are drawn with Debian's Noto Sans CJK
(``fonts-noto-cjk``) at 10 px without anti-aliasing when that font is installed; without it
the name falls back to the seat's romanized label ``P1``, ``P2``… (see docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
#: Width of one character of the text font, in pixels.
CHAR_W = 6
#: Distance between two text lines; glyphs use rows 1–10 of their 11-pixel cell.
LINE_H = 9
#: Where CJK fonts are looked for, first found wins.
CJK_FONT_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
)
CJK_SIZE = 10

Font = ImageFont.ImageFont | ImageFont.FreeTypeFont
#: Punctuation the rules' messages use that Latin-1 lacks, as the nearest Latin-1 text.
PUNCTUATION = str.maketrans({"—": "-", "–": "-", "‘": "'", "’": "'", "“": '"', "”": '"',
                             "…": "...", "→": "->", "≤": "<=", "≥": ">=", "−": "-"})


@cache
def text_font() -> ImageFont.ImageFont:
    """Pillow's bundled bitmap font."""
    return ImageFont.load_default_imagefont()


@cache
def cjk_font(paths: tuple[str, ...] = CJK_FONT_PATHS) -> ImageFont.FreeTypeFont | None:
    """The first CJK font found in ``paths``, or None when none is installed."""
    for path in paths:
        if Path(path).is_file():
            try:
                return ImageFont.truetype(path, CJK_SIZE)
            except OSError:
                continue
    return None


def bitmap_safe(text: str) -> bool:
    """True if the bitmap font can draw every character of ``text``."""
    return all(ord(ch) < 256 for ch in text)


def seat_label(seat: int) -> str:
    """The romanized stand-in for a name: ``P1`` for seat 0."""
    return f"P{seat + 1}"


def name_glyphs(
    name: str, seat: int, cjk_paths: tuple[str, ...] = CJK_FONT_PATHS
) -> tuple[str, Font]:
    """The text and font to draw a player's name with (see the module docstring)."""
    if bitmap_safe(name):
        return name, text_font()
    font = cjk_font(cjk_paths)
    if font is None:
        return seat_label(seat), text_font()
    return name, font


def clip(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, the last one a ``~`` when cut."""
    return text if len(text) <= chars else text[: max(chars - 1, 0)] + "~"


def wrap(text: str, chars: int) -> list[str]:
    """Words of ``text`` wrapped to lines of at most ``chars`` characters."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            while len(word) > chars:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:chars])
                word = word[chars:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= chars:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


class Pen:
    """Draws text, names and shapes on one 1-bit image (white on black)."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.draw.fontmode = "1"

    def text(self, x: int, y: int, text: str, *, fill: int = 1) -> int:
        """Draws ``text`` (Latin-1) with its top line at ``y``; returns the x after it."""
        safe = text.translate(PUNCTUATION).encode("latin-1", "replace").decode("latin-1")
        self.draw.text((x, y - 2), safe, font=text_font(), fill=fill)
        return x + CHAR_W * len(safe)

    def name(self, x: int, y: int, name: str, seat: int, *, chars: int = 21, fill: int = 1) -> int:
        """Draws a player's name, cut to ``chars`` characters; returns the x after it."""
        shown, font = name_glyphs(name, seat)
        if font is text_font():
            return self.text(x, y, clip(shown, chars), fill=fill)
        # a CJK name: cut to the same width in pixels, glyph tops aligned with the text's
        while len(shown) > 1 and font.getlength(shown) > chars * CHAR_W:
            shown = shown[:-1]
        top = int(font.getbbox(shown)[1])
        self.draw.text((x, y - 1 - top), shown, font=font, fill=fill)
        return x + int(font.getlength(shown))

    def lines(self, x: int, y: int, lines: Sequence[str], *, fill: int = 1) -> int:
        """Draws text lines downwards from ``y``; returns the y after the last."""
        for line in lines:
            self.text(x, y, line, fill=fill)
            y += LINE_H
        return y

    def centred(self, y: int, text: str, *, left: int = 0, right: int = WIDTH) -> None:
        """Draws ``text`` centred between ``left`` and ``right``."""
        x = left + (right - left - CHAR_W * len(text)) // 2
        self.text(max(x, left), y, text)

    def invert(self, box: tuple[int, int, int, int]) -> None:
        """Inverts the pixels inside ``box`` (left, top, right, bottom; inclusive)."""
        left, top, right, bottom = box
        region = self.image.crop((left, top, right + 1, bottom + 1))
        white = Image.new("1", region.size, 1)
        self.image.paste(ImageChops.logical_xor(region, white), (left, top))

    def inverse_bar(self, y: int, text: str) -> None:
        """A full-width title bar: black text on white."""
        self.draw.rectangle((0, y, WIDTH - 1, y + LINE_H - 1), fill=1)
        self.text(1, y, clip(text, WIDTH // CHAR_W), fill=0)


def blank() -> Image.Image:
    """A new black 128×64 1-bit frame."""
    return Image.new("1", (WIDTH, HEIGHT), 0)
