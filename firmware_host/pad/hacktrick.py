"""Hacktrick on the pad, table mode: the grid is the magic-square board.

- Lead: a keypad digit 0–5, or dot 1–6 for the values 0–5.
- A turn: choose the card by its value (keypad digit) or by the board square it lands on (the
  dot of square ``s`` means the card ``s − rightmost``); pressing that square again toggles the
  ×2 marker; OK plays it, Back cancels. When a declaration is allowed the next screen offers
  dot 1 (Play!), dot 3 (Guard!) or OK (none). With nothing chosen, OK draws and Back asks.

With virtual cards the hands are secret, so the pad only shows the board: play is on phones.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from firmware_host.pad.controller import Controller, Session
from firmware_host.pad.inputs import Input
from firmware_host.screens import hacktrick as screens

PROMPT_CHOOSE = "card 0-5\nOK: draw"
PROMPT_DECLARE = "1: Play!\n3: Guard!\nOK: none"
PROMPT_VIRTUAL = "on phones"


def play_prompt(value: int, x2: bool) -> str:
    """What OK will play, and how to switch the ×2 marker (press the square again)."""
    return f"OK: play {value}\n{'×2 marker' if x2 else 'again: ×2'}"


class HacktrickPad(Controller):
    """The Hacktrick pad state machine (see the module docstring)."""

    def __init__(self, session: Session, game_id: int) -> None:
        super().__init__(session, game_id)
        #: The card being played (value, uses ×2) and whether the declaration menu is open.
        self.card: tuple[int, bool] | None = None
        self.declaring = False

    @staticmethod
    def _table(view: dict[str, Any]) -> bool:
        return (view.get("options") or {}).get("cards") == "table"

    def _play(self, declare: str | None = None) -> str:
        assert self.card is not None
        value, x2 = self.card
        return f"play {value}{' x2' if x2 else ''}{f' declare={declare}' if declare else ''}"

    def on_input(self, event: Input) -> None:
        view = self.view()
        if view.get("outcome") or not view.get("to_act") or not self._table(view):
            return
        mover = int(view["to_act"][0])
        if view.get("phase") == "lead":
            value = event.value if event.kind == "digit" else (
                event.value - 1 if event.kind == "dot" and event.value is not None else None)
            if value is not None:
                self.act(mover, f"lead {value}")
            return
        if self.declaring:
            self._declare(mover, event)
            return
        rightmost = int(view.get("rightmost") or 0)
        if event.kind == "digit" and event.value is not None:
            self.card = (event.value, False)
        elif event.kind == "dot" and event.value is not None and 1 <= event.value <= 9:
            square = screens.square_at(event.value)
            if self.card is not None and self.card[0] + rightmost == square:
                self.card = (self.card[0], not self.card[1])
            elif 0 <= square - rightmost <= 5:
                self.card = (square - rightmost, False)
            else:
                reach = ", ".join(str(rightmost + v) for v in range(6) if v != rightmost)
                self.refuse(f"no card reaches square {square}: after a {rightmost} a card "
                            f"lands on square {reach}")
        elif event.kind == "back":
            if self.card is not None:
                self.card = None
            else:
                self.act(mover, "ask")
        elif event.kind == "ok":
            if self.card is None:
                self.act(mover, "draw")
                return
            legal = self.view(mover).get("legal_actions") or []
            if any(a.startswith(self._play() + " declare=") for a in legal):
                self.declaring = True
            elif self.act(mover, self._play()):
                self.card = None

    def _declare(self, mover: int, event: Input) -> None:
        declare = {1: "play", 3: "guard"}.get(event.value or 0) if event.kind == "dot" else None
        if event.kind == "back":
            self.declaring = False
        elif event.kind == "ok" or declare is not None:
            self.declaring = False
            if self.act(mover, self._play(declare)):
                self.card = None

    def draw(self) -> Image.Image:
        view = self.view()
        if not self._table(view) and not view.get("outcome"):
            return screens.board_screen(view, prompt=PROMPT_VIRTUAL)
        if view.get("phase") == "lead":
            return screens.board_screen(view, prompt="lead 0-5")
        if self.card is None:
            return screens.board_screen(view, prompt=PROMPT_CHOOSE)
        value, x2 = self.card
        square = value + int(view.get("rightmost") or 0)
        if self.declaring:
            return screens.board_screen(view, prompt=PROMPT_DECLARE, highlight=square)
        return screens.board_screen(view, prompt=play_prompt(value, x2), highlight=square)
