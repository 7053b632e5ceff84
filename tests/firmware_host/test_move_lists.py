"""The move log's lists (``Companion.moves``): each version's list goes on from the last one
built for the game (one action replayed, not the whole game), and is built again from the start
when the game's actions no longer begin with it (an undo)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.companion import Companion
from rules import CHANCE


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    """A companion with the box's own games (2 1 6 shows its figures after every move)."""
    with Companion.open(tmp_path / "data") as opened:
        yield opened


def totals(companion: Companion, game_id: int) -> Any:
    return companion.view(game_id, None)["totals"]


def test_each_list_ends_with_the_figures_of_the_game_at_its_version(
        companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    played = []
    for index in range(6):
        companion.act(game_id, CHANCE, f"roll {index % 6 + 1}", "test")
        mover = companion.view(game_id, None)["mover"]
        companion.act(game_id, mover, f"place 1 {index + 1}")
        played += [f"roll {index % 6 + 1}", f"place 1 {index + 1}"]
        moves = companion.moves(game_id)
        assert [m["action"] for m in moves] == played
        assert [m["step"] for m in moves] == list(range(1, len(played) + 1))
        assert moves[-1]["scores"] == totals(companion, game_id)
    companion.undo(game_id)
    played.pop()
    moves = companion.moves(game_id)
    assert [m["action"] for m in moves] == played
    assert moves[-1]["scores"] == totals(companion, game_id)
    companion.act(game_id, companion.view(game_id, None)["mover"], "place 2 6")
    moves = companion.moves(game_id)
    assert [m["action"] for m in moves] == [*played, "place 2 6"]
    assert moves[-1]["scores"] == totals(companion, game_id)


def test_a_live_update_replays_only_the_new_action(
        companion: Companion, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    for index in range(4):
        companion.act(game_id, CHANCE, "roll 2", "test")
        companion.act(game_id, companion.view(game_id, None)["mover"], f"place 1 {index + 1}")
    companion.moves(game_id)  # the list at this version, built from the start
    rules = companion._read.snapshots.game(game_id).box.rules
    applied: list[str] = []
    starts: list[int] = []
    apply, start = rules.apply, rules.start
    monkeypatch.setattr(rules, "apply", lambda state, seat, action: (
        applied.append(action), apply(state, seat, action))[1])
    monkeypatch.setattr(rules, "start", lambda *args, **kwargs: (
        starts.append(1), start(*args, **kwargs))[1])
    before = companion.moves(game_id)
    companion.act(game_id, CHANCE, "roll 5", "test")
    applied.clear()  # the session's own apply
    after = companion.moves(game_id)
    assert after[-1]["action"] == "roll 5"
    assert applied == ["roll 5"] and starts == []
    # the moves it went on from are the very same objects (the live streams rely on it)
    assert all(a is b for a, b in zip(before, after[:-1], strict=True))
    companion.act(game_id, companion.view(game_id, None)["mover"], "place 2 1")
    assert companion.moves(game_id)[-1]["action"] == "place 2 1"
    companion.undo(game_id)  # the place: the actions no longer begin with the last list
    applied.clear()  # the session's own replay, too
    starts.clear()
    assert [m["action"] for m in companion.moves(game_id)][-2:] == ["place 1 4", "roll 5"]
    assert starts == [1] and len(applied) == 9  # from the start
    assert companion.moves(game_id)[0] is not before[0]  # built anew
