"""UNLOCK played on the pad end to end: the Lock's secret, refusals, privacy screens between
guessers, the reveal and the final scores — on mock pins, with the journal on disk."""

from __future__ import annotations

from firmware_host.games.unlock import screens as screens
from firmware_host.games.unlock.words import WORDS as UNLOCK_WORDS
from firmware_host.pad.inputs import KEYPAD_DOTS
from firmware_host.screens.message import pass_pad_screen, refusal_pages, refused_screen
from firmware_host.screens.start import start_screen
from tests.firmware_host.ui.conftest import (
    Box,
    colour,
    end_game_screens,
    lit,
    same,
    tft_shows,
)


def draw(box: Box, *dots: int) -> None:
    for dot in dots:
        box.sim.tap(dot)


def test_lock_draws_secret_with_line_live_and_back_removes_last_dot(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko", "Ben"], {"difficulty": "easy"})
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    box.sim.ok()
    draw(box, 4, 5)
    view = box.companion.view(gid, 0)
    assert same(box.screen(), screens.entry_screen(view, 0, [4, 5], secret=True))
    draw(box, 6)
    box.sim.back()
    assert same(box.screen(), screens.entry_screen(view, 0, [4, 5], secret=True))
    draw(box, 5)  # a used dot is not used twice: refused in words, the code kept
    box.settle()
    refusal = box.device.pad.refusal
    assert refusal is not None and "dot 5" in refusal
    assert same(box.screen(), refused_screen(refusal, title="UNLOCK"))
    box.sim.back()
    assert same(box.screen(), screens.entry_screen(view, 0, [4, 5], secret=True))
    assert box.actions(gid) == []


def test_code_breaking_the_level_is_refused_with_the_rules_message_and_kept(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
    box.sim.ok()
    draw(box, 1, 6)  # a knight-like line: Medium and Hard only
    box.sim.ok()
    shown = box.screen()
    assert box.actions(gid) == []
    assert not same(shown, screens.entry_screen(box.companion.view(gid, 0), 0, [1, 6],
                                                secret=True))
    # the refusal names the rule: the rules' own message is what the screen shows
    from rules import IllegalAction
    from rules.unlock import Code, validate
    try:
        validate(Code.parse("1-6"), "easy")
    except IllegalAction as error:
        message = str(error)
    else:
        raise AssertionError("1-6 should break Easy")
    assert same(shown, refused_screen(message, title="UNLOCK"))
    if refusal_pages(message) > 1:
        box.sim.ok()  # OK reads on
        assert same(box.screen(), refused_screen(message, 1, title="UNLOCK"))
    box.sim.back()  # dismisses the message, the code is still there to fix
    view = box.companion.view(gid, 0)
    assert same(box.screen(), screens.entry_screen(view, 0, [1, 6], secret=True))
    box.sim.back()
    draw(box, 2, 3)
    box.sim.ok()
    assert box.wait_actions(gid, 1) == [(0, "secret 1-2-3")]


def test_full_game_with_privacy_screens_reveal_and_scores(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko", "Ben"], {"difficulty": "easy"})
    box.sim.ok()
    draw(box, 1, 2, 3)
    box.sim.ok()
    assert box.wait_actions(gid, 1) == [(0, "secret 1-2-3")]
    # the Lock's secret leaves the screen: the pad goes to the first guesser
    assert same(box.screen(), pass_pad_screen("Aiko", 1, title="UNLOCK"))
    assert lit(box)["ok"] == colour(1, box.companion.view(gid, None))  # lit for Aiko
    assert tft_shows(box, gid)
    draw(box, 5, 6)  # dots on a privacy screen do nothing
    box.sim.ok()
    assert same(box.screen(), screens.entry_screen(box.companion.view(gid, 1), 1, [],
                                                   secret=False))
    draw(box, 1, 2)
    box.sim.ok()
    assert box.wait_actions(gid, 2)[-1] == (1, "guess 1-2")
    # Ben's privacy screen does not show Aiko's code
    assert same(box.screen(), pass_pad_screen("Ben", 2, title="UNLOCK"))
    box.sim.ok()
    assert same(box.screen(), screens.entry_screen(box.companion.view(gid, 2), 2, [],
                                                   secret=False))
    draw(box, 4, 5)
    box.sim.ok()
    box.wait_actions(gid, 3)
    spectator = box.companion.view(gid, None)
    turn1 = [(c["seat"], c["matches"], c["misses"], c["points"])
             for c in spectator["clue_board"] if c["turn"] == 1]
    # 1-2 shares one line with 1-2-3 (+1); 4-5 shares none (−1)
    assert sorted(turn1) == [(1, 1, 0, 1), (2, 0, 1, -1)]
    assert spectator["scores"][1:] == [1, -1]
    assert same(box.screen(), screens.reveal_screen(spectator))
    box.sim.ok()
    assert same(box.screen(), pass_pad_screen("Aiko", 1, title="UNLOCK"))
    box.sim.ok()
    draw(box, 3, 2, 1)
    box.sim.ok()
    box.wait_actions(gid, 4)
    box.sim.ok()
    draw(box, 7, 8)
    box.sim.ok()
    actions = box.wait_actions(gid, 5)
    assert actions[3:] == [(1, "guess 1-2-3"), (2, "guess 7-8")]  # canonical text
    final = box.companion.view(gid, None)
    # Aiko found the secret: 2 matches (+2) → 3; Ben 0/1 (−1) → −2
    assert final["outcome"]["winners"] == [1]
    assert final["scores"][1:] == [3, -2]
    assert final["secret"] is not None
    assert same(box.screen(), screens.reveal_screen(final))
    box.sim.ok()
    assert same(box.screen(), screens.scores_screen(final))
    assert set(lit(box).values()) == {colour(1, final)}  # Aiko won: her colour everywhere
    assert tft_shows(box, gid)  # the results, the secret told
    assert box.companion.games(status="active") == []
    # the last screen acknowledged: the results, then the start screen
    end_game_screens(box, gid, onward="OK: start screen", winner="Aiko")
    assert same(box.screen(), start_screen("http://192.168.1.23:8080/", "2468"))


def test_lock_closes_a_loop_on_hard(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "hard"})
    box.sim.ok()
    draw(box, 1, 2, 5, 1)  # back to the first dot after three lines: a closed loop
    box.sim.ok()
    (seat, action), = box.wait_actions(gid, 1)
    assert seat == 0 and action == "secret 1-2-5-1"


def test_a_crossed_dot_is_refused_on_the_pad_with_the_rules_reason(box: Box) -> None:
    # Seed 002: "The path can't cross the same dot twice": with auto-connection off, 1-9 crosses
    # dot 5, so neither 3-7 (over 5 again) nor landing on 5 may follow.
    from rules.unlock import dot_refusal

    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"],
                                    {"difficulty": "hard", "auto_connect": False})
    box.sim.ok()
    draw(box, 1, 9, 3)
    view = box.companion.view(gid, 0)
    assert same(box.screen(), screens.entry_screen(view, 0, [1, 9, 3], secret=True))
    draw(box, 7)
    reason = dot_refusal([1, 9, 3], 7, 3, auto_connect=False)
    assert reason is not None and "dot 5, which line 1-9 already crossed" in reason
    assert same(box.screen(), refused_screen(reason, title="UNLOCK"))
    box.sim.back()  # dismissed: the code drawn so far is kept
    assert same(box.screen(), screens.entry_screen(view, 0, [1, 9, 3], secret=True))
    draw(box, 9)  # a dot already drawn is refused too
    box.settle()
    assert box.device.pad.refusal is not None
    box.sim.back()
    assert same(box.screen(), screens.entry_screen(view, 0, [1, 9, 3], secret=True))
    box.sim.back()
    draw(box, 5)  # landing on the crossed dot
    reason = dot_refusal([1, 9], 5, 3, auto_connect=False)
    assert reason is not None and "dot 5 was crossed by line 1-9" in reason
    assert same(box.screen(), refused_screen(reason, title="UNLOCK"))
    box.sim.back()
    draw(box, 6)
    box.sim.ok()
    assert box.wait_actions(gid, 1) == [(0, "secret 1-9-6")]


def test_tournament_next_game_waits_behind_the_last_reveal(box: Box) -> None:
    tid = box.companion.create_tournament("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
    first = box.companion.tournament(tid)["games"][0]
    lock = box.companion.view(first, None)["lock"]
    guesser = 1 - lock
    box.sim.ok()
    draw(box, 4, 5)
    box.sim.ok()
    box.wait_actions(first, 1)
    box.sim.ok()
    draw(box, 5, 4)
    box.sim.ok()
    box.wait_actions(first, 2)
    ended = box.companion.view(first, None)
    assert ended["outcome"]["winners"] == [guesser]
    games = box.companion.tournament(tid)["games"]
    assert len(games) == 2  # the next game has started…
    assert same(box.screen(), screens.reveal_screen(ended))  # …but the pad shows the reveal
    box.sim.ok()
    assert same(box.screen(), screens.scores_screen(ended))
    second = box.companion.view(games[1], None)
    next_lock = second["seats"][second["lock"]]
    # the results name the winner and whom the pad goes to for the next game
    end_game_screens(box, first, onward="OK: next game",
                     winner=ended["seats"][guesser])
    assert same(box.screen(), pass_pad_screen(next_lock, second["lock"], title="UNLOCK"))


def test_keypad_digits_draw_like_the_pad_dots(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
    box.sim.key("#")  # the keypad's OK
    for digit in "789":
        box.sim.key(digit)
    box.sim.key("*")  # Back: 9 goes
    box.sim.key("#")
    assert box.wait_actions(gid, 1) == [(0, "secret 7-8")]


def test_six_guessers_reveal_in_two_pages(box: Box) -> None:
    names = ["Kenji", "Aiko", "Ben", "Chloe", "Dai", "Emi", "Fumi"]
    gid = box.companion.create_game("unlock", names, {"difficulty": "easy"})
    box.sim.ok()
    draw(box, 1, 2)
    box.sim.ok()
    codes = [(4, 5), (5, 6), (7, 8), (8, 9), (1, 4), (2, 5)]
    for seat, code in enumerate(codes, start=1):
        assert same(box.screen(), pass_pad_screen(names[seat], seat, title="UNLOCK"))
        box.sim.ok()
        draw(box, *code)
        box.sim.ok()
        box.wait_actions(gid, seat + 1)
    view = box.companion.view(gid, None)
    assert screens.reveal_pages(view) == 2
    assert same(box.screen(), screens.reveal_screen(view, 0))
    box.sim.ok()
    assert same(box.screen(), screens.reveal_screen(view, 1))
    box.sim.ok()
    assert same(box.screen(), pass_pad_screen("Aiko", 1, title="UNLOCK"))


def keys(box: Box, *pressed: str) -> None:
    for key in pressed:
        box.sim.key(key)


def test_4x4_codes_are_drawn_on_the_keypad_by_position_with_ok_and_back_on_the_pad(
    box: Box,
) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko"],
                                    {"size": 4, "difficulty": "easy"})
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    box.sim.tap(5)  # the pad's dots mean nothing on a 4×4 card: refused in words
    box.settle()
    assert box.device.pad.refusal == "Kenji takes the pad and presses OK first: nothing is " \
        "entered before that"
    box.sim.back()
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    keys(box, "#")  # outside the drawing '#' is still OK
    lock_view = box.companion.view(gid, 0)
    # nothing drawn yet: the screen shows which key is which dot
    assert same(box.screen(), screens.entry_screen(lock_view, 0, [], secret=True))
    keys(box, "*", "0")  # the bottom row's first two keys: dots 13 and 14
    assert same(box.screen(), screens.entry_screen(lock_view, 0, [13, 14], secret=True))
    keys(box, "#", "D")  # '#' and 'D' are dots 15 and 16
    assert same(box.screen(), screens.entry_screen(lock_view, 0, [13, 14, 15, 16],
                                                   secret=True))
    box.sim.back()  # the pad's Back removes the last dot
    assert same(box.screen(), screens.entry_screen(lock_view, 0, [13, 14, 15], secret=True))
    box.sim.tap(5)  # the pad's nine dots cannot draw on sixteen: refused with why
    assert same(box.screen(), refused_screen(UNLOCK_WORDS["grid4_pad_dots"]["en"], title="UNLOCK"))
    box.sim.back()
    assert same(box.screen(), screens.entry_screen(lock_view, 0, [13, 14, 15], secret=True))
    box.sim.ok()
    assert box.wait_actions(gid, 1) == [(0, "secret 13-14-15")]
    assert same(box.screen(), pass_pad_screen("Aiko", 1, title="UNLOCK"))
    box.sim.ok()
    keys(box, "#", "*")  # while drawing, '#' and '*' are dots 15 and 13, not OK and Back
    guess_view = box.companion.view(gid, 1)
    assert same(box.screen(), screens.entry_screen(guess_view, 1, [15, 13], secret=False))
    box.sim.back()
    box.sim.back()
    keys(box, "A", "B", "C")  # the right column: dots 4, 8, 12
    assert same(box.screen(), screens.entry_screen(guess_view, 1, [4, 8, 12], secret=False))
    box.sim.ok()
    assert box.wait_actions(gid, 2)[-1] == (1, "guess 4-8-12")
    spectator = box.companion.view(gid, None)
    (card,) = spectator["clue_board"]
    assert (card["matches"], card["misses"], card["points"]) == (0, 2, -2)
    assert same(box.screen(), screens.reveal_screen(spectator))
    keys(box, "#")  # the reveal read: '#' is OK here
    assert same(box.screen(), pass_pad_screen("Aiko", 1, title="UNLOCK"))
    box.sim.ok()
    keys(box, "#", "0", "*")  # the secret drawn backwards
    box.sim.ok()
    assert box.wait_actions(gid, 3)[-1] == (1, "guess 13-14-15")
    final = box.companion.view(gid, None)
    assert final["outcome"]["winners"] == [1] and final["secret"] == "13-14-15"
    assert same(box.screen(), screens.reveal_screen(final))
    box.sim.ok()
    assert same(box.screen(), screens.scores_screen(final))


def test_keypad_keys_sit_on_the_4x4_dots_of_their_place() -> None:
    from hardware.pico.firmware import LAYOUT

    # the Pico's matrix, row by row, is the card's dots 1-16 row by row
    assert [[KEYPAD_DOTS[key] for key in row] for row in LAYOUT] == [
        [1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
