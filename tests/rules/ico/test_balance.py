"""Balance rules of Levels 1 and 1+: colour balance first, then count balance, ties to the mover.

The active face is T0, whose edges are N-U0, U0-U1 and N-U1; red (seat 0) is to move.
"""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.ico import GAME
from tests.rules.ico.positions import placements, position


def test_empty_face_allows_all_three_edges() -> None:
    assert sorted(placements(position())) == ["N-U0", "N-U1", "U0-U1"]


def test_colour_balance_forces_the_only_edge_without_your_colour() -> None:
    state = position({"N-U0": "r", "N-U1": "r", "U0-U1": "b"})
    assert placements(state) == ["U0-U1"]


def test_colour_balance_refusal_names_the_rule_and_the_edge() -> None:
    state = position({"N-U0": "r", "N-U1": "r"})
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, 0, "place N-U0")
    message = str(refusal.value)
    assert "colour balance" in message
    assert "you must use edge U0-U1: it is the only edge of this face without your colour" in (
        message
    )


def test_colour_balance_with_two_free_edges_takes_the_one_with_fewer_markers() -> None:
    state = position({"N-U0": "r", "U0-U1": "by", "N-U1": "b"}, players=3)
    assert placements(state) == ["N-U1"]
    with pytest.raises(IllegalAction, match=r"colour balance forbids U0-U1.*N-U1"):
        GAME.apply(state, 0, "place U0-U1")


def test_colour_balance_tie_between_two_free_edges_leaves_the_choice() -> None:
    state = position({"N-U0": "r", "U0-U1": "b", "N-U1": "b"})
    assert sorted(placements(state)) == ["N-U1", "U0-U1"]


def test_colour_balance_takes_priority_over_count_balance() -> None:
    # N-U0 holds the fewest markers but already carries red: count balance alone would pick it.
    state = position({"N-U0": "r", "U0-U1": "by", "N-U1": "byg"}, players=4)
    assert placements(state) == ["U0-U1"]


def test_count_balance_one_one_three_allows_the_edges_with_one() -> None:
    state = position({"N-U0": "b", "U0-U1": "y", "N-U1": "byg"}, players=4)
    assert sorted(placements(state)) == ["N-U0", "U0-U1"]
    with pytest.raises(IllegalAction, match="count balance forbids N-U1"):
        GAME.apply(state, 0, "place N-U1")


def test_count_balance_single_least_edge_is_forced() -> None:
    state = position({"N-U0": "b", "U0-U1": "", "N-U1": "by"}, players=3)
    assert placements(state) == ["U0-U1"]


def test_count_balance_equal_counts_leave_any_edge() -> None:
    state = position({"N-U0": "b", "U0-U1": "y", "N-U1": "g"}, players=4)
    assert sorted(placements(state)) == ["N-U0", "N-U1", "U0-U1"]


def test_markers_on_other_faces_do_not_matter() -> None:
    state = position({"S-L0": "b", "U1-L0": "b"})
    assert sorted(placements(state)) == ["N-U0", "N-U1", "U0-U1"]


def test_an_edge_off_the_active_face_is_refused_naming_the_face() -> None:
    with pytest.raises(IllegalAction, match="S-L0 is not an edge of the active face T0"):
        GAME.apply(position(), 0, "place S-L0")


def test_view_explains_the_balance_rule_to_the_mover() -> None:
    view = GAME.view(position({"N-U0": "r", "N-U1": "r"}), 0)
    assert view["legal_edges"] == ["U0-U1"]
    assert view["balance_reason"] == (
        "colour balance: you must use edge U0-U1: it is the only edge of this face without your "
        "colour"
    )


def test_never_two_markers_of_one_colour_on_an_edge_at_level_1() -> None:
    state = position({"N-U0": "r", "U0-U1": "b", "N-U1": "b"})
    assert "N-U0" not in placements(state)
    with pytest.raises(IllegalAction, match="colour balance"):
        GAME.apply(state, 0, "place N-U0")
