"""The screens under reference test: name → a function drawing it from a view.

Views are built by the real rules engines where that is practical (so a change in a view's
shape shows up here), otherwise written out in the shape DESIGN.md documents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from firmware_host.screens import dice216, hacktrick, ico, unlock
from firmware_host.screens.message import message_screen, pass_pad_screen
from firmware_host.screens.start import start_screen

UNLOCK_VIEW: dict[str, Any] = {
    "game": "unlock", "seats": ["Kenji", "Aiko", "Ben", "Chloe"], "size": 3,
    "difficulty": "medium", "turn": 2, "lock": 0, "scores": [0, 3, -1, 2], "outcome": None,
    "secret": None, "to_act": [1, 2, 3], "submitted": [],
    "clue_board": [
        {"turn": 1, "seat": 1, "code": "4-5-6", "matches": 0, "misses": 2, "points": -2,
         "repeat": False},
        {"turn": 2, "seat": 1, "code": "1-2-3", "matches": 3, "misses": 0, "points": 3,
         "repeat": False},
        {"turn": 2, "seat": 2, "code": "1-5", "matches": 0, "misses": 1, "points": -1,
         "repeat": False},
        {"turn": 2, "seat": 3, "code": "4-5", "matches": 1, "misses": 0, "points": 1,
         "repeat": False},
    ],
}
UNLOCK_OVER = {**UNLOCK_VIEW, "secret": "1-2-3-6", "to_act": [],
               "outcome": {"winners": [1], "scores": [0, 3, -1, 2], "reason": "found"}}

DICE_CELLS: list[Any] = [[None] * 6 for _ in range(6)]
DICE_CELLS[0][0] = {"value": 4, "owner": 0}
DICE_CELLS[1][1] = {"value": 6, "owner": 1}
DICE_CELLS[2][2] = {"value": 1, "owner": 0}
DICE_CELLS[5][5] = {"value": 3, "owner": 1}
DICE_VIEW: dict[str, Any] = {
    "game": "dice216", "seats": ["Aiko", "Ben"], "size": 6, "cells": DICE_CELLS,
    "totals": [5, 9], "to_act": [1], "mover": 1, "pending_roll": 5, "outcome": None,
}

SMALL_CELLS: list[Any] = [[None] * 4 for _ in range(4)]
SMALL_CELLS[0][0] = {"value": 4, "owner": 0}
SMALL_CELLS[3][3] = {"value": 2, "owner": 1}
DICE_SMALL = {**DICE_VIEW, "size": 4, "cells": SMALL_CELLS, "totals": [4, 2], "mover": 0,
              "to_act": [0], "pending_roll": 3}
BIG_CELLS: list[Any] = [[None] * 12 for _ in range(12)]
for _i in range(12):
    BIG_CELLS[_i][_i] = {"value": 1 + _i % 6, "owner": _i % 4}
DICE_BIG = {**DICE_VIEW, "seats": ["Aiko", "Ben", "Cy", "Dee"], "size": 12, "cells": BIG_CELLS,
            "totals": [3, 1, 4, 1], "mover": 2, "to_act": [2], "pending_roll": None}

HACK_VIEW: dict[str, Any] = {
    "game": "hacktrick", "seats": ["Aiko", "Ben"], "to_act": [0], "points": [1, 0],
    "board": {"5": [{"owner": 0, "x2": False}, {"owner": 1, "x2": True}],
              "7": [{"owner": 1, "x2": False}], "2": [{"owner": 0, "x2": True}]},
    "row": [3, 4, 1, 5, 2], "supply": [{"captured": 1}, {"captured": 0}],
    "declaration": "play", "outcome": None,
}

ICO_VIEW: dict[str, Any] = {
    "game": "ico", "seats": ["Aiko", "Ben", "Cy"], "to_act": [0], "level": "1", "turn": 7,
    "faces": [{"id": "T0", "vertices": ["N", "U0", "U1"], "edges": ["N-U0", "U0-U1", "N-U1"]}],
    "edges": [{"id": "N-U0", "vertices": ["N", "U0"], "markers": [1, 0, 1]},
              {"id": "U0-U1", "vertices": ["U0", "U1"], "markers": [0, 0, 0]},
              {"id": "N-U1", "vertices": ["N", "U1"], "markers": [0, 1, 0]}],
    "active_face": "T0", "legal_edges": ["U0-U1", "N-U0"], "outcome": None,
}

SCENES: dict[str, Callable[[], Image.Image]] = {
    "start": lambda: start_screen("http://192.168.1.23:8080/", "4821"),
    "start_no_die": lambda: start_screen("http://tabletop.local:8080/", "0917", note="no die"),
    "message_refused": lambda: unlock.refused_screen(
        "lines 1-5 and 2-4 cross; crossing is not allowed on Easy"),
    "pass_pad": lambda: pass_pad_screen("Aiko", 1),
    "unlock_secret_drawing": lambda: unlock.entry_screen(UNLOCK_VIEW, 0, [1, 2, 5, 9],
                                                         secret=True),
    "unlock_secret_empty": lambda: unlock.entry_screen(UNLOCK_VIEW, 0, [], secret=True),
    "unlock_guess_drawing": lambda: unlock.entry_screen(UNLOCK_VIEW, 2, [7, 5, 3], secret=False),
    "unlock_reveal": lambda: unlock.reveal_screen(UNLOCK_VIEW),
    "unlock_scores": lambda: unlock.scores_screen(UNLOCK_VIEW),
    "unlock_over": lambda: unlock.scores_screen(UNLOCK_OVER),
    "dice216_cursor_empty": lambda: dice216.board_screen(DICE_VIEW, (1, 2), prompt="5: place"),
    "dice216_cursor_taken": lambda: dice216.board_screen(DICE_VIEW, (1, 1), prompt="5: place"),
    "dice216_4x4": lambda: dice216.board_screen(DICE_SMALL, (3, 3), prompt="5/OK place"),
    "dice216_12x12_four_players": lambda: dice216.board_screen(DICE_BIG, None,
                                                               prompt="roll/OK"),
    "hacktrick_board": lambda: hacktrick.board_screen(HACK_VIEW, prompt="card 0-5"),
    "hacktrick_highlight": lambda: hacktrick.board_screen(HACK_VIEW, prompt="OK: play 4",
                                                          highlight=9),
    "ico_face": lambda: ico.board_screen(ICO_VIEW, prompt="1-3: place"),
    "waiting": lambda: message_screen("UNLOCK", "Waiting for Aiko, Ben on their phones."),
}
