"""ICO's actions as values with a text form: ``place EDGE``, ``roll EDGE`` and ``claim``.

>>> parse_action("place u2-l2")
Place(edge='U2-L2')
>>> str(parse_action("roll L0-U1"))
'roll U1-L0'
>>> parse_action("claim")
Claim()
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import IllegalAction
from rules.ico.geometry import EDGE, VERTICES, edge_id


@dataclass(frozen=True)
class Place:
    """Put one of your markers on ``edge`` of the active face (then the face rolls across it)."""

    edge: str

    def __str__(self) -> str:
        return f"place {self.edge}"


@dataclass(frozen=True)
class Roll:
    """Roll the active face across ``edge`` (after placing with manual claims, or move-only)."""

    edge: str

    def __str__(self) -> str:
        return f"roll {self.edge}"


@dataclass(frozen=True)
class Claim:
    """Declare a win on your own turn (``claim=manual``)."""

    def __str__(self) -> str:
        return "claim"


Action = Place | Roll | Claim

_USAGE = "ICO actions are 'place EDGE', 'roll EDGE' and 'claim' (edges look like N-U0, U0-L0)"


def parse_edge(text: str) -> str:
    """The canonical id of the edge written ``text`` (either vertex order, any case)."""
    ends = text.strip().upper().split("-")
    if len(ends) != 2 or not all(v in VERTICES for v in ends):
        raise IllegalAction(f"{text!r} is not an edge: edges look like N-U0, U0-L0, S-L3")
    try:
        name = edge_id(ends[0], ends[1])
    except ValueError:
        name = ""
    if name not in EDGE:
        raise IllegalAction(f"{text!r} is not an edge of the icosahedron: {ends[0]} and "
                            f"{ends[1]} are not neighbours")
    return name


def parse_action(text: str) -> Action:
    """Parse an action's text; raises ``IllegalAction`` naming what was wrong."""
    words = text.split()
    if words == ["claim"]:
        return Claim()
    if len(words) == 2 and words[0] == "place":
        return Place(parse_edge(words[1]))
    if len(words) == 2 and words[0] == "roll":
        return Roll(parse_edge(words[1]))
    raise IllegalAction(f"unknown action {text!r}: {_USAGE}")
