"""Building ICO positions for tests: markers written as colour letters per edge."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.ico import GAME, IcoState
from rules.ico.geometry import EDGE_IDS

PLAYERS = ["Aiko", "Ben", "Chie", "Dan"]
#: Colour letter → seat: red, blue, yellow, green.
SEAT = {"r": 0, "b": 1, "y": 2, "g": 3}


def position(
    markers: Mapping[str, str] | None = None,
    *,
    active: str = "T0",
    mover: int = 0,
    players: int = 2,
    **options: object,
) -> IcoState:
    """A game with ``markers`` on the board (edge → letters, e.g. ``{"N-U0": "rb"}``)."""
    state = GAME.start(PLAYERS[:players], {"start_face": active, **options}, seed=0)
    given = dict(markers or {})
    unknown = set(given) - set(EDGE_IDS)
    assert not unknown, f"no such edges {unknown}"
    table = []
    for edge in EDGE_IDS:
        counts = [0] * players
        for letter in given.get(edge, ""):
            counts[SEAT[letter]] += 1
        table.append(tuple(counts))
    return replace(state, markers=tuple(table), mover=mover)


def placements(state: IcoState) -> list[str]:
    """The edges the mover may place on now."""
    return [a.split()[1] for a in GAME.legal_actions(state, state.mover) if a.startswith("place")]
