"""Pairing smart dice on the OLED (docs/dice.md): the games menu's last row, "Pair dice",
opens it.

It lists the dice paired with the box and those heard nearby (a scan starts as it opens), each
with its colour, faces, battery and owner. 2 and 8 move; OK gives the die under the cursor to
the next owner — not paired → the table → each seat of the pad's game in turn → not paired
again; 5 scans again; Back closes it. A pure step like the games menu: the pad loop pairs and
unpairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, TypedDict

from PIL import Image

from firmware_host.pad.inputs import Input, as_dot
from firmware_host.screens.message import message_screen
from firmware_host.screens.text import HEIGHT, LINE_H, WIDTH, Pen, blank, shown_name
from firmware_host.screens.words import WORDS, say

#: Dice listed at once, between the title bar and the hint.
ROWS = (HEIGHT // LINE_H) - 2


class DieRow(TypedDict):
    """A die as the host page and the OLED list it (``firmware_host.smart_dice``): ``paired``
    and its ``owner`` (a seat; ``None``: the table's), ``state`` (paired dice: ``connected``,
    ``connecting``, ``lost``; the others ``nearby``), ``low`` (battery below the warning),
    ``shells`` (a GoDice's possible faces)."""

    address: str
    vendor: Literal["godice", "pixels"]
    name: str
    colour: str | None
    battery: int | None
    faces: int | None
    die_type: str | None
    paired: bool
    owner: int | None
    state: str
    low: bool
    shells: list[int]


@dataclass(frozen=True)
class DiceMenu:
    """The cursor's row."""

    cursor: int = 0


@dataclass(frozen=True)
class OwnerChange:
    """OK on a die: it goes to ``owner`` (a seat; ``None``: the table), or is unpaired."""

    address: str
    owner: int | None
    unpair: bool = False


@dataclass(frozen=True)
class DiceStep:
    """What one input did: the screen after it (``None``: closed), an owner change, a scan
    asked for, or why the input was refused."""

    menu: DiceMenu | None
    change: OwnerChange | None = None
    rescan: bool = False
    refusal: str | None = None


def next_owner(row: DieRow, seats: int) -> OwnerChange:
    """The owner after OK: not paired → the table → seat 0 … ``seats - 1`` → not paired."""
    if not row["paired"]:
        return OwnerChange(row["address"], None)
    owner = row["owner"]
    if owner is None:
        return OwnerChange(row["address"], 0) if seats > 0 else OwnerChange(row["address"],
                                                                              None, True)
    if owner + 1 < seats:
        return OwnerChange(row["address"], owner + 1)
    return OwnerChange(row["address"], None, unpair=True)


def dice_step(menu: DiceMenu, event: Input, rows: Sequence[DieRow], seats: int,
              lang: str) -> DiceStep:
    """One input on the pairing screen (see the module docstring)."""
    event = as_dot(event)
    if event.kind == "back":
        return DiceStep(None)
    if event.kind == "dot" and event.value == 5:
        return DiceStep(menu, rescan=True)
    if not rows:
        return DiceStep(menu, refusal=say(WORDS, "dice_keys", lang))
    cursor = min(menu.cursor, len(rows) - 1)
    if event.kind == "dot" and event.value in (2, 8):
        step = -1 if event.value == 2 else 1
        return DiceStep(replace(menu, cursor=(cursor + step) % len(rows)))
    if event.kind == "ok":
        return DiceStep(replace(menu, cursor=cursor), change=next_owner(rows[cursor], seats))
    return DiceStep(menu, refusal=say(WORDS, "dice_keys", lang))


def die_line(row: DieRow, seats: Sequence[str], lang: str) -> str:
    """A die's row: its owner, kind, faces, battery and colour ("Ben:GoDice d6 70% red"; the
    colour last, where a long one is cut)."""
    kind = "GoDice" if row["vendor"] == "godice" else "Pixel"
    faces = f"d{row['faces']}" if row["faces"] else (row["die_type"] or "")
    battery = f"{row['battery']}%" if row["battery"] is not None else ""
    if not row["paired"]:
        owner = say(WORDS, "dice_unpaired", lang)
    elif row["owner"] is None:
        owner = say(WORDS, "dice_table", lang)
    else:
        seat = row["owner"]
        owner = shown_name(seats[seat], seat) if seat < len(seats) else f"P{seat + 1}"
    mark = "!" if row["paired"] and row["state"] != "connected" else ""
    words = [kind, faces, battery, row["colour"] or ""]
    return f"{mark}{owner}:" + " ".join(w for w in words if w)


def dice_screen(menu: DiceMenu, rows: Sequence[DieRow], seats: Sequence[str], *,
                scanning: bool, problem: str | None, lang: str) -> Image.Image:
    """The dice, the cursor's row inverted; while a scan runs, or with no die, a message."""
    title = say(WORDS, "dice_title", lang)
    if not rows:
        text = (say(WORDS, "dice_scanning", lang) if scanning else
                problem or say(WORDS, "dice_none", lang))
        return message_screen(title, text, lang=lang)
    image = blank()
    pen = Pen(image, lang)
    cursor = min(menu.cursor, len(rows) - 1)
    first = min(max(0, cursor - ROWS + 1), max(0, len(rows) - ROWS))
    y = pen.header(title, "..." if scanning else f"{cursor + 1}/{len(rows)}")
    for index in range(first, min(first + ROWS, len(rows))):
        pen.text(0, y, pen.fit(die_line(rows[index], seats, lang), WIDTH))
        if index == cursor:
            pen.invert((0, y - 1, WIDTH - 1, y + LINE_H - 2))
        y += LINE_H
    pen.text(0, HEIGHT - LINE_H, say(WORDS, "dice_hint", lang))
    return image
