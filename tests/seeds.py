"""The original rule documents (the seeds), read only from a folder named explicitly.

The repository does not hold them: they are the sources its rules reference names
(``docs/rules-notes.md``). The checks that compare the project's quotes and terms with them run
when ``TABLETOP_SEEDS_DIR`` names the folder holding them (``000_*.txt`` … ``004_*.txt``), and
are marked ``seeds`` so that they can be run on their own::

    TABLETOP_SEEDS_DIR=/path/to/seeds .venv/bin/python -m pytest -m seeds

Where the variable is unset, they are skipped with that reason. Where it is set, a missing
folder or document fails: a path given on purpose is never silently ignored.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest

SEEDS_DIR_VARIABLE = "TABLETOP_SEEDS_DIR"
SKIP_REASON = (
    "the original rule documents are not part of the repository: set TABLETOP_SEEDS_DIR to "
    "the folder holding them (000_*.txt … 004_*.txt) to compare the project's quotes and "
    "terms with them (pytest -m seeds)")

#: The mark every check against the seeds carries.
seeds = pytest.mark.seeds


def seeds_dir() -> Path:
    """The folder named by ``TABLETOP_SEEDS_DIR``; the calling test is skipped when unset."""
    named = os.environ.get(SEEDS_DIR_VARIABLE, "").strip()
    if not named:
        pytest.skip(SKIP_REASON)
    folder = Path(named).expanduser()
    if not folder.is_dir():
        pytest.fail(f"{SEEDS_DIR_VARIABLE}={named} is not a folder")
    return folder


@cache
def _read(folder: Path, number: str) -> str:
    found = sorted(folder.glob(f"{number}_*.txt"))
    if len(found) != 1:
        pytest.fail(f"{SEEDS_DIR_VARIABLE}: expected one {number}_*.txt in {folder}, "
                    f"found {len(found)}")
    return found[0].read_text(encoding="utf-8")


def seed_text(number: str) -> str:
    """Seed ``number`` ("000" … "004") as written."""
    return _read(seeds_dir(), number)


def squeezed(text: str) -> str:
    """Text without whitespace or markdown emphasis, to compare quotes across line breaks."""
    return re.sub(r"\s+", "", text).replace("*", "")


def squeezed_seed(number: str) -> str:
    """Seed ``number`` squeezed (see :func:`squeezed`)."""
    return squeezed(seed_text(number))
