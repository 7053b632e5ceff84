"""Undo on the four real games: which of their actions the host may take back."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from firmware_host.errors import NotAllowed
from rules import CHANCE, get_game


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Companion]:
    companion = Companion.open(tmp_path / "data")
    yield companion
    companion.close()


def first_legal(rules_state: object, game: str, seat: int, prefix: str = "") -> str:
    """The first legal action of ``seat`` starting with ``prefix``, from the rules themselves."""
    actions = islice(iter(get_game(game).legal_actions(rules_state, seat)), 200)
    return next(a for a in actions if a.startswith(prefix))


def assert_undoable(box: Companion, gid: int) -> None:
    before = box.view(gid, None)["version"]
    assert box.view(gid, None)["can_undo"] is True
    box.undo(gid)
    assert box.view(gid, None)["version"] > before


def assert_refused(box: Companion, gid: int, reason: str) -> None:
    assert box.view(gid, None)["can_undo"] is False
    with pytest.raises(NotAllowed, match=reason):
        box.undo(gid)


def test_dice216_roll_is_chance_and_placement_is_undoable(box: Companion) -> None:
    gid = box.create_game("dice216", ["Aiko", "Ben"], seed=1)
    box.act(gid, CHANCE, "roll 4")
    assert_refused(box, gid, "chance")
    seat = box.view(gid, None)["to_act"][0]
    box.act(gid, seat, "place 1 1")
    assert_undoable(box, gid)
    assert box.view(gid, None)["to_act"] == [seat]
    assert box.view(gid, None)["cells"] == box.view(gid, 0)["cells"]


def test_ico_placement_is_undoable(box: Companion) -> None:
    gid = box.create_game("ico", ["Aiko", "Ben"], {"start_face": "random"}, seed=5)
    mirror = get_game("ico").start(["Aiko", "Ben"], {"start_face": "random"}, seed=5)
    seat = box.view(gid, None)["to_act"][0]
    before = box.view(gid, None)
    box.act(gid, seat, first_legal(mirror, "ico", seat))
    assert_undoable(box, gid)
    assert box.view(gid, None)["edges"] == before["edges"]


def test_unlock_secret_is_undoable_before_any_guess(box: Companion) -> None:
    gid = box.create_game("unlock", ["Lock", "Aiko", "Ben"], {"difficulty": "easy"})
    box.act(gid, 0, "secret 1-2-3")
    assert_undoable(box, gid)
    assert box.view(gid, 0)["secret"] is None and box.view(gid, None)["phase"] == "secret"


def test_unlock_guess_that_leaves_the_turn_open_is_undoable(box: Companion) -> None:
    gid = box.create_game("unlock", ["Lock", "Aiko", "Ben"], {"difficulty": "easy"})
    box.act(gid, 0, "secret 1-2-3")
    box.act(gid, 1, "guess 4-5-6")
    assert_undoable(box, gid)
    assert box.view(gid, None)["submitted"] == [] and box.view(gid, 1)["my_guess"] is None
    box.act(gid, 1, "guess 1-2")
    assert box.view(gid, 1)["my_guess"] == "1-2"


def test_unlock_guess_that_completes_the_turn_reveals_and_is_not_undoable(box: Companion) -> None:
    gid = box.create_game("unlock", ["Lock", "Aiko", "Ben"], {"difficulty": "easy"})
    box.act(gid, 0, "secret 1-2-3")
    box.act(gid, 1, "guess 4-5-6")
    box.act(gid, 2, "guess 7-8-9")
    assert box.view(gid, None)["clue_board"]
    assert_refused(box, gid, "revealed")


def test_hacktrick_follows_the_games_own_disclosure_rule(box: Companion) -> None:
    rules = get_game("hacktrick")
    gid = box.create_game("hacktrick", ["Aiko", "Ben"], seed=3)
    mirror = rules.start(["Aiko", "Ben"], None, seed=3)
    seat = box.view(gid, None)["to_act"][0]
    lead = first_legal(mirror, "hacktrick", seat, "lead")
    box.act(gid, seat, lead)  # virtual cards: the lead turns up a card nobody knew
    assert_refused(box, gid, "revealed hidden information")
    mirror = rules.apply(mirror, seat, lead)
    seat = box.view(gid, None)["to_act"][0]
    box.act(gid, seat, first_legal(mirror, "hacktrick", seat, "play"))  # from a known hand
    assert_undoable(box, gid)
