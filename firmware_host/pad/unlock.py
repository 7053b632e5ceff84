"""UNLOCK on the pad: the Lock draws the secret, then each guesser in turn enters a code,
with a privacy screen ("pass the pad to Aiko") before each; then the reveal and the scores.

Dots are added in order; a dot already drawn is ignored, and any other dot the rules refuse
next (crossed by a line with auto-connection off, joined by auto-connection, or reached over a
used dot) is refused with the rules' reason. Back removes the last one; OK submits. A code the
rules refuse is shown with their message and kept for fixing. Whose turn it is comes from the
published view (guessers who submitted on their phone are skipped).

On the 4×4 card the pad's nine dots are too few: while a code is being drawn every key of the
4×4 keypad is the dot in the same place (1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D,
`KEYPAD_DOTS`), so ``#`` and ``*`` are dots and OK and Back are the pad's own buttons; the pad's
dots are refused with that explanation. On the other screens ``#``/``*`` are OK/Back as usual.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from firmware_host.pad.controller import Controller, Session
from firmware_host.pad.inputs import Input, as_dot, as_grid4_dot
from firmware_host.screens import unlock as screens
from firmware_host.screens.message import message_screen, pass_pad_screen
from rules.unlock import dot_refusal

#: Why the pad's dots do nothing on a 4×4 card.
GRID4_PAD_DOTS = ("a 4x4 code is drawn on the keypad: each key is the dot in its place "
                  "(1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D); OK and Back are the pad's buttons")


def latest_turn(view: dict[str, Any]) -> int:
    """The last turn with cards on the clue board (0 before the first reveal)."""
    return max((int(card.get("turn", 0)) for card in view.get("clue_board") or []), default=0)


def next_entrant(view: dict[str, Any]) -> int | None:
    """Who should hold the pad now: the Lock before the secret, then the first guesser in seat
    order who has not submitted this turn; None when nobody (game over)."""
    if view.get("outcome"):
        return None
    lock = int(view.get("lock", 0))
    to_act = [int(s) for s in view.get("to_act") or []]
    if lock in to_act:
        return lock
    submitted = {int(s) for s in view.get("submitted") or []}
    pending = [s for s in to_act if s not in submitted and s != lock]
    return min(pending) if pending else None


class UnlockPad(Controller):
    """The UNLOCK pad state machine (see the module docstring)."""

    def __init__(self, session: Session, game_id: int) -> None:
        super().__init__(session, game_id)
        self.dots: list[int] = []
        #: The seat whose entry is open (they pressed OK on their privacy screen).
        self.entrant: int | None = None
        self.seen_turn = latest_turn(self.view())
        self.reveal_page = 0

    def _unseen_reveal(self, view: dict[str, Any]) -> bool:
        return latest_turn(view) > self.seen_turn

    def final_screen_shown(self) -> bool:
        return not self._unseen_reveal(self.view())

    def on_input(self, event: Input) -> None:
        view = self.view()
        size = int(view.get("size") or 3)
        drawing = not self._unseen_reveal(view) and self.entrant is not None and (
            self.entrant == next_entrant(view))
        if size == 4 and drawing:
            if event.kind == "dot" and event.key is None:
                self.refuse(GRID4_PAD_DOTS)
                return
            event = as_grid4_dot(event)
        elif size == 4 and event.kind == "dot":
            return  # the pad's dots mean nothing on a 4×4 card
        else:
            event = as_dot(event)
        if self._unseen_reveal(view):
            if event.kind == "ok" and self.reveal_page + 1 < screens.reveal_pages(view):
                self.reveal_page += 1
            elif event.kind == "ok":
                self.seen_turn, self.reveal_page = latest_turn(view), 0
            return
        seat = next_entrant(view)
        if seat is None:
            return
        if self.entrant != seat:
            # the privacy screen: only OK opens the entry; it never shows anyone's code
            if event.kind == "ok":
                self.entrant, self.dots = seat, []
            return
        if event.kind == "dot" and event.value is not None and 1 <= event.value <= size * size:
            auto_connect = (view.get("options") or {}).get("auto_connect") is not False
            refusal = dot_refusal(self.dots, event.value, size, auto_connect)
            if refusal is None:
                self.dots.append(event.value)
            elif event.value not in self.dots:  # a dot already drawn is ignored, as before
                self.refuse(refusal)
        elif event.kind == "back":
            if self.dots:
                self.dots.pop()
        elif event.kind == "ok":
            if len(self.dots) < 2:
                self.refuse("draw at least one line: two dots or more")
                return
            verb = "secret" if seat == int(view.get("lock", 0)) else "guess"
            if self.act(seat, f"{verb} {'-'.join(str(d) for d in self.dots)}"):
                self.dots, self.entrant = [], None

    def draw(self) -> Image.Image:
        view = self.view()
        if self._unseen_reveal(view):
            return screens.reveal_screen(view, self.reveal_page)
        if view.get("outcome"):
            return screens.scores_screen(view)
        seat = next_entrant(view)
        if seat is None:
            return message_screen("UNLOCK", "Waiting for the other players.")
        if self.entrant != seat:
            return pass_pad_screen(str(view["seats"][seat]), seat)
        lock = int(view.get("lock", 0))
        return screens.entry_screen(view, seat, self.dots, secret=seat == lock)
