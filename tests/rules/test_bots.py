"""The bot interface shared by every game: the registry, what a bot is handed, the harness."""

from __future__ import annotations

import doctest
import importlib
import inspect
import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from rules import CHANCE, RulesError, get_game
from rules.bot_games import play_bot_game
from rules.bots import BOT_GAMES, LEVELS, Bot, NoLegalAction, UnknownBot, get_bot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", ["rules.bots", "rules.bot_games", "rules.evaluation"])
def test_docstring_examples_hold(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("game_id", BOT_GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_game_with_bots_has_every_level(game_id: str, level: str) -> None:
    bot = get_bot(game_id, level)
    assert isinstance(bot, Bot)
    assert bot.level == level


def test_bots_exist_for_hacktrick_ico_and_2_1_6() -> None:
    assert set(BOT_GAMES) == {"hacktrick", "ico", "dice216"}


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(UnknownBot, match="'chess'"):
        get_bot("chess", "easy")


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(UnknownBot, match=r"'expert'.*random, easy, hard"):
        get_bot("ico", "expert")


@pytest.mark.parametrize("game_id", BOT_GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_is_handed_a_view_legal_actions_and_a_generator_only(
    game_id: str, level: str
) -> None:
    parameters = list(inspect.signature(get_bot(game_id, level).choose).parameters)
    assert parameters == ["view", "legal", "rng"]


@pytest.mark.parametrize("game_id", BOT_GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_a_seat_with_nothing_to_do_gets_a_clear_error(game_id: str, level: str) -> None:
    game = get_game(game_id)
    state = game.start(["Aiko", "Ben"], seed=1)
    with pytest.raises(NoLegalAction, match="no legal action"):
        get_bot(game_id, level).choose(game.view(state, 1), [], random.Random(0))


class Watching:
    """Passes each question on to a real bot and keeps what it was asked."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.level = bot.level
        self.asked: list[tuple[Mapping[str, Any], list[str]]] = []

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        self.asked.append((view, list(legal)))
        return self.bot.choose(view, legal, rng)


def test_the_harness_rolls_the_die_and_bots_only_place() -> None:
    watchers = [Watching(get_bot("dice216", "hard")), Watching(get_bot("dice216", "easy"))]
    played = play_bot_game("dice216", watchers, seed=5)
    rolls = [action for seat, action in played.actions if seat == CHANCE]
    assert len(rolls) == 36 and all(action.startswith("roll ") for action in rolls)
    for seat, watcher in enumerate(watchers):
        assert len(watcher.asked) == 18
        for view, legal in watcher.asked:
            assert view["you"] == seat and view["to_act"] == [seat]
            assert view["pending_roll"] is not None
            assert all(action.startswith("place ") for action in legal)


class Cheating:
    """A player that answers something outside its legal list."""

    level = "easy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        return "roll 6"


def test_the_harness_refuses_an_action_outside_the_legal_list() -> None:
    with pytest.raises(RulesError, match=r"seat 0 chose 'roll 6'.*not among its legal"):
        play_bot_game("dice216", [Cheating(), get_bot("dice216", "random")], seed=1)


def test_the_harness_wants_one_bot_per_player() -> None:
    with pytest.raises(RulesError, match="2 bots for 3 players"):
        play_bot_game("ico", [get_bot("ico", "easy")] * 2, players=["A", "B", "C"])


@pytest.mark.parametrize("game_id", BOT_GAMES)
def test_a_bot_decides_the_same_from_the_view_as_json(game_id: str) -> None:
    """A view that went through JSON (as it reaches a phone) gives the same choices."""
    game = get_game(game_id)
    for level in LEVELS:
        bot = get_bot(game_id, level)
        played = play_bot_game(game_id, [bot, bot], seed=11)
        state = game.start(["Aiko", "Ben"], seed=11)
        for seat, action in played.actions[:30]:
            if seat != CHANCE:
                view = game.view(state, seat)
                legal = list(game.legal_actions(state, seat))
                again = json.loads(json.dumps(view))
                assert bot.choose(again, legal, random.Random(seat)) == bot.choose(
                    view, legal, random.Random(seat)
                )
            state = game.apply(state, seat, action)


@pytest.mark.parametrize("game_id", BOT_GAMES)
def test_a_bot_leaves_the_view_it_is_handed_as_it_was(game_id: str) -> None:
    """Views are shared snapshots (the same one goes to phones): a bot only reads them."""
    game = get_game(game_id)
    for level in LEVELS:
        bot = get_bot(game_id, level)
        played = play_bot_game(game_id, [bot, bot], seed=12)
        state = game.start(["Aiko", "Ben"], seed=12)
        for seat, action in played.actions[:30]:
            if seat != CHANCE:
                view = game.view(state, seat)
                before = json.dumps(view, sort_keys=True)
                bot.choose(view, list(game.legal_actions(state, seat)), random.Random(0))
                assert json.dumps(view, sort_keys=True) == before
            state = game.apply(state, seat, action)


SCRIPT = """
import json, sys
from rules.bot_games import play_bot_game
from rules.bots import get_bot
games = {}
for game_id in ("hacktrick", "ico", "dice216"):
    bots = [get_bot(game_id, "hard"), get_bot(game_id, "easy")]
    games[game_id] = play_bot_game(game_id, bots, seed=7).actions
print(json.dumps(games))
"""


def test_a_seeded_bot_game_replays_the_same_in_another_process() -> None:
    """No choice depends on the order of a set of strings (Python's hash seed)."""
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True,
                              capture_output=True, text=True, timeout=120)
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    assert set(runs[0]) == {"hacktrick", "ico", "dice216"}
