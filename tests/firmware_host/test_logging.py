"""Logs never carry a hidden action: UNLOCK and Hacktrick actions are logged as "seat N acted"."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from rules import CHANCE, get_game


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Companion]:
    companion = Companion.open(tmp_path / "data")
    yield companion
    companion.close()


def test_unlock_secret_and_guesses_never_reach_the_log(
    box: Companion, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    gid = box.create_game("unlock", ["Lock", "Aiko", "Ben"], {"difficulty": "easy"})
    box.act(gid, 0, "secret 1-5-9")
    box.act(gid, 1, "guess 2-5-8")
    box.undo(gid)
    box.act(gid, 1, "guess 4-5-6")
    box.act(gid, 2, "guess 1-5-9")
    text = caplog.text
    for code in ("1-5-9", "2-5-8", "4-5-6"):
        assert code not in text
    assert f"game {gid}: seat 0 acted" in text and f"game {gid}: seat 2 acted" in text


def test_hacktrick_cards_never_reach_the_log(
    box: Companion, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    gid = box.create_game("hacktrick", ["Aiko", "Ben"], seed=3)
    mirror = get_game("hacktrick").start(["Aiko", "Ben"], None, seed=3)
    seat = box.view(gid, None)["to_act"][0]
    lead = next(iter(get_game("hacktrick").legal_actions(mirror, seat)))
    box.act(gid, seat, lead)
    assert f"game {gid}: seat {seat} acted" in caplog.text
    assert lead not in caplog.text


def test_public_actions_are_logged_in_full(
    box: Companion, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    gid = box.create_game("dice216", ["Aiko", "Ben"], seed=1)
    box.act(gid, CHANCE, "roll 3")
    seat = box.view(gid, None)["to_act"][0]
    box.act(gid, seat, "place 2 2")
    assert f"game {gid}: seat -1: roll 3" in caplog.text
    assert f"game {gid}: seat {seat}: place 2 2" in caplog.text
