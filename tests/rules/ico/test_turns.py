"""A turn: place, roll across the used edge, next seat; wins, the move-only turn, claims, draws.

Positions start on T0 (edges N-U0, U0-U1, N-U1); T0's opposite face is D2 (S-L2, L2-L3, S-L3).
"""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.ico import GAME
from rules.ico.geometry import EDGE_IDS
from tests.rules.ico.positions import PLAYERS, position

T0_AND_D2 = {"N-U0": "r", "N-U1": "r", "S-L2": "r", "L2-L3": "r", "S-L3": "r"}


def test_placing_rolls_the_active_face_across_the_used_edge() -> None:
    state = GAME.apply(position(), 0, "place U0-U1")
    assert state.active_face == "A0"
    assert (state.previous_face, state.last_edge) == ("T0", "U0-U1")
    assert state.on_edge("U0-U1") == (1, 0)
    assert state.markers_left(0) == 29


def test_turns_pass_in_seat_order() -> None:
    state = GAME.start(PLAYERS[:3], {"start_face": "T0", "first_player": 2}, seed=0)
    movers = []
    for _ in range(4):
        movers.append(state.mover)
        state = GAME.apply(state, state.mover, GAME.legal_actions(state, state.mover)[0])
    assert movers == [2, 0, 1, 2]
    assert GAME.view(state, None)["turn"] == 5


def test_acting_out_of_turn_is_refused() -> None:
    with pytest.raises(IllegalAction, match="not seat 1's turn: Aiko"):
        GAME.apply(position(), 1, "place U0-U1")


def test_unknown_action_and_unknown_edge_are_refused_by_name() -> None:
    with pytest.raises(IllegalAction, match="unknown action 'jump'"):
        GAME.apply(position(), 0, "jump")
    with pytest.raises(IllegalAction, match="'U0-L3' is not an edge"):
        GAME.apply(position(), 0, "place U0-L3")
    with pytest.raises(IllegalAction, match="'X9' is not an edge"):
        GAME.apply(position(), 0, "place X9")


def test_edge_may_be_written_in_either_order_and_any_case() -> None:
    assert GAME.apply(position(), 0, "place u1-u0").active_face == "A0"


def test_level_1_covering_a_face_wins_at_once() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}), 0, "place U0-U1")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome["winners"] == [0] and outcome["scores"] == [1, 0]
    assert outcome["figure"] == "face T0"
    assert sorted(outcome["edges"]) == ["N-U0", "N-U1", "U0-U1"]
    assert GAME.to_act(state) == [] and GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.apply(state, 1, "place N-U0")


def test_level_1_win_on_the_face_the_tile_rolls_onto() -> None:
    state = GAME.apply(position({"U1-L0": "r", "U0-L0": "r"}), 0, "place U0-U1")
    assert GAME.outcome(state) is not None
    assert GAME.outcome(state)["figure"] == "face A0"  # type: ignore[index]


def test_other_colours_do_not_complete_your_face() -> None:
    state = GAME.apply(position({"N-U0": "b", "N-U1": "r"}), 0, "place U0-U1")
    assert GAME.outcome(state) is None


def test_level_1_plus_a_single_face_does_not_win() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, level="1+"), 0, "place U0-U1")
    assert GAME.outcome(state) is None
    assert state.mover == 1


def test_level_1_plus_a_face_with_its_opposite_face_wins() -> None:
    state = GAME.apply(position(T0_AND_D2, level="1+"), 0, "place U0-U1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["winners"] == [0]
    assert sorted(outcome["edges"]) == sorted([*T0_AND_D2, "U0-U1"])


def test_level_1_plus_full_face_gives_a_move_only_turn() -> None:
    state = position({"N-U0": "r", "U0-U1": "rb", "N-U1": "r"}, level="1+")
    assert GAME.legal_actions(state, 0) == ["roll N-U0", "roll U0-U1", "roll N-U1"]
    assert GAME.view(state, 0)["phase"] == "move"
    with pytest.raises(IllegalAction, match=r"cannot place.*all three edges of this face carry"):
        GAME.apply(state, 0, "place U0-U1")
    rolled = GAME.apply(state, 0, "roll N-U0")
    assert rolled.active_face == "T4" and rolled.mover == 1
    assert rolled.markers == state.markers


def test_rolling_without_placing_is_refused_while_a_placement_is_allowed() -> None:
    with pytest.raises(IllegalAction, match="you must place a marker first"):
        GAME.apply(position(), 0, "roll U0-U1")


def test_move_only_roll_must_use_an_edge_of_the_active_face() -> None:
    state = position({"N-U0": "r", "U0-U1": "r", "N-U1": "r"}, level="1+")
    with pytest.raises(IllegalAction, match="S-L0 is not an edge of the active face T0"):
        GAME.apply(state, 0, "roll S-L0")


# --- manual claims --------------------------------------------------------------------------


def test_manual_placement_waits_for_the_roll_across_the_same_edge() -> None:
    placed = GAME.apply(position(claim="manual"), 0, "place U0-U1")
    assert (placed.active_face, placed.mover, placed.placed) == ("T0", 0, "U0-U1")
    assert GAME.legal_actions(placed, 0) == ["roll U0-U1"]
    with pytest.raises(IllegalAction, match="rolls across the edge you just used, U0-U1"):
        GAME.apply(placed, 0, "roll N-U0")
    with pytest.raises(IllegalAction, match="already placed this turn"):
        GAME.apply(placed, 0, "place N-U0")
    rolled = GAME.apply(placed, 0, "roll U0-U1")
    assert (rolled.active_face, rolled.mover, rolled.placed) == ("A0", 1, None)


def test_manual_win_is_claimed_after_the_placement() -> None:
    placed = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, claim="manual"), 0, "place U0-U1")
    assert GAME.outcome(placed) is None
    assert GAME.legal_actions(placed, 0) == ["roll U0-U1", "claim"]
    won = GAME.apply(placed, 0, "claim")
    assert GAME.outcome(won)["winners"] == [0]  # type: ignore[index]


def test_overlooked_win_does_not_end_the_game() -> None:
    placed = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, claim="manual"), 0, "place U0-U1")
    rolled = GAME.apply(placed, 0, "roll U0-U1")
    assert GAME.outcome(rolled) is None
    assert GAME.to_act(rolled) == [1]
    assert "claim" not in GAME.legal_actions(rolled, 1)
    with pytest.raises(IllegalAction, match="no win to claim: blue"):
        GAME.apply(rolled, 1, "claim")
    with pytest.raises(IllegalAction, match="not seat 0's turn"):
        GAME.apply(rolled, 0, "claim")


def test_overlooked_win_may_be_claimed_on_a_later_own_turn() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, claim="manual"), 0, "place U0-U1")
    state = GAME.apply(state, 0, "roll U0-U1")
    state = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    state = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    assert state.mover == 0 and state.placed is None
    assert "claim" in GAME.legal_actions(state, 0)
    assert GAME.outcome(GAME.apply(state, 0, "claim"))["winners"] == [0]  # type: ignore[index]


def test_false_claim_is_refused_and_play_continues() -> None:
    state = position({"N-U0": "r"}, claim="manual")
    before = GAME.dump(state)
    assert "claim" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="no win to claim: red does not cover all three edges"):
        GAME.apply(state, 0, "claim")
    assert GAME.dump(state) == before
    assert GAME.apply(state, 0, "place U0-U1").placed == "U0-U1"


def test_claim_is_refused_when_claims_are_automatic() -> None:
    with pytest.raises(IllegalAction, match="claim=auto"):
        GAME.apply(position(), 0, "claim")


def test_manual_level_1_full_face_allows_the_claim_or_a_move_only_roll() -> None:
    state = position({"N-U0": "r", "U0-U1": "r", "N-U1": "r"}, claim="manual")
    assert GAME.legal_actions(state, 0) == ["roll N-U0", "roll U0-U1", "roll N-U1", "claim"]


# --- draws ----------------------------------------------------------------------------------


def test_turn_cap_ends_the_game_in_a_draw() -> None:
    state = GAME.apply(position(turn_cap=2), 0, "place U0-U1")
    assert GAME.outcome(state) is None
    state = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome["winners"] == [] and outcome["draw"] is True
    assert (outcome["reason"], outcome["turn_cap"]) == ("turn_cap", 2)


def test_a_win_on_the_last_turn_beats_the_turn_cap() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}, turn_cap=1), 0, "place U0-U1")
    assert GAME.outcome(state)["winners"] == [0]  # type: ignore[index]


def test_everyone_out_of_markers_is_a_draw() -> None:
    everywhere = {e: "rb" for e in EDGE_IDS}
    everywhere["U0-U1"] = "b"
    state = position(everywhere, claim="manual")
    assert (state.markers_left(0), state.markers_left(1)) == (1, 0)
    state = GAME.apply(state, 0, "place U0-U1")
    state = GAME.apply(state, 0, "roll U0-U1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["winners"] == []
    assert outcome["reason"] == "out_of_markers"


def test_a_player_without_markers_only_rolls() -> None:
    # Level 2 lets a colour hold two markers per edge: red's 30 sit on fifteen edges off T0.
    off_face = [e for e in EDGE_IDS if e not in ("N-U0", "U0-U1", "N-U1")][:15]
    state = position({e: "rr" for e in off_face}, level="2")
    assert state.markers_left(0) == 0
    assert GAME.legal_actions(state, 0) == ["roll N-U0", "roll U0-U1", "roll N-U1"]
    with pytest.raises(IllegalAction, match="no markers left"):
        GAME.apply(state, 0, "place N-U0")
    assert GAME.outcome(GAME.apply(state, 0, "roll N-U0")) is None
