"""Hacktrick in table mode played on the pad end to end: card values from the keypad (over the
serial loop) or from the board's squares on the grid, ×2 and declarations, draws. (Virtual
cards: test_hacktrick_virtual.py.)"""

from __future__ import annotations

from firmware_host.games.hacktrick import screens as screens
from firmware_host.games.hacktrick.pad import (
    PROMPT_CHOOSE,
    PROMPT_DECLARE,
    play_prompt,
)
from firmware_host.screens.message import refused_screen
from rules import get_game
from tests.firmware_host.ui.conftest import Box, colour, lit, same, tft_shows

TABLE = {"cards": "table", "target": 1}


def test_square_entry_x2_toggle_and_declaration(box: Box) -> None:
    gid = box.companion.create_game("hacktrick", ["Aiko", "Ben"], TABLE)
    view = box.companion.view(gid, None)
    assert view["phase"] == "lead"
    starter = view["to_act"][0]
    assert same(box.screen(), screens.board_screen(view, prompt="lead 0-5"))
    box.sim.tap(4)  # dots 1-6 lead the values 0-5
    assert box.wait_actions(gid, 1) == [(starter, "lead 3")]
    other = 1 - starter
    box.sim.tap(5)  # the centre square, 5: the card 5 − 3 = 2
    view = box.companion.view(gid, None)
    assert same(box.screen(), screens.board_screen(view, prompt=play_prompt(2, False), highlight=5))
    box.sim.tap(5)  # the same square again: the ×2 marker
    assert same(box.screen(), screens.board_screen(view, prompt=play_prompt(2, True), highlight=5))
    box.sim.ok()
    assert same(box.screen(), screens.board_screen(view, prompt=PROMPT_DECLARE, highlight=5))
    box.sim.tap(1)  # declare Play!
    assert box.wait_actions(gid, 2)[-1] == (other, "play 2 x2 declare=play")
    view = box.companion.view(gid, None)
    assert view["board"]["5"] == [{"owner": other, "x2": True}]
    assert view["declaration"]["kind"] == "play"
    assert same(box.screen(), screens.board_screen(view, prompt=PROMPT_CHOOSE))


def test_square_no_card_can_reach_is_refused_before_anything_is_sent(box: Box) -> None:
    gid = box.companion.create_game("hacktrick", ["Aiko", "Ben"], TABLE)
    box.sim.tap(1)  # lead 0
    box.wait_actions(gid, 1)
    box.sim.tap(9)  # square 8: no card 8 − 0 exists
    shown = box.screen()
    refusal = box.device.pad.refusal
    assert refusal is not None
    assert "square 8" in refusal and "1, 2, 3, 4, 5" in refusal
    assert same(shown, refused_screen(refusal, title="Hacktrick"))
    box.sim.back()
    assert not same(box.screen(), shown)
    assert len(box.actions(gid)) == 1


def test_full_game_of_two_rounds_with_keypad_card_values(box: Box) -> None:
    gid = box.companion.create_game("hacktrick", ["Aiko", "Ben"], {**TABLE, "target": 2})
    count = 0
    while not (view := box.companion.view(gid, None))["outcome"]:
        mover = view["to_act"][0]
        assert lit(box)["ok"] == colour(mover, view)  # the pad's lights: whose turn
        assert tft_shows(box, gid)
        legal = box.companion.view(gid, mover)["legal_actions"]
        prompt = "lead 0-5" if view["phase"] == "lead" else PROMPT_CHOOSE
        assert same(box.screen(), screens.board_screen(view, prompt=prompt))
        if view["phase"] == "lead":
            action = legal[-1]
            box.sim.key(action.split()[1])
        else:
            plays = [a for a in legal if a.startswith("play ") and " x2" not in a
                     and "declare" not in a]
            if plays:
                action = plays[count % len(plays)]
                box.sim.key(action.split()[1])
                box.sim.ok()
                if any(a.startswith(action + " declare=") for a in legal):
                    box.settle()
                    box.sim.key("#")  # the keypad's OK: no declaration
            else:
                action = "draw"
                assert action in legal
                box.sim.ok()
        count += 1
        assert box.wait_actions(gid, count)[-1] == (mover, action)
        assert count < 200
    outcome = view["outcome"]
    winner = outcome["winners"][0]
    assert view["points"][winner] == outcome["scores"][winner] >= 2
    assert view["round"] >= 2
    assert same(box.screen(), screens.board_screen(view))
    assert set(lit(box).values()) == {colour(winner, view)}


def test_back_asks_the_sum_and_the_rules_refuse_it_without_a_captured_marker(box: Box) -> None:
    gid = box.companion.create_game("hacktrick", ["Aiko", "Ben"], TABLE)
    box.sim.key("2")  # lead 2
    box.wait_actions(gid, 1)
    box.sim.back()  # nothing chosen: ask the sum, which costs a captured marker
    shown = box.screen()
    refusal = box.device.pad.refusal
    assert refusal is not None
    assert same(shown, refused_screen(refusal, title="Hacktrick"))
    assert len(box.actions(gid)) == 1
    rules = get_game("hacktrick")
    state = rules.start(["Aiko", "Ben"], TABLE)
    assert "ask" not in rules.legal_actions(rules.apply(state, 0, "lead 2"), 1)
