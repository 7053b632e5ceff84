"""The join QR code as an inline SVG (qrcode's path factory: one ``<path>``, no raster)."""

from __future__ import annotations

from functools import lru_cache

import qrcode
import qrcode.image.svg
from markupsafe import Markup, escape


@lru_cache(maxsize=32)
def qr_svg(url: str, label: str) -> Markup:
    """An SVG element encoding ``url``, sized by CSS (no fixed millimetre size), named
    ``label`` for screen readers (in the page's language)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    text: str = image.to_string(encoding="unicode")
    # Let the page size it: drop the mm width/height, keep the viewBox; label it for readers.
    text = text.replace("<svg ", f'<svg class="qr" role="img" aria-label="{escape(label)}" ', 1)
    for attribute in ("width", "height"):
        start = text.find(f' {attribute}="')
        if start != -1 and start < text.find(">"):
            end = text.find('"', start + len(attribute) + 3)
            text = text[:start] + text[end + 1:]
    return Markup(text)
