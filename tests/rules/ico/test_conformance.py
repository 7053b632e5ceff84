"""The shared conformance suite over every level, 2/3/4 players, automatic and manual claims."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules.bots import LEVELS, get_bot
from rules.ico import GAME, IcoState
from rules.ico.geometry import EDGE_IDS, FACE
from tests.rules.conformance import bot_picker, check_conformance
from tests.rules.ico.positions import PLAYERS


def illegal_examples(state: IcoState, seat: int) -> Iterator[str]:
    """Placements the balance rules forbid, edges off the face, wrong rolls, false claims."""
    legal = set(GAME.legal_actions(state, seat))
    face = FACE[state.active_face].edges
    off_face = next(e for e in EDGE_IDS if e not in face)
    for edge in (*face, off_face):
        for verb in ("place", "roll"):
            if f"{verb} {edge}" not in legal:
                yield f"{verb} {edge}"
    if "claim" not in legal:
        yield "claim"


def same_for_everyone(state: IcoState, viewer: int | None, view: dict[str, Any]) -> None:
    """Nothing is secret: every viewer's view is the spectator's, but for ``you``."""
    if viewer is None:
        _spectator[:] = [state, view]
        return
    seen, spectator = _spectator
    assert seen is state, "the spectator's view comes first"
    assert {**view, "you": None} == spectator


_spectator: list[Any] = [None, None]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["1", "1+", "2", "2+", "4"])
def test_conformance_automatic_claims(level: str, players: int) -> None:
    checked = check_conformance(
        GAME, PLAYERS[:players], {"level": level}, seeds=range(2),
        leak_check=same_for_everyone, illegal_examples=illegal_examples,
    )
    assert checked > 10


@pytest.mark.parametrize(
    ("level", "players"),
    [("1", 2), ("1", 3), ("1", 4), ("1+", 2), ("1+", 4), ("2", 3), ("2+", 2), ("4", 3)],
)
def test_conformance_manual_claims(level: str, players: int) -> None:
    checked = check_conformance(
        GAME, PLAYERS[:players], {"level": level, "claim": "manual"}, seeds=range(2),
        leak_check=same_for_everyone, illegal_examples=illegal_examples,
    )
    assert checked > 10


def test_conformance_harder_level_2_plus_with_a_turn_cap() -> None:
    check_conformance(
        GAME, PLAYERS[:3], {"level": "2+", "double_opposite": True, "turn_cap": 60,
                            "start_face": "random", "first_player": "random"},
        seeds=range(2), illegal_examples=illegal_examples,
    )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("options", [{}, {"level": "1+", "claim": "manual"}],
                         ids=["defaults", "1+-manual"])
def test_conformance_along_bot_games(level: str, options: dict[str, Any]) -> None:
    bots = [get_bot("ico", level), get_bot("ico", "hard")]
    checked = check_conformance(
        GAME, PLAYERS[:2], options, seeds=range(2), pick=bot_picker(GAME, bots),
        leak_check=same_for_everyone, illegal_examples=illegal_examples,
    )
    assert checked > 10
