"""The extended levels 2, 2+ and 4: what ico.md states of them, and nothing more."""

from __future__ import annotations

import pytest

from rules import IllegalAction, OptionError
from rules.ico import GAME
from rules.ico.figures import figures_for
from rules.ico.geometry import OPPOSITE_EDGE
from tests.rules.ico.positions import placements, position

NS_BELT = [f"U{i}-L{i}" for i in range(5)] + [f"U{(i + 1) % 5}-L{i}" for i in range(5)]
# T0 and its neighbours T4, A0, T1: the outline of that double triangle.
DOUBLE_T0 = ["N-U4", "U4-U0", "U0-L0", "U1-L0", "U1-U2", "N-U2"]
# N-U0 with its opposite S-L2, and the two opposite pairs perpendicular to it.
PERPENDICULAR = ["N-U0", "S-L2", "U2-U3", "L4-L0", "U1-L1", "U4-L3"]


def _owned(edges: list[str], colour: str = "r") -> dict[str, str]:
    return dict.fromkeys(edges, colour)


# --- Level 2 --------------------------------------------------------------------------------


def test_level_2_a_single_face_does_not_win() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, level="2"), 0, "place U0-U1")
    assert GAME.outcome(state) is None


def test_level_2_owning_a_zigzag_belt_wins() -> None:
    state = position(_owned([e for e in NS_BELT if e != "U1-L0"]), active="A0", level="2")
    assert "U1-L0" in placements(state)
    outcome = GAME.outcome(GAME.apply(state, 0, "place U1-L0"))
    assert outcome is not None and outcome["winners"] == [0]
    assert sorted(outcome["edges"]) == sorted(NS_BELT)


def test_level_2_keeps_colour_balance() -> None:
    state = position({"N-U0": "r", "N-U1": "r", "U0-U1": "bb"}, level="2")
    assert placements(state) == ["U0-U1"]


def test_level_2_no_redoubling_while_an_edge_lacks_your_colour() -> None:
    state = position({"N-U0": "r", "U0-U1": "b", "N-U1": "b"}, level="2")
    assert "N-U0" not in placements(state)


def test_level_2_redoubling_on_a_full_face_goes_on_the_fewest_markers() -> None:
    state = position({"N-U0": "r", "U0-U1": "rb", "N-U1": "r"}, level="2")
    assert sorted(placements(state)) == ["N-U0", "N-U1"]
    with pytest.raises(IllegalAction, match="redoubling forbids U0-U1"):
        GAME.apply(state, 0, "place U0-U1")
    assert GAME.apply(state, 0, "place N-U0").on_edge("N-U0") == (2, 0)


def test_level_2_no_third_marker_of_a_colour_on_an_edge() -> None:
    state = position({"N-U0": "rr", "U0-U1": "rb", "N-U1": "rbb"}, level="2")
    assert placements(state) == ["U0-U1"]
    full = position({"N-U0": "rr", "U0-U1": "rr", "N-U1": "rr"}, level="2")
    assert GAME.legal_actions(full, 0) == ["roll N-U0", "roll U0-U1", "roll N-U1"]


# --- Level 2+ -------------------------------------------------------------------------------


def test_level_2_plus_owning_a_double_triangle_wins() -> None:
    state = position(_owned([e for e in DOUBLE_T0 if e != "U1-L0"]), active="A0", level="2+")
    outcome = GAME.outcome(GAME.apply(state, 0, "place U1-L0"))
    assert outcome is not None and outcome["winners"] == [0]
    assert sorted(outcome["edges"]) == sorted(DOUBLE_T0)


def test_level_2_plus_a_single_face_does_not_win() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, level="2+"), 0, "place U0-U1")
    assert GAME.outcome(state) is None


def test_harder_level_2_plus_needs_the_opposite_double_triangle_too() -> None:
    alone = position(_owned([e for e in DOUBLE_T0 if e != "U1-L0"]), active="A0", level="2+",
                     double_opposite=True)
    assert GAME.outcome(GAME.apply(alone, 0, "place U1-L0")) is None
    opposite = [OPPOSITE_EDGE[e] for e in DOUBLE_T0]
    both = position(_owned([e for e in DOUBLE_T0 if e != "U1-L0"] + opposite), active="A0",
                    level="2+", double_opposite=True)
    outcome = GAME.outcome(GAME.apply(both, 0, "place U1-L0"))
    assert outcome is not None and sorted(outcome["edges"]) == sorted(DOUBLE_T0 + opposite)


def test_harder_variant_is_refused_outside_level_2_plus() -> None:
    with pytest.raises(OptionError) as refusal:
        GAME.start(["a", "b"], {"level": "2", "double_opposite": True})
    assert refusal.value.option == "double_opposite"


# --- Level 4 --------------------------------------------------------------------------------


def test_level_4_three_perpendicular_pairs_of_opposite_edges_win() -> None:
    state = position(_owned(PERPENDICULAR[1:]), level="4")
    outcome = GAME.outcome(GAME.apply(state, 0, "place N-U0"))
    assert outcome is not None and outcome["winners"] == [0]
    assert sorted(outcome["edges"]) == sorted(PERPENDICULAR)


def test_level_4_a_single_face_does_not_win() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, level="4"), 0, "place U0-U1")
    assert GAME.outcome(state) is None


def test_level_4_allows_one_marker_per_edge_in_total() -> None:
    state = position({"N-U0": "b"}, level="4")
    assert sorted(placements(state)) == ["N-U1", "U0-U1"]
    with pytest.raises(IllegalAction, match=r"count balance forbids N-U0.*one marker per edge"):
        GAME.apply(state, 0, "place N-U0")


def test_level_4_full_face_is_a_move_only_turn_where_level_1_would_place() -> None:
    markers = {"N-U0": "b", "U0-U1": "b", "N-U1": "r"}
    assert sorted(placements(position(markers, level="1"))) == ["N-U0", "U0-U1"]
    state = position(markers, level="4")
    assert GAME.legal_actions(state, 0) == ["roll N-U0", "roll U0-U1", "roll N-U1"]
    assert "one per edge" in GAME.view(state, 0)["balance_reason"]


def test_level_4_full_board_is_a_draw() -> None:
    markers: dict[str, str] = {}
    for figure in figures_for("4"):
        edges = sorted(figure.edges - {"U0-U1"})
        for k, edge in enumerate(edges):
            markers[edge] = "r" if k < len(edges) // 2 else "b"
    state = GAME.apply(position(markers, level="4"), 0, "place U0-U1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["winners"] == []
    assert outcome["reason"] == "board_full"


# --- the option ----------------------------------------------------------------------------


def test_level_3_is_not_offered() -> None:
    level = next(o for o in GAME.options if o.name == "level")
    assert "3" not in level.choices
    assert "Level 3 is unknown" in level.help
    with pytest.raises(OptionError) as refusal:
        GAME.start(["a", "b"], {"level": "3"})
    assert refusal.value.option == "level"


def test_extended_levels_are_marked_extended() -> None:
    level = next(o for o in GAME.describe()["options"] if o["name"] == "level")
    assert level["choices"] == ["1", "1+", "2", "2+", "4"]
    assert level["extended"] == ["2", "2+", "4"]
    assert GAME.view(position(level="2+"), None)["extended"] is True
    assert GAME.view(position(level="1+"), None)["extended"] is False


@pytest.mark.parametrize(
    ("options", "goal"),
    [
        ({"level": "2"}, "the ten edges of a zig-zag belt"),
        ({"level": "2+"}, "the six edges around a double triangle"),
        ({"level": "2+", "double_opposite": True}, "a double triangle and around its opposite"),
        ({"level": "4"}, "three perpendicular pairs of opposite edges"),
    ],
)
def test_false_claim_names_the_level_goal(options: dict[str, object], goal: str) -> None:
    state = position({"N-U0": "r", "U0-U1": "r", "N-U1": "r"}, claim="manual", **options)
    with pytest.raises(IllegalAction, match=f"no win to claim: red does not cover .*{goal}"):
        GAME.apply(state, 0, "claim")
