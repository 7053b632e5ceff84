"""UNLOCK's board drawn on the phone from the seat's view: the clue board by matches, the score
track, the chart, the secret only on the Lock's phone, the count of codes that still fit, the
host's undo — and the same DOM whether the board is drawn at page load or by a live update."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.boards import (
    board_html,
    kept_descriptions,
    kept_nodes,
    open_again,
    open_game,
    render,
    same_as_fresh,
    tag_descriptions,
    tag_nodes,
    wait_version,
)
from tests.e2e.conftest import Table

pytestmark = pytest.mark.browser

SECRET = "1-5-9-6"


@pytest.fixture
def unlock(table: Table) -> int:
    """Aiko is the Lock (secret 1-5-9-6); Ben and Chie have played one turn."""
    companion = table.companion
    game_id = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    companion.act(game_id, 0, f"secret {SECRET}")
    companion.act(game_id, 1, "guess 1-5-9")
    companion.act(game_id, 2, "guess 4-5-6")
    return game_id


def column(page: Page, matches: int) -> str:
    return str(page.locator(f'.clue-column[data-matches="{matches}"]').inner_text())


def test_clue_cards_lie_in_the_column_of_their_matches(table: Table, unlock: int) -> None:
    page = open_game(table, unlock)
    # 1-5-9 shares lines 1-5 and 5-9 with the secret: 2 matches, 0 misses, +2.
    assert "Ben" in column(page, 2) and "+2" in column(page, 2)
    # 4-5-6 shares none: 0 matches, 2 misses, −2.
    assert "Chie" in column(page, 0) and "-2" in column(page, 0)
    heads = page.locator(".clue-column").evaluate_all("cs => cs.map(c => c.dataset.matches)")
    assert heads == ["0", "1", "2", "3", "4", "5"]


def test_clue_board_grows_a_column_for_more_than_five_matches(table: Table,
                                                              unlock: int) -> None:
    page = open_game(table, unlock)
    view = table.companion.view(unlock, None)
    view["clue_board"] = [{"turn": 1, "seat": 1, "code": "1-2-3-6-9-8-7-4-5", "matches": 8,
                           "misses": 0, "points": 8, "repeat": False}]
    render(page, "unlock", view)
    heads = page.locator(".clue-column").evaluate_all("cs => cs.map(c => c.dataset.matches)")
    assert heads == [str(m) for m in range(9)]


def open_track(page: Page) -> None:
    """Unfold the score track (its cells are drawn once it is open)."""
    page.locator(".track-box summary").click()
    expect(page.locator(".track-box")).to_have_attribute("open", "")
    expect(page.locator(".track-cell").first).to_be_attached()


def track_values(page: Page) -> list[int]:
    return [int(v) for v in page.locator(".track-cell").evaluate_all(
        "cells => cells.map(c => c.dataset.value)")]


def test_score_track_runs_from_minus_ten_to_a_hundred_with_each_guesser_on_it(
    table: Table, unlock: int
) -> None:
    page = open_game(table, unlock)
    # folded away, the track's cells are not drawn: a first visit does not build a hundred
    expect(page.locator(".track-box")).not_to_have_attribute("open", "")
    assert page.locator(".track-cell").count() == 0
    open_track(page)
    assert track_values(page) == list(range(-10, 101))
    assert page.locator('.track-cell[data-value="2"] .pawn').get_attribute("title") == "Ben"
    assert page.locator('.track-cell[data-value="-2"] .pawn').get_attribute("title") == "Chie"
    # the Lock does not score: never on the track
    assert page.locator('.pawn[title="Aiko"]').count() == 0


def test_score_track_extends_when_a_score_leaves_it(table: Table, unlock: int) -> None:
    page = open_game(table, unlock)
    open_track(page)
    view = table.companion.view(unlock, None)
    view["scores"] = [0, -13, 104]
    render(page, "unlock", view)
    values = track_values(page)
    assert values[0] <= -13 and values[-1] >= 104
    assert values == list(range(values[0], values[-1] + 1))
    rows = page.locator(".track-row").evaluate_all("rs => rs.map(r => r.children.length)")
    assert max(rows) <= 10


def test_score_chart_draws_each_guesser(table: Table, unlock: int) -> None:
    page = open_game(table, unlock)
    page.locator("#progress").scroll_into_view_if_needed()  # (drawn while in sight)
    expect(page.locator("#progress h2")).to_have_text("Scores over time")
    chart = page.locator("#progress figure.chart")
    expect(chart.locator("polyline")).to_have_count(2)
    for entry in ("Ben 2", "Chie -2"):
        expect(chart.locator("figcaption")).to_contain_text(entry, use_inner_text=True)


def test_only_the_lock_sees_the_secret_while_the_game_goes_on(table: Table, unlock: int) -> None:
    lock = open_game(table, unlock, 0)
    expect(lock.locator(".my-card.secret code")).to_have_text(SECRET)
    for seat in (1, 2, None):
        page = open_game(table, unlock, seat)
        assert page.locator(".my-card.secret").count() == 0
        assert SECRET not in page.content()


def test_the_code_pad_is_on_a_guessers_page_with_the_game_settings(table: Table,
                                                                    unlock: int) -> None:
    page = open_game(table, unlock, 1)
    expect(page.locator("#pad-card")).to_be_visible()
    assert page.evaluate("window.TabletopGame.view().difficulty") == "medium"
    assert page.evaluate("window.TabletopGame.view().you") == 1
    watcher = open_game(table, unlock)
    expect(watcher.locator("#pad-card")).to_be_hidden()


def test_unlock_page_says_how_many_codes_still_fit_the_clue_board(table: Table,
                                                                   unlock: int) -> None:
    count = table.companion.view(unlock, None)["codes_remaining"]
    page = open_game(table, unlock)
    expect(page.locator(".remaining")).to_have_text(f"{count} codes still fit the clue board.")


def test_host_undo_is_offered_only_when_the_last_action_can_be_taken_back(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("unlock", ["Aiko", "Ben"])
    host = open_game(table, game_id, host=True)
    undo = host.get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    companion.act(game_id, 0, "secret 1-2-3")
    secret_set = companion.view(game_id, None)["version"]
    wait_version(host, secret_set)
    expect(undo).to_be_enabled()
    undo.click()
    wait_version(host, secret_set + 1)  # the undo, journaled, reached the page
    expect(undo).to_be_disabled()
    assert companion.view(game_id, 0)["secret"] is None
    assert open_game(table, game_id).locator("[data-host-post]").count() == 0


def test_a_finished_tournament_game_links_to_the_standings(table: Table) -> None:
    companion = table.companion
    tid = companion.create_tournament("unlock", ["Aiko", "Ben"])
    game_id = companion.tournament(tid)["games"][0]
    lock = companion.view(game_id, None)["lock"]
    companion.act(game_id, lock, "secret 1-2-3")
    companion.act(game_id, 1 - lock, "guess 1-2-3")
    page = open_game(table, game_id)
    expect(page.locator(".outcome a.button").first).to_have_attribute("href",
                                                                        f"/tournaments/{tid}")
    reason = page.locator(".outcome .reason").inner_text()
    assert reason and "found" in reason and not re.search(r"\b[a-z]+_[a-z]+\b", reason)


def played(table: Table) -> int:
    """A new UNLOCK game in the fixture's state: the secret set, one turn played."""
    companion = table.companion
    game_id = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    companion.act(game_id, 0, f"secret {SECRET}")
    companion.act(game_id, 1, "guess 1-5-9")
    companion.act(game_id, 2, "guess 4-5-6")
    return game_id


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_live_update_draws_the_same_board_as_a_fresh_page(table: Table,
                                                           seat: int | None) -> None:
    """One drawing for the page's first render and its live updates (issue 15)."""
    companion = table.companion
    game_id = played(table)
    live = open_game(table, game_id, seat)
    companion.act(game_id, 1, "guess 3-5-7")  # a delta: Ben has submitted
    wait_version(live, companion.view(game_id, None)["version"])
    companion.act(game_id, 2, "guess 2-5-8")  # the turn's reveal
    wait_version(live, companion.view(game_id, None)["version"])
    fresh = open_again(live, table, game_id)
    assert board_html(live) == board_html(fresh)
    assert live.locator(".clue-card").count() == 4


#: Guesses for Ben and Chie, two turns of them (none is the secret 1-5-9-6).
GUESSES = ["3-5-7", "2-5-8", "1-2-3", "7-8-9", "1-4-7", "3-6-9"]


def test_every_live_update_of_a_long_run_draws_what_a_fresh_page_draws(table: Table) -> None:
    """Three turns of guesses (each guess a live update: one drawn, then the turn's reveal) on
    Ben's phone, each compared with his page loaded afresh (issue 32)."""
    companion = table.companion
    game_id = played(table)
    live = open_game(table, game_id, 1)
    fresh = open_again(live, table, game_id)
    for index, code in enumerate(GUESSES):
        companion.act(game_id, 1 + index % 2, f"guess {code}")
        same_as_fresh(live, fresh, companion.view(game_id, None)["version"])
    assert live.locator(".clue-card").count() == 8


def test_a_live_update_keeps_the_clue_cards_and_track_it_did_not_change(table: Table) -> None:
    """A live update patches the board: the clue cards and the track's cells already drawn
    stay the same elements; a reveal adds its cards beside them (issue 32)."""
    companion = table.companion
    game_id = played(table)
    page = open_game(table, game_id, 0)
    open_track(page)
    cards, cells = ".clue-card", ".track-cell"
    assert tag_nodes(page, cards) == 2
    assert tag_nodes(page, cells) == 111
    companion.act(game_id, 1, "guess 3-5-7")  # Ben has drawn: nothing on the clue board yet
    wait_version(page, companion.view(game_id, None)["version"])
    expect(page.locator(".submitted")).to_contain_text("Ben")
    assert kept_nodes(page, cards) == 2 and kept_nodes(page, cells) == 111
    companion.act(game_id, 2, "guess 2-5-8")  # the reveal: two more cards, new scores
    wait_version(page, companion.view(game_id, None)["version"])
    expect(page.locator(cards)).to_have_count(4)
    assert kept_nodes(page, cards) == 2
    assert kept_nodes(page, cells) == 111


def test_a_reveal_describes_only_the_cards_it_changed(table: Table) -> None:
    """A reveal describes its new cards and the element of the ones that stop being the latest;
    the cards laid before are the descriptions drawn before, which the patch does not look
    inside (issue 32: a round's reveal was the heaviest update of UNLOCK's phones)."""
    companion = table.companion
    game_id = played(table)
    page = open_game(table, game_id, 1)
    companion.act(game_id, 1, "guess 3-5-7")
    companion.act(game_id, 2, "guess 2-5-8")  # turn 2's reveal: its two cards are the latest
    wait_version(page, companion.view(game_id, None)["version"])
    expect(page.locator(".clue-card")).to_have_count(4)
    assert tag_descriptions(page, ".clue-card") == 4
    assert tag_descriptions(page, ".clue-card .clue-meta") == 8
    companion.act(game_id, 1, "guess 1-2-3")
    companion.act(game_id, 2, "guess 7-8-9")  # turn 3's reveal
    wait_version(page, companion.view(game_id, None)["version"])
    expect(page.locator(".clue-card")).to_have_count(6)
    expect(page.locator(".clue-card.latest")).to_have_count(2)
    # turn 1's two cards kept theirs; turn 2's were described again (no longer the latest),
    # their element alone: what they show was kept
    assert kept_descriptions(page, ".clue-card:not(.latest)") == 2
    assert kept_descriptions(page, ".clue-card.latest") == 0
    assert kept_descriptions(page, ".clue-card .clue-meta") == 8


def test_the_pad_keeps_its_dots_while_a_code_is_drawn_and_when_the_turn_comes_round(
        table: Table) -> None:
    """The pad changes only what a drawing or a turn changed: its dots stay the same elements
    as a code is drawn and when the next turn shows it again (issue 32)."""
    companion = table.companion
    game_id = played(table)
    page = open_game(table, game_id, 1)  # Ben, a guesser still to draw
    dots = ".pad-target, .pad-dot"
    expect(page.locator("#pad-card")).to_be_visible()
    assert tag_nodes(page, dots) == 18
    page.locator("#dot-box summary").click()
    for dot in ("3", "5"):
        page.locator(f'#dot-buttons [data-dot="{dot}"]').click()
    expect(page.locator("#pad-code")).to_have_text("3-5")
    expect(page.locator(".pad-line")).to_have_count(1)
    expect(page.locator(".pad-dot.used")).to_have_count(2)
    expect(page.locator(".pad-dot.start")).to_have_count(1)
    assert kept_nodes(page, dots) == 18
    page.locator("#pad-clear").click()
    expect(page.locator(".pad-line")).to_have_count(0)
    expect(page.locator(".pad-dot.used")).to_have_count(0)
    companion.act(game_id, 1, "guess 3-5-7")
    companion.act(game_id, 2, "guess 2-5-8")  # the reveal: a new turn, the pad shown again
    wait_version(page, companion.view(game_id, None)["version"])
    expect(page.locator("#pad-card")).to_be_visible()
    expect(page.locator("#pad-title")).to_contain_text("3")
    assert kept_nodes(page, dots) == 18
