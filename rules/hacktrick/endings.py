"""How rounds and games of Hacktrick end: data the interfaces name in the players' language."""

from __future__ import annotations

from enum import StrEnum


class RoundEnd(StrEnum):
    """How a round was won (a round result's ``reason``)."""

    #: Three of the winner's markers on one square.
    THREE_ON_A_SQUARE = "three_on_a_square"
    #: A marker of the winner's on each square of a line.
    LINE = "line"
    #: The opponent ran out of markers.
    OUT_OF_MARKERS = "out_of_markers"
    #: The opponent could take no turn.
    NO_MOVE = "no_move"


class Reason(StrEnum):
    """Why a game of Hacktrick ended (``outcome()["reason"]``)."""

    #: The winner reached the target of excellence points (the outcome's ``target``).
    TARGET_REACHED = "target_reached"
