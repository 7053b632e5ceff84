"""Whole numbers from requests: only ASCII digits, bounded, so no text ever reaches ``int``
unchecked (``"²".isdigit()`` is true, yet ``int("²")`` raises)."""

from __future__ import annotations

import re

_WHOLE = re.compile(r"-?[0-9]{1,18}")


def whole_number(text: object) -> int | None:
    """``text`` as an int when it is an optional minus and 1–18 ASCII digits, else ``None``.

    >>> [whole_number(t) for t in ("12", "-3", "--1", "²", "1e3", "", 7)]
    [12, -3, None, None, None, None, None]
    """
    if not isinstance(text, str) or not _WHOLE.fullmatch(text):
        return None
    return int(text)
