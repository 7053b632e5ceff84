"""The state of a game of ICO: plain frozen data with an exact JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from rules.ico.geometry import EDGE_IDS
from rules.options import OptionValue

#: Markers each colour starts with.
MARKERS_PER_COLOUR = 30
#: Seat → colour, in seat order.
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")


@dataclass(frozen=True)
class IcoState:
    """Where every marker lies, where the active face is, and whose turn it is.

    ``markers[i][seat]`` counts ``seat``'s markers on edge ``EDGE_IDS[i]``. ``placed`` is the edge
    the mover used this turn while the roll is still to come (only with manual claims).
    ``end`` is ``None`` during play, else ``"win"``, ``"turn cap"``, ``"out of markers"`` or
    ``"board full"``.
    """

    players: tuple[str, ...]
    options: tuple[tuple[str, OptionValue], ...]
    markers: tuple[tuple[int, ...], ...]
    active_face: str
    mover: int
    turns_done: int = 0
    placed: str | None = None
    previous_face: str | None = None
    last_edge: str | None = None
    winner: int | None = None
    end: str | None = None
    figure: str | None = None
    figure_edges: tuple[str, ...] = ()

    def option(self, name: str) -> OptionValue:
        """The value of option ``name`` as the game was started with."""
        return self._options[name]

    @cached_property
    def _options(self) -> dict[str, OptionValue]:
        return dict(self.options)

    @property
    def level(self) -> str:
        """The level played (``1``, ``1+``, ``2``, ``2+`` or ``4``)."""
        return str(self.option("level"))

    @property
    def manual_claims(self) -> bool:
        """Whether players must claim their wins themselves."""
        return self.option("claim") == "manual"

    def on_edge(self, edge: str) -> tuple[int, ...]:
        """The markers on ``edge``, counted by seat."""
        return self._table[edge]

    def markers_left(self, seat: int) -> int:
        """How many markers ``seat`` still holds."""
        return MARKERS_PER_COLOUR - self._placed[seat]

    @cached_property
    def _placed(self) -> tuple[int, ...]:
        return tuple(sum(column) for column in zip(*self.markers, strict=True))

    def marker_table(self) -> Mapping[str, tuple[int, ...]]:
        """Edge id → markers on it by seat."""
        return self._table

    @cached_property
    def _table(self) -> Mapping[str, tuple[int, ...]]:
        return MappingProxyType(dict(zip(EDGE_IDS, self.markers, strict=True)))


def dump_state(state: IcoState) -> dict[str, Any]:
    """The state as JSON-safe data."""
    return {
        "players": list(state.players),
        "options": {name: value for name, value in state.options},
        "markers": dict(zip(EDGE_IDS, map(list, state.markers), strict=True)),
        "active_face": state.active_face,
        "mover": state.mover,
        "turns_done": state.turns_done,
        "placed": state.placed,
        "previous_face": state.previous_face,
        "last_edge": state.last_edge,
        "winner": state.winner,
        "end": state.end,
        "figure": state.figure,
        "figure_edges": list(state.figure_edges),
    }


def load_state(data: Mapping[str, Any]) -> IcoState:
    """The state :func:`dump_state` produced."""
    players = tuple(str(p) for p in data["players"])
    given = data["markers"]
    markers = tuple(tuple(int(n) for n in given[e]) for e in EDGE_IDS)
    return IcoState(
        players=players,
        options=tuple((str(k), v) for k, v in data["options"].items()),
        markers=markers,
        active_face=str(data["active_face"]),
        mover=int(data["mover"]),
        turns_done=int(data["turns_done"]),
        placed=data["placed"],
        previous_face=data["previous_face"],
        last_edge=data["last_edge"],
        winner=data["winner"],
        end=data["end"],
        figure=data["figure"],
        figure_edges=tuple(data["figure_edges"]),
    )
