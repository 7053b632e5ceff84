"""2 1 6 on the pad: the roll comes from the serial die, a smart die (docs/dice.md), a keypad
digit, or the device's own die (OK while a roll is awaited); the cell is chosen with the grid as
a cursor pad.

A smart die's roll counts only when it is its owner's roll (the view's ``roll_for``: the
player to place, or the handicap's) — the table's die counts for anyone — and when its faces
are the game's die; any other is shown and not entered, with the reason.

Cursor keys: 2 up, 8 down, 4 left, 6 right (1, 3, 7, 9 diagonally); 5 or OK places the rolled
number in the cell under the cursor. An input nothing can use is refused in words: a die
reading when no roll is due, a dot while the die is awaited.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

import firmware_host.games.dice216.screens as screens
from firmware_host.pad.inputs import Input, RolledBy, as_dot
from firmware_host.pad.steps import Act, PadEvent, RollDie, Step, Table, View
from firmware_host.screens.text import shown_name
from rules import CHANCE

#: Dot → (row step, column step) of the cursor.
MOVES = {1: (-1, -1), 2: (-1, 0), 3: (-1, 1), 4: (0, -1), 6: (0, 1), 7: (1, -1), 8: (1, 0),
         9: (1, 1)}


@dataclass(frozen=True)
class Dice216PadState:
    """Where the cursor is (row, column, from 0)."""

    cursor: tuple[int, int] = (0, 0)


class Dice216Pad:
    """The 2 1 6 pad (see the module docstring) as pure steps."""

    def start(self, table: Table) -> Dice216PadState:
        return Dice216PadState()

    def final_screen_shown(self, state: Dice216PadState, table: Table) -> bool:
        return True

    def step(self, state: Dice216PadState, event: PadEvent,
             table: Table) -> Step[Dice216PadState]:
        view = table.view()
        if not isinstance(event, Input):
            return Step(state)
        if view.get("outcome"):
            return Step(state, refusal=table.unused(event))
        size = int(view["size"])
        if CHANCE in view.get("to_act", []):
            if event.kind in ("die", "digit") and event.value is not None:
                by = "die" if event.kind == "die" else "keypad"
                if event.rolled_by is not None:
                    refusal = smart_roll_refusal(event.rolled_by, event.value, view, table)
                    if refusal is not None:
                        return Step(state, refusal=refusal)
                    by = f"die {event.rolled_by.name}"
                return Step(state, (Act(CHANCE, f"roll {event.value}", by),))
            if event.kind == "ok":
                return Step(state, (RollDie(int(view["die_faces"])),))
            return Step(state, refusal=table.say("roll_keys"))
        mover = view.get("mover")
        if mover is None:
            return Step(state, refusal=table.unused(event))
        event = as_dot(event)  # no number is asked for now: keypad digits move the cursor
        row, col = _clamped(state.cursor, size)
        if event.kind == "dot" and event.value in MOVES:
            dr, dc = MOVES[event.value]
            return Step(Dice216PadState(((row + dr) % size, (col + dc) % size)))
        if event.kind == "ok" or (event.kind == "dot" and event.value == 5):
            return Step(state, (Act(int(mover), f"place {row + 1} {col + 1}"),))
        return Step(state, refusal=table.unused(event))

    def screen(self, state: Dice216PadState, table: Table) -> Image.Image:
        view = table.view()
        lang = table.lang
        if view.get("outcome"):
            return screens.board_screen(view, None, lang=lang)
        if CHANCE in view.get("to_act", []):
            return screens.board_screen(view, None, prompt=table.say("prompt.roll"), lang=lang)
        return screens.board_screen(view, _clamped(state.cursor, int(view["size"])),
                                    prompt=table.say("prompt.place",
                                                     n=view.get("pending_roll")),
                                    lang=lang)


def die_label(rolled: RolledBy, seats: list[str], table: Table) -> str:
    """A smart die as the OLED names it: "Ben's die", or "the table's die"."""
    if rolled.owner is None or rolled.owner >= len(seats):
        return table.say("table_die")
    return table.say("seat_die", name=shown_name(seats[rolled.owner], rolled.owner))


def smart_roll_refusal(rolled: RolledBy, value: int, view: View,
                       table: Table) -> str | None:
    """Why a smart die's roll is not entered (``None``: it is): the die is not the game's
    (its faces), or it is not its owner's roll."""
    seats = [str(s) for s in view.get("seats") or []]
    die = die_label(rolled, seats, table)
    faces = view.get("die_faces")
    if isinstance(faces, int) and rolled.faces != faces:
        return table.say("die_other_faces", die=die, value=value, faces=rolled.faces,
                         need=faces)
    roll_for = view.get("roll_for")
    seat = roll_for.get("seat") if isinstance(roll_for, dict) else None
    if rolled.owner is not None and isinstance(seat, int) and seat != rolled.owner:
        whose = shown_name(seats[seat], seat) if seat < len(seats) else str(seat + 1)
        return table.say("die_not_theirs", die=die, value=value, name=whose)
    return None


def _clamped(cursor: tuple[int, int], size: int) -> tuple[int, int]:
    return min(cursor[0], size - 1), min(cursor[1], size - 1)
