"""Plain message screens: a title bar, wrapped text and a hint for the buttons."""

from __future__ import annotations

from PIL import Image

from firmware_host.screens.text import CHAR_W, HEIGHT, LINE_H, WIDTH, Pen, blank, wrap


def message_screen(title: str, text: str, hint: str = "") -> Image.Image:
    """``title`` in a bar, ``text`` wrapped below it, ``hint`` on the bottom line.

    A long text gets the room first: the hint goes, then the title; what still does not fit
    is cut with ``~``.
    """
    image = blank()
    pen = Pen(image)
    chars = WIDTH // CHAR_W
    rows = HEIGHT // LINE_H
    body = wrap(text, chars)
    show_hint = bool(hint) and len(body) <= rows - 2
    show_title = len(body) <= rows - 1
    room = rows - show_title - show_hint
    if len(body) > room:
        body = [*body[: room - 1], body[room - 1][: chars - 1] + "~"]
    top = 0
    if show_title:
        pen.inverse_bar(0, title)
        top = LINE_H + 1
    pen.lines(0, top, body)
    if show_hint:
        pen.text(0, HEIGHT - LINE_H, hint)
    return image


#: Lines of a refusal per page (under the title bar, over the hint).
REFUSAL_LINES = (HEIGHT // LINE_H) - 2


def refusal_pages(message: str) -> int:
    """How many pages `refused_screen` needs for ``message``."""
    return max(1, -(-len(wrap(message, WIDTH // CHAR_W)) // REFUSAL_LINES))


def refused_screen(message: str, page: int = 0) -> Image.Image:
    """Why an action was refused (the rules' message), page by page: OK reads on, Back goes
    back to change the input."""
    pages = refusal_pages(message)
    lines = wrap(message, WIDTH // CHAR_W)[page * REFUSAL_LINES : (page + 1) * REFUSAL_LINES]
    image = blank()
    pen = Pen(image)
    pen.inverse_bar(0, "Not allowed" + (f" {page + 1}/{pages}" if pages > 1 else ""))
    pen.lines(0, LINE_H + 1, lines)
    pen.text(0, HEIGHT - LINE_H, "OK more  Back: fix" if page + 1 < pages else "Back: change it")
    return image


def pass_pad_screen(name: str, seat: int, hint: str = "OK when ready") -> Image.Image:
    """"Pass the pad to NAME": the privacy screen between two players; shows nobody's input."""
    image = blank()
    pen = Pen(image)
    pen.centred(6, "Pass the pad to")
    pen.name(max(0, (WIDTH - 6 * min(len(name), 21)) // 2), 22, name, seat)
    pen.draw.line((16, 35, WIDTH - 17, 35), fill=1)
    pen.centred(HEIGHT - LINE_H - 2, hint)
    return image
