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

from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

import firmware_host.games.hacktrick.screens as screens
from firmware_host.games.hacktrick.words import WORDS
from firmware_host.pad.inputs import Input
from firmware_host.pad.steps import Accepted, Act, Command, PadEvent, Refused, Step, Table
from firmware_host.screens.message import pass_pad_screen
from firmware_host.screens.text import shown_name
from firmware_host.screens.words import say

#: The prompts beside the board, in English (``WORDS`` has them in both languages).
PROMPT_CHOOSE = WORDS["prompt.choose"]["en"]
PROMPT_DECLARE = WORDS["prompt.declare"]["en"]
PROMPT_LEAD = WORDS["prompt.lead"]["en"]
PROMPT_HAND = WORDS["prompt.hand"]["en"]
PROMPT_CONFIRM = {"draw": WORDS["prompt.confirm_draw"]["en"],
                  "ask": WORDS["prompt.confirm_ask"]["en"]}
HINT_OPEN = WORDS["hint_open"]["en"]


def must_play_prompt(own: dict[str, Any], lang: str = "en") -> str:
    """Under Play!: Back offers Ask the sum only when it is a legal action."""
    legal = own.get("legal_actions") or []
    return say(WORDS, "prompt.must_play" if "ask" in legal else "prompt.only_play", lang)


def play_prompt(value: int, x2: bool, lang: str = "en") -> str:
    """What OK will play, and how to switch the ×2 marker (press the square again)."""
    return say(WORDS, "prompt.play_x2" if x2 else "prompt.play", lang, value=value)


def lead_prompt(value: int, lang: str = "en") -> str:
    return say(WORDS, "prompt.lead_value", lang, value=value)


def pass_prompt(view: dict[str, Any], seat: int, lang: str = "en") -> str:
    """The between-turns board's prompt: who takes the pad next."""
    name = str((view.get("seats") or [])[seat])
    return say(WORDS, "prompt.pass", lang, name=shown_name(name, seat))


@dataclass(frozen=True)
class HacktrickPadState:
    """The card being played (value, uses ×2), whether the declaration menu is open and the
    move is a draw; with virtual cards whose hand is open at which game version (any other
    change closes it), whether the between-turns board is up, a draw or ask awaiting OK, and
    how many round results were read."""

    card: tuple[int, bool] | None = None
    declaring: bool = False
    drawing: bool = False
    holder: int | None = None
    opened: int | None = None
    between: bool = False
    confirm: str | None = None
    rounds_seen: int = 0


HStep = Step[HacktrickPadState]


def _cleared(state: HacktrickPadState) -> HacktrickPadState:
    """No card chosen, no menu or confirmation open."""
    return replace(state, card=None, declaring=False, confirm=None, drawing=False)


class HacktrickPad:
    """The Hacktrick pad (see the module docstring) as pure steps."""

    def start(self, table: Table) -> HacktrickPadState:
        return HacktrickPadState(rounds_seen=len(table.view().get("rounds") or []))

    def final_screen_shown(self, state: HacktrickPadState, table: Table) -> bool:
        return not _round_news(state, table.view())

    def step(self, state: HacktrickPadState, event: PadEvent, table: Table) -> HStep:
        view = table.view()
        if isinstance(event, Accepted):
            return Step(_acted(state, event.act, view))
        if isinstance(event, Refused):
            return Step(replace(state, drawing=False, declaring=False))
        if not isinstance(event, Input):
            return Step(_sync(state, view))
        if _round_news(state, view):
            state = _sync(state, view)
            if event.kind == "ok":
                return Step(replace(state, rounds_seen=len(view.get("rounds") or [])))
            return Step(state, refusal=table.say("read_round"))
        if view.get("outcome") or not view.get("to_act"):
            return Step(state, refusal=table.unused(event))
        if not _table_cards(view):
            return _virtual(state, event, table)
        mover = int(view["to_act"][0])
        if view.get("phase") == "lead":
            value = _value_of(event)
            if value is None:
                return Step(state, refusal=table.unused(event))
            return Step(state, (Act(mover, f"lead {value}"),))
        if state.declaring:
            return _declare(state, mover, event, table)
        if event.kind in ("digit", "dot"):
            return _choose(state, view, event, None, table)
        if event.kind == "back":
            if state.card is not None:
                return Step(replace(state, card=None))
            return Step(state, (Act(mover, "ask"),))
        if event.kind == "ok":
            if state.card is None:
                return Step(state, (Act(mover, "draw"),))
            return _submit(state, mover, table)
        return Step(state, refusal=table.unused(event))

    def screen(self, state: HacktrickPadState, table: Table) -> Image.Image:
        view = table.view()
        lang = table.lang
        if _round_news(state, view):
            return screens.round_screen(view, lang=lang)
        if view.get("outcome") or not view.get("to_act"):
            return screens.board_screen(view, lang=lang)
        if not _table_cards(view):
            return _virtual_frame(_sync(state, view), table)
        if view.get("phase") == "lead":
            return screens.board_screen(view, prompt=table.say("prompt.lead"), lang=lang)
        if state.card is None:
            return screens.board_screen(view, prompt=table.say("prompt.choose"), lang=lang)
        value, x2 = state.card
        square = value + int(view.get("rightmost") or 0)
        if state.declaring:
            return screens.board_screen(view, prompt=table.say("prompt.declare"),
                                        highlight=square, lang=lang)
        return screens.board_screen(view, prompt=play_prompt(value, x2, lang),
                                    highlight=square, lang=lang)


def _table_cards(view: dict[str, Any]) -> bool:
    return (view.get("options") or {}).get("cards") == "table"


def _round_news(state: HacktrickPadState, view: dict[str, Any]) -> bool:
    """Virtual cards: a round ended and its result was not acknowledged yet."""
    return not _table_cards(view) and len(view.get("rounds") or []) > state.rounds_seen


def _play(state: HacktrickPadState, declare: str | None = None) -> str:
    suffix = f" declare={declare}" if declare else ""
    if state.drawing:
        return f"draw{suffix}"
    assert state.card is not None
    value, x2 = state.card
    return f"play {value}{' x2' if x2 else ''}{suffix}"


def _choose(state: HacktrickPadState, view: dict[str, Any], event: Input,
            hand: list[int] | None, table: Table) -> HStep:
    """A card value (keypad digit) or a board square (dot), checked against ``hand`` when the
    box knows it."""
    rightmost = int(view.get("rightmost") or 0)
    if event.kind == "digit" and event.value is not None:
        value = event.value
    elif event.kind == "dot" and event.value is not None and 1 <= event.value <= 9:
        square = screens.square_at(event.value)
        if state.card is not None and state.card[0] + rightmost == square:
            return Step(replace(state, card=(state.card[0], not state.card[1])))
        if not 0 <= square - rightmost <= 5:
            reach = ", ".join(str(rightmost + v) for v in range(6) if v != rightmost)
            return Step(state, refusal=table.say("no_card_reaches", square=square,
                                                 rightmost=rightmost, reach=reach))
        value = square - rightmost
    else:
        return Step(state, refusal=table.unused(event))
    if hand is not None and value not in hand:
        return Step(state, refusal=table.say("hold_no", value=value))
    return Step(replace(state, card=(value, False)))


def _submit(state: HacktrickPadState, mover: int, table: Table) -> HStep:
    """Plays the chosen card (or draws), through the declaration menu when one is allowed."""
    legal = table.view(mover).get("legal_actions") or []
    if any(a.startswith(_play(state) + " declare=") for a in legal):
        return Step(replace(state, declaring=True))
    return Step(state, (Act(mover, _play(state)),))


def _declare(state: HacktrickPadState, mover: int, event: Input, table: Table) -> HStep:
    declare = {1: "play", 3: "guard"}.get(event.value or 0) if event.kind == "dot" else None
    if event.kind == "back":
        return Step(replace(state, declaring=False, drawing=False))
    if event.kind == "ok" or declare is not None:
        return Step(state, (Act(mover, _play(state, declare)),))
    return Step(state, refusal=table.say("declare_keys"))


def _acted(state: HacktrickPadState, act: Command, view: dict[str, Any]) -> HacktrickPadState:
    """After a saved action: with virtual cards the hand closes, unless the holder asked the
    sum and their turn goes on (a new round dealt to the same mover still closes it)."""
    state = _cleared(state)
    if state.holder is None:
        return state
    mover = act.seat if isinstance(act, Act) else None
    asked = isinstance(act, Act) and act.action == "ask"
    if asked and not view.get("outcome") and list(view.get("to_act") or []) == [mover]:
        return replace(state, opened=int(view.get("version", 0)))
    return replace(state, holder=None, opened=None, between=True)


# --- virtual cards ----------------------------------------------------------------------------


def _sync(state: HacktrickPadState, view: dict[str, Any]) -> HacktrickPadState:
    """Closes the hand when the game moved on without it (a phone, an undo)."""
    if state.holder is None:
        return state
    mover = list(view.get("to_act") or [])
    if view.get("outcome") or mover != [state.holder] or view.get("version") != state.opened:
        return _cleared(replace(state, holder=None, opened=None, between=True))
    return state


def _virtual(state: HacktrickPadState, event: Input, table: Table) -> HStep:
    view = table.view()
    state = _sync(state, view)
    mover = int(view["to_act"][0])
    if state.holder is None:
        if event.kind == "ok" and state.between:
            return Step(replace(state, between=False))
        if event.kind == "ok":
            return Step(_cleared(replace(state, holder=mover,
                                         opened=int(view.get("version", 0)))))
        if state.between:
            return Step(state, refusal=table.say("between_ok"))
        name = shown_name(str(view["seats"][mover]), mover)
        return Step(state, refusal=table.say("open_hand", name=name))
    if state.confirm is not None:
        verb, state = state.confirm, replace(state, confirm=None)
        if event.kind != "ok":
            return Step(state)
        if verb == "draw":
            return _submit(replace(state, drawing=True), mover, table)
        return Step(state, (Act(mover, "ask"),))
    if state.declaring:
        return _declare(state, mover, event, table)
    hand = [int(c) for c in table.view(mover)["hands"][mover].get("cards") or []]
    if view.get("phase") == "lead":
        value = _value_of(event)
        if value is not None:
            return _choose(state, view, Input("digit", value), hand, table)
        if event.kind == "back":
            return Step(replace(state, card=None))
        if event.kind == "ok" and state.card is not None:
            return Step(state, (Act(mover, f"lead {state.card[0]}"),))
        return Step(state, refusal=table.unused(event))
    if event.kind in ("digit", "dot"):
        return _choose(state, view, event, hand, table)
    if event.kind == "back":
        if state.card is not None:
            return Step(replace(state, card=None))
        return Step(replace(state, confirm="ask"))
    if event.kind == "ok":
        if state.card is None:
            return Step(replace(state, confirm="draw"))
        return _submit(state, mover, table)
    return Step(state, refusal=table.unused(event))


def _virtual_frame(state: HacktrickPadState, table: Table) -> Image.Image:
    view = table.view()
    lang = table.lang
    mover = int(view["to_act"][0])
    if state.holder is None:
        if state.between:
            return screens.board_screen(view, prompt=pass_prompt(view, mover, lang), lang=lang)
        return pass_pad_screen(str(view["seats"][mover]), mover, hint=table.say("hint_open"),
                               title=table.title, lang=lang)
    own = table.view(state.holder)
    value = state.card[0] if state.card is not None else None
    highlight = None
    if state.confirm is not None:
        prompt = table.say(f"prompt.confirm_{state.confirm}")
    elif state.declaring:
        prompt = table.say("prompt.declare")
    elif view.get("phase") == "lead":
        prompt = lead_prompt(value, lang) if value is not None else table.say("prompt.lead")
    elif state.card is not None:
        prompt = play_prompt(*state.card, lang)
        highlight = state.card[0] + int(view.get("rightmost") or 0)
    elif any(a.startswith("draw") for a in own.get("legal_actions") or []):
        prompt = table.say("prompt.hand")
    else:
        prompt = must_play_prompt(own, lang)
    if state.declaring and state.card is not None:
        highlight = state.card[0] + int(view.get("rightmost") or 0)
    return screens.hand_screen(own, state.holder, chosen=value, prompt=prompt,
                               highlight=highlight, lang=lang)


def _value_of(event: Input) -> int | None:
    """A card value from a keypad digit, or from dot 1–6 (the values 0–5)."""
    if event.kind == "digit":
        return event.value
    if event.kind == "dot" and event.value is not None and 1 <= event.value <= 6:
        return event.value - 1
    return None
