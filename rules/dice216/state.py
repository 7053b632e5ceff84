"""The state of a game of 2 1 6: plain frozen data, and what follows from it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from rules.dice216.grid import Cells
from rules.dice216.scoring import Handicap, ScoreSheet, score
from rules.dice216.setup import Setup

#: ``handicap``: chance rolls the second player's handicap; ``roll``: chance rolls for the mover;
#: ``place``: the mover writes the pending roll; ``over``: the grid is full.
Phase = Literal["handicap", "roll", "place", "over"]


@dataclass(frozen=True)
class State:
    """A game in progress; ``cells`` is row-major, ``mover`` the seat whose turn it is."""

    players: tuple[str, ...]
    setup: Setup
    #: The seat that placed first (``setup.first_player`` resolved when it was ``random``).
    first: int
    cells: Cells
    mover: int
    pending_roll: int | None = None
    handicap_roll: int | None = None

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def handicap_seat(self) -> int | None:
        """The second player in turn order, when the handicap variant is on."""
        return (self.first + 1) % self.n_players if self.setup.handicap else None

    @property
    def placed(self) -> int:
        return sum(mark is not None for mark in self.cells)

    @property
    def phase(self) -> Phase:
        if all(mark is not None for mark in self.cells):
            return "over"
        if self.setup.handicap and self.handicap_roll is None:
            return "handicap"
        return "roll" if self.pending_roll is None else "place"

    @property
    def roll_for(self) -> int | None:
        """The seat the awaited or pending roll belongs to (``None`` once the game is over)."""
        phase = self.phase
        if phase == "over":
            return None
        if phase == "handicap":
            return self.handicap_seat
        return self.mover

    @cached_property
    def sheet(self) -> ScoreSheet:
        """The score sheet of the grid as it stands (running; final once the grid is full)."""
        seat = self.handicap_seat
        handicap = None if seat is None else Handicap(seat, self.handicap_roll)
        return score(self.cells, self.setup, self.n_players, handicap)
