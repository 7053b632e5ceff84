"""Memory bounded by what is live (issue 32): the box keeps every game being played and a few
of the ended ones; any other ended game, the history, the standings and ended tournaments are
read from the journal — and read the same as when they were kept, in this run and the next."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from firmware_host.bot_seats import LEVELS_KEPT
from firmware_host.companion import Companion
from firmware_host.snapshots import ENDED_KEPT
from web_panel.panel_state import Successors

NAMES = ("Aiko", "Ben", "Chie")


def unlock_game(box: Companion, number: int) -> tuple[int, dict[str, Any]]:
    """An UNLOCK game for the Lock and one guesser (their names turn with ``number``); it ends
    found when the number is even, abandoned when odd. Its final view and
    summary as shown when it ended."""
    lock, guesser = NAMES[number % 3], NAMES[(number + 1) % 3]
    game_id = box.create_game("unlock", [lock, guesser], {"difficulty": "easy"})
    box.act(game_id, 0, "secret 1-2-3")
    if number % 2 == 0:
        box.act(game_id, 1, "guess 1-2-3")
    else:
        box.abandon(game_id)
    return game_id, {"view": box.view(game_id, None), "seat_view": box.view(game_id, 1),
                     "summary": box.summary(game_id)}


def test_ended_games_are_not_all_kept_and_read_the_same_from_the_journal(
        tmp_path: Path) -> None:
    played: dict[int, dict[str, Any]] = {}
    with Companion.open(tmp_path) as box:
        live = box.create_game("unlock", ["Lock", "Dai"], {"difficulty": "easy"})
        for number in range(2 * ENDED_KEPT + 11):
            game_id, shown = unlock_game(box, number)
            played[game_id] = shown
        held = box._snapshots.held()
        assert held["live games"] == 1
        assert 0 < held["ended games"] <= ENDED_KEPT
        assert held["games waited on"] == 0
        oldest = min(played)
        for game_id in (oldest, oldest + 1, max(played)):  # long forgotten, and kept
            assert box.view(game_id, None) == played[game_id]["view"]
            assert box.view(game_id, 1) == played[game_id]["seat_view"]
            assert box.summary(game_id) == played[game_id]["summary"]
        history = box.history(limit=len(played) + 5)
        assert [g["id"] for g in history] == sorted(played, reverse=True)
        assert history == [played[g]["summary"] for g in sorted(played, reverse=True)]
        assert [g["id"] for g in box.games()] == sorted([*played, live], reverse=True)
        assert [g["id"] for g in box.games(status="active")] == [live]
        standings = {row["name"]: row for row in box.standings()}
        before_restart = box.standings()
    # every even game was found: its guesser won; an abandoned game counts for nothing
    found = [n for n in range(len(played)) if n % 2 == 0]
    for name in NAMES:
        as_guesser = sum(1 for n in found if NAMES[(n + 1) % 3] == name)
        as_lock = sum(1 for n in found if NAMES[n % 3] == name)
        assert standings[name]["played"] == as_guesser + as_lock
        assert standings[name]["won"] == as_guesser
    with Companion.open(tmp_path) as again:
        assert again._snapshots.held()["ended games"] == 0
        assert again.view(oldest, None) == played[oldest]["view"]
        assert again.history(limit=3) == [played[g]["summary"]
                                          for g in sorted(played, reverse=True)[:3]]
        assert again.standings() == before_restart


def test_a_game_waited_on_holds_a_condition_only_while_someone_waits(tmp_path: Path) -> None:
    with Companion.open(tmp_path) as box:
        game_id = box.create_game("unlock", ["Lock", "Aiko"], {"difficulty": "easy"})
        version = box.game_version(game_id)
        woken: list[int] = []
        waiter = threading.Thread(
            target=lambda: woken.append(box.wait_for_game(game_id, version, 10.0)))
        waiter.start()
        box.act(game_id, 0, "secret 1-2-3")
        waiter.join(10)
        assert woken == [box.game_version(game_id)] and woken[0] > version
        assert box._snapshots.held()["games waited on"] == 0


def test_what_the_panel_and_the_bots_remember_of_old_games_is_bounded() -> None:
    successors = Successors(size=4)
    for game_id in range(1, 11):
        successors.add(game_id, game_id + 100)
    assert len(successors) == 4
    assert successors.get(1) is None and successors.get(10) == 110
    assert LEVELS_KEPT >= 64  # more than the games a box plays at once
