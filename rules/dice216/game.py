"""2 1 6 on the rules contract: chance rolls, players place, the grid is scored line by line."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from enum import StrEnum
from typing import Any

from rules.dice216.actions import Place, Roll, parse_action
from rules.dice216.grid import Cells, Mark
from rules.dice216.options import OPTIONS, resolve
from rules.dice216.setup import Setup
from rules.dice216.state import State
from rules.errors import IllegalAction, RulesError
from rules.game import CHANCE, Game
from rules.options import OptionValue


class Reason(StrEnum):
    """Why a game of 2 1 6 ended as it did (``outcome()["reason"]``; ``total`` is the top total)."""

    #: One player has the highest total.
    HIGHEST_TOTAL = "highest_total"
    #: The highest totals are equal: a draw.
    EQUAL_TOTALS = "equal_totals"


class Dice216(Game[State]):
    """2 1 6: roll, write the number in any empty cell, dominate rows and columns."""

    id = "dice216"
    name = "2 1 6"
    min_players = 2
    max_players = 4
    options = OPTIONS
    reasons = Reason
    perfect_information = True

    def resolve_options(
        self, options: Mapping[str, object] | None, n_players: int
    ) -> dict[str, OptionValue]:
        """Validate the options and their combination for ``n_players``."""
        return resolve(options, n_players)

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> State:
        """A new game; ``first_player='random'`` draws the first seat from ``seed``."""
        setup = Setup.from_options(options)
        if setup.first_player == "random":
            first = random.Random(seed).randrange(len(players))
        else:
            first = int(setup.first_player)
        return State(
            players=tuple(players),
            setup=setup,
            first=first,
            cells=(None,) * (setup.size * setup.size),
            mover=first,
        )

    def to_act(self, state: State) -> list[int]:
        """``[CHANCE]`` while a roll is awaited, ``[mover]`` while it waits to be placed."""
        phase = state.phase
        if phase == "over":
            return []
        return [state.mover] if phase == "place" else [CHANCE]

    def legal_actions(self, state: State, seat: int) -> Iterable[str]:
        """Chance: ``roll 1`` … ``roll FACES``; the mover: ``place ROW COL`` for each empty cell."""
        if seat not in self.to_act(state):
            return []
        if seat == CHANCE:
            return [str(Roll(v)) for v in range(1, state.setup.die_faces + 1)]
        size = state.setup.size
        return [
            str(Place(i // size + 1, i % size + 1))
            for i, mark in enumerate(state.cells)
            if mark is None
        ]

    def apply(self, state: State, seat: int, action: str) -> State:
        """The state after ``seat`` takes ``action``; ``IllegalAction`` names the rule refusing."""
        if not isinstance(seat, int) or (seat != CHANCE and not 0 <= seat < state.n_players):
            raise IllegalAction(f"there is no seat {seat!r} (seats are 0…{state.n_players - 1})")
        if not isinstance(action, str):
            raise IllegalAction(f"an action is text such as 'roll 4', not {action!r}")
        move = parse_action(action)
        phase = state.phase
        if phase == "over":
            raise IllegalAction("the game is over: every cell is filled")
        if isinstance(move, Roll):
            return self._roll(state, seat, move, phase == "handicap")
        return self._place(state, seat, move)

    def _roll(self, state: State, seat: int, roll: Roll, handicap: bool) -> State:
        faces = state.setup.die_faces
        if seat != CHANCE:
            raise IllegalAction(
                f"seat {seat} cannot roll: the die's value is chance's action "
                f"(seat {CHANCE}); a player places it with 'place ROW COL'"
            )
        if state.pending_roll is not None:
            raise IllegalAction(
                f"a roll of {state.pending_roll} is already waiting for seat {state.mover} "
                "to place it"
            )
        if not 1 <= roll.value <= faces:
            raise IllegalAction(f"{roll} is outside 1…{faces} (the die has {faces} faces)")
        if handicap:
            return replace(state, handicap_roll=roll.value)
        return replace(state, pending_roll=roll.value)

    def _place(self, state: State, seat: int, place: Place) -> State:
        size = state.setup.size
        if seat == CHANCE:
            raise IllegalAction("chance only rolls the die; placing is the mover's action")
        if state.pending_roll is None:
            whose = "the handicap" if state.phase == "handicap" else f"seat {state.mover}"
            raise IllegalAction(f"nothing to place yet: the die must first be rolled for {whose}")
        if seat != state.mover:
            raise IllegalAction(f"it is seat {state.mover}'s turn to place, not seat {seat}'s")
        if not (1 <= place.row <= size and 1 <= place.col <= size):
            raise IllegalAction(f"cell {place.row} {place.col} is off the {size}×{size} grid")
        index = (place.row - 1) * size + place.col - 1
        taken = state.cells[index]
        if taken is not None:
            raise IllegalAction(
                f"cell {place.row} {place.col} already holds {taken.value} "
                f"(seat {taken.owner}): write in an empty cell"
            )
        cells = list(state.cells)
        cells[index] = Mark(state.pending_roll, seat)
        return replace(
            state,
            cells=tuple(cells),
            mover=(seat + 1) % state.n_players,
            pending_roll=None,
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything (nothing is secret) with the live score sheet, final once the grid is full.

        Beyond the common keys: ``size``, ``die_faces``, ``first_player`` (the seat), ``mover``,
        ``pending_roll``, ``roll_for`` (``{seat, purpose}``, purpose ``place`` or ``handicap``),
        ``cells`` (rows of ``{value, owner}`` or null), ``lines`` (kind, index, direction — ``↘``
        or ``↙`` for a diagonal —, its cells as 1-based ``[row, column]``, counts, dominator,
        sum, total, bonus, points, empty), ``handicap`` (``{seat, roll}``), ``area`` (``{groups,
        winner, points}``), ``totals`` (running), ``projected``, ``breakdown`` (per seat) and
        ``final``. ``turn`` is the number of the placement being made (the last one at the end).
        """
        size = state.setup.size
        sheet = state.sheet
        phase = state.phase
        roll_for = state.roll_for
        return {
            "game": self.id,
            "seats": list(state.players),
            "to_act": self.to_act(state),
            "phase": phase,
            "turn": state.placed + (0 if phase == "over" else 1),
            "you": seat,
            "options": state.setup.as_options(),
            "outcome": self.outcome(state),
            "size": size,
            "die_faces": state.setup.die_faces,
            "first_player": state.first,
            "mover": None if phase == "over" else state.mover,
            "pending_roll": state.pending_roll,
            "roll_for": None if roll_for is None else {
                "seat": roll_for,
                "purpose": "handicap" if phase == "handicap" else "place",
            },
            "cells": [
                [
                    None if mark is None else {"value": mark.value, "owner": mark.owner}
                    for mark in state.cells[row * size:(row + 1) * size]
                ]
                for row in range(size)
            ],
            "final": phase == "over",
            "lines": [
                {
                    "kind": r.line.kind,
                    "index": r.line.index,
                    "direction": r.line.direction or None,
                    "cells": [[c // size + 1, c % size + 1] for c in r.line.cells],
                    "counts": list(r.counts),
                    "dominator": r.dominator,
                    "sum": r.sum,
                    "total": r.total,
                    "bonus": r.bonus,
                    "points": r.points,
                    "empty": r.empty,
                }
                for r in sheet.lines
            ],
            "handicap": None if sheet.handicap is None else {
                "seat": sheet.handicap.seat, "roll": sheet.handicap.roll,
            },
            "area": None if sheet.area is None else {
                "groups": list(sheet.area.groups),
                "winner": sheet.area.winner,
                "points": sheet.area.points,
            },
            "totals": list(sheet.totals),
            "projected": list(sheet.projected),
            "breakdown": [
                {
                    "seat": s,
                    "lines": sheet.line_points[s],
                    "bonus": sheet.bonus[s],
                    "area": sheet.area_points[s],
                    "handicap": sheet.handicap_points[s],
                    "total": sheet.totals[s],
                    "projected": sheet.projected[s],
                }
                for s in range(state.n_players)
            ],
        }

    def outcome(self, state: State) -> dict[str, Any] | None:
        """Once the grid is full: the highest total wins; equal top totals draw."""
        if state.phase != "over":
            return None
        totals = list(state.sheet.totals)
        top = max(totals)
        winners = [s for s, total in enumerate(totals) if total == top]
        draw = len(winners) > 1
        return {
            "winners": winners,
            "scores": totals,
            "draw": draw,
            "reason": Reason.EQUAL_TOTALS if draw else Reason.HIGHEST_TOTAL,
            "total": top,
        }

    def dump(self, state: State) -> dict[str, Any]:
        """The state as JSON-safe data."""
        return {
            "players": list(state.players),
            "options": state.setup.as_options(),
            "first": state.first,
            "cells": [None if m is None else [m.value, m.owner] for m in state.cells],
            "mover": state.mover,
            "pending_roll": state.pending_roll,
            "handicap_roll": state.handicap_roll,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        """The state ``dump`` produced; raises ``RulesError`` if the data is malformed."""
        try:
            players = tuple(str(name) for name in data["players"])
            setup = Setup.from_options(data["options"])
            cells: Cells = tuple(
                None if c is None else Mark(int(c[0]), int(c[1])) for c in data["cells"]
            )
            state = State(
                players=players,
                setup=setup,
                first=int(data["first"]),
                cells=cells,
                mover=int(data["mover"]),
                pending_roll=_optional_int(data["pending_roll"]),
                handicap_roll=_optional_int(data["handicap_roll"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise RulesError(f"malformed 2 1 6 state: {error}") from None
        n = len(players)
        seats_ok = all(0 <= s < n for s in (state.first, state.mover)) and all(
            m is None or 0 <= m.owner < n for m in cells
        )
        if len(cells) != setup.size**2 or not seats_ok:
            raise RulesError("malformed 2 1 6 state: its cells or seats do not fit its table")
        return state


def _optional_int(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(f"expected a whole number or null, got {value!r}")
