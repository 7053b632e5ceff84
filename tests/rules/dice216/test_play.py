"""The play of 2 1 6: chance rolls, the mover writes the roll in an empty cell, turns alternate."""

from __future__ import annotations

import pytest

from rules import CHANCE, IllegalAction, RulesError
from rules.dice216 import GAME, State


def rolled(state: State, value: int) -> State:
    return GAME.apply(state, CHANCE, f"roll {value}")


def refused(state: State, seat: int, action: str, reason: str) -> None:
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=reason):
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


def test_game_starts_with_chance_rolling_for_the_first_player() -> None:
    view = GAME.view(GAME.start(["Aiko", "Ben"]), None)
    assert view["to_act"] == [CHANCE]
    assert view["phase"] == "roll"
    assert view["roll_for"] == {"seat": 0, "purpose": "place"}
    assert view["pending_roll"] is None
    assert view["size"] == 6 and view["die_faces"] == 6
    assert view["cells"] == [[None] * 6 for _ in range(6)]


def test_roll_becomes_pending_for_the_mover_to_place() -> None:
    state = rolled(GAME.start(["Aiko", "Ben"]), 4)
    view = GAME.view(state, 0)
    assert view["to_act"] == [0]
    assert view["phase"] == "place"
    assert view["pending_roll"] == 4
    assert view["roll_for"] == {"seat": 0, "purpose": "place"}


def test_chance_may_roll_every_face_of_the_die_and_nothing_else() -> None:
    assert list(GAME.legal_actions(GAME.start(["A", "B"]), CHANCE)) == [
        f"roll {n}" for n in range(1, 7)
    ]
    assert list(GAME.legal_actions(GAME.start(["A", "B"], {"size": 4}), CHANCE)) == [
        f"roll {n}" for n in range(1, 5)
    ]


@pytest.mark.parametrize(
    ("options", "action"),
    [({}, "roll 0"), ({}, "roll 7"), ({"size": 4}, "roll 5"), ({"size": 8}, "roll 9"),
     ({"die_faces": 10}, "roll 11")],
)
def test_roll_outside_the_die_is_refused(options: dict[str, object], action: str) -> None:
    refused(GAME.start(["A", "B"], options), CHANCE, action, "outside 1…")


def test_overridden_die_allows_its_highest_face() -> None:
    state = rolled(GAME.start(["A", "B"], {"die_faces": 10}), 10)
    assert GAME.view(state, None)["pending_roll"] == 10


def test_second_roll_while_one_is_pending_is_refused() -> None:
    refused(rolled(GAME.start(["A", "B"]), 3), CHANCE, "roll 5", "already waiting")


def test_a_player_cannot_roll() -> None:
    refused(GAME.start(["A", "B"]), 0, "roll 3", "chance")


def test_chance_cannot_place() -> None:
    refused(rolled(GAME.start(["A", "B"]), 3), CHANCE, "place 1 1", "chance only rolls")


def test_placing_before_the_roll_is_refused() -> None:
    refused(GAME.start(["A", "B"]), 0, "place 1 1", "rolled")


def test_only_the_mover_places() -> None:
    refused(rolled(GAME.start(["A", "B"]), 3), 1, "place 1 1", "seat 0's turn")


@pytest.mark.parametrize("action", ["place 7 1", "place 1 7", "place 0 3"])
def test_placing_off_the_grid_is_refused(action: str) -> None:
    refused(rolled(GAME.start(["A", "B"]), 3), 0, action, "off the 6×6 grid")


def test_placing_in_a_written_cell_is_refused() -> None:
    state = rolled(GAME.apply(rolled(GAME.start(["A", "B"]), 3), 0, "place 2 2"), 5)
    refused(state, 1, "place 2 2", "already holds 3")


def test_any_empty_cell_may_take_the_roll() -> None:
    state = rolled(GAME.apply(rolled(GAME.start(["A", "B"], {"size": 4}), 3), 0, "place 2 2"), 4)
    legal = list(GAME.legal_actions(state, 1))
    assert len(legal) == 15
    assert "place 2 2" not in legal
    assert {"place 1 1", "place 4 4", "place 2 3"} <= set(legal)


@pytest.mark.parametrize("action", ["roll  4", "Roll 4", "roll 04", "place 1,2", "place 1 2 ",
                                    "roll 4.0", "place 1"])
def test_only_canonical_action_text_is_read(action: str) -> None:
    refused(rolled(GAME.start(["A", "B"]), 4) if "place" in action else GAME.start(["A", "B"]),
            0 if "place" in action else CHANCE, action, "not an action of 2 1 6")


def test_unknown_seat_is_refused() -> None:
    refused(rolled(GAME.start(["A", "B"]), 4), 2, "place 1 1", "no seat 2")
    refused(rolled(GAME.start(["A", "B"]), 4), "0", "place 1 1", "no seat '0'")  # type: ignore[arg-type]


def test_action_that_is_not_text_is_refused() -> None:
    refused(GAME.start(["A", "B"]), CHANCE, 4, "action is text")  # type: ignore[arg-type]


def test_turns_alternate_between_two_players() -> None:
    state = GAME.start(["A", "B"])
    movers = []
    for n in range(4):
        state = rolled(state, 1)
        movers.append(GAME.to_act(state)[0])
        state = GAME.apply(state, movers[-1], f"place 1 {n + 1}")
        assert GAME.to_act(state) == [CHANCE]
    assert movers == [0, 1, 0, 1]


def test_three_players_take_turns_in_seat_order_from_the_first_player() -> None:
    state = GAME.start(["A", "B", "C"], {"first_player": 2})
    movers = []
    for n in range(4):
        state = rolled(state, 2)
        movers.append(GAME.to_act(state)[0])
        state = GAME.apply(state, movers[-1], f"place 1 {n + 1}")
    assert movers == [2, 0, 1, 2]
    assert GAME.view(state, None)["cells"][0][0] == {"value": 2, "owner": 2}


def test_game_ends_when_the_grid_is_full() -> None:
    state = GAME.start(["A", "B"], {"size": 4})
    for n in range(16):
        assert GAME.outcome(state) is None
        state = GAME.apply(rolled(state, 1 + n % 4), n % 2, f"place {n // 4 + 1} {n % 4 + 1}")
    view = GAME.view(state, None)
    assert view["phase"] == "over" and view["to_act"] == [] and view["roll_for"] is None
    assert view["turn"] == 16
    assert GAME.outcome(state) is not None
    assert list(GAME.legal_actions(state, CHANCE)) == []
    refused(state, CHANCE, "roll 1", "the game is over")


def test_turn_counts_the_placement_being_made() -> None:
    state = GAME.start(["A", "B"])
    assert GAME.view(state, None)["turn"] == 1
    state = GAME.apply(rolled(state, 2), 0, "place 1 1")
    assert GAME.view(rolled(state, 2), None)["turn"] == 2


def test_handicap_roll_comes_first_and_is_for_the_second_player() -> None:
    state = GAME.start(["A", "B"], {"handicap": True})
    view = GAME.view(state, None)
    assert view["phase"] == "handicap"
    assert view["to_act"] == [CHANCE]
    assert view["roll_for"] == {"seat": 1, "purpose": "handicap"}
    assert view["handicap"] == {"seat": 1, "roll": None}
    refused(state, 0, "place 1 1", "handicap")
    state = rolled(state, 6)
    view = GAME.view(state, None)
    assert view["handicap"] == {"seat": 1, "roll": 6}
    assert view["phase"] == "roll" and view["roll_for"] == {"seat": 0, "purpose": "place"}
    assert view["pending_roll"] is None


def test_handicap_goes_to_the_seat_after_the_first_player() -> None:
    state = GAME.start(["A", "B", "C"], {"handicap": True, "first_player": 2})
    assert GAME.view(state, None)["roll_for"] == {"seat": 0, "purpose": "handicap"}


def test_handicap_roll_must_fit_the_die() -> None:
    refused(GAME.start(["A", "B"], {"handicap": True, "size": 4}), CHANCE, "roll 5", "outside")


def test_first_player_option_sets_who_places_first() -> None:
    state = GAME.start(["A", "B"], {"first_player": 1})
    assert GAME.view(state, None)["roll_for"] == {"seat": 1, "purpose": "place"}
    assert GAME.to_act(rolled(state, 3)) == [1]


def test_random_first_player_is_drawn_from_the_seed() -> None:
    firsts = {
        seed: GAME.view(GAME.start(["A", "B", "C"], {"first_player": "random"}, seed), None)
        for seed in range(40)
    }
    assert {view["first_player"] for view in firsts.values()} == {0, 1, 2}
    for seed, view in firsts.items():
        again = GAME.start(["A", "B", "C"], {"first_player": "random"}, seed)
        assert GAME.view(again, None)["first_player"] == view["first_player"]
        assert view["roll_for"]["seat"] == view["first_player"]
        assert view["options"]["first_player"] == "random"


@pytest.mark.parametrize("players", [["Solo"], ["A", "B", "C", "D", "E"]])
def test_two_to_four_players_only(players: list[str]) -> None:
    with pytest.raises(RulesError, match="2–4 players"):
        GAME.start(players)


def test_dump_and_load_round_trip_mid_game() -> None:
    state = GAME.apply(rolled(rolled(GAME.start(["A", "B"], {"diagonals": True}), 2), 5), 0,
                       "place 3 3")
    assert GAME.load(GAME.dump(state)) == state


@pytest.mark.parametrize(
    "damage",
    [
        {"cells": [None] * 35},
        {"mover": 2},
        {"options": {"size": 6}},
        {"cells": [[4, 3]] + [None] * 35},
        {"pending_roll": "4"},
    ],
)
def test_load_refuses_a_malformed_state(damage: dict[str, object]) -> None:
    data = {**GAME.dump(GAME.start(["A", "B"])), **damage}
    with pytest.raises(RulesError, match="malformed"):
        GAME.load(data)
