"""The start screen: the panel's address, a join QR code and the host PIN."""

from __future__ import annotations

import qrcode
from PIL import Image

from firmware_host.screens.text import HEIGHT, LINE_H, Pen, blank

QR_LEFT = 0


def qr_image(url: str, size: int = HEIGHT) -> Image.Image:
    """``url`` as a QR code fitting a ``size``-pixel square, modules 2 px when they fit."""
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    matrix = code.get_matrix()
    box = max(1, size // len(matrix))
    side = box * len(matrix)
    image = Image.new("1", (side, side), 1)
    pixels = image.load()
    assert pixels is not None
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(box):
                    for dx in range(box):
                        pixels[x * box + dx, y * box + dy] = 0
    return image


def wrap_address(address: str, chars: int) -> list[str]:
    """``address`` in lines of ``chars``, broken after a dot or a slash, or before a colon.

    >>> wrap_address("192.168.1.23:8080", 11)
    ['192.168.1.', '23:8080']
    """
    lines: list[str] = []
    rest = address
    while len(rest) > chars:
        cut = max((i + 1 for i, ch in enumerate(rest[:chars]) if ch in "./"), default=0)
        cut = max(cut, max((i for i, ch in enumerate(rest[: chars + 1]) if ch == ":"), default=0))
        cut = cut or chars
        lines.append(rest[:cut])
        rest = rest[cut:]
    return [*lines, rest]


def die_note(connected: bool, firmware_version: str | None) -> str | None:
    """The start screen's line about the die: "no die" when it is not connected, its firmware
    version once it has answered the connect PING, nothing in between.

    >>> die_note(True, "1.1"), die_note(False, None)
    ('die v1.1', 'no die')
    """
    if not connected:
        return "no die"
    return None if firmware_version is None else f"die v{firmware_version}"


def start_screen(url: str, host_pin: str | None, *, note: str | None = None) -> Image.Image:
    """The address to open on a phone (as text and QR code) and the host PIN.

    ``note`` is one short line for the table (e.g. "no die").
    """
    image = blank()
    qr = qr_image(url)
    top = (HEIGHT - qr.height) // 2
    image.paste(qr, (QR_LEFT, top))
    pen = Pen(image)
    x = qr.width + 3
    chars = (image.width - x) // 6
    address = url.removeprefix("http://").removeprefix("https://").rstrip("/")
    y = pen.lines(x, 0, ["Join:"])
    y = pen.lines(x, y, wrap_address(address, chars)[:3])
    if host_pin:
        pen.text(x, max(y, 4 * LINE_H), f"PIN {host_pin}")
    if note:
        pen.text(x, 6 * LINE_H, note[:chars])
    return image
