"""Tic-tac-toe on the box: its pad controller (a pure step: dot N marks square N for the mover)
and its OLED screen, registered as a :class:`firmware_host.games.BoxGame`."""

from __future__ import annotations

from PIL import Image

from firmware_host.games import BoxGame
from firmware_host.pad.inputs import Input, as_dot
from firmware_host.pad.steps import Act, PadEvent, Step, Table
from firmware_host.screens.text import Pen, blank
from tests.data.tictactoe.rules import GAME, MARKS

CELL = 20


def board_screen(view: dict[str, object], title: str = GAME.name,
                 lang: str = "en") -> Image.Image:
    """The grid with each mark, and whose turn it is (or the result), under the game's
    ``title`` (every screen names its game: docs/adding-a-game.md)."""
    image = blank()
    pen = Pen(image, lang)
    pen.header(title, left=64)
    for k in (1, 2):
        pen.draw.line((k * CELL, 2, k * CELL, 3 * CELL + 1), fill=1)
        pen.draw.line((2, k * CELL + 1, 3 * CELL - 1, k * CELL + 1), fill=1)
    squares = view["squares"]
    assert isinstance(squares, list)
    for index, owner in enumerate(squares):
        if owner is not None:
            row, col = divmod(index, 3)
            pen.text(col * CELL + 7, row * CELL + 5, MARKS[owner])
    seats = view["seats"]
    assert isinstance(seats, list)
    outcome = view["outcome"]
    if isinstance(outcome, dict):
        winners = outcome["winners"]
        pen.text(66, 20, f"{seats[winners[0]]} wins" if winners else "a draw")
    else:
        to_act = view["to_act"]
        assert isinstance(to_act, list)
        pen.text(66, 20, f"{MARKS[to_act[0]]}: {seats[to_act[0]]}"[:10])
    return image


class TicTacToePad:
    """Dots 1–9 are the squares; the mover marks by pressing one."""

    def start(self, table: Table) -> None:
        return None

    def final_screen_shown(self, state: None, table: Table) -> bool:
        return True

    def step(self, state: None, event: PadEvent, table: Table) -> Step[None]:
        view = table.view()
        if not isinstance(event, Input):
            return Step(None)
        if not view["to_act"]:
            return Step(None, refusal=table.unused(event))
        event = as_dot(event)
        if event.kind == "dot" and event.value is not None and 1 <= event.value <= 9:
            return Step(None, (Act(view["to_act"][0], f"mark {event.value}"),))
        return Step(None, refusal=table.unused(event))  # refused in words, never dropped

    def screen(self, state: None, table: Table) -> Image.Image:
        return board_screen(table.view(), table.title, table.lang)


BOX = BoxGame(rules=GAME, pad=TicTacToePad())
