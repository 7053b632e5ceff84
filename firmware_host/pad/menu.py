"""The games menu on the OLED: which game the pad follows, chosen on the pad itself, and who
plays each seat of the pad's game.

Opened by holding Back for a second (``Input("menu")``, docs/pad.md) or by itself when the pad
has no game and several are being played. It lists the games being played by name, number and
players, then (in a game with bots) the pad's game's seats: who plays each, a person or the box
at a level, and last, on a box with smart dice, "Pair dice" (:mod:`firmware_host.pad.dice_menu`).
2 and 8 (the pad's up and down, or the keypad's digits) move the cursor; OK picks a game, or on
a seat hands it to the box at the game's next bot level (weakest first) and, after the
strongest, back to a person, or opens the dice's pairing; Back closes the menu (unless a game
must be chosen). Any other input is refused in words. A pure step, like the games'
controllers: the pad loop carries out the choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import Image

from firmware_host.pad.inputs import Input, as_dot
from firmware_host.screens.message import message_screen
from firmware_host.screens.text import HEIGHT, LINE_H, WIDTH, Pen, blank
from firmware_host.screens.words import WORDS, say

#: Games listed at once, between the title bar and the hint.
ROWS = (HEIGHT // LINE_H) - 2


@dataclass(frozen=True)
class MenuEntry:
    """A game being played, as the menu lists it."""

    game_id: int
    title: str
    players: str


@dataclass(frozen=True)
class SeatEntry:
    """A seat of the pad's game, as the menu lists it: who plays it now (``level``: the box's
    bot at that level, ``None``: a person) and the game's bot levels, weakest first."""

    game_id: int
    seat: int
    name: str
    level: str | None
    levels: tuple[str, ...]

    def next_level(self) -> str | None:
        """Who plays the seat after OK: the next level, a person after the strongest."""
        order: list[str | None] = [None, *self.levels]
        at = order.index(self.level) if self.level in order else 0
        return order[(at + 1) % len(order)]


@dataclass(frozen=True)
class DiceEntry:
    """The row that opens the smart dice's pairing (a box with smart dice only)."""

    label: str


Row = MenuEntry | SeatEntry | DiceEntry


@dataclass(frozen=True)
class SeatChange:
    """OK on a seat: ``seat`` of game ``game_id`` is to be played by ``level``."""

    game_id: int
    seat: int
    level: str | None


@dataclass(frozen=True)
class Menu:
    """The cursor's row, and whether a game must be chosen (Back does not close the menu)."""

    cursor: int = 0
    must_choose: bool = False


@dataclass(frozen=True)
class MenuStep:
    """What one input did: the menu after it (``None``: closed), the game picked, the seat
    handed over, or why the input was refused."""

    menu: Menu | None
    chosen: int | None = None
    refusal: str | None = None
    seat: SeatChange | None = None
    #: OK on "Pair dice": the menu closes and the dice's pairing opens.
    dice: bool = False


def open_menu(entries: Sequence[Row], current: int | None, *,
              must_choose: bool = False) -> Menu:
    """The menu with its cursor on the pad's game (else the first)."""
    rows = [e.game_id if isinstance(e, MenuEntry) else None for e in entries]
    return Menu(rows.index(current) if current is not None and current in rows else 0,
                must_choose)


def menu_step(menu: Menu, event: Input, entries: Sequence[Row], lang: str) -> MenuStep:
    """One input in the menu (see the module docstring)."""
    event = as_dot(event)
    if not entries:
        if event.kind == "back" or not menu.must_choose:
            return MenuStep(None)
        return MenuStep(menu, refusal=say(WORDS, "no_game", lang))
    cursor = min(menu.cursor, len(entries) - 1)
    if event.kind == "dot" and event.value in (2, 8):
        step = -1 if event.value == 2 else 1
        return MenuStep(replace(menu, cursor=(cursor + step) % len(entries)))
    if event.kind == "ok":
        entry = entries[cursor]
        if isinstance(entry, DiceEntry):
            return MenuStep(None, dice=True)
        if isinstance(entry, SeatEntry):
            change = SeatChange(entry.game_id, entry.seat, entry.next_level())
            return MenuStep(replace(menu, cursor=cursor), seat=change)
        return MenuStep(None, chosen=entry.game_id)
    if event.kind == "back":
        if menu.must_choose:
            return MenuStep(menu, refusal=say(WORDS, "menu_pick_first", lang))
        return MenuStep(None)
    return MenuStep(menu, refusal=say(WORDS, "menu_keys", lang))


def menu_screen(menu: Menu, entries: Sequence[Row], current: int | None,
                lang: str) -> Image.Image:
    """The games being played and the pad's game's seats, the cursor's row inverted, the pad's
    game marked ``*``."""
    title = say(WORDS, "menu_title", lang)
    if not entries:
        return message_screen(title, say(WORDS, "menu_none", lang), lang=lang)
    image = blank()
    pen = Pen(image, lang)
    cursor = min(menu.cursor, len(entries) - 1)
    first = min(max(0, cursor - ROWS + 1), max(0, len(entries) - ROWS))
    y = pen.header(title, f"{cursor + 1}/{len(entries)}")
    for index in range(first, min(first + ROWS, len(entries))):
        entry = entries[index]
        if isinstance(entry, SeatEntry):
            pen.text(0, y, pen.fit(seat_row(entry, lang), WIDTH))
        elif isinstance(entry, DiceEntry):
            pen.text(0, y, pen.fit(entry.label, WIDTH))
        else:
            mark = "*" if entry.game_id == current else " "
            head = f"{mark}{say(WORDS, 'game_row', lang, game=entry.title, id=entry.game_id)} "
            x = pen.text(0, y, head)
            pen.text(x, y, pen.fit(entry.players, WIDTH - x))
        if index == cursor:
            pen.invert((0, y - 1, WIDTH - 1, y + LINE_H - 2))
        y += LINE_H
    pen.text(0, HEIGHT - LINE_H, say(WORDS, "menu_hint", lang))
    return image


def seat_row(entry: SeatEntry, lang: str) -> str:
    """A seat's row: its player's name and who plays it ("Ben: box hard"; a level without
    words of its own is shown as the game names it)."""
    named = f"level_{entry.level}"
    level = say(WORDS, named, lang) if named in WORDS else str(entry.level)
    who = (say(WORDS, "seat_person", lang) if entry.level is None else
           say(WORDS, "seat_box", lang, level=level))
    return say(WORDS, "seat_row", lang, name=entry.name, who=who)
