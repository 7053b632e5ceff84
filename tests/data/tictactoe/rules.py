"""Tic-tac-toe on the rules contract: the fifth game that proves a game is one registration.

Seats 0 (X) and 1 (O) take turns; ``mark N`` puts the mover's mark on square N (1–9, row by
row); three in a row wins, a full board is a draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules import Game, IllegalAction, OptionValue

LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))
MARKS = "XO"


class Reason(StrEnum):
    THREE_IN_A_ROW = "three_in_a_row"
    FULL_BOARD = "full_board"


@dataclass(frozen=True)
class Board:
    players: tuple[str, ...]
    squares: tuple[int | None, ...]  # by square 1–9 (index 0–8): the seat that marked it

    @property
    def mover(self) -> int:
        return sum(1 for s in self.squares if s is not None) % 2

    def winner(self) -> int | None:
        for line in LINES:
            owners = {self.squares[i - 1] for i in line}
            if len(owners) == 1 and None not in owners:
                return owners.pop()
        return None


class TicTacToe(Game[Board]):
    id = "tictactoe"
    name = "Tic-tac-toe"
    min_players = 2
    max_players = 2
    reasons = Reason

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> Board:
        return Board(players, (None,) * 9)

    def to_act(self, state: Board) -> list[int]:
        return [] if self.outcome(state) else [state.mover]

    def legal_actions(self, state: Board, seat: int) -> Iterable[str]:
        if seat not in self.to_act(state):
            return []
        return [f"mark {i + 1}" for i, s in enumerate(state.squares) if s is None]

    def apply(self, state: Board, seat: int, action: str) -> Board:
        if action not in list(self.legal_actions(state, seat)):
            raise IllegalAction(f"{action!r} is not a free square for seat {seat} now")
        square = int(action.split()[1])
        squares = list(state.squares)
        squares[square - 1] = seat
        return Board(state.players, tuple(squares))

    def view(self, state: Board, seat: int | None) -> dict[str, Any]:
        return {"game": self.id, "seats": list(state.players), "to_act": self.to_act(state),
                "phase": "over" if self.outcome(state) else "play",
                "turn": sum(s is not None for s in state.squares) + 1, "you": seat,
                "options": {}, "outcome": self.outcome(state), "squares": list(state.squares),
                "legal_actions": list(self.legal_actions(state, seat)) if seat is not None
                else []}

    def outcome(self, state: Board) -> dict[str, Any] | None:
        winner = state.winner()
        if winner is not None:
            scores = [1 if s == winner else 0 for s in range(2)]
            return {"winners": [winner], "scores": scores, "reason": Reason.THREE_IN_A_ROW}
        if all(s is not None for s in state.squares):
            return {"winners": [], "scores": [0, 0], "reason": Reason.FULL_BOARD}
        return None

    def dump(self, state: Board) -> dict[str, Any]:
        return {"players": list(state.players), "squares": list(state.squares)}

    def load(self, data: Mapping[str, Any]) -> Board:
        return Board(tuple(data["players"]), tuple(data["squares"]))


GAME = TicTacToe()
