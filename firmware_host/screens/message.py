"""Plain message screens: the game's title bar, wrapped text and a hint for the buttons."""

from __future__ import annotations

from PIL import Image

from firmware_host.screens.text import HEIGHT, LINE_H, WIDTH, Pen, blank
from firmware_host.screens.words import WORDS, say

#: Text lines under the title bar, over the hint line.
BODY_LINES = (HEIGHT // LINE_H) - 2


def message_screen(title: str, text: str, hint: str = "", *, lang: str = "en",
                   right: str = "") -> Image.Image:
    """``title`` (and ``right``) in the bar, ``text`` wrapped below it, ``hint`` on the bottom
    line. A long text gets the hint's line too; what still does not fit is cut with ``~``."""
    image = blank()
    pen = Pen(image, lang)
    top = pen.header(title, right)
    body = pen.wrap(text)
    room = BODY_LINES + (0 if hint and len(body) <= BODY_LINES else 1)
    if len(body) > room:
        body = [*body[: room - 1], pen.more(body[room - 1])]
    pen.lines(0, top, body)
    if hint and room == BODY_LINES:
        pen.text(0, HEIGHT - LINE_H, pen.fit(hint, WIDTH))
    return image


def refusal_pages(message: str, lang: str = "en") -> int:
    """How many pages `refused_screen` needs for ``message``."""
    lines = Pen(blank(), lang).wrap(message)
    return max(1, -(-len(lines) // BODY_LINES))


def refused_screen(message: str, page: int = 0, *, title: str = "",
                   lang: str = "en") -> Image.Image:
    """Why an input or an action was refused, page by page, under the game's ``title``: OK
    reads on, Back goes back to change the input."""
    image = blank()
    pen = Pen(image, lang)
    pages = refusal_pages(message, lang)
    right = say(WORDS, "not_allowed", lang) + (f" {page + 1}/{pages}" if pages > 1 else "")
    top = pen.header(title, right) if title else _bar(pen, right)
    lines = pen.wrap(message)[page * BODY_LINES : (page + 1) * BODY_LINES]
    pen.lines(0, top, lines)
    hint = "ok_more_back_fix" if page + 1 < pages else "back_change"
    pen.text(0, HEIGHT - LINE_H, say(WORDS, hint, lang))
    return image


def _bar(pen: Pen, text: str) -> int:
    pen.inverse_bar(0, text)
    return LINE_H + 1


def pass_pad_screen(name: str, seat: int, hint: str = "", *, title: str = "",
                    lang: str = "en") -> Image.Image:
    """"Pass the pad to NAME" under the game's ``title``: the privacy screen between two
    players; shows nobody's input."""
    image = blank()
    pen = Pen(image, lang)
    if title:
        pen.header(title)
    pen.centred(LINE_H + 3, say(WORDS, "pass_pad_to", lang))
    shown = pen.fit(name, WIDTH)
    pen.name(max(0, (WIDTH - pen.width(shown)) // 2), 2 * LINE_H + 6, name, seat)
    pen.draw.line((16, 3 * LINE_H + 7, WIDTH - 17, 3 * LINE_H + 7), fill=1)
    pen.centred(HEIGHT - LINE_H - 2, hint or say(WORDS, "ok_when_ready", lang))
    return image
