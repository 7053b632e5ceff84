"""Plain message screens: a title bar, wrapped text and a hint for the buttons."""

from __future__ import annotations

from PIL import Image

from firmware_host.screens.text import CHAR_W, HEIGHT, LINE_H, WIDTH, Pen, blank, wrap


def message_screen(title: str, text: str, hint: str = "") -> Image.Image:
    """``title`` in a bar, ``text`` wrapped below it, ``hint`` on the bottom line."""
    image = blank()
    pen = Pen(image)
    pen.inverse_bar(0, title)
    rows = (HEIGHT - LINE_H - (LINE_H if hint else 0)) // LINE_H
    body = wrap(text, WIDTH // CHAR_W)
    if len(body) > rows:
        body = [*body[: rows - 1], body[rows - 1][: WIDTH // CHAR_W - 1] + "~"]
    pen.lines(0, LINE_H + 1, body)
    if hint:
        pen.text(0, HEIGHT - LINE_H, hint)
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
