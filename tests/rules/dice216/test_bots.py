"""2 1 6 bots: legal placements only, one game per seed, a score model that agrees with the
score sheet, and placements that follow what the lines are worth.

2 1 6 has no secrets; what a bot cannot know is the rolls to come, and those are chance's
actions, drawn by the harness after the bot has placed (``tests/rules/test_bots.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from rules import CHANCE
from rules.bot_games import duel, play_bot_game
from rules.bots import LEVELS, get_bot
from rules.dice216 import GAME, Mark, State
from rules.dice216.bots import Grid, expected_totals, projected

NAMES = ["Aiko", "Ben", "Chie", "Dai"]
CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"line_total": "own", "diagonals": True, "area": True}),
    (2, {"size": 4, "area": True, "first_player": 1}),
    (2, {"size": 8, "diagonals": True, "diagonal_cells": "six"}),
    (3, {}),
    (4, {"diagonals": True, "area": True, "line_total": "own"}),
]
IDS = [f"{n}p-" + (",".join(o) or "defaults") for n, o in CASES]


def bot_game_states(
    levels: list[str], seed: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[State, int, str]]:
    """Every action of one seeded bot game (chance's rolls included) and the state before it."""
    played = play_bot_game("dice216", [get_bot("dice216", lv) for lv in levels],
                           options=options, seed=seed)
    state = GAME.start(NAMES[: len(levels)], options, seed=seed)
    for seat, action in played.actions:
        yield state, seat, action
        state = GAME.apply(state, seat, action)
    assert GAME.outcome(state) == played.outcome


@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
@pytest.mark.parametrize("level", LEVELS)
def test_bots_place_only_on_empty_cells_to_the_end(
    level: str, players: int, options: dict[str, Any]
) -> None:
    levels = [level, "random", "random", "random"][:players]
    placed = 0
    for state, seat, action in bot_game_states(levels, seed=2, options=options):
        assert action in GAME.legal_actions(state, seat)
        placed += seat != CHANCE
    assert placed == len(GAME.start(NAMES[:players], options).cells)


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_replays_the_same_game(level: str) -> None:
    bots = [get_bot("dice216", level), get_bot("dice216", "easy")]
    first = play_bot_game("dice216", bots, seed=3)
    assert play_bot_game("dice216", bots, seed=3) == first
    assert play_bot_game("dice216", bots, seed=4).actions != first.actions


# --- the score model ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
def test_easy_reads_the_projection_the_score_sheet_shows(
    players: int, options: dict[str, Any]
) -> None:
    for state, seat, _ in bot_game_states(["random"] * players, seed=5, options=options):
        if seat != CHANCE:
            assert projected(Grid(GAME.view(state, seat))) == pytest.approx(
                state.sheet.projected)


@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
def test_expected_totals_of_a_full_grid_are_its_final_totals(
    players: int, options: dict[str, Any]
) -> None:
    for seed in range(3):
        *_, (last, seat, action) = bot_game_states(["random"] * players, seed, options)
        final = GAME.apply(last, seat, action)
        view = {**GAME.view(final, 0), "you": 0}
        assert expected_totals(Grid(view)) == pytest.approx(final.sheet.totals)


# --- placements --------------------------------------------------------------------------------


def board(owners: list[str], values: list[str], roll: int, mover: int = 0) -> State:
    """A 6×6 game with cells given as owner letters (A seat 0, B seat 1, '.' empty) and
    digits, and ``roll`` waiting for ``mover``."""
    cells = tuple(
        None if owner == "." else Mark(int(value), "AB".index(owner))
        for owner_row, value_row in zip(owners, values, strict=True)
        for owner, value in zip(owner_row, value_row, strict=True)
    )
    return replace(GAME.start(["Aiko", "Ben"]), cells=cells, mover=mover, pending_roll=roll)


#: Two cells left, a 6 to place. Row 1 and column 1 stay the mover's (A) whoever takes
#: (1, 1); row 6 and column 6 stay B's whoever takes (6, 6).
ENDGAME = board(
    [".AAAAB", "AABABB", "ABABAB", "AABABB", "ABBBAA", "BBBBA."],
    ["111111"] * 6,
    roll=6,
)


def dominators(state: State) -> dict[str, int | None]:
    return {f"{line['kind']} {line['index']}": line["dominator"]
            for line in GAME.view(state, None)["lines"]}


@pytest.mark.parametrize("mine", ["place 1 1", "place 6 6"])
@pytest.mark.parametrize("theirs", [1, 6])
def test_the_endgame_lines_belong_to_the_same_player_whoever_takes_the_cells(
    mine: str, theirs: int
) -> None:
    played = GAME.apply(ENDGAME, 0, mine)
    last = list(GAME.legal_actions(GAME.apply(played, CHANCE, f"roll {theirs}"), 1))
    final = GAME.apply(GAME.apply(played, CHANCE, f"roll {theirs}"), 1, last[0])
    owners = dominators(final)
    assert owners["row 1"] == owners["column 1"] == 0
    assert owners["row 6"] == owners["column 6"] == 1


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_six_goes_to_the_bots_own_lines_not_the_opponents(level: str) -> None:
    legal = list(GAME.legal_actions(ENDGAME, 0))
    assert sorted(legal) == ["place 1 1", "place 6 6"]
    for seed in range(4):
        choice = get_bot("dice216", level).choose(GAME.view(ENDGAME, 0), legal,
                                                 random.Random(seed))
        assert choice == "place 1 1"


# --- a seeded strength check small enough for CI (the full run is bench/bots.py) ---------------


def wins(level: str, against: str, games: int) -> int:
    """Games ``level`` wins against ``against``, seats alternating, seeds 0…games−1."""
    return sum(duel("dice216", level, against, seed) == "win" for seed in range(games))


def test_hard_beats_random_in_nine_of_ten_seeded_games() -> None:
    # A bot no better than random would win 9 of 10 with a chance of 1%.
    assert wins("hard", "random", 10) >= 9


def test_hard_beats_easy_in_thirteen_of_twenty_seeded_games() -> None:
    # A bot no better than easy would win 13 of 20 with a chance of 13%.
    assert wins("hard", "easy", 20) >= 13
