"""Writes the reference images of tests/firmware_host/ui/scenes.py into reference/.

Run it once after a deliberate change to a screen, LOOK at every image it wrote (it also
writes a ×4 preview beside each, in /tmp), then commit the references:

    .venv/bin/python tests/firmware_host/ui/make_references.py [NAME...]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from firmware_host.screens.text import LANGUAGES  # noqa: E402
from tests.firmware_host.ui.scenes import SCENES  # noqa: E402
from tests.firmware_host.ui.test_screens import reference_name  # noqa: E402

REFERENCE = Path(__file__).with_name("reference")
PREVIEW = Path("/tmp/tabletop-ui-preview")


def main(names: list[str]) -> None:
    REFERENCE.mkdir(exist_ok=True)
    PREVIEW.mkdir(exist_ok=True)
    for name in names or sorted(SCENES):
        for lang in LANGUAGES:
            image = SCENES[name](lang)
            file = reference_name(name, lang)
            image.save(REFERENCE / f"{file}.png")
            size = (image.width * 4, image.height * 4)
            big = image.convert("L").resize(size, Image.Resampling.NEAREST)
            big.save(PREVIEW / f"{file}.png")
            print(f"{REFERENCE / file}.png  (preview {PREVIEW / file}.png)")


if __name__ == "__main__":
    main(sys.argv[1:])
