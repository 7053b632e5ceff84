"""The shared conformance suite on Hacktrick, for both card modes and several options."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.bots import LEVELS, get_bot
from rules.hacktrick import GAME, HacktrickState
from rules.hacktrick.actions import all_action_texts
from tests.rules.conformance import bot_picker, check_conformance
from tests.rules.hacktrick.leaks import no_leaks


def illegal_examples(state: HacktrickState, seat: int) -> list[str]:
    """A sample of well-formed actions the rules must refuse here (e.g. the rightmost card)."""
    legal = set(GAME.legal_actions(state, seat))
    refused = [text for text in all_action_texts() if text not in legal]
    return random.Random(state.turn * 31 + state.round).sample(refused, min(8, len(refused)))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"cards": "table"},
        {"out_of_markers": "empty_supply", "target": 3},
        {"x2_marker": False, "declare_after_draw": True, "starter": "winner", "target": 3},
        {"cards": "table", "out_of_markers": "empty_supply", "declare_after_draw": True,
         "target": 3},
        {"ask_under_play": True, "declare_after_draw": True, "target": 3},
    ],
    ids=["defaults", "table", "empty_supply", "no_x2_draw_declare_winner", "table_variants",
         "ask_under_play"],
)
def test_conformance(options: dict[str, Any]) -> None:
    checked = check_conformance(
        GAME, ["Aiko", "Ben"], options, seeds=range(5),
        leak_check=no_leaks, illegal_examples=illegal_examples,
    )
    assert checked > 100


@pytest.mark.parametrize("level", LEVELS)
def test_conformance_along_bot_games(level: str) -> None:
    bots = [get_bot("hacktrick", level), get_bot("hacktrick", "hard")]
    checked = check_conformance(
        GAME, ["Aiko", "Ben"], {"target": 2}, seeds=range(2), pick=bot_picker(GAME, bots),
        leak_check=no_leaks, illegal_examples=illegal_examples,
    )
    assert checked > 30
