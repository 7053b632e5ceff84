"""The opening books of the hint engine: for each level, the guess to play on the boards its
strategy reaches, built offline (``scripts/unlock_books.py``) and shipped as JSON.

A book is keyed by the **set of codes still possible** (a hash of their positions in the level's
code table), not by the cards played: any board that leaves the same codes possible gets the
same answer, whoever played the cards and in whatever order. Each file records a fingerprint of
the code table it was built on; a book whose table differs from this program's is not used (the
hint engine then searches instead) and the log says so.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rules.unlock.enumeration import code_masks

log = logging.getLogger(__name__)


def book_name(difficulty: str, auto_connect: bool) -> str:
    """The file name of a level's book (3×3 only)."""
    return f"{difficulty}-{'auto' if auto_connect else 'plain'}.json"


def set_key(indices: Sequence[int]) -> str:
    """The key of a set of codes: 16 hex digits hashing their table positions (ascending)."""
    packed = array("I", indices)
    if sys.byteorder == "big":
        packed.byteswap()
    return hashlib.blake2b(packed.tobytes(), digest_size=8).hexdigest()


def table_fingerprint(difficulty: str, size: int, auto_connect: bool) -> str:
    """A hash of the level's code table (every code's lines, in table order)."""
    masks = array("Q", code_masks(difficulty, size, auto_connect))
    if sys.byteorder == "big":
        masks.byteswap()
    return hashlib.blake2b(masks.tobytes(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class Book:
    """One level's book: set key → the table position of the guess to play."""

    difficulty: str
    auto_connect: bool
    entries: Mapping[str, int]

    def guess(self, survivors: Sequence[int]) -> int | None:
        """The book's guess when exactly ``survivors`` (ascending positions) are possible."""
        return self.entries.get(set_key(survivors))

    def __len__(self) -> int:
        return len(self.entries)


@cache
def opening_book(difficulty: str, size: int = 3, auto_connect: bool = True) -> Book | None:
    """The book of a level, or ``None`` when there is none (4×4) or it does not fit this
    program's code table."""
    if size != 3:
        return None
    if not auto_connect and table_fingerprint(difficulty, size, False) == table_fingerprint(
            difficulty, size, True):
        return opening_book(difficulty, size, True)  # Easy: no stroke passes over a dot
    name = book_name(difficulty, auto_connect)
    try:
        data = json.loads(resources.files(__name__).joinpath(name).read_text())
    except FileNotFoundError:
        return None
    expected = table_fingerprint(difficulty, size, auto_connect)
    if data.get("table") != expected:
        log.warning("the %s book was built on another code table (%s, this one is %s): "
                    "hints search instead", name, data.get("table"), expected)
        return None
    return Book(difficulty, auto_connect, {key: int(guess) for key, guess in
                                           data["entries"].items()})
