"""UNLOCK's hint on the pad: a guesser holds OK with nothing drawn; the hint goes through the
session (counted in the journal like a phone's), the OLED shows how many codes are left and the
suggested code dotted on the grid, OK takes it, OK sends it; a refusal is said in words; the
results count the hints — on mock pins (the real hold timer), with the journal on disk."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from firmware_host.games.unlock import screens
from firmware_host.games.unlock.words import WORDS as UNLOCK_WORDS
from firmware_host.screens.message import message_screen, pass_pad_screen, refused_screen
from firmware_host.screens.results import hints_note
from rules.unlock.hints import hint as engine_hint
from tests.firmware_host.ui.conftest import PIN, URL, WAIT, Box, has_line, same

SECRET = "1-2-3"


def guessing(box: Box, players: list[str] | None = None, **options: object) -> int:
    """An Easy game whose Lock (seat 0) has set the secret; the pad shows Aiko's privacy
    screen."""
    gid = box.companion.create_game("unlock", players or ["Kenji", "Aiko"],
                                    {"difficulty": "easy", **options})
    box.companion.act(gid, 0, f"secret {SECRET}")
    box.settle()
    return gid


def test_holding_ok_with_nothing_drawn_asks_for_a_counted_hint_shown_on_the_grid(
        box: Box) -> None:
    gid = guessing(box)
    box.sim.ok()  # Aiko's privacy screen: her entry opens
    view = box.companion.view(gid, 1)
    # the entry says how to ask: OK held
    assert same(box.screen(), screens.entry_screen(view, 1, [], secret=False, offer_hint=True))
    assert has_line(box.screen(), "hold OK", x=screens.PAD_SIDE + 2)
    expected = engine_hint(box.companion.view(gid, None), 1)
    box.sim.hold_ok()  # the press is refused (nothing to send), the hold asks
    box.settle()
    assert box.companion.view(gid, 1)["hints"]["used"] == [0, 1]  # counted, for Aiko
    assert box.device.pad.refusal is None
    shown = box.screen()
    hinted = (expected["codes_left"], expected["dots"])
    view = box.companion.view(gid, 1)
    assert same(shown, screens.entry_screen(view, 1, [], secret=False, hint=hinted))
    assert has_line(shown, f"{expected['codes_left']} left", x=screens.PAD_SIDE + 2)
    assert has_line(shown, "OK: use it", x=screens.PAD_SIDE + 2)
    # OK with nothing drawn takes the suggestion; OK again sends it
    box.sim.ok()
    assert same(box.screen(), screens.entry_screen(view, 1, expected["dots"], secret=False,
                                                   hint=hinted))
    box.sim.ok()
    assert box.wait_actions(gid, 2)[-1] == (1, f"guess {expected['suggestion']}")


def test_a_hint_is_counted_once_per_turn_and_holding_ok_again_adds_nothing(box: Box) -> None:
    gid = guessing(box)
    box.sim.ok()
    box.sim.hold_ok()
    box.sim.back()  # to the privacy screen and back: the hint is kept for this turn
    box.sim.ok()
    box.sim.hold_ok()  # asked again on the same board
    box.settle()
    assert box.companion.view(gid, None)["hints"]["used"] == [0, 1]


def test_a_short_ok_with_nothing_drawn_is_refused_saying_how_to_ask(box: Box) -> None:
    gid = guessing(box)
    box.sim.ok()
    box.sim.ok()
    box.settle()
    assert box.device.pad.refusal == UNLOCK_WORDS["too_short_hint"]["en"]
    assert box.companion.view(gid, None)["hints"]["used"] == [0, 0]


def test_hints_turned_off_are_refused_in_words_and_not_counted(box: Box) -> None:
    gid = guessing(box)
    box.companion.allow_hints(gid, False)
    box.sim.ok()
    view = box.companion.view(gid, 1)
    assert not has_line(box.screen(), "hold OK", x=screens.PAD_SIDE + 2)  # not offered
    box.sim.hold_ok()
    box.settle()
    refusal = box.device.pad.refusal
    assert refusal == "the host has turned hints off for this game"
    assert same(box.screen(), refused_screen(refusal, title="UNLOCK"))
    assert box.companion.view(gid, None)["hints"]["used"] == [0, 0]
    box.sim.back()
    assert same(box.screen(), screens.entry_screen(view, 1, [], secret=False))


def test_hints_off_refused_in_japanese_with_the_seeds_words(box: Box) -> None:
    gid = guessing(box)
    box.companion.allow_hints(gid, False)
    box.companion.set_box_language("ja")
    box.sim.ok()
    box.sim.hold_ok()
    box.settle()
    words = UNLOCK_WORDS["refusal.hints_off"]["ja"]
    assert box.device.pad.refusal == words
    assert same(box.screen(), refused_screen(words, title="アンロック", lang="ja"))


def test_the_lock_holding_ok_is_told_hints_are_for_the_guessers(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
    box.sim.ok()  # the Lock's entry
    box.sim.hold_ok()
    box.settle()
    assert box.device.pad.refusal == "the Lock knows the code: hints are for the guessers"
    assert box.companion.view(gid, None)["hints"]["used"] == [0, 0]


def test_holding_ok_after_drawing_sends_the_code_and_asks_nothing(box: Box) -> None:
    gid = guessing(box)
    box.sim.ok()
    box.sim.tap(4)
    box.sim.tap(5)
    box.sim.hold_ok()  # the press sends 4-5; the hold has nothing more to do
    assert box.wait_actions(gid, 2)[-1] == (1, "guess 4-5")
    assert box.device.pad.refusal is None
    assert box.companion.view(gid, None)["hints"]["used"] == [0, 0]


def test_holding_ok_in_another_game_is_just_ok(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Kenji", "Aiko"], seed=3)
    box.sim.hold_ok()  # OK lets the box roll; held, nothing more
    assert len(box.wait_actions(gid, 1)) == 1
    assert box.device.pad.refusal is None


def test_the_results_say_how_many_hints_each_guesser_used(box: Box) -> None:
    gid = guessing(box, ["Kenji", "Aiko", "Ben"])
    box.sim.ok()
    box.sim.hold_ok()  # Aiko asks, and draws the secret herself
    for dot in (1, 2, 3):
        box.sim.tap(dot)
    box.sim.ok()
    box.wait_actions(gid, 2)
    box.sim.ok()  # Ben, no hint
    box.sim.tap(4)
    box.sim.tap(5)
    box.sim.ok()
    box.wait_actions(gid, 3)
    final = box.companion.view(gid, None)
    assert final["outcome"]["winners"] == [1]
    assert final["hints"]["used"] == [0, 1, 0]
    assert hints_note(final, [1, 2], "en") == "hints: Aiko\u00a01"  # Ben asked for none
    box.sim.ok()  # the reveal
    box.sim.ok()  # the scores and the secret: OK shows the results
    results = box.screen()
    assert has_line(results, "Winner: Aiko")
    assert has_line(results, "hints: Aiko 1")


@contextmanager
def box_with_bots(path: Path, bot_delay: float) -> Iterator[Box]:
    """The simulated box (as the ``box`` fixture) whose bot seats move ``bot_delay`` seconds
    after their turn comes."""
    companion = Companion.open(path / "data", host_pin=PIN, bot_delay=bot_delay)
    device = open_device(DeviceSettings(url=URL, menu_hold=0.3), companion, mode="simulator",
                         rng=random.Random(216))
    assert device.simulator is not None
    try:
        assert device.die is not None and device.die.wait_connected(WAIT)
        yield Box(companion, device, device.simulator, path / "data" / JOURNAL_FILE)
    finally:
        device.close()
        companion.close()


def test_while_the_box_as_the_lock_draws_its_secret_the_pad_says_so(tmp_path: Path) -> None:
    with box_with_bots(tmp_path, bot_delay=60.0) as box:
        gid = box.companion.create_game("unlock", ["Box", "Aiko"], {"difficulty": "easy"},
                                        bots={0: "easy"})
        words = UNLOCK_WORDS["box_playing"]["en"].format(name="Box")
        assert same(box.screen(), message_screen("UNLOCK", words))  # never "pass the pad to Box"
        for key in (box.sim.ok, lambda: box.sim.tap(5)):  # nothing to enter: said, each time
            key()
            box.settle()
            assert box.device.pad.refusal == words
            box.sim.back()  # closes the message
        assert box.actions(gid) == []


def test_a_move_for_a_seat_the_box_plays_is_never_entered_from_the_pad(tmp_path: Path) -> None:
    with box_with_bots(tmp_path, bot_delay=60.0) as box:
        gid = box.companion.create_game("ico", ["Box", "Aiko"], bots={0: "easy"})
        box.sim.tap(1)  # the box's turn: ICO's pad would place for the player to move
        box.settle()
        assert box.device.pad.refusal == "the box plays Box itself: nothing was entered"
        assert box.actions(gid) == []


def test_a_solo_game_on_the_pad_against_the_box_following_every_hint(tmp_path: Path) -> None:
    with box_with_bots(tmp_path, bot_delay=0.05) as box:
        gid = box.companion.create_game("unlock", ["Box", "Aiko"], {"difficulty": "easy"},
                                        bots={0: "easy"})
        box.wait_actions(gid, 1)  # the box's secret
        for turn in range(1, 11):
            assert same(box.screen(), pass_pad_screen("Aiko", 1, title="UNLOCK"))
            box.sim.ok()
            box.sim.hold_ok()
            box.sim.ok()  # the suggestion into the drawing
            box.sim.ok()  # sent
            box.wait_actions(gid, turn + 1)
            if box.companion.view(gid, None)["outcome"]:
                break
            box.sim.ok()  # the reveal read
        final = box.companion.view(gid, None)
        assert final["outcome"]["winners"] == [1]
        assert final["hints"]["used"] == [0, turn]
        guesses = [action for seat, action in box.actions(gid) if seat == 1]
        assert guesses[-1] == f"guess {final['secret']}"
        box.sim.ok()  # the last reveal
        box.sim.ok()  # the scores and the secret
        assert has_line(box.screen(), f"hints: Aiko {turn}")
