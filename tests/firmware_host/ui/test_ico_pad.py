"""ICO played on the pad end to end: the active face's three edges on three buttons, the legal
ones marked on the OLED, each placement journaled before it is shown."""

from __future__ import annotations

from firmware_host.games.ico import screens as screens
from firmware_host.games.ico.words import WORDS
from firmware_host.screens.message import refused_screen
from rules import get_game
from tests.firmware_host.ui.conftest import (
    Box,
    colour,
    end_game_screens,
    lit,
    same,
    tft_shows,
)

PROMPTS = {phase: WORDS[f"prompt.{phase}"]["en"] for phase in ("place", "move", "roll")}


def test_full_game_with_three_edge_buttons(box: Box) -> None:
    gid = box.companion.create_game(
        "ico", ["Aiko", "Ben"], {"start_face": "T0", "first_player": 0, "turn_cap": 60})
    count = 0
    while True:
        view = box.companion.view(gid, None)
        if view["outcome"]:
            break
        assert same(box.screen(), screens.board_screen(view, prompt=PROMPTS[view["phase"]]))
        assert lit(box)["ok"] == colour(view["mover"], view)  # the pad's lights: whose turn
        assert tft_shows(box, gid)  # the colour display: the table's view
        edges = [str(e["id"]) for e in screens.face_edges(view)]
        legal = [e for e in edges if e in view["legal_edges"]]
        assert legal, "some edge of the active face is always legal"
        index = edges.index(legal[-1])
        # buttons 1/2/3, or 4/5/6 for the same edges
        box.sim.tap(index + 1 + (3 if count % 2 else 0))
        count += 1
        verb = "place" if view["phase"] == "place" else "roll"
        assert box.wait_actions(gid, count)[-1] == (view["mover"], f"{verb} {legal[-1]}")
        after = box.companion.view(gid, None)
        assert after["active_face"] != view["active_face"]  # the face rolled over that edge
    final = box.companion.view(gid, None)
    outcome = final["outcome"]
    if outcome["winners"]:  # Level 1: the winner's colour on all three edges of one face
        winner = outcome["winners"][0]
        face = next(f for f in final["faces"] if outcome["figure"] == f"face {f['id']}")
        markers = {str(e["id"]): e["markers"] for e in final["edges"]}
        assert all(markers[str(e)][winner] >= 1 for e in face["edges"])
    else:
        assert count == 60
    assert same(box.screen(), screens.board_screen(final, prompt=""))
    expected = {colour(outcome["winners"][0], final)} if outcome["winners"] else {(0, 0, 0)}
    assert set(lit(box).values()) == expected  # the winner's colour, or dark for a draw
    assert box.companion.games(status="active") == []
    # the results name the winner (or say it is a draw) and how to go on
    winner = ["Aiko", "Ben"][outcome["winners"][0]] if outcome["winners"] else None
    end_game_screens(box, gid, onward="OK: start screen", winner=winner)


def test_edge_the_balance_rules_forbid_is_refused_with_their_reason(box: Box) -> None:
    gid = box.companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0"})
    box.sim.tap(1)
    box.wait_actions(gid, 1)
    # Ben on the next face: count balance allows only the edges with the fewest markers
    view = box.companion.view(gid, None)
    edges = [str(e["id"]) for e in screens.face_edges(view)]
    illegal = [i for i, e in enumerate(edges) if e not in view["legal_edges"]]
    assert illegal, "the edge just used carries a marker, so it is not legal for Ben"
    box.sim.tap(illegal[0] + 1)
    shown = box.screen()
    assert len(box.actions(gid)) == 1
    # refused at once, naming the balance rule and the buttons of the edges it allows
    allowed = [str(i + 1) for i, e in enumerate(edges) if e in view["legal_edges"]]
    refusal = (f"{view['balance_rule']} forbids edge {illegal[0] + 1}: "
               f"use {' or '.join(allowed)}")
    assert box.device.pad.refusal == refusal
    assert same(shown, refused_screen(refusal, title="ICO"))
    rules = get_game("ico")  # and the rules agree: that edge is not a legal action
    state = rules.start(["Aiko", "Ben"], {"start_face": "T0"})
    state = rules.apply(state, 0, box.actions(gid)[0][1])
    assert f"place {edges[illegal[0]]}" not in rules.legal_actions(state, 1)
    box.sim.ok()
    assert same(box.screen(), screens.board_screen(view, prompt=PROMPTS["place"]))


def test_manual_claims_roll_with_ok_and_claim_with_back(box: Box) -> None:
    options = {"start_face": "T0", "first_player": 0, "claim": "manual", "turn_cap": 60}
    gid = box.companion.create_game("ico", ["Aiko", "Ben"], options)
    rules = get_game("ico")
    state = rules.start(["Aiko", "Ben"], options)  # the same game, replayed beside the pad
    box.sim.back()  # a claim without a winning figure is refused; play goes on
    box.settle()
    refusal = box.device.pad.refusal
    assert refusal is not None
    assert same(box.screen(), refused_screen(refusal, title="ICO"))
    assert box.actions(gid) == []
    box.sim.back()  # dismiss the message
    count = 0
    while not (view := box.companion.view(gid, None))["outcome"]:
        assert same(box.screen(), screens.board_screen(view, prompt=PROMPTS[view["phase"]]))
        mover = view["mover"]
        if "claim" in rules.legal_actions(state, mover):
            box.sim.back()
            expected = "claim"
        elif view["phase"] == "roll":
            box.sim.ok()
            expected = f"roll {view['placed']}"
        else:
            edges = [str(e["id"]) for e in screens.face_edges(view)]
            legal = [e for e in edges if e in view["legal_edges"]]
            box.sim.tap(edges.index(legal[-1]) + 1)
            expected = f"{'place' if view['phase'] == 'place' else 'roll'} {legal[-1]}"
        count += 1
        assert box.wait_actions(gid, count)[-1] == (mover, expected)
        state = rules.apply(state, mover, expected)
    assert box.actions(gid)[-1][1] == "claim" or count == 120
    assert view["outcome"] == rules.outcome(state)
