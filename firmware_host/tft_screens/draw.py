"""Drawing for the TFT: fonts at the sizes a table reads, text that mixes Latin and Japanese,
and the seats' colours.

Latin text uses the FreeType font Pillow ships (``ImageFont.load_default(size)``, on every
machine); Japanese uses Noto Sans CJK JP where it is installed (Debian's ``fonts-noto-cjk``:
smooth at a table's sizes), else the Misaki pixel font the OLED uses (``fonts-misaki``) at a
whole multiple of its 8 px, so its pixels stay square. Each character takes the first font that
draws it, as on the OLED.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw, ImageFont

from firmware_host import seat_colours
from firmware_host.screens.text import JAPANESE_FONT_PATHS, japanese_font
from firmware_host.seat_colours import rgb

RGB = tuple[int, int, int]
PAPER: RGB = (250, 248, 240)
INK: RGB = (24, 24, 28)
MUTED: RGB = (90, 90, 98)
LINE: RGB = (200, 198, 190)


@cache
def latin(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own FreeType font at ``size`` px."""
    return ImageFont.load_default(size=size)


#: Smooth Japanese fonts, first found wins (the first face of the collection is JP).
SMOOTH_JAPANESE = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
                   "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc")


@cache
def japanese(size: int) -> ImageFont.FreeTypeFont | None:
    """Noto Sans CJK JP at ``size``, else the Misaki pixel font at the multiple of 8 px nearest
    ``size`` (``None`` without either)."""
    for path in SMOOTH_JAPANESE:
        try:
            return ImageFont.truetype(path, size, index=0)
        except OSError:
            continue
    if japanese_font() is None:
        return None
    for path in JAPANESE_FONT_PATHS:
        try:
            return ImageFont.truetype(path, max(8, round(size / 8) * 8))
        except OSError:
            continue
    return None


def _is_latin(ch: str) -> bool:
    return ord(ch) < 0x2000


def runs(text: str, size: int) -> list[tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]]:
    """``text`` cut into runs drawn in one font each."""
    found: list[tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]] = []
    wide = japanese(size)
    for ch in text:
        font = latin(size) if _is_latin(ch) or wide is None else wide
        if found and found[-1][1] is font:
            found[-1] = (found[-1][0] + ch, font)
        else:
            found.append((ch, font))
    return found


def width(text: str, size: int) -> int:
    """How wide ``text`` draws at ``size``."""
    return round(sum(font.getlength(part) for part, font in runs(text, size)))


def fit(text: str, size: int, room: int) -> int:
    """The largest size up to ``size`` (at least 10 px) at which ``text`` fits in ``room``."""
    while size > 10 and width(text, size) > room:
        size -= 2
    return size


def text(pen: ImageDraw.ImageDraw, xy: tuple[int, int], words: str, size: int,
         fill: RGB = INK, *, anchor: str = "l") -> None:
    """``words`` at ``xy`` (its left, centre or right edge: ``anchor`` l, m or r; ``xy``'s y is
    the text's middle)."""
    x, y = xy
    total = width(words, size)
    x = x - total // 2 if anchor == "m" else x - total if anchor == "r" else x
    for part, font in runs(words, size):
        pen.text((x, y), part, font=font, fill=fill, anchor="lm")
        x += round(font.getlength(part))


def colour(hex_colour: str) -> RGB:
    return rgb(hex_colour)


def ink_on(fill: RGB) -> RGB:
    """Black or white text, whichever contrasts more with ``fill`` (the pages' choice:
    :func:`firmware_host.seat_colours.ink_on`)."""
    return INK if seat_colours.ink_on("#{:02x}{:02x}{:02x}".format(*fill)) != "#ffffff" \
        else (255, 255, 255)


def blank(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", size, PAPER)
    return image, ImageDraw.Draw(image)
