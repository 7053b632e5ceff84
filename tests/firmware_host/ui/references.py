"""Pixel-exact comparison of OLED frames with the reviewed reference images."""

from __future__ import annotations

import tempfile
from pathlib import Path

from luma.core.device import dummy
from PIL import Image, ImageChops

REFERENCE = Path(__file__).with_name("reference")


def through_dummy(image: Image.Image) -> Image.Image:
    """``image`` as a luma ``dummy`` 128×64 monochrome device holds it after ``display``."""
    device = dummy(width=128, height=64, mode="1")
    device.display(image)
    return device.image.copy()


def assert_matches_reference(image: Image.Image, name: str) -> None:
    """Fails with the paths of the actual image and a diff when ``image`` differs from
    ``reference/NAME.png`` in any pixel."""
    expected = Image.open(REFERENCE / f"{name}.png").convert("1")
    actual = image.convert("1")
    assert actual.size == expected.size, f"{name}: size {actual.size} != {expected.size}"
    diff = ImageChops.logical_xor(actual, expected)
    box = diff.getbbox()
    if box is None:
        return
    out = Path(tempfile.mkdtemp(prefix=f"ui-{name}-"))
    actual.save(out / "actual.png")
    diff.save(out / "diff.png")
    count = sum(n for n, value in diff.getcolors() or [] if value)
    raise AssertionError(
        f"{name}: {count} pixels differ from reference/{name}.png inside {box}; "
        f"see {out}/actual.png and {out}/diff.png (regenerate with make_references.py "
        f"only after looking at them)"
    )
