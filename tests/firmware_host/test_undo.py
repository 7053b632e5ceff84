"""Undo: only the last action, only while it revealed nothing and involved no chance."""

from __future__ import annotations

import pytest

from firmware_host.companion import Companion
from firmware_host.errors import NotAllowed
from rules import CHANCE
from tests.firmware_host.conftest import OpenCompanion
from tests.firmware_host.test_companion import journal_rows


def test_a_move_in_a_perfect_information_game_can_be_taken_back(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    companion.act(gid, CHANCE, "roll 5")
    before = companion.view(gid, None)
    companion.act(gid, 0, "take")
    assert companion.view(gid, None)["can_undo"] is True
    companion.undo(gid)
    after = companion.view(gid, None)
    assert {k: v for k, v in after.items() if k not in ("version", "can_undo")} == {
        k: v for k, v in before.items() if k not in ("version", "can_undo")}
    companion.act(gid, 0, "pass")
    assert companion.view(gid, None)["totals"] == [0, 0]


def test_a_roll_is_chance_and_cannot_be_taken_back(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    companion.act(gid, CHANCE, "roll 5")
    assert companion.view(gid, None)["can_undo"] is False
    with pytest.raises(NotAllowed, match="chance"):
        companion.undo(gid)


def test_only_the_last_action_is_taken_back(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    companion.act(gid, CHANCE, "roll 5")
    companion.act(gid, 0, "take")
    companion.undo(gid)
    with pytest.raises(NotAllowed, match="chance"):  # now the roll is the last action
        companion.undo(gid)


def test_nothing_to_take_back_at_the_start(companion: Companion) -> None:
    gid = companion.create_game("race", ["a", "b"])
    with pytest.raises(NotAllowed, match="no action"):
        companion.undo(gid)


def test_the_secret_can_be_taken_back_before_any_guess(companion: Companion) -> None:
    gid = companion.create_game("vault", ["Lock", "Gus"])
    companion.act(gid, 0, "secret 3")
    companion.undo(gid)
    assert companion.view(gid, 0)["secret"] is None
    companion.act(gid, 0, "secret 7")
    assert companion.view(gid, 0)["secret"] == 7


def test_a_guess_that_revealed_a_clue_cannot_be_taken_back(companion: Companion) -> None:
    gid = companion.create_game("vault", ["Lock", "Gus"])
    companion.act(gid, 0, "secret 3")
    companion.act(gid, 1, "guess 5")
    assert companion.view(gid, 1)["can_undo"] is False
    with pytest.raises(NotAllowed, match="hid"):
        companion.undo(gid)


def test_a_finished_game_cannot_be_taken_back(companion: Companion) -> None:
    gid = companion.create_game("vault", ["Lock", "Gus"])
    companion.act(gid, 0, "secret 3")
    companion.act(gid, 1, "guess 3")
    with pytest.raises(NotAllowed, match="finished"):
        companion.undo(gid)


def test_undo_keeps_an_audit_row_and_survives_restart(open_companion: OpenCompanion) -> None:
    first = open_companion()
    gid = first.create_game("race", ["a", "b"])
    first.act(gid, CHANCE, "roll 5")
    first.act(gid, 0, "take")
    first.undo(gid)
    assert journal_rows(first, "SELECT n, action, undone IS NOT NULL FROM actions") == [
        (1, "roll 5", 0), (2, "take", 1)]
    first.close()
    second = open_companion()
    assert second.view(gid, None)["totals"] == [0, 0]
    assert second.view(gid, None)["to_act"] == [0]
    second.act(gid, 0, "take")
    assert journal_rows(second, "SELECT n, action, undone IS NULL FROM actions") == [
        (1, "roll 5", 1), (2, "take", 0), (3, "take", 1)]
