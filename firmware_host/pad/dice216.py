"""2 1 6 on the pad: the roll comes from the serial die, a keypad digit, or the device's own
die (OK while a roll is awaited); the cell is chosen with the grid as a cursor pad.

Cursor keys: 2 up, 8 down, 4 left, 6 right (1, 3, 7, 9 diagonally); 5 or OK places the rolled
number in the cell under the cursor.
"""

from __future__ import annotations

import random

from PIL import Image

from firmware_host.pad.controller import Controller, Session
from firmware_host.pad.inputs import Input, as_dot
from firmware_host.screens import dice216 as screens
from rules import CHANCE

#: Dot → (row step, column step) of the cursor.
MOVES = {1: (-1, -1), 2: (-1, 0), 3: (-1, 1), 4: (0, -1), 6: (0, 1), 7: (1, -1), 8: (1, 0),
         9: (1, 1)}


class Dice216Pad(Controller):
    """The 2 1 6 pad state machine (see the module docstring)."""

    def __init__(self, session: Session, game_id: int, *, rng: random.Random | None = None) -> None:
        super().__init__(session, game_id)
        self.cursor = (0, 0)
        self.rng = rng if rng is not None else random.SystemRandom()

    def on_input(self, event: Input) -> None:
        view = self.view()
        if view.get("outcome"):
            return
        size = int(view["size"])
        if CHANCE in view.get("to_act", []):
            if event.kind in ("die", "digit") and event.value is not None:
                self.act(CHANCE, f"roll {event.value}")
            elif event.kind == "ok":
                self.act(CHANCE, f"roll {self.rng.randint(1, int(view['die_faces']))}")
            return
        mover = view.get("mover")
        if mover is None:
            return
        event = as_dot(event)  # no number is asked for now: keypad digits move the cursor
        if event.kind == "dot" and event.value in MOVES:
            dr, dc = MOVES[event.value]
            self.cursor = ((self.cursor[0] + dr) % size, (self.cursor[1] + dc) % size)
        elif event.kind == "ok" or (event.kind == "dot" and event.value == 5):
            row, col = self.cursor
            self.act(int(mover), f"place {row + 1} {col + 1}")

    def draw(self) -> Image.Image:
        view = self.view()
        if view.get("outcome"):
            return screens.board_screen(view, None)
        if CHANCE in view.get("to_act", []):
            return screens.board_screen(view, None, prompt="roll/OK")
        size = int(view["size"])
        self.cursor = (min(self.cursor[0], size - 1), min(self.cursor[1], size - 1))
        return screens.board_screen(view, self.cursor, prompt="5/OK place")
