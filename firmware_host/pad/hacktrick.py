"""Hacktrick on the pad. The grid is the magic-square board in both modes.

Table cards (``cards=table``):

- Lead: a keypad digit 0–5, or dot 1–6 for the values 0–5.
- A turn: choose the card by its value (keypad digit) or by the board square it lands on (the
  dot of square ``s`` means the card ``s − rightmost``); pressing that square again toggles the
  ×2 marker; OK plays it, Back cancels. When a declaration is allowed the next screen offers
  dot 1 (Play!), dot 3 (Guard!) or OK (none). With nothing chosen, OK draws and Back asks.

Virtual cards (the default) pass the pad between the two players, UNLOCK-style:

1. "Pass the pad to Aiko": only OK opens the hand, so it shows only after its holder took
   the pad. The holder's hand (the OLED) sits beside the board.
2. The card is chosen as with table cards (a value the hand does not hold is refused) and
   confirmed with OK; the lead too. With nothing chosen OK offers the draw and Back the sum
   (each confirmed with OK, cancelled with Back).
3. Once the action is saved the hand leaves the screen at once: the public board with "pass
   the pad to Ben — OK", then Ben's privacy screen. Asking the sum keeps the hand open (same
   turn). Any change made elsewhere (a phone, an undo) closes the hand the same way.
4. When a round ends its result (winner, how, the score) is shown first, until OK.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from firmware_host.pad.controller import Controller, Session
from firmware_host.pad.inputs import Input
from firmware_host.screens import hacktrick as screens
from firmware_host.screens.message import pass_pad_screen
from firmware_host.screens.text import bitmap_safe, seat_label

PROMPT_CHOOSE = "card 0-5\nOK: draw"
PROMPT_DECLARE = "1: Play!\n3: Guard!\nOK: none"
PROMPT_LEAD = "lead 0-5"
#: Virtual cards: the holder's prompts.
PROMPT_HAND = "OK: draw\nBack: ask"
#: Under Play! (no draw allowed); Ask the sum only where the rules allow it (ask_under_play).
PROMPT_MUST_PLAY = "play 0-5\nBack: ask"
PROMPT_ONLY_PLAY = "play 0-5"
PROMPT_CONFIRM = {"draw": "OK: draw\nBack: no", "ask": "OK: ask sum\nBack: no"}
HINT_OPEN = "OK: see your hand"


def must_play_prompt(own: dict[str, Any]) -> str:
    """Under Play!: Back offers Ask the sum only when it is a legal action."""
    return PROMPT_MUST_PLAY if "ask" in (own.get("legal_actions") or []) else PROMPT_ONLY_PLAY


def play_prompt(value: int, x2: bool) -> str:
    """What OK will play, and how to switch the ×2 marker (press the square again)."""
    return f"OK: play {value}\n{'×2 marker' if x2 else 'again: ×2'}"


def lead_prompt(value: int) -> str:
    return f"OK: lead {value}\nBack: no"


def pass_prompt(view: dict[str, Any], seat: int) -> str:
    """The between-turns board's prompt: who takes the pad next."""
    name = str((view.get("seats") or [])[seat])
    return f"pass pad\nto {name if bitmap_safe(name) else seat_label(seat)}\nOK"


class HacktrickPad(Controller):
    """The Hacktrick pad state machine (see the module docstring)."""

    def __init__(self, session: Session, game_id: int) -> None:
        super().__init__(session, game_id)
        #: The card being played (value, uses ×2) and whether the declaration menu is open.
        self.card: tuple[int, bool] | None = None
        self.declaring = False
        #: Virtual cards: whose hand is open, at which game version (any other change
        #: closes it), whether the between-turns board is up, and a draw/ask awaiting OK.
        self.holder: int | None = None
        self.opened: int | None = None
        self.between = False
        self.confirm: str | None = None
        self.drawing = False
        #: Rounds whose result was acknowledged (virtual cards show each result once).
        self.rounds_seen = len(self.view().get("rounds") or [])

    @staticmethod
    def _table(view: dict[str, Any]) -> bool:
        return (view.get("options") or {}).get("cards") == "table"

    def _play(self, declare: str | None = None) -> str:
        suffix = f" declare={declare}" if declare else ""
        if self.drawing:
            return f"draw{suffix}"
        assert self.card is not None
        value, x2 = self.card
        return f"play {value}{' x2' if x2 else ''}{suffix}"

    def _reset_choice(self) -> None:
        self.card, self.declaring, self.confirm, self.drawing = None, False, None, False

    def _round_news(self, view: dict[str, Any]) -> bool:
        """Virtual cards: a round ended and its result was not acknowledged yet."""
        return not self._table(view) and len(view.get("rounds") or []) > self.rounds_seen

    def final_screen_shown(self) -> bool:
        return not self._round_news(self.view())

    def on_input(self, event: Input) -> None:
        view = self.view()
        if self._round_news(view):
            self._sync(view)
            if event.kind == "ok":
                self.rounds_seen = len(view.get("rounds") or [])
            return
        if view.get("outcome") or not view.get("to_act"):
            return
        if not self._table(view):
            self._virtual(view, event)
            return
        mover = int(view["to_act"][0])
        if view.get("phase") == "lead":
            value = _value_of(event)
            if value is not None:
                self.act(mover, f"lead {value}")
            return
        if self.declaring:
            self._declare(mover, event)
            return
        if event.kind in ("digit", "dot"):
            self._choose(view, event, None)
        elif event.kind == "back":
            if self.card is not None:
                self.card = None
            else:
                self.act(mover, "ask")
        elif event.kind == "ok":
            if self.card is None:
                self.act(mover, "draw")
            else:
                self._submit(mover)

    def _choose(self, view: dict[str, Any], event: Input, hand: list[int] | None) -> None:
        """A card value (keypad digit) or a board square (dot), checked against ``hand``
        when the box knows it."""
        rightmost = int(view.get("rightmost") or 0)
        if event.kind == "digit" and event.value is not None:
            value = event.value
        elif event.kind == "dot" and event.value is not None and 1 <= event.value <= 9:
            square = screens.square_at(event.value)
            if self.card is not None and self.card[0] + rightmost == square:
                self.card = (self.card[0], not self.card[1])
                return
            if not 0 <= square - rightmost <= 5:
                reach = ", ".join(str(rightmost + v) for v in range(6) if v != rightmost)
                self.refuse(f"no card reaches square {square}: after a {rightmost} a card "
                            f"lands on square {reach}")
                return
            value = square - rightmost
        else:
            return
        if hand is not None and value not in hand:
            self.refuse(f"you hold no {value}")
            return
        self.card = (value, False)

    def _submit(self, mover: int) -> None:
        """Plays the chosen card (or draws), through the declaration menu when one is allowed."""
        legal = self.view(mover).get("legal_actions") or []
        if any(a.startswith(self._play() + " declare=") for a in legal):
            self.declaring = True
        elif self.act(mover, self._play()):
            self._acted(mover)

    def _declare(self, mover: int, event: Input) -> None:
        declare = {1: "play", 3: "guard"}.get(event.value or 0) if event.kind == "dot" else None
        if event.kind == "back":
            self.declaring = self.drawing = False
        elif event.kind == "ok" or declare is not None:
            action = self._play(declare)
            self.declaring = self.drawing = False
            if self.act(mover, action):
                self._acted(mover)

    def _acted(self, mover: int, *, asked: bool = False) -> None:
        """After a saved action: with virtual cards the hand closes, unless the holder asked
        the sum and their turn goes on (a new round dealt to the same mover still closes it)."""
        self._reset_choice()
        if self.holder is None:
            return
        view = self.view()
        if asked and not view.get("outcome") and list(view.get("to_act") or []) == [mover]:
            self.opened = int(view.get("version", 0))
        else:
            self.holder, self.opened, self.between = None, None, True

    # --- virtual cards ------------------------------------------------------------------------
    def _sync(self, view: dict[str, Any]) -> None:
        """Closes the hand when the game moved on without it (a phone, an undo)."""
        if self.holder is None:
            return
        mover = list(view.get("to_act") or [])
        if view.get("outcome") or mover != [self.holder] or view.get("version") != self.opened:
            self.holder, self.opened, self.between = None, None, True
            self._reset_choice()

    def _virtual(self, view: dict[str, Any], event: Input) -> None:
        self._sync(view)
        mover = int(view["to_act"][0])
        if self.holder is None:
            if event.kind == "ok" and self.between:
                self.between = False
            elif event.kind == "ok":
                self.holder, self.opened = mover, int(view.get("version", 0))
                self._reset_choice()
            return
        if self.confirm is not None:
            verb, self.confirm = self.confirm, None
            if event.kind != "ok":
                return
            if verb == "draw":
                self.drawing = True
                self._submit(mover)
                self.drawing = self.declaring
            elif self.act(mover, "ask"):
                self._acted(mover, asked=True)
            return
        if self.declaring:
            self._declare(mover, event)
            return
        hand = [int(c) for c in self.view(mover)["hands"][mover].get("cards") or []]
        if view.get("phase") == "lead":
            value = _value_of(event)
            if value is not None:
                self._choose(view, Input("digit", value), hand)
            elif event.kind == "back":
                self.card = None
            elif event.kind == "ok" and self.card is not None and self.act(
                    mover, f"lead {self.card[0]}"):
                self._acted(mover)
            return
        if event.kind in ("digit", "dot"):
            self._choose(view, event, hand)
        elif event.kind == "back":
            if self.card is not None:
                self.card = None
            else:
                self.confirm = "ask"
        elif event.kind == "ok":
            if self.card is None:
                self.confirm = "draw"
            else:
                self._submit(mover)

    def _virtual_frame(self, view: dict[str, Any]) -> Image.Image:
        self._sync(view)
        mover = int(view["to_act"][0])
        if self.holder is None:
            if self.between:
                return screens.board_screen(view, prompt=pass_prompt(view, mover))
            return pass_pad_screen(str(view["seats"][mover]), mover, hint=HINT_OPEN)
        own = self.view(self.holder)
        value = self.card[0] if self.card is not None else None
        highlight = None
        if self.confirm is not None:
            prompt = PROMPT_CONFIRM[self.confirm]
        elif self.declaring:
            prompt = PROMPT_DECLARE
        elif view.get("phase") == "lead":
            prompt = lead_prompt(value) if value is not None else PROMPT_LEAD
        elif self.card is not None:
            prompt = play_prompt(*self.card)
            highlight = self.card[0] + int(view.get("rightmost") or 0)
        elif any(a.startswith("draw") for a in own.get("legal_actions") or []):
            prompt = PROMPT_HAND
        else:
            prompt = must_play_prompt(own)
        if self.declaring and self.card is not None:
            highlight = self.card[0] + int(view.get("rightmost") or 0)
        return screens.hand_screen(own, self.holder, chosen=value, prompt=prompt,
                                   highlight=highlight)

    def draw(self) -> Image.Image:
        view = self.view()
        if self._round_news(view):
            self._sync(view)
            return screens.round_screen(view)
        if view.get("outcome") or not view.get("to_act"):
            return screens.board_screen(view)
        if not self._table(view):
            return self._virtual_frame(view)
        if view.get("phase") == "lead":
            return screens.board_screen(view, prompt=PROMPT_LEAD)
        if self.card is None:
            return screens.board_screen(view, prompt=PROMPT_CHOOSE)
        value, x2 = self.card
        square = value + int(view.get("rightmost") or 0)
        if self.declaring:
            return screens.board_screen(view, prompt=PROMPT_DECLARE, highlight=square)
        return screens.board_screen(view, prompt=play_prompt(value, x2), highlight=square)


def _value_of(event: Input) -> int | None:
    """A card value from a keypad digit, or from dot 1–6 (the values 0–5)."""
    if event.kind == "digit":
        return event.value
    if event.kind == "dot" and event.value is not None and 1 <= event.value <= 6:
        return event.value - 1
    return None
