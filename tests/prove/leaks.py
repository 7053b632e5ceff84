"""Finding secrets in what the companion sends out: UNLOCK codes in any text form (canonical or
any other traversal, JSON dot lists, drawn code cards) and Hacktrick hands and decks, read
structurally from JSON views and from the rendered board HTML.

The needles are made specific so that public data cannot set them off: a code is found only
where a piece of text *parses* to a code with exactly the secret's lines (so a short list such as
``"to_act": [1, 2]`` cannot match a secret of seven lines), and a hand is found only in the places
a hand is shown (a view's ``hands``, the board's hand and its card buttons).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from rules import IllegalAction
from rules.unlock import Code

#: A traversal written as text: dots joined by '-' (``1-5-9-6``), not part of a longer token
#: (so dates such as ``2026-11-21`` and ids do not qualify: they hold a 0 or are bounded by
#: other characters).
TRAVERSAL = re.compile(r"(?<![\w.:-])([1-9]\d?(?:-[1-9]\d?)+)(?![\w-])")
#: A JSON or Python list of small positive integers (a list of dots).
DOT_LIST = re.compile(r"[\[(]\s*([1-9]\d?(?:\s*,\s*[1-9]\d?)+)\s*,?\s*[\])]")
SVG_CARD = re.compile(r'<svg class="code-card[^"]*"[^>]*>(.*?)</svg>', re.S)
EMBEDDED = re.compile(r'<script type="application/json" id="[^"]+">(.*?)</script>', re.S)
SVG_LINE = re.compile(r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"/>')
SVG_DOT = re.compile(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+" class="(?:used)?"/>')


def _code(dots: list[int], size: int, auto_connect: bool = True) -> Code | None:
    try:
        return Code.from_dots(dots, size, auto_connect)
    except IllegalAction:
        return None


def codes_in_text(text: str, size: int = 3) -> Iterator[Code]:
    """Every code written in ``text``: traversals joined by '-' and lists of dots."""
    for match in TRAVERSAL.finditer(text):
        code = _code([int(d) for d in match.group(1).split("-")], size)
        if code is not None:
            yield code
    for match in DOT_LIST.finditer(text):
        code = _code([int(d) for d in match.group(1).split(",")], size)
        if code is not None:
            yield code


def drawn_codes(html: str, size: int = 3) -> Iterator[int]:
    """The line sets (bitmasks) of every code card drawn in ``html`` (the panel's SVG cards):
    the dots are numbered by the card's grid circles, the lines read back to dot pairs."""
    for card in SVG_CARD.finditer(html):
        body = card.group(1)
        dots = {(float(x), float(y)): n for n, (x, y) in enumerate(SVG_DOT.findall(body), 1)}
        lines = 0
        for x1, y1, x2, y2 in SVG_LINE.findall(body):
            a, b = dots.get((float(x1), float(y1))), dots.get((float(x2), float(y2)))
            if a is None or b is None:
                continue
            segment = _code([a, b], size, auto_connect=False)
            if segment is not None:
                lines |= segment.lines
        if lines:
            yield lines


def code_found(text: str, code: Code) -> str | None:
    """Where ``code`` (any traversal of it) shows in ``text``: a short description, or None."""
    for found in codes_in_text(text, code.size):
        if found.lines == code.lines:
            return f"the code {code} written as text"
    for lines in drawn_codes(text, code.size):
        if lines == code.lines:
            return f"the code {code} drawn as a card"
    return None


# --- Hacktrick ----------------------------------------------------------------------------


def list_encodings(values: tuple[int, ...] | list[int]) -> list[str]:
    """The ways a list of cards is written by ``json.dumps`` (both separators) and ``repr``."""
    items = list(values)
    return [json.dumps(items), json.dumps(items, separators=(",", ":")), repr(tuple(items)),
            repr(items)]


def hands_in_json(data: Any, viewer: int | None) -> Iterator[tuple[int, list[int]]]:
    """Every hand of a seat other than ``viewer`` whose cards appear in a JSON document (any
    ``hands`` list of ``{size, cards}`` with the cards filled in)."""
    if isinstance(data, dict):
        hands = data.get("hands")
        if isinstance(hands, list) and all(isinstance(h, dict) and "cards" in h for h in hands):
            for seat, hand in enumerate(hands):
                if hand["cards"] is not None and seat != viewer:
                    yield seat, list(hand["cards"])
        for value in data.values():
            yield from hands_in_json(value, viewer)
    elif isinstance(data, list):
        for value in data:
            yield from hands_in_json(value, viewer)


def embedded_json(html: str) -> list[Any]:
    """The JSON documents a page carries in ``<script type="application/json">`` elements."""
    return [json.loads(text) for text in EMBEDDED.findall(html)]
