"""Seats the box plays: bots move through the session API, from their own seat's view only,
after a visible delay; the box rolls for them; the journal says who entered each move."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware_host.bot_seats import BotSeats
from firmware_host.companion import Companion
from firmware_host.errors import NotAllowed, SeatTaken
from firmware_host.session_api import SessionApi, View
from rules import CHANCE
from tests.firmware_host.test_companion import journal_rows

WAIT = 20.0


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Companion]:
    with Companion.open(tmp_path / "data", bot_delay=0.0, bot_rng=random.Random(3)) as opened:
        yield opened


def settle(companion: Companion, done: Callable[[], bool], seconds: float = WAIT) -> None:
    """Wait (bounded) until ``done()``, failing with what the game shows otherwise."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not done after {seconds} s")
        time.sleep(0.02)


def ended(companion: Companion, game_id: int) -> Callable[[], bool]:
    return lambda: companion.summary(game_id)["status"] != "active"


def test_a_game_of_bots_alone_plays_itself_to_the_end(box: Companion) -> None:
    game_id = box.create_game("ico", ["Aiko", "Ben"], bots={0: "hard", 1: "random"})
    settle(box, ended(box, game_id))
    entered = journal_rows(box, "SELECT seat, entered_by FROM actions WHERE game_id = ?",
                           game_id)
    assert entered and {by for _, by in entered} <= {"bot hard", "bot random"}
    assert all(by == ("bot hard" if seat == 0 else "bot random") for seat, by in entered)
    assert box.summary(game_id)["outcome"] is not None


def test_the_box_rolls_for_its_own_seat_and_the_bot_places(box: Companion) -> None:
    game_id = box.create_game("dice216", ["Aiko", "Ben"], {"size": 4}, bots={1: "easy"})
    view = box.view(game_id, 0)
    assert view["bots"] == [None, "easy"] and box.summary(game_id)["bots"] == [None, "easy"]
    for _ in range(8):  # Aiko's rolls and places; Ben's come from the box
        settle(box, lambda: 0 in box.view(game_id, None)["to_act"]
               or (CHANCE in box.view(game_id, None)["to_act"]
               and box.view(game_id, None)["roll_for"]["seat"] == 0))
        if CHANCE in box.view(game_id, None)["to_act"]:
            box.act(game_id, CHANCE, "roll 3")
        settle(box, lambda: 0 in box.view(game_id, None)["to_act"])
        box.act(game_id, 0, box.legal_actions(game_id, 0)[0])
    settle(box, ended(box, game_id))
    rows = journal_rows(box, "SELECT seat, action, entered_by FROM actions WHERE game_id = ?"
                        " ORDER BY n", game_id)
    bens = [(action, by) for seat, action, by in rows if seat == 1]
    boxes = [(action, by) for seat, action, by in rows if seat == CHANCE and by == "box random"]
    assert len(bens) == 8 and all(by == "bot easy" for _, by in bens)
    assert len(boxes) == 8 and all(action.startswith("roll ") for action, _ in boxes)


def test_a_bot_seat_cannot_be_claimed_by_a_phone(box: Companion) -> None:
    game_id = box.create_game("hacktrick", ["Aiko", "Ben"], bots={1: "hard"})
    with pytest.raises(SeatTaken, match=r"seat 1 \(Ben\) is played by the box"):
        box.claim_seat(game_id, 1)
    assert box.summary(game_id)["claimed"] == [False, True]  # nobody is offered Ben's seat


@pytest.mark.parametrize(("bots", "message"), [
    ({0: "expert"}, r"unknown bot level 'expert' \(levels: random, easy, hard\)"),
    ({2: "easy"}, r"a bot's seat is a number from 0 to 1, got 2"),
    ({"0": "easy"}, r"a bot's seat is a number from 0 to 1, got '0'"),
    ([1], r"bots must map seat numbers to bot levels"),
])
def test_a_bad_bot_seat_is_refused_by_name_and_nothing_starts(
    box: Companion, bots: Any, message: str
) -> None:
    with pytest.raises(NotAllowed, match=message):
        box.create_game("ico", ["Aiko", "Ben"], bots=bots)
    assert box.games() == []


class Recording:
    """The session API as a bot thread uses it, with every call kept."""

    def __init__(self, session: Companion) -> None:
        self.session = session
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.session, name)

        def recorded(*args: Any) -> Any:
            self.calls.append((name, args))
            return method(*args)
        return recorded


def test_a_bot_reads_only_its_own_seats_view_and_choices(tmp_path: Path) -> None:
    # Hacktrick hides each hand: the bot of seat 1 is never handed seat 0's view or a state.
    with Companion.open(tmp_path / "data", bot_delay=3600.0) as companion:  # its own bots wait
        game_id = companion.create_game("hacktrick", ["Aiko", "Ben"], bots={1: "hard"})
        recording = Recording(companion)
        handed: list[Mapping[str, Any]] = []
        bots = companion.registry["hacktrick"].bots
        assert bots is not None
        hard = bots["hard"]

        class Watching:
            level = "hard"

            def choose(self, view: Mapping[str, Any], legal: Any, rng: random.Random) -> str:
                handed.append(view)
                return hard.choose(view, legal, rng)

        games = companion.registry.with_game(
            replace(companion.registry["hacktrick"], bots={"hard": Watching()}))
        seats = BotSeats(recording_api(recording), games, delay=0.0, rng=random.Random(1))
        seats.start(companion._owner.add_listener)
        try:
            for _ in range(6):
                settle(companion, lambda: 0 in companion.view(game_id, None)["to_act"]
                       or companion.summary(game_id)["status"] != "active")
                if companion.summary(game_id)["status"] != "active":
                    break
                companion.act(game_id, 0, companion.legal_actions(game_id, 0)[0])
        finally:
            seats.close()
        assert handed and all(view["you"] == 1 for view in handed)
        for name, args in recording.calls:
            if name in ("view", "legal_actions"):
                assert args[1] in (1, None), (name, args)  # its own seat, or the public view
            if name == "act":
                assert args[1] == 1 and args[3] == "bot hard"
        assert {name for name, _ in recording.calls} <= {
            "games", "summary", "view", "legal_actions", "act"}


def recording_api(recording: Recording) -> SessionApi:
    api: SessionApi = recording  # type: ignore[assignment]  # the Protocol, checked by use
    return api


def test_bots_go_on_after_a_restart(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "data", bot_delay=3600.0) as sleeping:
        game_id = sleeping.create_game("ico", ["Aiko", "Ben"], bots={0: "easy"})
        assert sleeping.view(game_id, None)["to_act"] == [0]
    with Companion.open(tmp_path / "data", bot_delay=0.0) as awake:
        settle(awake, lambda: awake.view(game_id, None)["to_act"] == [1])


def test_a_bot_waits_its_delay_before_it_moves(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "data", bot_delay=0.4) as companion:
        started = time.monotonic()
        game_id = companion.create_game("ico", ["Aiko", "Ben"], bots={0: "random"})
        settle(companion, lambda: companion.view(game_id, None)["to_act"] == [1])
        assert time.monotonic() - started >= 0.4


def test_the_box_as_the_lock_sets_a_secret_nobody_sees(box: Companion, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    game_id = box.create_game("unlock", ["Box", "Aiko", "Ben"], {"difficulty": "easy"},
                              bots={0: "random"})
    settle(box, lambda: box.view(game_id, None)["phase"] == "guess")
    views: list[View] = [box.view(game_id, seat) for seat in (None, 1, 2)]
    assert all(v["secret"] is None and v["secret_set"] for v in views)
    secret = journal_rows(box, "SELECT action FROM actions WHERE game_id = ? AND seat = 0",
                          game_id)[0][0]
    assert secret.startswith("secret ")
    assert secret.partition(" ")[2] not in caplog.text
    lock_view = box.view(game_id, 0)
    assert lock_view["secret"] == secret.partition(" ")[2]


def test_an_unlock_tournament_seats_the_same_bot_in_every_game(box: Companion) -> None:
    tid = box.create_tournament("unlock", ["Aiko", "Ben"], {"difficulty": "easy",
                                                           "turn_limit": 2}, bots={1: "easy"})
    first = box.tournament(tid)["games"][0]
    assert box.tournament(tid)["bots"] == [None, "easy"]
    settle(box, lambda: 0 in box.view(first, None)["to_act"])  # Aiko is the first Lock
    box.act(first, 0, "secret 1-2-3")
    settle(box, ended(box, first))  # Ben, the bot, guesses until found or out of turns
    settle(box, lambda: len(box.tournament(tid)["games"]) == 2)
    second = box.tournament(tid)["games"][1]
    assert box.summary(second)["bots"] == [None, "easy"]
    settle(box, lambda: box.view(second, None)["phase"] == "guess")  # the bot set a secret


def test_no_hint_for_a_game_without_a_hint_engine(box: Companion) -> None:
    game_id = box.create_game("ico", ["Aiko", "Ben"])
    with pytest.raises(NotAllowed, match="ICO has no hints"):
        box.hint(game_id, 0)
    with pytest.raises(NotAllowed, match="ICO has no hints"):
        box.allow_hints(game_id, False)


def test_the_box_takes_over_a_seat_during_the_game_and_gives_it_back(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "data", bot_delay=0.0, bot_rng=random.Random(5)) as box:
        game_id = box.create_game("ico", ["Aiko", "Ben"])
        box.act(game_id, 0, box.legal_actions(game_id, 0)[0])
        box.seat_bot(game_id, 1, "hard")  # Ben had to leave: the box plays on for him
        assert box.summary(game_id)["bots"] == [None, "hard"]
        assert box.summary(game_id)["claimed"] == [False, True]
        settle(box, lambda: 0 in box.view(game_id, None)["to_act"])
        entered = journal_rows(box, "SELECT seat, entered_by FROM actions WHERE game_id = ?"
                               " ORDER BY n", game_id)
        assert entered == [(0, None), (1, "bot hard")]
    with Companion.open(tmp_path / "data", bot_delay=0.0) as box:  # journaled
        assert box.summary(game_id)["bots"] == [None, "hard"]
        box.seat_bot(game_id, 1, None)  # Ben is back
        assert box.summary(game_id)["bots"] == [None, None]
        box.act(game_id, 0, box.legal_actions(game_id, 0)[0])
        assert box.view(game_id, None)["to_act"] == [1]
        box.act(game_id, 1, box.legal_actions(game_id, 1)[0])  # Ben's move is his own again
        entered = journal_rows(box, "SELECT seat, entered_by FROM actions WHERE game_id = ?"
                               " ORDER BY n", game_id)
        assert entered == [(0, None), (1, "bot hard"), (0, None), (1, None)]


def test_a_seat_a_phone_holds_or_a_bad_level_is_not_taken_over(box: Companion) -> None:
    game_id = box.create_game("hacktrick", ["Aiko", "Ben"])
    box.claim_seat(game_id, 1)
    with pytest.raises(SeatTaken, match="Ben's phone holds that seat: the box cannot take it over"):
        box.seat_bot(game_id, 1, "easy")
    with pytest.raises(NotAllowed, match=r"unknown bot level 'expert' \(levels: random, easy, "
                                         r"hard\)"):
        box.seat_bot(game_id, 0, "expert")
    with pytest.raises(NotAllowed, match="game 1 has no seat 2"):
        box.seat_bot(game_id, 2, "easy")
    assert box.summary(game_id)["bots"] == [None, None]
    box.abandon(game_id)
    with pytest.raises(NotAllowed, match="game 1 is abandoned"):
        box.seat_bot(game_id, 0, "easy")
