"""The shared conformance suite over many option combinations and player counts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from rules import CHANCE
from rules.bots import LEVELS, get_bot
from rules.dice216 import GAME, State
from tests.rules.conformance import bot_picker, check_conformance


def nothing_is_secret(state: State, viewer: int | None, view: dict[str, Any]) -> None:
    """2 1 6 has no secrets: every viewer sees what a spectator sees."""
    assert {**view, "you": None} == GAME.view(state, None)


def illegal_examples(state: State, seat: int) -> Iterable[str]:
    size, faces = state.setup.size, state.setup.die_faces
    if seat == CHANCE:
        return [f"roll {faces + 1}", "roll 0", "place 1 1"]
    taken = [i for i, mark in enumerate(state.cells) if mark is not None]
    examples = [f"place {size + 1} 1", f"place 1 {size + 1}", "place 0 0", "roll 1"]
    if taken:
        examples.append(f"place {taken[0] // size + 1} {taken[0] % size + 1}")
    return examples


CASES = [
    (["Aiko", "Ben"], {}, 8),
    (["Aiko", "Ben"], {"line_total": "own", "diagonals": True, "area": True}, 6),
    (["Aiko", "Ben"], {"size": 4, "area": True, "first_player": 1}, 12),
    (["Aiko", "Ben"], {"size": 8, "die_faces": 10, "first_player": "random"}, 3),
    (["Aiko", "Ben", "Chie"], {}, 2),
    (["Aiko", "Ben", "Chie", "Dai"],
     {"diagonals": True, "area": True, "line_total": "own", "first_player": "random"}, 2),
]


@pytest.mark.parametrize(
    ("players", "options", "seeds"),
    CASES,
    ids=[f"{len(p)}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "defaults")
         for p, o, _ in CASES],
)
def test_conformance(players: list[str], options: dict[str, object], seeds: int) -> None:
    checked = check_conformance(
        GAME, players, options, seeds=range(seeds),
        leak_check=nothing_is_secret, illegal_examples=illegal_examples,
    )
    size = GAME.start(players, options).setup.size
    assert checked >= seeds * 2 * size * size


@pytest.mark.parametrize("level", LEVELS)
def test_conformance_along_bot_games(level: str) -> None:
    bots = [get_bot("dice216", level), get_bot("dice216", "hard")]
    checked = check_conformance(
        GAME, ["Aiko", "Ben"], {"diagonals": True}, seeds=range(2),
        pick=bot_picker(GAME, bots), leak_check=nothing_is_secret,
        illegal_examples=illegal_examples,
    )
    assert checked >= 2 * 2 * 36
