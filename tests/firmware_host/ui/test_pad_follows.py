"""Which game the pad and the OLED follow: the session's pad game, set by the box (the first
game, a tournament's next game), by the host, or on the pad's games menu (Back held); a move for
a game that is not the pad's is refused in words; the OLED's language."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from firmware_host.errors import NoSuchGame, NotAllowed, NotPadGame
from firmware_host.games.dice216 import screens as dice216
from firmware_host.games.ico import screens as ico
from firmware_host.games.unlock.screens import entry_screen
from firmware_host.pad.inputs import Input
from firmware_host.pad.menu import (
    DiceEntry,
    Menu,
    MenuEntry,
    Row,
    SeatEntry,
    menu_screen,
    seat_row,
)
from firmware_host.screens.message import pass_pad_screen, refused_screen
from firmware_host.screens.start import start_screen
from rules import CHANCE
from rules.bots import LEVELS
from tests.firmware_host.test_companion import journal_rows
from tests.firmware_host.ui.conftest import PIN, URL, WAIT, Box, has_line, same, shows


def test_the_first_game_takes_the_pad_and_a_newer_one_does_not(box: Box) -> None:
    first = box.companion.create_game("unlock", ["Kenji", "Aiko"])
    assert box.companion.pad() == {"game": first, "by": "auto", "language": None}
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    second = box.companion.create_game("dice216", ["Aiko", "Ben"])
    assert box.companion.pad()["game"] == first  # no silent switch to the newest game
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    box.sim.key("2")  # meant for 2 1 6's roll: the pad's game has no use for it, and says so
    box.settle()
    assert box.device.pad.refusal == ("Kenji takes the pad and presses OK first: nothing is "
                                      "entered before that")
    assert box.actions(second) == [] and box.actions(first) == []
    box.sim.back()
    box.settle()  # the refusal read before the host moves the pad
    box.companion.set_pad_game(second)  # the host puts the pad on 2 1 6
    assert box.companion.pad() == {"game": second, "by": "host", "language": None}
    view = box.companion.view(second, None)
    assert same(box.screen(), dice216.board_screen(view, None, prompt="roll/OK"))
    box.sim.key("2")
    assert box.wait_actions(second, 1) == [(CHANCE, "roll 2")]
    assert box.actions(first) == []
    box.companion.abandon(second)  # the one game left takes the pad again
    assert same(box.screen(), pass_pad_screen("Kenji", 0, title="UNLOCK"))
    assert box.companion.pad()["game"] == first
    box.companion.abandon(first)
    assert same(box.screen(), start_screen(URL, PIN))
    assert box.companion.pad()["game"] is None


def test_a_new_game_takes_the_pad_from_an_ended_one_at_once(box: Box) -> None:
    ended = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    for turn in range(16):  # the game is played on phones; nobody presses OK on the box
        box.companion.act(ended, CHANCE, f"roll {1 + turn % 2}")
        row, col = divmod(turn, 4)
        box.companion.act(ended, turn % 2, f"place {row + 1} {col + 1}")
    final = box.companion.view(ended, None)
    assert same(box.screen(), dice216.board_screen(final, None))
    newer = box.companion.create_game("ico", ["Chie", "Dai"], {"start_face": "T0"})
    assert box.companion.pad() == {"game": newer, "by": "auto", "language": None}
    assert same(box.screen(), ico.board_screen(box.companion.view(newer, None),
                                               prompt="1-3 place"))


def test_a_game_started_on_a_phone_waits_until_the_host_gives_it_the_pad(box: Box) -> None:
    first = box.companion.create_game("dice216", ["Aiko", "Ben"])
    newer = box.companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0"})
    box.sim.tap(1)  # a dot on 2 1 6 while the die is awaited: refused, nothing entered
    box.settle()
    assert box.device.pad.refusal is not None and "roll the die" in box.device.pad.refusal
    box.sim.back()
    box.settle()
    box.companion.set_pad_game(newer)
    assert same(box.screen(), ico.board_screen(box.companion.view(newer, None),
                                               prompt="1-3 place"))
    box.sim.tap(1)
    assert box.wait_actions(newer, 1)[0][1].startswith("place ")
    assert box.actions(first) == []


def test_the_pad_game_is_journaled_and_survives_a_restart(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin="123456") as companion:
        first = companion.create_game("unlock", ["Kenji", "Aiko"])
        second = companion.create_game("ico", ["Aiko", "Ben"])
        companion.set_pad_game(second)
        companion.set_box_language("ja")
        assert companion.pad() == {"game": second, "by": "host", "language": "ja"}
    with Companion.open(tmp_path, host_pin="123456") as companion:
        assert companion.pad() == {"game": second, "by": "host", "language": "ja"}
        companion.set_pad_game(first, "pad")
        companion.set_box_language(None)
    with Companion.open(tmp_path, host_pin="123456") as companion:
        assert companion.pad() == {"game": first, "by": "pad", "language": None}


def test_the_pad_follows_only_games_being_played(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin="123456") as companion:
        game = companion.create_game("ico", ["Aiko", "Ben"])
        other = companion.create_game("dice216", ["Aiko", "Ben"])
        companion.abandon(game)
        with pytest.raises(NotAllowed, match="game 1 is abandoned: the pad follows games being"):
            companion.set_pad_game(game)
        with pytest.raises(NoSuchGame, match="no game 99"):
            companion.set_pad_game(99)
        with pytest.raises(NotAllowed, match="chosen by the host or on the pad"):
            companion.set_pad_game(other, "auto")
        with pytest.raises(NotAllowed, match="the box speaks en or ja, not 'fr'"):
            companion.set_box_language("fr")
        # a move entered on the pad for a game that is not the pad's is not entered
        companion.set_pad_game(None)
        with pytest.raises(NotPadGame, match="the pad is on game None, not game 2"):
            companion.act_on_pad(other, CHANCE, "roll 3", "keypad")
        assert companion.view(other, None)["pending_roll"] is None


def test_a_move_for_a_game_that_stopped_being_the_pads_is_refused_in_words(box: Box) -> None:
    first = box.companion.create_game("dice216", ["Aiko", "Ben"])
    second = box.companion.create_game("dice216", ["Chie", "Dai"])
    box.settle()
    # The session thread is held while the pad reads its game, the host moves the pad to the
    # other game, and the pad's roll for the first game queues behind that move.
    thread = box.companion._owner.thread
    gate, holding = threading.Event(), threading.Event()

    def hold() -> None:
        holding.set()
        gate.wait(WAIT)

    thread.submit(hold)
    assert holding.wait(WAIT)  # the thread is held (not the hold still queued: see below)
    moved = thread.submit(lambda: box.companion.set_pad_game(second))
    box.device.pad.submit(Input("digit", 4, key="4"))
    deadline = time.monotonic() + WAIT
    while thread._queue.qsize() < 2:  # the pad's act_on_pad is queued behind the move
        assert time.monotonic() < deadline, "the pad never sent its roll"
        time.sleep(0.005)
    gate.set()
    moved.result(WAIT)
    box.settle()
    assert box.actions(first) == [] and box.actions(second) == []
    refusal = box.device.pad.refusal
    assert refusal == ("that move was for 2 1 6 1, but the pad is on 2 1 6 2 now: nothing "
                       "was entered")
    assert same(box.screen(), refused_screen(refusal, title="2 1 6"))
    box.sim.back()  # read: the pad shows its game
    assert same(box.screen(), dice216.board_screen(box.companion.view(second, None), None,
                                                   prompt="roll/OK"))


#: The games menu's last row on a box with smart dice (the simulator has some: docs/dice.md).
PAIR_DICE = DiceEntry(" Pair dice...")


def entries(box: Box, *games: tuple[int, str, str]) -> list[Row]:
    return [MenuEntry(gid, title, players) for gid, title, players in games]


def seat_rows(game_id: int, names: list[str], bots: list[str | None] | None = None
              ) -> list[Row]:
    return [SeatEntry(game_id, seat, name, (bots or [None] * len(names))[seat], LEVELS)
            for seat, name in enumerate(names)]


def test_the_games_menu_hands_a_seat_to_the_box_and_back(box: Box) -> None:
    gid = box.companion.create_game("ico", ["Aiko", "Ben"])
    other = box.companion.create_game("dice216", ["Chie", "Dai"])
    box.companion.act(gid, 0, box.companion.legal_actions(gid, 0)[0])
    box.settle()
    box.sim.hold_back()
    box.settle()
    games = entries(box, (gid, "ICO", "Aiko,Ben"), (other, "2 1 6", "Chie,Dai"))
    assert same(box.screen(), menu_screen(
        Menu(0), [*games, *seat_rows(gid, ["Aiko", "Ben"]), PAIR_DICE], gid, "en"))
    for _ in range(3):
        box.sim.tap(8)  # down to Ben's seat
    assert same(box.screen(), menu_screen(
        Menu(3), [*games, *seat_rows(gid, ["Aiko", "Ben"]), PAIR_DICE], gid, "en"))
    box.sim.ok()  # the box plays Ben, at the weakest level first
    box.settle()
    assert box.companion.summary(gid)["bots"] == [None, "random"]
    assert box.device.pad.menu_open  # OK on a seat keeps the menu open: OK again steps on
    box.sim.ok()
    box.sim.ok()
    box.settle()
    assert box.companion.summary(gid)["bots"] == [None, "hard"]
    assert same(box.screen(), menu_screen(
        Menu(3), [*games, *seat_rows(gid, ["Aiko", "Ben"], [None, "hard"]), PAIR_DICE], gid,
        "en"))
    box.sim.back()  # the menu closes; the box moves for Ben after its delay
    assert box.wait_actions(gid, 2)[1][0] == 1
    box.sim.hold_back()
    box.settle()
    for _ in range(3):
        box.sim.tap(8)
    box.sim.ok()  # after the strongest level, Ben is a person again
    box.settle()
    assert box.companion.summary(gid)["bots"] == [None, None]


def test_a_seat_a_phone_holds_is_refused_in_words_on_the_pad(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    box.companion.claim_seat(gid, 1)
    box.sim.hold_back()
    box.settle()
    for _ in range(2):
        box.sim.tap(8)
    box.sim.ok()
    box.settle()
    refusal = "Ben's phone holds that seat: the box cannot take it over"
    assert box.device.pad.refusal == refusal
    assert same(box.screen(), refused_screen(refusal, title="Games"))
    assert box.companion.summary(gid)["bots"] == [None, None]


def test_seat_rows_in_japanese() -> None:
    assert seat_row(SeatEntry(1, 0, "Aiko", None, LEVELS), "ja") == " Aiko:人"
    assert seat_row(SeatEntry(1, 0, "Aiko", "hard", LEVELS), "ja") == " Aiko:本体 むずかしい"
    assert seat_row(SeatEntry(1, 0, "Aiko", "easy", LEVELS), "en") == " Aiko: box easy"
    assert seat_row(SeatEntry(1, 0, "Aiko", "expert", ("expert",)), "en") == " Aiko: box expert"


def test_back_held_opens_the_games_menu_and_the_pad_picks_a_game(box: Box) -> None:
    first = box.companion.create_game("unlock", ["Kenji", "Aiko"])
    second = box.companion.create_game("hacktrick", ["Aiko", "Ben"], {"cards": "table"})
    box.sim.hold_back()
    box.settle()
    listed = [*entries(box, (first, "UNLOCK", "Kenji,Aiko"), (second, "Hacktrick", "Aiko,Ben")),
              *seat_rows(first, ["Kenji", "Aiko"]),  # then who plays the pad's game's seats
              PAIR_DICE]
    assert box.device.pad.menu_open
    assert same(box.screen(), menu_screen(Menu(0), listed, first, "en"))
    box.sim.tap(8)  # down
    assert same(box.screen(), menu_screen(Menu(1), listed, first, "en"))
    box.sim.key("3")  # keys the menu has no use for are refused in words
    box.settle()
    assert box.device.pad.refusal == ("in the games menu 2 and 8 move, OK picks the game, "
                                      "Back closes")
    box.sim.back()
    box.sim.ok()
    box.settle()
    assert box.companion.pad() == {"game": second, "by": "pad", "language": None}
    assert not box.device.pad.menu_open
    assert has_line(box.screen(), "Hacktrick", x=65, inverted=True)
    box.sim.hold_back()  # the menu again; Back closes it and the pad's game is back
    box.settle()
    assert box.device.pad.menu_open
    box.sim.back()
    box.settle()
    assert not box.device.pad.menu_open
    assert box.companion.pad()["game"] == second


def test_with_several_games_and_none_on_the_pad_the_menu_asks_for_one(box: Box) -> None:
    first = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    second = box.companion.create_game("ico", ["Aiko", "Ben"])
    third = box.companion.create_game("dice216", ["Chie", "Dai"])
    box.companion.abandon(first)  # the pad's game goes: two are left, the pad asks which
    box.settle()
    assert box.device.pad.menu_open
    listed = [*entries(box, (second, "ICO", "Aiko,Ben"), (third, "2 1 6", "Chie,Dai")),
              PAIR_DICE]
    assert same(box.screen(), menu_screen(Menu(0, must_choose=True), listed, first, "en"))
    box.sim.back()  # a game must be chosen
    box.settle()
    assert box.device.pad.refusal == "choose a game first: 2 and 8 move, OK picks it"
    box.sim.back()
    box.sim.tap(2)  # up wraps round to "Pair dice", then the last game
    box.sim.tap(2)
    box.sim.ok()
    box.settle()
    assert box.companion.pad() == {"game": third, "by": "pad", "language": None}
    box.companion.create_game("ico", ["Eri", "Fumi"])
    box.companion.abandon(third)  # two games again, none on the pad: the menu asks
    box.settle()
    assert box.device.pad.menu_open
    box.companion.set_pad_game(second)  # the host answers instead: the menu goes
    box.settle()
    assert not box.device.pad.menu_open
    assert same(box.screen(), ico.board_screen(box.companion.view(second, None),
                                               prompt="1-3 place"))


def test_after_the_results_ok_leads_to_the_menu_when_several_games_are_played(box: Box) -> None:
    gid = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    box.companion.create_game("ico", ["Aiko", "Ben"])
    box.companion.create_game("ico", ["Chie", "Dai"])
    for turn in range(16):  # Aiko writes 1s, Ben 2s, row by row
        box.sim.roll(1 + turn % 2, faces=4)
        box.wait_actions(gid, 2 * turn + 1)
        row, col = divmod(turn, 4)
        box.companion.act(gid, turn % 2, f"place {row + 1} {col + 1}")
    box.settle()
    box.sim.ok()
    results = box.screen()
    assert has_line(results, "Winner: Ben") and has_line(results, "OK: choose a game")
    box.sim.ok()
    box.settle()
    assert box.device.pad.menu_open


def test_the_host_switches_the_oled_to_japanese(box: Box) -> None:
    box.companion.set_box_language("ja")
    assert same(box.screen(), start_screen(URL, PIN, lang="ja"))
    box.sim.tap(5)  # no game: refused in Japanese
    box.settle()
    assert box.device.pad.refusal == ("進行中のゲームはありません。スマホで始めてください"
                                      "(コードを読み取る)")
    box.sim.back()
    box.settle()
    box.companion.create_game("unlock", ["健二", "愛子"])
    assert same(box.screen(), pass_pad_screen("健二", 0, title="アンロック", lang="ja"))
    box.companion.set_box_language(None)  # back to the config's language (English)
    assert same(box.screen(), pass_pad_screen("健二", 0, title="UNLOCK"))


def counting_draws(box: Box, monkeypatch: pytest.MonkeyPatch,
                   hold: threading.Event | None = None,
                   holding: threading.Event | None = None) -> list[int]:
    """Counts the pad's frames drawn from now on; with ``hold``, the first draw sets
    ``holding`` and waits for ``hold`` (the pad thread busy, as behind a slow frame)."""
    follower = box.device.pad.follower
    draw = follower.draw
    drawn: list[int] = []

    def counted(url: str) -> object:
        drawn.append(1)
        if hold is not None and len(drawn) == 1:
            if holding is not None:
                holding.set()
            assert hold.wait(WAIT)
        return draw(url)

    monkeypatch.setattr(follower, "draw", counted)
    return drawn


def play_some(box: Box, game_id: int, turns: int, first: int = 0) -> None:
    for turn in range(first, first + turns):
        box.companion.act(game_id, CHANCE, f"roll {1 + turn % 2}")
        row, col = divmod(turn, 4)
        box.companion.act(game_id, turn % 2, f"place {row + 1} {col + 1}")


def test_another_tables_moves_do_not_redraw_the_oled(box: Box,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    shown = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    other = box.companion.create_game("dice216", ["Chie", "Dai"], {"size": 4})
    assert box.companion.pad()["game"] == shown
    before = box.screen()
    drawn = counting_draws(box, monkeypatch)
    play_some(box, other, 4)  # eight moves at the other table
    box.settle()
    assert drawn == [] and same(box.screen(), before)
    play_some(box, shown, 1)  # the pad's own game moves: drawn
    box.settle()
    view = box.companion.view(shown, None)
    assert drawn and same(box.screen(), dice216.board_screen(view, None, prompt="roll/OK"))
    drawn.clear()
    box.companion.set_pad_game(other)  # the host moves the pad: the other table is drawn now
    box.settle()
    assert drawn
    view = box.companion.view(other, None)
    assert same(box.screen(), dice216.board_screen(view, None, prompt="roll/OK"))


def test_changes_that_pile_up_while_the_pad_draws_are_drawn_once(
        box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = box.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    box.settle()
    hold, holding = threading.Event(), threading.Event()
    drawn = counting_draws(box, monkeypatch, hold, holding)
    play_some(box, shown, 1)  # the pad starts drawing the roll, and waits
    assert holding.wait(WAIT), "the pad did not start drawing the roll"
    play_some(box, shown, 5, first=1)  # ten more changes while it draws
    hold.set()
    box.settle()
    # the first draw, then one for everything that came while it was drawn (the place that
    # followed the roll among them)
    assert len(drawn) == 2
    view = box.companion.view(shown, None)
    assert same(box.screen(), dice216.board_screen(view, None, prompt="roll/OK"))


def test_a_guesser_handed_to_the_box_mid_turn_leaves_the_pads_round(box: Box) -> None:
    gid = box.companion.create_game("unlock", ["Kenji", "Aiko", "Ben"], {"difficulty": "easy"})
    box.companion.act(gid, 0, "secret 1-2-3")
    box.settle()
    assert same(box.screen(), pass_pad_screen("Aiko", 1, title="UNLOCK"))
    box.sim.ok()  # Aiko's entry is open when she has to leave
    assert same(box.screen(), entry_screen(box.companion.view(gid, 1), 1, [], secret=False,
                                           offer_hint=True))
    box.companion.seat_bot(gid, 1, "easy")
    # the pad goes on to Ben (drawn on the pad's thread); the box draws Aiko's code itself
    assert shows(box.device.pad, pass_pad_screen("Ben", 2, title="UNLOCK"))
    box.wait_actions(gid, 2)
    entered = journal_rows(box.companion, "SELECT seat, entered_by FROM actions WHERE "
                           "game_id = ? ORDER BY n", gid)
    assert entered == [(0, None), (1, "bot easy")]
