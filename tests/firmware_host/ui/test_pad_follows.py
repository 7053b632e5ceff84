"""Which game the pad and OLED are on when several exist."""

from __future__ import annotations

from firmware_host.games.dice216 import screens as dice216
from firmware_host.games.ico import screens as ico
from firmware_host.screens.message import pass_pad_screen
from firmware_host.screens.start import start_screen
from tests.firmware_host.ui.conftest import Box, same


def test_pad_follows_the_newest_game_and_returns_when_it_is_abandoned(box: Box) -> None:
    first = box.companion.create_game("unlock", ["Kenji", "Aiko"])
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    second = box.companion.create_game("dice216", ["Aiko", "Ben"])
    assert same(box.screen(), dice216.board_screen(box.companion.view(second, None), None,
                                                   prompt="roll/OK"))
    box.sim.key("2")
    assert box.wait_actions(second, 1) == [(-1, "roll 2")]
    assert box.actions(first) == []
    box.companion.abandon(second)  # from the panel: the pad goes back to the other game
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    box.companion.abandon(first)
    assert same(box.screen(), start_screen("http://192.168.1.23:8080/", "2468"))


def test_game_started_on_a_phone_mid_game_takes_the_pad(box: Box) -> None:
    box.companion.create_game("dice216", ["Aiko", "Ben"])
    newer = box.companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0"})
    view = box.companion.view(newer, None)
    assert same(box.screen(), ico.board_screen(view, prompt="1-3 place"))
    box.sim.tap(1)
    assert box.wait_actions(newer, 1)[0][1].startswith("place ")
