"""Setup options (start face, first player, caps) and the views (everything public)."""

from __future__ import annotations

import json

import pytest

from rules import OptionError, get_game
from rules.ico import GAME
from rules.ico.geometry import FACE_IDS, OPPOSITE_FACE
from tests.rules.ico.positions import PLAYERS, position


def test_registry_serves_ico() -> None:
    assert get_game("ico") is GAME


def test_board_starts_empty_with_thirty_markers_each() -> None:
    state = GAME.start(PLAYERS[:4], seed=3)
    assert all(not any(counts) for counts in state.markers)
    assert [state.markers_left(s) for s in range(4)] == [30, 30, 30, 30]


def test_defaults_start_with_the_first_seat() -> None:
    assert GAME.start(PLAYERS[:3], seed=11).mover == 0


def test_given_start_face_and_first_player_are_used() -> None:
    state = GAME.start(PLAYERS[:3], {"start_face": "B3", "first_player": 2}, seed=0)
    assert (state.active_face, state.mover) == ("B3", 2)


def test_random_start_face_and_player_come_from_the_seed() -> None:
    options = {"start_face": "random", "first_player": "random"}
    drawn = {(s.active_face, s.mover) for s in
             (GAME.start(PLAYERS[:4], options, seed=seed) for seed in range(60))}
    assert len({face for face, _ in drawn}) > 10
    assert {mover for _, mover in drawn} == {0, 1, 2, 3}
    for seed in range(5):
        assert GAME.start(PLAYERS[:4], options, seed=seed) == GAME.start(
            PLAYERS[:4], options, seed=seed)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"start_face": "Z9"}, "start_face"),
        ({"first_player": 3}, "first_player"),
        ({"turn_cap": 0}, "turn_cap"),
        ({"claim": "sometimes"}, "claim"),
        ({"level": "5"}, "level"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, object], named: str) -> None:
    with pytest.raises(OptionError) as refusal:
        GAME.start(PLAYERS[:3], options)
    assert refusal.value.option == named


@pytest.mark.parametrize("count", [1, 5])
def test_ico_is_for_two_to_four_players(count: int) -> None:
    with pytest.raises(OptionError, match="2–4 players"):
        GAME.start(["p"] * count)


def test_options_accept_form_text() -> None:
    state = GAME.start(PLAYERS[:2], {"level": "1+", "turn_cap": "40", "claim": "manual",
                                     "start_face": "random", "first_player": "1"}, seed=2)
    assert state.level == "1+" and state.manual_claims and state.mover == 1
    assert state.option("turn_cap") == 40


def test_view_carries_the_design_keys() -> None:
    view = GAME.view(position({"N-U0": "rb"}, players=3), 1)
    for key in ("game", "seats", "to_act", "phase", "turn", "you", "options", "outcome",
                "vertices", "edges", "faces", "active_face", "legal_edges", "level",
                "balance_reason"):
        assert key in view, key
    assert view["game"] == "ico" and view["you"] == 1 and view["to_act"] == [0]
    assert len(view["vertices"]) == 12 and len(view["edges"]) == 30 and len(view["faces"]) == 20
    edge = next(e for e in view["edges"] if e["id"] == "N-U0")
    assert edge["vertices"] == ["N", "U0"] and edge["markers"] == [1, 1, 0]
    face = next(f for f in view["faces"] if f["id"] == "T0")
    assert set(face["vertices"]) == {"N", "U0", "U1"}
    assert set(face["edges"]) == {"N-U0", "U0-U1", "N-U1"}
    assert face["opposite"] == OPPOSITE_FACE["T0"] == "D2"
    assert view["active_face"] == "T0" and view["level"] == "1"
    assert view["colours"] == ["red", "blue", "yellow"]
    json.dumps(view)


def test_view_colours_opposite_faces_alike() -> None:
    view = GAME.view(position(), None)
    colours = {f["id"]: f["colour"] for f in view["faces"]}
    assert all(colours[f] == colours[OPPOSITE_FACE[f]] for f in FACE_IDS)
    assert set(colours.values()) == set(range(10))


def test_catalog_entry_carries_the_drawing_of_the_paper_board() -> None:
    description = GAME.describe()
    json.dumps(description)
    board = description["board"]
    s = next(v for v in board["vertices"] if v["id"] == "S")
    assert s["circle"] == board["outer_radius"]
    assert {e["id"] for e in board["edges"]} == {e["id"] for e in GAME.view(position(), 0)["edges"]}
    assert all(f["path"].startswith("M ") for f in board["faces"])


def test_nothing_is_secret_every_viewer_sees_the_same_board() -> None:
    state = position({"N-U0": "rb", "S-L0": "y"}, players=3, claim="manual")
    views = [GAME.view(state, seat) for seat in (None, 0, 1, 2)]
    for view in views:
        view.pop("you")
    assert all(view == views[0] for view in views)


def test_view_outcome_names_the_winning_figure() -> None:
    state = GAME.apply(position({"N-U0": "r", "N-U1": "r"}), 0, "place U0-U1")
    view = GAME.view(state, None)
    assert view["phase"] == "over" and view["legal_edges"] == [] and view["to_act"] == []
    assert (view["outcome"]["reason"], view["outcome"]["figure"]) == ("figure_covered", "face T0")


def test_dump_load_round_trips_through_json() -> None:
    state = GAME.apply(position({"N-U0": "rb"}, claim="manual", turn_cap=9), 0, "place U0-U1")
    assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state
