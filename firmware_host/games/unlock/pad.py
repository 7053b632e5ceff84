"""UNLOCK on the pad: the Lock draws the secret, then each guesser in turn enters a code,
with a privacy screen ("pass the pad to Aiko") before each; then the reveal and the scores.

Dots are added in order; a dot the rules refuse next (already drawn, crossed by a line with
auto-connection off, joined by auto-connection, or reached over a used dot) is refused with the
rules' reason. Back removes the last one (with none drawn, it goes back to the privacy screen);
OK submits. A code the rules refuse is shown with their message and kept for fixing. Whose turn
it is comes from the published view (guessers who submitted on their phone are skipped, and so
are the seats the box plays: while the box as the Lock draws its secret the OLED says so). Any
other input is refused in words (a die roll, a dot on the privacy screen or the reveal).

A guesser drawing their code asks for a hint by **holding OK** with nothing drawn (the press
itself is refused — there is no code to send — and its refusal says so; the hold then asks
the session, ``AskHint``, so the hint is counted like a phone's). The answer stays on that
guesser's entry screen for this turn: "N left" and the suggested code dotted on the grid; OK
with nothing drawn then takes the suggestion into the drawing (OK again sends it). The session's
refusal (hints off, the Lock asking, a 4×4 card) is shown in words.

On the 4×4 card the pad's nine dots are too few: while a code is being drawn every key of the
4×4 keypad is the dot in the same place (1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D,
`KEYPAD_DOTS`), so ``#`` and ``*`` are dots and OK and Back are the pad's own buttons; the pad's
dots are refused with that explanation. On the other screens ``#``/``*`` are OK/Back as usual.

Every screen is drawn in the OLED's language (``table.lang``) under UNLOCK's name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

import firmware_host.games.unlock.screens as screens
from firmware_host import pad_lighting
from firmware_host.pad.inputs import Input, as_dot, as_grid4_dot
from firmware_host.pad.steps import Accepted, Act, AskHint, Hinted, PadEvent, Step, Table
from firmware_host.pad_lighting import Lighting
from firmware_host.screens.message import message_screen, pass_pad_screen
from firmware_host.screens.text import shown_name
from rules.unlock import dot_refusal, next_dots


def latest_turn(view: dict[str, Any]) -> int:
    """The last turn with cards on the clue board (0 before the first reveal)."""
    return max((int(card.get("turn", 0)) for card in view.get("clue_board") or []), default=0)


def box_seats(view: dict[str, Any]) -> set[int]:
    """The seats the box plays itself (a bot: the box as the Lock, a guesser): never the
    pad's."""
    return {seat for seat, level in enumerate(view.get("bots") or []) if level}


def next_entrant(view: dict[str, Any]) -> int | None:
    """Who should hold the pad now: the Lock before the secret, then the first guesser in seat
    order who has not submitted this turn; None when nobody (game over, or only the box's
    seats are to act)."""
    if view.get("outcome"):
        return None
    lock = int(view.get("lock", 0))
    box = box_seats(view)
    to_act = [int(s) for s in view.get("to_act") or [] if int(s) not in box]
    if lock in to_act:
        return lock
    if lock in box and lock in (view.get("to_act") or []):
        return None  # the box draws its secret first
    submitted = {int(s) for s in view.get("submitted") or []}
    pending = [s for s in to_act if s not in submitted and s != lock]
    return min(pending) if pending else None


def box_to_act(view: dict[str, Any]) -> list[int]:
    """The seats the box plays that are to act now (it moves after a short pause)."""
    box = box_seats(view)
    submitted = {int(s) for s in view.get("submitted") or []}
    return [int(s) for s in view.get("to_act") or [] if int(s) in box and int(s) not in submitted]


@dataclass(frozen=True)
class PadHint:
    """A hint the session gave ``seat`` on the board of ``turn`` (the last revealed turn):
    how many codes are left and the suggested code's dots."""

    seat: int
    turn: int
    codes_left: int
    dots: tuple[int, ...]


@dataclass(frozen=True)
class UnlockPadState:
    """The code being drawn, whose entry is open (they pressed OK on their privacy screen),
    the last turn whose reveal was read, the reveal's page; the hint given, and whether OK
    held now asks for one (OK was pressed on the open entry with nothing drawn)."""

    dots: tuple[int, ...] = ()
    entrant: int | None = None
    seen_turn: int = 0
    reveal_page: int = 0
    hint: PadHint | None = None
    hint_armed: bool = False


def shown_hint(state: UnlockPadState, view: dict[str, Any], seat: int) -> PadHint | None:
    """The hint ``seat``'s entry shows: the one given to that seat on this board, if any."""
    hint = state.hint
    if hint is None or hint.seat != seat or hint.turn != latest_turn(view):
        return None
    return hint


class UnlockPad:
    """The UNLOCK pad (see the module docstring) as pure steps."""

    #: OK held asks for a hint (firmware_host.pad.steps.holds_ok).
    holds_ok = True

    def start(self, table: Table) -> UnlockPadState:
        return UnlockPadState(seen_turn=latest_turn(table.view()))

    def final_screen_shown(self, state: UnlockPadState, table: Table) -> bool:
        return not _unseen_reveal(state, table.view())

    def step(self, state: UnlockPadState, event: PadEvent,
             table: Table) -> Step[UnlockPadState]:
        if isinstance(event, Accepted):
            return Step(replace(state, dots=(), entrant=None, hint_armed=False))
        if isinstance(event, Hinted):
            view = table.view()
            dots = tuple(int(d) for d in event.hint.get("dots") or ())
            return Step(replace(state, hint=PadHint(event.act.seat, latest_turn(view),
                                                    int(event.hint.get("codes_left", 0)), dots),
                                hint_armed=False))
        if not isinstance(event, Input):
            return Step(state)
        view = table.view()
        if event.kind == "hold_ok":
            return self._hold_ok(state, view, table)
        state = replace(state, hint_armed=False)
        size = int(view.get("size") or 3)
        drawing = not _unseen_reveal(state, view) and state.entrant is not None and (
            state.entrant == next_entrant(view))
        if size == 4 and drawing:
            if event.kind == "dot" and event.key is None:
                return Step(state, refusal=table.say("grid4_pad_dots"))
            event = as_grid4_dot(event)
        elif size == 3:
            event = as_dot(event)
        if _unseen_reveal(state, view):
            if event.kind == "ok" and state.reveal_page + 1 < screens.reveal_pages(view):
                return Step(replace(state, reveal_page=state.reveal_page + 1))
            if event.kind == "ok":
                return Step(replace(state, seen_turn=latest_turn(view), reveal_page=0))
            return Step(state, refusal=table.say("reveal_ok"))
        seat = next_entrant(view)
        if seat is None:
            playing = box_to_act(view)
            if playing:
                return Step(state, refusal=table.say("box_playing", name=_names(view, playing)))
            return Step(state, refusal=table.say("not_pad_turn"))
        if state.entrant != seat:
            # the privacy screen: only OK opens the entry; it never shows anyone's code
            if event.kind == "ok":
                return Step(replace(state, entrant=seat, dots=()))
            name = shown_name(str(view["seats"][seat]), seat)
            return Step(state, refusal=table.say("privacy_ok", name=name))
        if event.kind == "dot" and event.value is not None and 1 <= event.value <= size * size:
            auto_connect = (view.get("options") or {}).get("auto_connect") is not False
            refusal = dot_refusal(list(state.dots), event.value, size, auto_connect)
            if refusal is None:
                return Step(replace(state, dots=(*state.dots, event.value)))
            return Step(state, refusal=table.phrase(refusal))
        if event.kind == "back":
            if not state.dots:  # nothing drawn: back to the privacy screen
                return Step(replace(state, entrant=None))
            return Step(replace(state, dots=state.dots[:-1]))
        if event.kind == "ok":
            hint = shown_hint(state, view, seat)
            if not state.dots and hint is not None and len(hint.dots) > 1:
                return Step(replace(state, dots=hint.dots))  # the suggestion, to send with OK
            if not state.dots:
                # nothing to send: OK held now asks for a hint (the refusal says so)
                allowed = bool((view.get("hints") or {}).get("allowed"))
                lock = seat == int(view.get("lock", 0))
                return Step(replace(state, hint_armed=True), refusal=table.say(
                    "too_short_hint" if allowed and not lock else "too_short"))
            if len(state.dots) < 2:
                return Step(state, refusal=table.say("too_short"))
            verb = "secret" if seat == int(view.get("lock", 0)) else "guess"
            return Step(state, (Act(seat, f"{verb} {'-'.join(map(str, state.dots))}"),))
        return Step(state, refusal=table.unused(event))

    def screen(self, state: UnlockPadState, table: Table) -> Image.Image:
        view = table.view()
        lang = table.lang
        if _unseen_reveal(state, view):
            return screens.reveal_screen(view, state.reveal_page, lang=lang)
        if view.get("outcome"):
            return screens.scores_screen(view, lang=lang)
        seat = next_entrant(view)
        if seat is None:
            playing = box_to_act(view)
            text = (table.say("box_playing", name=_names(view, playing)) if playing
                    else table.say("waiting"))
            return message_screen(table.title, text, lang=lang)
        if state.entrant != seat:
            return pass_pad_screen(str(view["seats"][seat]), seat, title=table.title,
                                   lang=lang)
        lock = int(view.get("lock", 0))
        hint = shown_hint(state, view, seat)
        return screens.entry_screen(
            view, seat, list(state.dots), secret=seat == lock, lang=lang,
            hint=(hint.codes_left, hint.dots) if hint is not None else None)

    def lights(self, state: UnlockPadState, table: Table) -> Lighting:
        """The pad's lights (:mod:`firmware_host.pad_lighting`): whose entry comes next; the
        guesser's trail and the dots the level allows next; the secret's progress only."""
        view = table.view()
        if _unseen_reveal(state, view) or view.get("outcome"):
            return pad_lighting.turn_of(view)
        seat = next_entrant(view)
        if seat is None:
            return pad_lighting.DARK
        if state.entrant != seat or int(view.get("size") or 3) != 3:
            return pad_lighting.whose_turn(seat, view)  # the 4×4 card is not the pad's grid
        if seat == int(view.get("lock", 0)):
            return pad_lighting.secret_progress(seat, len(state.dots), view)
        auto_connect = (view.get("options") or {}).get("auto_connect") is not False
        allowed = next_dots(state.dots, str(view.get("difficulty") or "hard"), 3, auto_connect)
        return pad_lighting.trail(seat, state.dots, set(allowed), view)

    def _hold_ok(self, state: UnlockPadState, view: dict[str, Any],
                 table: Table) -> Step[UnlockPadState]:
        """OK held: a hint for the guesser whose entry is open, when OK was just pressed on
        it with nothing drawn; else nothing (the press has done its work)."""
        seat = next_entrant(view)
        if (not state.hint_armed or state.dots or seat is None or state.entrant != seat
                or _unseen_reveal(state, view)):
            return Step(replace(state, hint_armed=False))
        if seat == int(view.get("lock", 0)):  # nothing to ask: the Lock drew the secret
            return Step(replace(state, hint_armed=False), refusal=table.say("refusal.hint_lock"))
        return Step(replace(state, hint_armed=False), (AskHint(seat),))


def _names(view: dict[str, Any], seats: list[int]) -> str:
    names = view.get("seats") or []
    return ", ".join(shown_name(str(names[s]), s) for s in seats if 0 <= s < len(names))


def _unseen_reveal(state: UnlockPadState, view: dict[str, Any]) -> bool:
    return latest_turn(view) > state.seen_turn
