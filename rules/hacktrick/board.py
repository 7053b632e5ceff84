"""The magic-square board, the cursor markers, and what makes a round's win.

The nine squares hold 1–9 as a magic square; its eight lines are exactly the eight sets of three
different numbers 1–9 that sum to 15.

>>> LAYOUT
((2, 7, 6), (9, 5, 1), (4, 3, 8))
>>> len(LINES), all(sum(line) == 15 for line in LINES)
(8, True)
>>> Marker.parse_many("WW*R")
(Marker(owner=0, x2=False), Marker(owner=0, x2=True), Marker(owner=1, x2=False))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from rules.errors import RulesError
from rules.hacktrick.endings import RoundEnd

#: The board as laid out on the table and on the pad (rows top to bottom).
LAYOUT: tuple[tuple[int, int, int], ...] = ((2, 7, 6), (9, 5, 1), (4, 3, 8))

#: The eight lines (rows, columns, diagonals) of the square, each sorted.
LINES: tuple[tuple[int, int, int], ...] = tuple(
    combo for combo in combinations(range(1, 10), 3) if sum(combo) == 15
)

SQUARES = range(1, 10)
#: The two colours in seat order, and the letters markers are written with.
COLOURS = ("white", "red")
LETTERS = ("W", "R")
MARKERS_EACH = 10


@dataclass(frozen=True)
class Marker:
    """One cursor marker: its owner's seat and whether it is that player's ×2 marker."""

    owner: int
    x2: bool = False

    def __str__(self) -> str:
        return LETTERS[self.owner] + ("*" if self.x2 else "")

    @classmethod
    def parse_many(cls, text: str) -> tuple[Marker, ...]:
        """Markers written as letters, ``*`` after a ×2 marker: ``"WW*R"``."""
        markers: list[Marker] = []
        for char in text.replace(" ", ""):
            if char == "*":
                if not markers or markers[-1].x2:
                    raise RulesError(f"bad markers {text!r}: '*' must follow W or R")
                markers[-1] = Marker(markers[-1].owner, True)
            elif char.upper() in LETTERS:
                markers.append(Marker(LETTERS.index(char.upper())))
            else:
                raise RulesError(f"bad markers {text!r}: use W (white), R (red) and * for ×2")
        return tuple(markers)


Board = tuple[tuple[Marker, ...], ...]
EMPTY_BOARD: Board = ((),) * 9


def on_square(board: Board, square: int) -> tuple[Marker, ...]:
    """The markers on ``square`` (1–9)."""
    return board[square - 1]


def with_square(board: Board, square: int, markers: tuple[Marker, ...]) -> Board:
    """``board`` with ``square`` holding exactly ``markers``."""
    return (*board[: square - 1], markers, *board[square:])


@dataclass(frozen=True)
class Win:
    """A round won by placement: the squares that make it and the points it scores."""

    squares: tuple[int, ...]
    reason: RoundEnd
    points: int


def placement_win(
    board: Board, seat: int, square: int, placed: Marker, x2_rule: bool
) -> Win | None:
    """The best win ``seat`` holds after placing ``placed`` on ``square``, or ``None``.

    A win is three of the seat's markers on one square or a marker on each square of a line.
    It scores 2 when the ×2 rule is on, the seat's ×2 marker is among the three markers that make
    the win, and it was not the marker placed last; otherwise 1. Of several wins the best counts.
    """
    mine = [sum(1 for m in on_square(board, s) if m.owner == seat) for s in SQUARES]
    x2_square = next(
        (s for s in SQUARES for m in on_square(board, s) if m.owner == seat and m.x2), None
    )
    wins: list[Win] = []
    if mine[square - 1] >= 3:
        wins.append(Win((square,), RoundEnd.THREE_ON_A_SQUARE, 1))
    for line in LINES:
        if square in line and all(mine[s - 1] for s in line):
            wins.append(Win(line, RoundEnd.LINE, 1))
    if not wins:
        return None
    if x2_rule and not placed.x2 and x2_square is not None:
        wins = [
            Win(w.squares, w.reason, 2) if x2_square in w.squares else w for w in wins
        ]
    return max(wins, key=lambda w: w.points)


def count_markers(board: Board, owner: int) -> int:
    """How many of ``owner``'s markers are on the board."""
    return sum(1 for square in board for m in square if m.owner == owner)


def board_text(board: Board) -> dict[int, str]:
    """Non-empty squares as marker text, e.g. ``{5: "WW*"}``."""
    return {s: "".join(str(m) for m in on_square(board, s)) for s in SQUARES if on_square(board, s)}


def board_from_text(squares: dict[int, str] | Sequence[tuple[int, str]]) -> Board:
    """A board from ``{square: "markers"}``; see :meth:`Marker.parse_many`."""
    board = EMPTY_BOARD
    items = squares.items() if isinstance(squares, dict) else squares
    for square, text in items:
        if square not in SQUARES:
            raise RulesError(f"square {square} does not exist (squares are 1–9)")
        board = with_square(board, square, Marker.parse_many(text))
    return board
