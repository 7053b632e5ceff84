"""UNLOCK: guess the Lock's secret unlock code from how many lines each guess shares with it.

The registry loads :data:`GAME`. The hint engine and the tests use the code vocabulary too:
:class:`Code`, :func:`validate`, :func:`all_codes`, :func:`feedback`, :func:`consistent_codes`.
"""

from rules.unlock.clues import (
    Clue,
    LineIndex,
    clues_from_view,
    consistent_codes,
    consistent_indices,
    consistent_masks,
    count_consistent,
    line_index,
)
from rules.unlock.codes import BadCode, Code, canonical_path, dot_refusal, feedback
from rules.unlock.enumeration import (
    CodeTable,
    all_codes,
    code_masks,
    code_table,
    is_enumerable,
    random_code,
)
from rules.unlock.game import (
    GAME,
    OPTIONS,
    Card,
    Unlock,
    UnlockState,
    abandon_game,
    codes_remaining,
)
from rules.unlock.grid import Grid, grid, segments_cross
from rules.unlock.levels import DIFFICULTIES, Difficulty, next_dots, validate
from rules.unlock.tournament import Standing, Tournament

__all__ = [
    "DIFFICULTIES",
    "GAME",
    "OPTIONS",
    "BadCode",
    "Card",
    "Clue",
    "Code",
    "CodeTable",
    "Difficulty",
    "Grid",
    "LineIndex",
    "Standing",
    "Tournament",
    "Unlock",
    "UnlockState",
    "abandon_game",
    "all_codes",
    "canonical_path",
    "clues_from_view",
    "code_masks",
    "code_table",
    "codes_remaining",
    "consistent_codes",
    "consistent_indices",
    "consistent_masks",
    "count_consistent",
    "dot_refusal",
    "feedback",
    "grid",
    "is_enumerable",
    "line_index",
    "next_dots",
    "random_code",
    "segments_cross",
    "validate",
]
