"""Hacktrick with virtual cards played on the box alone: the pad passes between the players,
each hand shows only after its holder pressed OK on their privacy screen and leaves the screen
as soon as their action is saved. Every frame the OLED shows is recorded and searched for the
hands' images."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from firmware_host.games.hacktrick import screens as screens
from firmware_host.games.hacktrick.pad import (
    HINT_OPEN,
    PROMPT_CONFIRM,
    PROMPT_DECLARE,
    PROMPT_HAND,
    PROMPT_LEAD,
    lead_prompt,
    must_play_prompt,
    pass_prompt,
    play_prompt,
)
from firmware_host.screens.message import pass_pad_screen, refused_screen
from firmware_host.screens.start import start_screen
from tests.firmware_host.ui.conftest import PIN, URL, Box, end_game_screens, same

PLAYERS = ["Aiko", "Ben"]
#: A grey level 0 as "0", anything else as "1".
BITS = bytes([ord("0")] + [ord("1")] * 255)


def rows_of(image: Image.Image) -> list[str]:
    """The image's pixels as one string of 0/1 per row."""
    width = image.width
    bits = image.convert("1").convert("L").tobytes().translate(BITS).decode("ascii")
    return [bits[y * width : (y + 1) * width] for y in range(image.height)]


def contains(frame: Image.Image, pattern: Image.Image) -> bool:
    """Whether ``pattern`` appears pixel for pixel anywhere in ``frame``."""
    big, small = rows_of(frame), rows_of(pattern)
    for y in range(len(big) - len(small) + 1):
        x = big[y].find(small[0])
        while x != -1:
            if all(big[y + i][x : x + len(row)] == row for i, row in enumerate(small)):
                return True
            x = big[y].find(small[0], x + 1)
    return False


def hand_image(cards: Iterable[int]) -> Image.Image:
    """How a hand looks on the OLED (its row of boxed cards with the blank margin)."""
    return screens.card_row(list(cards))


@dataclass
class Frames:
    """Every frame the pad's OLED shows, in order (recorded on the pad's thread)."""

    shown: list[Image.Image] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, image: Image.Image) -> None:
        with self.lock:
            self.shown.append(image)

    def since(self, mark: int) -> list[Image.Image]:
        with self.lock:
            return self.shown[mark:]

    def mark(self) -> int:
        with self.lock:
            return len(self.shown)


def hand(box: Box, gid: int, seat: int) -> list[int]:
    return [int(c) for c in box.companion.view(gid, seat)["hands"][seat]["cards"]]


def start(box: Box, options: dict[str, Any] | None = None, seed: int = 7) -> tuple[int, Frames]:
    frames = Frames()
    box.device.pad.add_frame_listener(frames.add)
    gid = box.companion.create_game("hacktrick", PLAYERS, options or {"target": 1}, seed=seed)
    return gid, frames


TITLE = "Hacktrick"


def open_hand(box: Box, gid: int, first: bool) -> int:
    """From the between-turns board (or the game's first screen) to the mover's open hand;
    checks every screen on the way. Returns the mover."""
    view = box.companion.view(gid, None)
    mover = int(view["to_act"][0])
    privacy = pass_pad_screen(PLAYERS[mover], mover, hint=HINT_OPEN, title=TITLE)
    if not first:
        assert same(box.screen(), screens.board_screen(view, prompt=pass_prompt(view, mover)))
        box.sim.tap(5)  # dots do nothing here: refused in words, no hand shown
        assert same(box.screen(), refused_screen("OK passes the pad on", title=TITLE))
        box.sim.back()
        assert same(box.screen(), screens.board_screen(view, prompt=pass_prompt(view, mover)))
        box.sim.ok()
    assert same(box.screen(), privacy)
    box.sim.key("3")  # nor keys: only OK opens the hand
    assert same(box.screen(), refused_screen(
        f"{PLAYERS[mover]} takes the pad and presses OK to see the hand", title=TITLE))
    box.sim.back()
    assert same(box.screen(), privacy)
    box.sim.ok()
    own = box.companion.view(gid, mover)
    can_draw = any(a.startswith("draw") for a in own["legal_actions"])
    prompt = PROMPT_LEAD if view["phase"] == "lead" else (
        PROMPT_HAND if can_draw else must_play_prompt(own))
    assert same(box.screen(), screens.hand_screen(own, mover, prompt=prompt))
    return mover


def show_round_result(box: Box, gid: int) -> None:
    """The result screen of the round that just ended; OK goes on."""
    view = box.companion.view(gid, None)
    assert same(box.screen(), screens.round_screen(view))
    box.sim.ok()


@pytest.mark.parametrize("target", [1, 2])
def test_virtual_game_on_the_pad_never_shows_a_hand_to_the_other_player(
    box: Box, target: int
) -> None:
    gid, frames = start(box, {"target": target})
    count, turn, rounds = 0, 0, 0
    held: list[set[tuple[int, ...]]] = [set(), set()]  # every hand each player ever held
    asked = False
    while not (view := box.companion.view(gid, None))["outcome"]:
        public_from = frames.mark()
        if len(view["rounds"]) > rounds:
            show_round_result(box, gid)
            rounds += 1
        mover = open_hand(box, gid, first=count == 0)
        other = 1 - mover
        opened_at = frames.mark() - 1  # the hand's first frame
        mine, theirs = hand(box, gid, mover), hand(box, gid, other)
        # an empty hand has no picture (its size is public anyway)
        held[mover].update([tuple(sorted(mine))] if mine else [])
        held[other].update([tuple(sorted(theirs))] if theirs else [])
        # the public frames since the last action, up to the privacy screen: no hand at all
        for frame in frames.since(public_from)[:opened_at - public_from]:
            assert not any(contains(frame, hand_image(h)) for hs in held for h in hs)
        own = box.companion.view(gid, mover)
        legal = own["legal_actions"]
        if "ask" in legal and not asked:
            box.sim.back()  # nothing chosen: Back offers to ask the sum
            assert same(box.screen(), screens.hand_screen(own, mover,
                                                          prompt=PROMPT_CONFIRM["ask"]))
            box.sim.ok()
            count += 1
            assert box.wait_actions(gid, count)[-1] == (mover, "ask")
            asked = True
            own = box.companion.view(gid, mover)
            assert own["announced_sums"][other] == sum(theirs)
            # the turn goes on: the hand stays, with the announced sum
            can_draw = any(a.startswith("draw") for a in own["legal_actions"])
            assert same(box.screen(), screens.hand_screen(
                own, mover, prompt=PROMPT_HAND if can_draw else must_play_prompt(own)))
            legal = own["legal_actions"]
        if view["phase"] == "lead":
            value = max(mine)
            box.sim.key(str(value))
            assert same(box.screen(), screens.hand_screen(own, mover, chosen=value,
                                                          prompt=lead_prompt(value)))
            box.sim.ok()
            action = f"lead {value}"
        else:
            plays = sorted({int(a.split()[1]) for a in legal if a.startswith("play ")})
            if plays:
                value = plays[turn % len(plays)]
                rightmost = int(own["rightmost"])
                x2 = turn % 5 == 3 and f"play {value} x2" in legal
                if turn % 2:  # by the board square it lands on, on the pad
                    square = value + rightmost
                    dot = next(d for d in range(1, 10) if screens.square_at(d) == square)
                    box.sim.tap(dot)
                    if x2:
                        box.sim.tap(dot)
                else:  # by its value, on the keypad
                    box.sim.key(str(value))
                    if x2:
                        square = value + rightmost
                        box.sim.tap(next(d for d in range(1, 10)
                                         if screens.square_at(d) == square))
                assert same(box.screen(), screens.hand_screen(
                    own, mover, chosen=value, prompt=play_prompt(value, x2),
                    highlight=value + rightmost))
                box.sim.ok()
                action = f"play {value}{' x2' if x2 else ''}"
                if any(a.startswith(action + " declare=") for a in legal):
                    assert same(box.screen(), screens.hand_screen(
                        own, mover, chosen=value, prompt=PROMPT_DECLARE,
                        highlight=value + rightmost))
                    if turn % 4 == 1 and f"{action} declare=guard" in legal:
                        box.sim.tap(3)
                        action += " declare=guard"
                    else:
                        box.sim.ok()
            else:
                box.sim.ok()  # nothing chosen: OK offers the draw
                assert same(box.screen(), screens.hand_screen(own, mover,
                                                              prompt=PROMPT_CONFIRM["draw"]))
                box.sim.ok()
                action = "draw"
                if any(a.startswith("draw declare=") for a in legal):
                    box.sim.ok()
            turn += 1
        count += 1
        assert box.wait_actions(gid, count)[-1] == (mover, action)
        # the holder's frames: their own hand showed, the other's never
        shown = frames.since(opened_at)
        assert not mine or contains(shown[0], hand_image(mine))
        if theirs and sorted(theirs) != sorted(mine):
            assert not any(contains(frame, hand_image(theirs)) for frame in shown)
        # once saved, the hand is gone from the screen
        after = box.screen()
        assert not any(contains(after, hand_image(h)) for hs in held for h in hs)
        assert count < 200
    outcome = view["outcome"]
    assert outcome["winners"] == [view["last_round"]["winner"]]
    assert view["points"][outcome["winners"][0]] >= target
    assert len(view["rounds"]) == rounds + 1 >= target
    show_round_result(box, gid)
    assert same(box.screen(), screens.board_screen(view))
    end_game_screens(box, gid, onward="OK: start screen",
                     winner=PLAYERS[outcome["winners"][0]])
    assert same(box.screen(), start_screen(URL, PIN))
    assert asked, "the round should have reached a turn where the sum could be asked"
    # the journal on disk holds the round exactly as played
    journal = box.actions(gid)
    assert len(journal) == count and journal[0][1].startswith("lead ")


def test_a_card_not_in_hand_is_refused_and_back_cancels_the_choice(box: Box) -> None:
    gid, _ = start(box)
    mover = open_hand(box, gid, first=True)
    mine = hand(box, gid, mover)
    missing = next(v for v in range(6) if v not in mine)
    box.sim.key(str(missing))
    assert same(box.screen(), refused_screen(f"you hold no {missing}", title=TITLE))
    box.sim.back()
    own = box.companion.view(gid, mover)
    assert same(box.screen(), screens.hand_screen(own, mover, prompt=PROMPT_LEAD))
    box.sim.tap(mine[0] + 1)  # dots 1-6 lead the values 0-5
    assert same(box.screen(), screens.hand_screen(own, mover, chosen=mine[0],
                                                  prompt=lead_prompt(mine[0])))
    box.sim.back()
    assert same(box.screen(), screens.hand_screen(own, mover, prompt=PROMPT_LEAD))
    assert box.actions(gid) == []


def test_open_hand_closes_when_the_turn_is_taken_on_a_phone(box: Box) -> None:
    gid, frames = start(box)
    mover = open_hand(box, gid, first=True)
    mine = hand(box, gid, mover)
    lead = box.companion.view(gid, mover)["legal_actions"][0]
    box.companion.act(gid, mover, lead)  # the mover's phone
    box.settle()
    view = box.companion.view(gid, None)
    nxt = int(view["to_act"][0])
    assert same(box.screen(), screens.board_screen(view, prompt=pass_prompt(view, nxt)))
    assert not contains(box.screen(), hand_image(mine))
    box.sim.ok()
    box.sim.ok()
    own = box.companion.view(gid, nxt)
    assert same(box.screen(), screens.hand_screen(own, nxt, prompt=PROMPT_HAND))
    assert contains(frames.since(0)[-1], hand_image(hand(box, gid, nxt)))


def test_draw_is_confirmed_then_declared_and_a_refused_card_keeps_the_hand_open(
    box: Box,
) -> None:
    # seed 3: the second player holds a card equal to the lead
    gid, _ = start(box, {"target": 1, "declare_after_draw": True}, seed=3)
    starter = open_hand(box, gid, first=True)
    lead = max(hand(box, gid, starter))
    box.sim.key(str(lead))
    box.sim.ok()
    assert box.wait_actions(gid, 1) == [(starter, f"lead {lead}")]
    mover = open_hand(box, gid, first=False)
    own = box.companion.view(gid, mover)
    mine = hand(box, gid, mover)
    assert lead in mine
    box.sim.key(str(lead))  # equal to the rightmost card: the rules refuse it
    box.sim.ok()
    shown = box.screen()
    refusal = box.device.pad.refusal
    assert refusal is not None
    assert str(lead) in refusal
    assert same(shown, refused_screen(refusal, title=TITLE))
    assert not contains(shown, hand_image(mine))
    box.sim.back()  # the refusal goes, the hand is back with the card still chosen
    assert same(box.screen(), screens.hand_screen(own, mover, chosen=lead,
                                                  prompt=play_prompt(lead, False),
                                                  highlight=2 * lead))
    box.sim.back()  # and Back cancels the choice
    assert same(box.screen(), screens.hand_screen(own, mover, prompt=PROMPT_HAND))
    assert len(box.actions(gid)) == 1
    box.sim.ok()  # nothing chosen: the draw is offered…
    assert same(box.screen(), screens.hand_screen(own, mover, prompt=PROMPT_CONFIRM["draw"]))
    box.sim.back()  # …and Back says no
    assert same(box.screen(), screens.hand_screen(own, mover, prompt=PROMPT_HAND))
    box.sim.ok()
    box.sim.ok()
    assert same(box.screen(), screens.hand_screen(own, mover, prompt=PROMPT_DECLARE))
    box.sim.tap(1)  # Play!
    assert box.wait_actions(gid, 2)[-1] == (mover, "draw declare=play")
    view = box.companion.view(gid, None)
    assert view["declaration"] == {"kind": "play", "by": mover, "against": starter}
    assert len(hand(box, gid, mover)) == len(mine) + 1
    assert same(box.screen(), screens.board_screen(view, prompt=pass_prompt(view, starter)))


def test_under_play_the_pad_offers_ask_the_sum_only_where_the_rules_allow_it() -> None:
    # Seed 001, under Play!:
    # "カードのプレイ以外のアクション(山札からカードをドロー等)を実行できなくなる";
    # Ask the sum stays possible only with the house rule ask_under_play.
    from rules.hacktrick import GAME, position

    for allowed, prompt in ((False, "play 0-5"), (True, "play 0-5\nBack: ask")):
        state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "R"},
                         declaration=("play", 1), options={"ask_under_play": allowed})
        assert must_play_prompt(GAME.view(state, 0)) == prompt
