"""The rules a game of 2 1 6 is played with: its resolved options, as typed fields."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.dice216.grid import DiagonalCells
from rules.errors import RulesError
from rules.options import OptionValue

LineTotal = Literal["all", "own"]


@dataclass(frozen=True)
class Setup:
    """The options of one game, validated (see :mod:`rules.dice216.options`)."""

    size: int
    die_faces: int
    line_total: LineTotal
    diagonals: bool
    handicap: bool
    area: bool
    #: Which diagonals are lines when ``diagonals`` is on (see :data:`DiagonalCells`).
    diagonal_cells: DiagonalCells
    #: As chosen: a seat, or ``"random"`` (the seat it picked is in the state).
    first_player: int | str

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue | Any]) -> Setup:
        """The setup of resolved (or dumped) options; raises ``RulesError`` if malformed."""
        line_total = options.get("line_total")
        if line_total not in ("all", "own"):
            raise RulesError(f"2 1 6 option line_total is malformed: {line_total!r}")
        diagonal_cells = options.get("diagonal_cells")
        if diagonal_cells not in ("six", "full"):
            raise RulesError(f"2 1 6 option diagonal_cells is malformed: {diagonal_cells!r}")
        first = options.get("first_player")
        if first != "random":
            first = _int(options, "first_player")
        return cls(
            size=_int(options, "size"),
            die_faces=_int(options, "die_faces"),
            line_total="own" if line_total == "own" else "all",
            diagonals=_bool(options, "diagonals"),
            handicap=_bool(options, "handicap"),
            area=_bool(options, "area"),
            diagonal_cells="six" if diagonal_cells == "six" else "full",
            first_player=first,
        )

    def as_options(self) -> dict[str, OptionValue]:
        """The options as the game was started with them (JSON-safe)."""
        return {
            "line_total": self.line_total,
            "diagonals": self.diagonals,
            "diagonal_cells": self.diagonal_cells,
            "handicap": self.handicap,
            "size": self.size,
            "die_faces": self.die_faces,
            "area": self.area,
            "first_player": self.first_player,
        }


def _int(options: Mapping[str, Any], name: str) -> int:
    value = options.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"2 1 6 option {name} is malformed: {value!r}")
    return value


def _bool(options: Mapping[str, Any], name: str) -> bool:
    value = options.get(name)
    if not isinstance(value, bool):
        raise RulesError(f"2 1 6 option {name} is malformed: {value!r}")
    return value
