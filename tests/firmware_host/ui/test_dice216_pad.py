"""2 1 6 played on the pad end to end: rolls from the serial die (pyserial loop://), a keypad
digit and the device's own die; cells chosen with the grid as a cursor pad; the OLED tally."""

from __future__ import annotations

import pytest

from firmware_host.games.dice216 import screens as screens
from firmware_host.screens.start import start_screen
from rules import CHANCE
from tests.firmware_host.ui.conftest import (
    Box,
    colour,
    end_game_screens,
    has_line,
    lit,
    same,
    tft_shows,
)


def move_cursor(box: Box, start: tuple[int, int], target: tuple[int, int]) -> None:
    row, col = start
    while row < target[0]:
        box.sim.tap(8)
        row += 1
    while row > target[0]:
        box.sim.tap(2)
        row -= 1
    while col < target[1]:
        box.sim.tap(6)
        col += 1
    while col > target[1]:
        box.sim.tap(4)
        col -= 1


def test_full_4x4_game_with_die_from_serial_and_cursor_pad(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    view = box.companion.view(gid, None)
    assert view["to_act"] == [CHANCE]
    assert same(box.screen(), screens.board_screen(view, None, prompt="roll/OK"))
    # Aiko (seat 0) fills rows 1-2 with 1s, Ben rows 3-4 with 2s, alternating turns
    targets = {0: [(r, c) for r in (0, 1) for c in range(4)],
               1: [(r, c) for r in (2, 3) for c in range(4)]}
    cursor = (0, 0)
    count = 0
    for turn in range(16):
        seat = turn % 2
        value = 1 + seat
        # the pad's lights: whose roll it is, in their colour (the view's named colours)
        assert lit(box)["ok"] == colour(seat, box.companion.view(gid, None))
        assert tft_shows(box, gid)
        box.sim.roll(value, faces=4)
        count += 1
        assert box.wait_actions(gid, count)[-1] == (CHANCE, f"roll {value}")
        view = box.companion.view(gid, None)
        assert view["pending_roll"] == value and view["mover"] == seat
        assert same(box.screen(), screens.board_screen(view, cursor,
                                                       prompt=f"5/OK put {value}"))
        target = targets[seat].pop(0)
        move_cursor(box, cursor, target)
        cursor = target
        if turn % 4 == 0:
            box.sim.tap(5)
        else:
            box.sim.ok()
        count += 1
        assert box.wait_actions(gid, count)[-1] == (seat, f"place {target[0] + 1} {target[1] + 1}")
    final = box.companion.view(gid, None)
    # rows 1-2: Aiko's own, 4 + 10 bonus each; rows 3-4: Ben's, 8 + 10 each; columns tied
    assert final["outcome"]["scores"] == [28, 36]
    assert final["outcome"]["winners"] == [1]
    assert same(box.screen(), screens.board_screen(final, None))
    assert set(lit(box).values()) == {colour(1, final)}  # every key in the winner's colour
    box.sim.roll(3, faces=4)  # a roll after the end is refused in words, never dropped
    box.settle()
    assert box.device.pad.refusal == "the game is over: press OK to go on"
    box.sim.back()
    end_game_screens(box, gid, onward="OK: start screen", winner="Ben")
    assert same(box.screen(), start_screen("http://192.168.1.23:8080/", "2468"))


def test_roll_typed_on_keypad_and_rolled_by_the_device(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"])
    box.sim.key("4")
    assert box.wait_actions(gid, 1) == [(CHANCE, "roll 4")]
    box.sim.ok()  # place it at the cursor (top left)
    box.wait_actions(gid, 2)
    box.sim.ok()  # a roll is awaited: OK rolls the device's own die
    actions = box.wait_actions(gid, 3)
    seat, action = actions[-1]
    assert seat == CHANCE and action.startswith("roll ")
    assert 1 <= int(action.split()[1]) <= 6


def test_placing_on_a_taken_cell_shows_the_refusal_and_keeps_the_roll(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"])
    box.sim.roll(3)
    box.wait_actions(gid, 1)
    box.sim.ok()
    box.wait_actions(gid, 2)
    box.sim.roll(5)
    box.wait_actions(gid, 3)
    box.sim.ok()  # the cursor is still on the cell Aiko took
    shown = box.screen()
    assert len(box.actions(gid)) == 3
    assert not same(shown, screens.board_screen(box.companion.view(gid, None), (0, 0),
                                                prompt="5/OK place"))
    box.sim.back()
    box.sim.tap(6)
    box.sim.tap(5)
    assert box.wait_actions(gid, 4)[-1] == (1, "place 1 2")


def test_simulated_die_has_the_faces_of_the_game_on_the_pad(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 8})
    box.settle()
    box.sim.roll(8)  # a d8 on 8×8
    assert box.wait_actions(gid, 1) == [(CHANCE, "roll 8")]
    box.sim.ok()
    box.wait_actions(gid, 2)
    with pytest.raises(ValueError, match="8-sided die cannot show 9"):
        box.sim.roll(9)
    assert len(box.actions(gid)) == 2


def test_simulator_refuses_dots_the_pad_does_not_have(box: Box) -> None:
    for dot in (0, 10, 16):
        with pytest.raises(ValueError, match=f"dot {dot} is not on the pad"):
            box.sim.tap(dot)


def test_keypad_digits_move_the_cursor_once_the_roll_is_in(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"])
    box.sim.key("6")  # awaited roll: the digit is the number rolled
    assert box.wait_actions(gid, 1) == [(CHANCE, "roll 6")]
    for digit in "863":  # down, right, then up-right
        box.sim.key(digit)
    box.sim.key("5")
    assert box.wait_actions(gid, 2)[-1] == (0, "place 1 3")


def test_handicap_roll_comes_first_from_the_die(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"diagonals": True})
    assert box.companion.view(gid, None)["roll_for"]["purpose"] == "handicap"
    box.sim.roll(5)  # Ben's handicap
    box.sim.roll(2)  # Aiko's first number
    box.sim.ok()
    assert box.wait_actions(gid, 3) == [(CHANCE, "roll 5"), (CHANCE, "roll 2"), (0, "place 1 1")]
    assert box.companion.view(gid, None)["handicap"] == {"seat": 1, "roll": 5}


def test_12x12_status_line_spells_out_the_cell_under_the_cursor(box: Box) -> None:
    players = ["Aiko", "Ben", "Cy"]
    gid = box.companion.create_game("dice216", players, {"size": 12})
    box.sim.key("5")  # the roll, typed on the keypad
    box.wait_actions(gid, 1)
    mover = box.companion.view(gid, None)["mover"]
    move_cursor(box, (0, 0), (3, 4))
    box.sim.ok()
    assert box.wait_actions(gid, 2)[-1] == (mover, "place 4 5")
    box.sim.roll(2, faces=12)
    box.wait_actions(gid, 3)
    view = box.companion.view(gid, None)
    # the cursor stays on the cell just written: 5, by its writer
    shown = box.screen()
    assert same(shown, screens.board_screen(view, (3, 4), prompt="5/OK put 2"))
    written = screens.grid_cells(view)[3][4]
    assert screens.cell_status(written, players) == f"cell 5 {players[mover]}"
    box.sim.tap(6)
    moved = box.screen()
    assert same(moved, screens.board_screen(view, (3, 5), prompt="5/OK put 2"))
    assert screens.cell_status(screens.grid_cells(view)[3][5], players) == "cell: -"
    # the status line (over the prompt, right of the grid) changed with the cursor
    line = (62, 64 - 2 * 9, 128, 64 - 9)
    assert not same(shown.crop(line), moved.crop(line))
    assert has_line(moved, "cell: -", x=62)


def test_a_die_roll_when_no_roll_is_due_is_refused_in_words(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"])
    box.sim.roll(4)
    box.wait_actions(gid, 1)
    box.sim.roll(6)  # the 4 waits to be placed: this roll is not used, and the OLED says so
    box.settle()
    assert box.device.pad.refusal == "no die roll is due now: the 6 was not used"
    assert box.actions(gid) == [(CHANCE, "roll 4")]
    box.sim.back()
    box.sim.ok()
    assert box.wait_actions(gid, 2)[-1] == (0, "place 1 1")
