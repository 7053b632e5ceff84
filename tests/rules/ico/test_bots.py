"""ICO bots: legal moves only at every level, one game per seed, a model that plays the rules
(the balance rules, the roll, the figures), and play that avoids handing over a win.

ICO has no secrets: a seat's view shows the whole position, so there is no hidden card to test
against here; that a bot is handed only the view is checked for every game in
``tests/rules/test_bots.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from rules.bot_games import duel, play_bot_game
from rules.bots import LEVELS, get_bot
from rules.ico import GAME, IcoState
from rules.ico.bots import Table, action_text
from tests.rules.ico.positions import PLAYERS, position

CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"level": "1+"}),
    (3, {"level": "2"}),
    (2, {"level": "2+", "double_opposite": True}),
    (2, {"level": "4"}),
    (4, {"level": "4"}),
    (2, {"claim": "manual"}),
    (3, {"level": "1+", "claim": "manual", "turn_cap": 30}),
]


def bot_game_states(
    levels: list[str], seed: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[IcoState, int, str]]:
    """Every decision of one seeded bot game: the state, the seat, and the action it took."""
    played = play_bot_game("ico", [get_bot("ico", lv) for lv in levels], options=options,
                           seed=seed)
    state = GAME.start(PLAYERS[: len(levels)], options, seed=seed)
    for seat, action in played.actions:
        yield state, seat, action
        state = GAME.apply(state, seat, action)
    assert GAME.outcome(state) == played.outcome


@pytest.mark.parametrize(("players", "options"), CASES,
                         ids=[f"{n}p-" + (",".join(o) or "defaults") for n, o in CASES])
@pytest.mark.parametrize("level", LEVELS)
def test_bots_take_only_legal_actions_to_the_end(
    level: str, players: int, options: dict[str, Any]
) -> None:
    levels = [level, "random", "random", "random"][:players]
    for state, seat, action in bot_game_states(levels, seed=1, options=options):
        assert action in GAME.legal_actions(state, seat)


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_replays_the_same_game(level: str) -> None:
    bots = [get_bot("ico", level), get_bot("ico", "easy")]
    first = play_bot_game("ico", bots, seed=3)
    assert play_bot_game("ico", bots, seed=3) == first
    assert play_bot_game("ico", bots, seed=4).actions != first.actions


@pytest.mark.parametrize("options", [{"level": "4"}, {"level": "4", "start_face": "D3"}])
def test_level_4_games_between_hard_bots_end(options: dict[str, Any]) -> None:
    """At Level 4 players may roll around full faces for ever; hard heads for an end once
    nobody has placed for a while (``max_actions`` would stop a game that never ends)."""
    played = play_bot_game("ico", [get_bot("ico", "hard")] * 2, options=options, seed=1,
                           max_actions=400)
    assert played.outcome["reason"]


# --- the model the search plays on ----------------------------------------------------------


def same(table: Table, other: Table) -> bool:
    """Equal positions; the figures' worth (kept by sums and differences) up to rounding."""
    return (replace(table, progress=[]) == replace(other, progress=[])
            and table.progress == pytest.approx(other.progress))


@pytest.mark.parametrize(("players", "options"), CASES[:6],
                         ids=[f"{n}p-" + (",".join(o) or "defaults") for n, o in CASES[:6]])
def test_the_bot_table_plays_the_rules(players: int, options: dict[str, Any]) -> None:
    """The moves the model offers are the legal actions, and each move ends the game (with
    the same winner) or leads to the position the rules reach."""
    checked = 0
    for seed in range(3):
        levels = ["random"] * players
        for state, seat, _ in bot_game_states(levels, seed, options):
            table = Table.from_view(GAME.view(state, seat))
            moves = table.moves()
            assert sorted(map(action_text, moves)) == sorted(GAME.legal_actions(state, seat))
            for move in moves:
                result, record = table.play(move)
                after = GAME.apply(state, seat, action_text(move))
                outcome = GAME.outcome(after)
                if outcome is None:
                    assert result is None
                    assert same(table, Table.from_view(GAME.view(after, seat)))
                elif outcome["draw"]:
                    assert result == -1
                else:
                    assert result == outcome["winners"][0] == seat
                table.undo(move, record)
                assert same(table, Table.from_view(GAME.view(state, seat)))
                checked += 1
    assert checked > 50


# --- play ------------------------------------------------------------------------------------

#: Blue holds two edges of T1; red on T0 may use any of its three edges (count balance), and
#: using N-U1 rolls the face onto T1, where blue must place on N-U1 and covers T1.
TRAP = {"N-U2": "b", "U1-U2": "b"}


def test_the_trap_is_real() -> None:
    state = GAME.apply(position(TRAP, active="T0"), 0, "place N-U1")
    assert GAME.legal_actions(state, 1) == ["place N-U1"]
    outcome = GAME.outcome(GAME.apply(state, 1, "place N-U1"))
    assert outcome is not None and outcome["winners"] == [1]


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_bot_does_not_roll_the_face_to_where_the_next_player_wins(level: str) -> None:
    state = position(TRAP, active="T0")
    legal = GAME.legal_actions(state, 0)
    assert sorted(legal) == ["place N-U0", "place N-U1", "place U0-U1"]
    for seed in range(6):
        choice = get_bot("ico", level).choose(GAME.view(state, 0), legal, random.Random(seed))
        assert choice != "place N-U1"


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_bot_claims_its_win_when_claims_are_manual(level: str) -> None:
    state = position({"N-U0": "r", "U0-U1": "r"}, active="T0", claim="manual")
    placed = GAME.apply(state, 0, "place N-U1")
    legal = GAME.legal_actions(placed, 0)
    assert "claim" in legal
    choice = get_bot("ico", level).choose(GAME.view(placed, 0), legal, random.Random(0))
    assert choice == "claim"


# --- a seeded strength check small enough for CI (the full run is bench/bots.py) ---------------


def wins(level: str, against: str, games: int) -> int:
    """Games ``level`` wins against ``against``, seats alternating, seeds 0…games−1."""
    return sum(duel("ico", level, against, seed) == "win" for seed in range(games))


def test_hard_beats_random_in_seven_of_eight_seeded_games() -> None:
    # A bot no better than random would win 7 of 8 with a chance of 3.5%.
    assert wins("hard", "random", 8) >= 7


def test_hard_beats_easy_in_nine_of_twelve_seeded_games() -> None:
    # A bot no better than easy would win 9 of 12 with a chance of 7%.
    assert wins("hard", "easy", 12) >= 9
