"""Draw the panel's icon, ``web_panel/static/favicon.png``: the unlock pad's nine dots on a dark
rounded square, a stroke from the centre dot to the lower right one.

A PNG, not an SVG: a browser decodes a page's icon in the page's own process, and an SVG icon is
a whole SVG document to build there. On a phone's first visit that was 13 ms of the main
thread's time at 4× throttling (``bench/phone_render.py``); a 32-pixel PNG is a fraction of one.

    .venv/bin/python scripts/favicon.py [--out web_panel/static/favicon.png]

``tests/web_panel/test_assets.py`` checks that the committed icon is what this draws.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
ICON = ROOT / "web_panel" / "static" / "favicon.png"
SIZE = 32
#: Drawn this many times larger, then scaled down: smooth edges.
SUPERSAMPLE = 8
#: The pad's dots (the icon's units: a 32 × 32 square), the two the stroke joins left out.
DOTS = ((8, 8), (16, 8), (24, 8), (8, 16), (24, 16), (8, 24), (16, 24))
BACKGROUND, DOT, STROKE, START = "#22252b", "#cfd6e4", "#7fd1ff", "#ffd75e"


def draw(size: int = SIZE) -> Image.Image:
    """The icon, ``size`` pixels square."""
    side = size * SUPERSAMPLE
    unit = side / 32
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle((0, 0, side - 1, side - 1), radius=7 * unit, fill=BACKGROUND)

    def dot(x: float, y: float, radius: float, fill: str) -> None:
        pen.ellipse(((x - radius) * unit, (y - radius) * unit,
                     (x + radius) * unit, (y + radius) * unit), fill=fill)

    for x, y in DOTS:
        dot(x, y, 3, DOT)
    pen.line((16 * unit, 16 * unit, 24 * unit, 24 * unit), fill=STROKE, width=round(3.4 * unit))
    dot(16, 16, 3.4, START)
    dot(24, 24, 3.4, STROKE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ICON)
    args = parser.parse_args()
    draw().save(args.out, optimize=True)
    print(args.out)


if __name__ == "__main__":
    main()
