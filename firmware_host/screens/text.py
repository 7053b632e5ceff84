"""Fonts and text drawing for the 128×64 OLED, in English and Japanese.

Latin text uses Pillow's bundled bitmap font (6 px per character, Latin-1 only): it ships with
Pillow, so every machine renders the same pixels. Everything else — Japanese words and names —
is drawn with the Misaki Gothic 2nd pixel font (Debian's ``fonts-misaki``, installed by
``scripts/bootstrap``): 8×8 glyphs drawn pixel for pixel, 8 px per full-width character
(docs/decisions.md). Each character takes the first font that has it: the bitmap font for
Latin-1, Misaki for the rest. Without Misaki the box speaks English (:func:`speaks`) and a
Japanese name falls back to the seat's romanized label ``P1``, ``P2``…
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
#: Width of one character of the Latin text font, in pixels.
CHAR_W = 6
#: Distance between two text lines; Latin glyphs use rows 1–10 of their 11-pixel cell.
LINE_H = 9
#: The languages the OLED speaks.
LANGUAGES: tuple[str, ...] = ("en", "ja")
#: Where the Japanese pixel font is looked for, first found wins (Debian's ``fonts-misaki``).
JAPANESE_FONT_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/misaki/misaki_gothic_2nd.ttf",
    "/usr/local/share/fonts/misaki/misaki_gothic_2nd.ttf",
)
#: Misaki's design size: one glyph is 8×8 pixels (7×7 drawn, one spare row and column).
JAPANESE_SIZE = 8

Font = ImageFont.ImageFont | ImageFont.FreeTypeFont
#: Punctuation the rules' messages use that Latin-1 lacks, as the nearest Latin-1 text (for
#: English lines; Japanese ones draw Misaki's own glyphs).
PUNCTUATION = str.maketrans({"—": "-", "–": "-", "‘": "'", "’": "'", "“": '"', "”": '"',
                             "…": "...", "→": "->", "≤": "<=", "≥": ">=", "−": "-"})


@cache
def text_font() -> ImageFont.ImageFont:
    """Pillow's bundled bitmap font."""
    return ImageFont.load_default_imagefont()


@cache
def japanese_font(paths: tuple[str, ...] = JAPANESE_FONT_PATHS) -> ImageFont.FreeTypeFont | None:
    """The Misaki pixel font from the first of ``paths`` found, or None when none is."""
    for path in paths:
        if Path(path).is_file():
            try:
                return ImageFont.truetype(path, JAPANESE_SIZE)
            except OSError:
                continue
    return None


@cache
def _missing_mask(font: ImageFont.FreeTypeFont) -> bytes:
    """The pixels of the font's "missing glyph" box (what a character it lacks draws)."""
    return bytes(font.getmask("\U0010fffd"))


@cache
def has_glyph(ch: str, paths: tuple[str, ...] = JAPANESE_FONT_PATHS) -> bool:
    """Whether the Japanese font draws ``ch`` (a space, or a glyph that is not its tofu box)."""
    font = japanese_font(paths)
    if font is None:
        return False
    if ch.isspace():
        return True
    mask = font.getmask(ch)
    return mask.getbbox() is not None and bytes(mask) != _missing_mask(font)


def speaks(lang: str) -> str:
    """The language the OLED can draw for ``lang``: Japanese needs its font, else English."""
    if lang == "ja" and japanese_font() is not None:
        return "ja"
    return "en"


def bitmap_safe(text: str) -> bool:
    """True if the bitmap font can draw every character of ``text``."""
    return all(ord(ch) < 256 for ch in text)


def drawable(text: str) -> bool:
    """True if every character of ``text`` has a glyph in the bitmap or the Japanese font."""
    return all(ord(ch) < 256 or has_glyph(ch) for ch in text)


def seat_label(seat: int) -> str:
    """The romanized stand-in for a name: ``P1`` for seat 0."""
    return f"P{seat + 1}"


def shown_name(name: str, seat: int) -> str:
    """A player's name as the OLED can draw it: the name, or ``P1``… when a font lacks it."""
    return name if drawable(name) else seat_label(seat)


#: A run of text in one font: its characters, and whether the Latin bitmap font draws it (else
#: the Japanese one). A flag, not the font object: a font loaded twice by two threads at once is
#: two objects.
Run = tuple[str, bool]


#: How many texts' cuts, widths and pixels are kept: a screen shows a dozen, the screens of a
#: game a few dozen; more would only keep the names and numbers of games long over.
TEXTS_KEPT = 256


@lru_cache(maxsize=TEXTS_KEPT)
def _runs(text: str, lang: str) -> tuple[Run, ...]:
    """``text`` cut into runs of one font each (see the module docstring); the screens draw the
    same few texts again and again, so the cuts are kept."""
    if lang != "ja" or japanese_font() is None:
        text = text.translate(PUNCTUATION)
    if text.isascii():
        return ((text, True),)
    runs: list[Run] = []
    for ch in text:
        latin = ord(ch) < 256 or not has_glyph(ch)
        if latin and ord(ch) >= 256:
            ch = "?"
        if runs and runs[-1][1] == latin:
            runs[-1] = (runs[-1][0] + ch, latin)
        else:
            runs.append((ch, latin))
    return tuple(runs)


def _font(latin: bool) -> Font:
    font = text_font() if latin else japanese_font()
    assert font is not None, "a Japanese run without the Japanese font"
    return font


#: Blank pixels around a cached run of text, so no glyph is cut where it overhangs its cell.
_MARGIN = 4


@lru_cache(maxsize=TEXTS_KEPT)
def _glyphs(run: str, latin: bool) -> Image.Image:
    """The pixels of ``run`` as a 1-bit mask with `_MARGIN` blank pixels around, drawn once: a
    screen is redrawn on every key with mostly the same words."""
    width = _advance(run, latin) + 2 * _MARGIN
    mask = Image.new("1", (width, 16 + 2 * _MARGIN), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((_MARGIN, _MARGIN), run, font=_font(latin), fill=1)
    return mask


def _advance(run: str, latin: bool) -> int:
    if latin:
        return CHAR_W * len(run)
    return int(_font(latin).getlength(run))


@lru_cache(maxsize=TEXTS_KEPT)
def text_width(text: str, lang: str = "en") -> int:
    """How many pixels ``text`` takes across."""
    return sum(_advance(run, latin) for run, latin in _runs(text, lang))


def clip(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, the last one a ``~`` when cut."""
    return text if len(text) <= chars else text[: max(chars - 1, 0)] + "~"


def fit(text: str, width: int, lang: str = "en") -> str:
    """``text`` cut to ``width`` pixels, ending in ``~`` when cut."""
    if text_width(text, lang) <= width:
        return text
    while text and text_width(text + "~", lang) > width:
        text = text[:-1]
    return text + "~" if text_width(text + "~", lang) <= width else text


def wrap(text: str, chars: int) -> list[str]:
    """Words of ``text`` wrapped to lines of at most ``chars`` Latin characters."""
    return wrap_to(text, chars * CHAR_W, "en")


#: Characters a Japanese line may not start with (kinsoku): they stay with the line before.
NO_LINE_START = frozenset("、。,.:;!?)」』】ー・ぁぃぅぇぉっゃゅょァィゥェォッャュョ")
#: Characters a line may not end with: they go with the character after them.
NO_LINE_END = frozenset("(「『【")


def wrap_to(text: str, width: int, lang: str = "en") -> list[str]:
    """``text`` wrapped to lines of at most ``width`` pixels: at spaces, and between any two
    Japanese characters (never before a closing mark or a small kana); a word longer than a
    line is split."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for token in _tokens(paragraph):
            if token == " ":
                if line:
                    line += " "
                continue
            candidate = line + token
            if text_width(candidate.rstrip(), lang) <= width:
                line = candidate
                continue
            if line.strip():
                lines.append(line.rstrip())
                line = ""
            while text_width(token, lang) > width:  # a word longer than a line
                cut = len(token)
                while cut > 1 and text_width(token[:cut], lang) > width:
                    cut -= 1
                lines.append(token[:cut])
                token = token[cut:]
            line = token
        lines.append(line.rstrip())
    return lines


def _tokens(text: str) -> list[str]:
    """Latin words, spaces, and Japanese characters (each with the marks that must follow it)."""
    tokens: list[str] = []
    for ch in text:
        wide = ord(ch) >= 0x2E80
        if ch == " ":
            tokens.append(" ")
        elif (ch in NO_LINE_START or (tokens and tokens[-1][-1] in NO_LINE_END)) and tokens and (
                tokens[-1] != " "):
            tokens[-1] += ch
        elif wide:
            tokens.append(ch)
        elif tokens and tokens[-1] != " " and ord(tokens[-1][-1]) < 0x2E80:
            tokens[-1] += ch
        else:
            tokens.append(ch)
    return tokens


class Pen:
    """Draws text, names and shapes on one 1-bit image (white on black), in ``lang``."""

    def __init__(self, image: Image.Image, lang: str = "en") -> None:
        self.image = image
        self.lang = speaks(lang)
        self.draw = ImageDraw.Draw(image)
        self.draw.fontmode = "1"

    def width(self, text: str) -> int:
        """How many pixels ``text`` takes across."""
        return text_width(text, self.lang)

    def fit(self, text: str, width: int) -> str:
        """``text`` cut to ``width`` pixels (``~`` when cut)."""
        return fit(text, width, self.lang)

    def more(self, text: str, width: int = WIDTH) -> str:
        """``text`` ending in ``~`` within ``width`` pixels: it goes on beyond the screen."""
        while text and self.width(text + "~") > width:
            text = text[:-1]
        return text + "~"

    def wrap(self, text: str, width: int = WIDTH) -> list[str]:
        """``text`` wrapped to lines of ``width`` pixels."""
        return wrap_to(text, width, self.lang)

    def text(self, x: int, y: int, text: str, *, fill: int = 1) -> int:
        """Draws ``text`` with its top line at ``y``; returns the x after it."""
        for run, latin in _runs(text, self.lang):
            top = y - 2 if latin else y
            self.draw.bitmap((x - _MARGIN, top - _MARGIN), _glyphs(run, latin), fill=fill)
            x += _advance(run, latin)
        return x

    def name(self, x: int, y: int, name: str, seat: int, *, chars: int = 21, fill: int = 1) -> int:
        """Draws a player's name, cut to ``chars`` Latin characters' width; returns the x
        after it."""
        return self.text(x, y, fit(shown_name(name, seat), chars * CHAR_W, self.lang),
                         fill=fill)

    def lines(self, x: int, y: int, lines: Sequence[str], *, fill: int = 1) -> int:
        """Draws text lines downwards from ``y``; returns the y after the last."""
        for line in lines:
            self.text(x, y, line, fill=fill)
            y += LINE_H
        return y

    def centred(self, y: int, text: str, *, left: int = 0, right: int = WIDTH) -> None:
        """Draws ``text`` centred between ``left`` and ``right``."""
        x = left + (right - left - self.width(text)) // 2
        self.text(max(x, left), y, text)

    def right(self, y: int, text: str, *, right: int = WIDTH, fill: int = 1) -> None:
        """Draws ``text`` ending at ``right``."""
        self.text(right - self.width(text), y, text, fill=fill)

    def invert(self, box: tuple[int, int, int, int]) -> None:
        """Inverts the pixels inside ``box`` (left, top, right, bottom; inclusive)."""
        left, top, right, bottom = box
        region = self.image.crop((left, top, right + 1, bottom + 1))
        white = Image.new("1", region.size, 1)
        self.image.paste(ImageChops.logical_xor(region, white), (left, top))

    def inverse_bar(self, y: int, text: str, *, left: int = 0) -> None:
        """A title bar from ``left`` to the right edge: black text on white."""
        self.draw.rectangle((left, y, WIDTH - 1, y + LINE_H - 1), fill=1)
        self.text(left + 1, y, self.fit(text, WIDTH - left - 1), fill=0)

    def header(self, title: str, right: str = "", *, left: int = 0) -> int:
        """The screen's title bar on the top line from ``left``: the game's name, and
        ``right`` (what the screen is) at its end when both fit; returns the y below it."""
        self.draw.rectangle((left, 0, WIDTH - 1, LINE_H - 1), fill=1)
        room = WIDTH - left - 2
        if right and self.width(title) + CHAR_W + self.width(right) <= room:
            self.text(left + 1, 0, title, fill=0)
            self.right(0, right, right=WIDTH - 1, fill=0)
        else:
            self.text(left + 1, 0, self.fit(title, room), fill=0)
        return LINE_H + 1


def blank() -> Image.Image:
    """A new black 128×64 1-bit frame."""
    return Image.new("1", (WIDTH, HEIGHT), 0)
