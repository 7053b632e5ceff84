"""ICO's board drawn on the phone from the seat's view: the flat net with the active face, the
mover's legal edges (tappable only on the mover's phone), opposite faces in one colour, markers
in their seat's colour, the balance rule named in the page's language, the winner's figure — and
the same DOM whether the board is drawn at page load or by a live update."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rules.ico.figures import LEVELS, figures_for
from tests.e2e.boards import (
    board_html,
    kept_nodes,
    open_again,
    open_game,
    render,
    same_as_fresh,
    tag_nodes,
    wait_version,
)
from tests.e2e.conftest import Table, screenshot

pytestmark = pytest.mark.browser

#: The Level 1 game worked by hand in the rules' tests: Aiko (red) covers face T0 on turn 11.
SCENARIO = json.loads((Path(__file__).resolve().parents[1] / "rules" / "ico" / "scenarios"
                       / "level1_two_players.json").read_text(encoding="utf-8"))
#: The seats' colours on every drawing (web_panel/static/kit.js), as the browser reports them.
RED, BLUE = "#b71c1c", "#1a237e"


@pytest.fixture
def ico(table: Table) -> int:
    """A new Level 1 game, Aiko to move, the black tile on T0."""
    return table.companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0"})


def attribute_of_all(page: Page, selector: str, name: str) -> list[str]:
    return [str(v) for v in page.locator(selector).evaluate_all(
        "(nodes, name) => nodes.map(n => n.getAttribute(name))", name)]


def test_the_net_marks_the_active_face_and_only_the_mover_may_use_the_legal_edges(
    table: Table, ico: int
) -> None:
    legal = table.companion.view(ico, 0)["legal_edges"]
    mover = open_game(table, ico, 0)
    expect(mover.locator(".ico-net path.face")).to_have_count(20)
    expect(mover.locator(".ico-net line.edge")).to_have_count(30)
    assert attribute_of_all(mover, ".ico-net .face.active", "data-face") == ["T0"]
    assert sorted(attribute_of_all(mover, ".ico-net .edge.legal", "data-edge")) == sorted(legal)
    buttons = attribute_of_all(mover, ".moves button[data-action]", "data-action")
    assert sorted(buttons) == sorted(f"place {edge}" for edge in legal)
    taps = attribute_of_all(mover, ".ico-net .edge-hit[data-action]", "data-action")
    assert sorted(taps) == sorted(f"place {edge}" for edge in legal)
    # every other edge of the net answers a tap too: with why it cannot be used
    refused = attribute_of_all(mover, ".ico-net .edge-hit[data-refuse]", "data-refuse")
    assert len(refused) == 30 - len(legal) and not set(refused) & set(legal)
    for watcher in (open_game(table, ico, 1), open_game(table, ico)):
        shown = attribute_of_all(watcher, ".ico-net .edge.legal", "data-edge")
        assert sorted(shown) == sorted(legal)
        assert watcher.locator("[data-action]").count() == 0


def test_opposite_faces_share_a_colour_and_no_other_face_has_it(table: Table, ico: int) -> None:
    page = open_game(table, ico)
    fills = dict(zip(attribute_of_all(page, ".ico-net .face", "data-face"),
                     attribute_of_all(page, ".ico-net .face", "fill"), strict=True))
    assert len(fills) == 20 and len(set(fills.values())) == 10
    for face in table.companion.view(ico, None)["faces"]:
        assert fills[face["id"]] == fills[face["opposite"]]


def test_the_facts_give_the_level_the_turn_the_active_face_and_each_seats_markers_left(
    table: Table
) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Ben", "Chie"],
                                    {"start_face": "T0", "level": "2+"})
    companion.act(game_id, 0, f"place {companion.view(game_id, 0)['legal_edges'][0]}")
    page = open_game(table, game_id, 1)
    facts = page.locator(".facts > *").all_inner_texts()
    assert facts[:3] == ["Level 2+ (extended)", "Turn 2",
                         f"Active face {companion.view(game_id, None)['active_face']}"]
    # what the number counts, said on the chip itself
    assert facts[3:] == ["Aiko: 29 markers left", "Ben: 30 markers left",
                         "Chie: 30 markers left"]
    assert page.locator(".facts .seat-chip.me").inner_text() == "Ben: 30 markers left"


def draw(page: Page, view: dict[str, Any]) -> None:
    """Draw ``view`` on the open ICO page with the game's net (its catalogue entry)."""
    info = json.loads(page.locator("#game-data").text_content() or "{}")["info"]
    render(page, "ico", view, info=info)


def number(page: Page, selector: str, name: str) -> list[float]:
    return [float(v) for v in attribute_of_all(page, selector, name)]


def centres(page: Page, selector: str) -> list[tuple[float, float]]:
    """The centres of the markers matched, in the net's coordinates (each seat's shape)."""
    return [(float(x), float(y)) for x, y in page.locator(selector).evaluate_all(
        "ns => ns.map(n => { const b = n.getBBox();"
        " return [b.x + b.width / 2, b.y + b.height / 2]; })")]


def test_each_marker_lies_on_its_edge_in_its_seats_colour(table: Table, ico: int) -> None:
    companion = table.companion
    placed: list[tuple[int, str]] = []
    for _ in range(4):
        seat = companion.view(ico, None)["to_act"][0]
        edge = companion.view(ico, seat)["legal_edges"][-1]
        companion.act(ico, seat, f"place {edge}")
        placed.append((seat, edge))
    page = open_game(table, ico)
    expect(page.locator(".ico-net .marker")).to_have_count(4)
    colours = {0: RED, 1: BLUE}
    # told apart without colour too: each seat its own shape
    assert page.locator('.ico-net circle.marker[data-seat="0"]').count() == 2
    assert page.locator('.ico-net rect.marker[data-seat="1"]').count() == 2
    for seat, edge in placed:
        line = f'.ico-net line.edge[data-edge="{edge}"]'
        (x1,), (y1,), (x2,), (y2,) = (number(page, line, a) for a in ("x1", "y1", "x2", "y2"))
        dots = f'.ico-net .marker[data-seat="{seat}"]'
        assert set(attribute_of_all(page, dots, "fill")) == {colours[seat]}
        on_edge = [
            (cx, cy) for cx, cy in centres(page, dots)
            if abs((x2 - x1) * (cy - y1) - (y2 - y1) * (cx - x1)) < 1e-3
            and min(x1, x2) - 1e-3 <= cx <= max(x1, x2) + 1e-3
            and min(y1, y2) - 1e-3 <= cy <= max(y1, y2) + 1e-3
        ]
        assert on_edge, f"no marker of seat {seat} on {edge}"


def test_several_markers_on_one_edge_are_spread_along_it(table: Table, ico: int) -> None:
    page = open_game(table, ico)
    view = table.companion.view(ico, None)
    view["edges"][0]["markers"] = [2, 1]  # Level 2's redoubling: two red and one blue
    draw(page, view)
    expect(page.locator(".ico-net .marker")).to_have_count(3)
    assert attribute_of_all(page, ".ico-net .marker", "fill") == [RED, RED, BLUE]
    assert len({(round(x, 4), round(y, 4)) for x, y in centres(page, ".ico-net .marker")}) == 3


def test_the_balance_rule_that_decides_the_turn_is_named(table: Table, ico: int) -> None:
    page = open_game(table, ico, 1)
    hint = page.locator(".hint")
    expect(hint.locator("b")).to_have_text("Count balance")
    assert hint.inner_text() == "Count balance: " + table.companion.view(ico, 1)["balance_why"]


def test_japanese_board_names_the_rules_with_the_seeds_words(table: Table, ico: int) -> None:
    page = open_game(table, ico, 0, locale="ja-JP")
    # seed 003: 「アクティブな三角形」, 個数バランス ルール, マーカーを置く
    assert "アクティブな三角形 T0" in page.locator(".facts").inner_text()
    expect(page.locator(".hint b")).to_have_text("個数バランス ルール")
    legal = table.companion.view(ico, 0)["legal_edges"]
    button = page.locator(f'.moves button[data-action="place {legal[0]}"]')
    assert (button.get_attribute("aria-label") or "").startswith(f"マーカーを置く: {legal[0]}")
    assert page.locator(".ico-net").get_attribute("aria-label") == "ICOの盤面"


def test_with_claims_by_hand_the_mover_rolls_across_the_edge_just_used_and_may_claim(
    table: Table
) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Ben"],
                                    {"start_face": "T0", "claim": "manual"})
    edge = companion.view(game_id, 0)["legal_edges"][0]
    companion.act(game_id, 0, f"place {edge}")
    page = open_game(table, game_id, 0)
    assert attribute_of_all(page, ".moves button[data-action]", "data-action") == [
        f"roll {edge}", "claim"]
    roll = page.locator(f'.moves button[data-action="roll {edge}"]')
    assert (roll.get_attribute("aria-label") or "").startswith(f"Roll across {edge}")
    expect(page.locator('.moves button[data-action="claim"]')).to_have_text("Claim the win")
    assert attribute_of_all(page, ".ico-net .edge-hit[data-action]", "data-action") == [
        f"roll {edge}"]
    expect(page.locator(".hint b")).to_have_text("Move the active face")
    tap(page, f'.ico-net .edge-hit[data-action="roll {edge}"]')  # a tap on the net rolls
    expect(page.locator(".moves")).to_have_count(0)
    assert companion.view(game_id, None)["mover"] == 1


def tap(page: Page, selector: str) -> None:
    """Tap the middle of an edge of the net with a finger (an edge is a line: its box may have
    no width, so Playwright's own click would call it invisible)."""
    page.locator(selector).evaluate("line => line.scrollIntoView({block: 'center'})")
    box = page.locator(selector).bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_the_scenario(table: Table) -> int:
    companion = table.companion
    game_id = companion.create_game("ico", SCENARIO["players"], SCENARIO["options"])
    for step in SCENARIO["steps"]:
        companion.act(game_id, step["seat"], step["action"])
    return game_id


def test_a_won_game_names_the_winner_and_marks_the_figure_they_covered(table: Table) -> None:
    game_id = play_the_scenario(table)
    outcome = table.companion.view(game_id, None)["outcome"]
    page = open_game(table, game_id)
    expect(page.locator(".outcome .winners")).to_contain_text("Aiko")
    edges = ", ".join(outcome["edges"])
    expect(page.locator(".outcome .reason")).to_have_text(
        f"Aiko's colour covers the three edges of face T0 ({edges}): Aiko wins.")
    assert sorted(attribute_of_all(page, ".ico-net .edge.won", "data-edge")) == \
        sorted(outcome["edges"])
    assert page.locator("[data-action]").count() == 0 and page.locator(".hint").count() == 0
    # each player's markers placed, in one line (ICO has no score beside the winner's star)
    view = table.companion.view(game_id, None)
    placed = [view["markers_per_colour"] - left for left in view["markers_left"]]
    expect(page.locator(".outcome .results-line")).to_have_text("Markers placed: " + " · ".join(
        f"{name} {placed[seat]}" for seat, name in enumerate(SCENARIO["players"])))
    expect(page.locator(".results-line .seat-chip.winner")).to_have_text("Aiko")  # starred
    assert page.locator(".outcome table").count() == 0
    japanese = open_game(table, game_id, locale="ja-JP")
    expect(japanese.locator(".outcome .reason")).to_have_text(
        f"Aiko の色のマーカーが 三角形 T0 の3辺({edges})を占め、Aiko の勝ちです。")
    screenshot(japanese, "ico-won-ja")


@pytest.mark.parametrize(("figure", "words"), [
    ("faces T0 and D2", "the edges of face T0 and of its opposite face D2"),
    ("belt between N and S", "the zig-zag belt between N and S"),
    ("double triangle around A3", "the double triangle around A3"),
    ("double triangles around T1 and D3", "the double triangles around T1 and D3"),
    ("perpendicular set 4", "perpendicular set 4"),
])
def test_each_levels_figure_is_named_in_words(table: Table, figure: str, words: str) -> None:
    game_id = play_the_scenario(table)
    page = open_game(table, game_id)
    view = table.companion.view(game_id, None)
    view["outcome"]["figure"] = figure
    draw(page, view)
    assert words in page.locator(".outcome .reason").inner_text()


def test_a_japanese_page_names_every_figure_of_every_level_in_japanese(table: Table) -> None:
    game_id = play_the_scenario(table)
    page = open_game(table, game_id, locale="ja-JP")
    view = table.companion.view(game_id, None)
    names = {figure.name for level in LEVELS for double in (False, True)
             for figure in figures_for(level, double)}
    assert len(names) == 20 + 10 + 6 + 20 + 10 + 5
    for name in sorted(names):
        view["outcome"]["figure"] = name
        draw(page, view)
        reason = page.locator(".outcome .reason").inner_text().replace("Aiko", "")
        # only the board's names of faces and vertices (T0, N…) are in Latin letters
        assert not re.search(r"[a-z]", reason), (name, reason)


def test_a_turn_cap_ends_the_game_in_a_draw_said_in_words(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0", "turn_cap": 2})
    for seat in (0, 1):
        companion.act(game_id, seat, f"place {companion.view(game_id, seat)['legal_edges'][0]}")
    page = open_game(table, game_id)
    expect(page.locator(".outcome .winners")).to_have_text("Nobody wins.")
    reason = page.locator(".outcome .reason").inner_text()
    assert reason == "The turn cap of 2 turns was reached: a draw."
    assert not re.search(r"\b[a-z]+_[a-z]+\b", page.locator("#board").inner_text())


def test_the_replay_draws_each_steps_net_without_moves(table: Table, ico: int) -> None:
    companion = table.companion
    edge = companion.view(ico, 0)["legal_edges"][0]
    companion.act(ico, 0, f"place {edge}")
    companion.abandon(ico)
    page = table.new_phone()
    page.goto(f"{table.url}/games/{ico}/replay?step=1")
    page.wait_for_selector("#board > .board.ico")
    assert attribute_of_all(page, ".ico-net .marker", "fill") == [RED]
    assert page.locator("[data-action]").count() == 0
    page.goto(f"{table.url}/games/{ico}/replay?step=0")
    page.wait_for_selector("#board > .board.ico")
    assert page.locator(".ico-net .marker").count() == 0


def test_the_new_game_form_labels_ico_options_in_the_seeds_words(table: Table) -> None:
    page = open_game(table, table.companion.create_game("ico", ["Aiko", "Ben"]), host=True,
                     locale="ja-JP")
    page.goto(f"{table.url}/host/new/ico")
    levels = page.locator("#opt-level option").all_inner_texts()
    assert levels[:2] == ["レベル1ゲーム", "レベル1+ゲーム"]
    assert all("(拡張)" in text for text in levels[2:])
    faces = page.locator("#opt-start_face option").all_inner_texts()
    assert "三角形 T0(中央付近)" in faces and "三角形 D2" in faces
    assert page.locator('[data-option="claim"] b').inner_text() == "勝利宣言"
    help_text = page.locator('[data-option="start_face"] .help').inner_text()
    assert "黒い三角形のタイル" in help_text and "中央付近の任意の三角形" in help_text


def join(page: Page, table: Table, game_id: int, name: str) -> None:
    """Join as ``name`` through the join page, as a player does."""
    page.goto(f"{table.url}/join/{game_id}")
    page.get_by_role("button", name=f"I am {name}").click()
    page.wait_for_url(f"**/games/{game_id}")
    expect(page.locator("#live")).to_have_class(re.compile(r"\bon\b"))


def test_a_move_from_the_phone_shows_live_on_the_other_phone(table: Table, ico: int) -> None:
    aiko, ben = table.new_phone(), table.new_phone()
    join(aiko, table, ico, "Aiko")
    join(ben, table, ico, "Ben")
    edge = table.companion.view(ico, 0)["legal_edges"][0]
    aiko.locator(f'button[data-action="place {edge}"]').click()
    expect(ben.locator(".ico-net .marker")).to_have_count(1)
    expect(ben.locator(".moves button").first).to_be_visible()
    screenshot(ben, "ico")
    # and a tap on a highlighted edge of the net is a move too
    edge = table.companion.view(ico, 1)["legal_edges"][0]
    tap(ben, f'.ico-net .edge-hit[data-action="place {edge}"]')
    expect(aiko.locator(".ico-net .marker")).to_have_count(2)
    assert table.companion.view(ico, None)["turn"] == 3


@pytest.mark.parametrize("viewer", ["mover", "other seat", "spectator", "host"])
def test_a_live_update_draws_the_same_board_as_a_fresh_page(table: Table, viewer: str) -> None:
    """One drawing for the page's first render and its live updates (issue 15)."""
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0",
                                                             "claim": "manual"})
    seat = {"mover": 0, "other seat": 1}.get(viewer)
    live = open_game(table, game_id, seat, host=viewer == "host")
    for _ in range(3):  # a placement, its roll, the next placement
        mover = companion.view(game_id, None)["to_act"][0]
        view = companion.view(game_id, mover)
        verb = "roll" if view["phase"] == "roll" else "place"
        companion.act(game_id, mover, f"{verb} {view['legal_edges'][0]}")
        wait_version(live, companion.view(game_id, None)["version"])
    fresh = open_again(live, table, game_id)
    assert board_html(live) == board_html(fresh)
    assert live.locator(".ico-net .marker").count() == 2


def ico_step(table: Table, game_id: int) -> None:
    """The mover's first legal action (a roll in the roll phase, else a placement)."""
    companion = table.companion
    mover = companion.view(game_id, None)["to_act"][0]
    view = companion.view(game_id, mover)
    verb = "roll" if view["phase"] in ("roll", "move") else "place"
    companion.act(game_id, mover, f"{verb} {view['legal_edges'][0]}")


def test_every_live_update_of_a_long_run_draws_what_a_fresh_page_draws(table: Table) -> None:
    """Twelve actions in a row (placements and rolls by hand, Aiko's turns and Ben's) on Aiko's
    phone, each live update compared with her page loaded afresh (issue 32)."""
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0",
                                                             "claim": "manual"})
    live = open_game(table, game_id, 0)
    fresh = open_again(live, table, game_id)
    for _ in range(12):
        ico_step(table, game_id)
        same_as_fresh(live, fresh, companion.view(game_id, None)["version"])
    assert live.locator(".ico-net .marker").count() == 6


def test_a_live_update_keeps_the_parts_of_the_net_it_did_not_change(table: Table,
                                                                     ico: int) -> None:
    """A live update patches the net: faces, edges, labels and the tap lines stay the same
    elements (the active face, the legal edges and whose turn it is changed in place), a
    marker is added (issue 32)."""
    companion = table.companion
    page = open_game(table, ico, 1)
    parts = (".ico-net .face, .ico-net .edge, .ico-net .face-label, .ico-net .vertex-label, "
             ".ico-net .edge-hits:not(.legal-hits) .edge-hit")
    count = tag_nodes(page, parts)
    assert count >= 100
    tag_nodes(page, "#board > .board, .ico-net")
    assert 1 not in companion.view(ico, None)["to_act"]
    while 1 not in companion.view(ico, None)["to_act"]:  # until it is this phone's turn
        ico_step(table, ico)
    wait_version(page, companion.view(ico, None)["version"])
    expect(page.locator(".ico-net .edge-hits:not(.legal-hits):not(.idle)")).to_have_count(1)
    assert kept_nodes(page, parts) == count
    assert kept_nodes(page, "#board > .board, .ico-net") == 2
    placed = sum(sum(edge["markers"]) for edge in companion.view(ico, None)["edges"])
    assert placed >= 1
    expect(page.locator(".ico-net .marker")).to_have_count(placed)
    active = companion.view(ico, None)["active_face"]
    assert attribute_of_all(page, ".ico-net .face.active", "data-face") == [active]


def test_a_tap_on_an_edge_that_is_not_allowed_says_why(table: Table, ico: int) -> None:
    page = open_game(table, ico, 0)
    legal = set(table.companion.view(ico, 0)["legal_edges"])
    far = "S-L0"  # not an edge of the active face T0
    assert far not in legal
    tap(page, f'.ico-net .edge-hit[data-refuse="{far}"]')
    expect(page.locator("#message")).to_have_text(f"{far} is not an edge of the active face T0.")
    assert table.companion.view(ico, None)["turn"] == 1


def test_off_their_turn_a_players_taps_on_the_net_do_nothing(table: Table, ico: int) -> None:
    ben = open_game(table, ico, 1)  # Aiko moves first
    far = "S-L0"
    tap(ben, f'.ico-net .edge[data-edge="{far}"]')
    ben.wait_for_timeout(300)
    expect(ben.locator("#message")).to_have_text("")
    # once it is his turn, the same tap says why the edge cannot be used
    ico_step(table, ico)
    while 1 not in table.companion.view(ico, None)["to_act"]:
        ico_step(table, ico)
    wait_version(ben, table.companion.view(ico, None)["version"])
    face = table.companion.view(ico, None)["active_face"]
    tap(ben, f'.ico-net .edge[data-edge="{far}"]')
    expect(ben.locator("#message")).to_contain_text(far)
    assert face  # the message names the active face the edge is not on
    expect(ben.locator("#message")).to_contain_text(face)


def test_every_edge_can_be_tapped_on_a_44_px_wide_line_that_markers_let_through(
    table: Table, ico: int
) -> None:
    companion = table.companion
    edge = companion.view(ico, 0)["legal_edges"][0]
    companion.act(ico, 0, f"place {edge}")  # a marker now lies in the middle of that edge
    page = open_game(table, ico, 1)
    # a line for every edge of the net, and the legal edges' own lines again above them all
    expect(page.locator(".ico-net .edge-hits:not(.legal-hits) .edge-hit")).to_have_count(30)
    legal_now = companion.view(ico, 1)["legal_edges"]
    expect(page.locator(".ico-net .legal-hits .edge-hit")).to_have_count(len(legal_now))
    hits = page.locator(".ico-net .edge-hit")
    widths = hits.evaluate_all(
        "ls => ls.map(l => Number(l.getAttribute('stroke-width')) * l.getScreenCTM().a)")
    assert min(widths) >= 44, min(widths)
    # the topmost thing under the middle of every legal edge is its hit line, not a marker
    for legal in companion.view(ico, 1)["legal_edges"]:
        found = page.locator(f'.ico-net .edge-hit[data-action="place {legal}"]').evaluate(
            """line => { line.scrollIntoView({block: "center"});
              const b = line.getBoundingClientRect();
              const top = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
              return top === line; }""")
        assert found, legal
