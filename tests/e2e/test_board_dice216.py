"""2 1 6's board drawn on the phone from the seat's view: the die offered to seated players and
the host, the empty cells to the mover holding a roll, the tally and every line with who
dominates it, the seed's words on a Japanese page, the replay's grid — and the same DOM whether
the board is drawn at page load or by a live update."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from rules import CHANCE
from tests.e2e.boards import (
    board_html,
    kept_nodes,
    open_again,
    open_game,
    same_as_fresh,
    tag_nodes,
    wait_version,
)
from tests.e2e.conftest import Table, screenshot

pytestmark = pytest.mark.browser

#: A snake_case identifier (an option id, a reason code) that should never reach a player.
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


def caught_up(table: Table, game_id: int, *pages: Page) -> None:
    """Wait until every page shows the game's latest version."""
    version = table.companion.view(game_id, None)["version"]
    for page in pages:
        wait_version(page, version)


def table_rows(page: Page, rows: str) -> dict[str, list[str]]:
    """The rows matched by ``rows``, by the text of their first cell: the other cells' texts."""
    cells = page.locator(rows).evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.innerText.trim()))")
    return {row[0]: row[1:] for row in cells}


def lines(page: Page) -> dict[str, list[str]]:
    """The lines table by line (e.g. ``Row 2``): dominator, total, bonus."""
    return table_rows(page, ".lines-table tr[data-line]")


def tally(page: Page) -> dict[str, list[str]]:
    """The tally by row label: each seat's value."""
    return table_rows(page, ".facts-table tr")


def test_the_die_is_offered_to_the_roller_and_the_host_never_to_anyone_else(
    table: Table,
) -> None:
    game_id = table.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    for page in (open_game(table, game_id, 0), open_game(table, game_id, host=True)):
        roll = page.locator(".roll")
        expect(roll.locator("h2")).to_have_text("Roll for Aiko")
        # a d4 on 4×4: one button per face, and the server's random roll
        assert roll.locator("[data-chance]").evaluate_all(
            "bs => bs.map(b => b.dataset.chance)") == ["roll 1", "roll 2", "roll 3", "roll 4"]
        expect(roll.locator("[data-chance-random]")).to_have_count(1)
    ben = open_game(table, game_id, 1)  # the API refuses his roll for Aiko: no die to press
    expect(ben.locator(".roll")).to_have_text("Aiko rolls the die.")
    assert ben.locator("[data-chance], [data-chance-random]").count() == 0
    watcher = open_game(table, game_id)
    expect(watcher.locator(".to-act")).to_contain_text("The die")
    assert watcher.locator("[data-chance], [data-chance-random], .roll").count() == 0


def test_grid_offers_every_empty_cell_to_the_mover_only(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    aiko, ben = open_game(table, game_id, 0), open_game(table, game_id, 1)
    assert aiko.locator("[data-action]").count() == 0  # nothing to place before the roll
    companion.act(game_id, CHANCE, "roll 3")
    caught_up(table, game_id, aiko, ben)
    places = aiko.locator("button.cell.empty").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert places == [f"place {r} {c}" for r in range(1, 5) for c in range(1, 5)]
    expect(aiko.locator(".facts .die-face")).to_have_text("3")
    expect(aiko.locator(".hint")).to_have_text("Tap an empty cell to write your 3.")
    expect(aiko.locator('[data-action="place 2 3"]')).to_have_attribute("aria-label",
                                                                         "Row 2, column 3")
    assert ben.locator("[data-action], .roll").count() == 0
    expect(ben.locator(".facts .die-face")).to_have_text("3")
    aiko.locator('[data-action="place 2 3"]').click()
    expect(ben.locator(".cell.owned")).to_have_text("3")
    assert lines(ben)["Row 2"] == ["Aiko", "3", ""]
    assert lines(ben)["Column 3"] == ["Aiko", "3", ""]
    assert lines(ben)["Row 1"] == ["—", "0", ""]
    expect(ben.locator(".roll h2")).to_have_text("Roll for Ben")


def test_a_seated_phone_rolls_its_own_die_and_writes_the_number(table: Table) -> None:
    """From test_phones: a player enters what their die shows and taps a cell."""
    game_id = table.companion.create_game("dice216", ["Aiko", "Ben"])
    aiko = open_game(table, game_id, 0)
    aiko.get_by_role("button", name="3", exact=True).click()
    aiko.locator('[data-action="place 2 2"]').click()
    expect(aiko.locator(".cell.owned")).to_have_text("3")
    assert table.companion.view(game_id, None)["cells"][1][1] == {"value": 3, "owner": 0}
    assert aiko.locator("[data-action]").count() == 0  # the turn passed to Ben
    screenshot(aiko, "dice216")


def test_diagonals_are_named_with_their_direction_and_first_cell(table: Table) -> None:
    game_id = table.companion.create_game("dice216", ["Aiko", "Ben"], {"diagonals": True})
    page = open_game(table, game_id)
    expect(page.locator(".lines-table th").first).to_have_text("Line")
    names = list(lines(page))
    assert names == [*(f"Row {n}" for n in range(1, 7)), *(f"Column {n}" for n in range(1, 7)),
                     "Diagonal 1 ↘ 1,1", "Diagonal 2 ↙ 1,6"]


def test_japanese_board_names_the_rules_with_the_seeds_words(table: Table) -> None:
    # Seed 004: "列と行の支配を争う", "斜め", "ハンデ", "合計値"
    game_id = table.companion.create_game("dice216", ["Aiko", "Ben"], {"diagonals": True})
    page = open_game(table, game_id, 0, locale="ja-JP")
    expect(page.locator(".lines-table th").first).to_have_text("行・列・斜め")
    names = list(lines(page))
    assert names[0] == "行 1" and names[6] == "列 1" and names[12] == "斜め 1 ↘ 1,1"
    expect(page.locator(".roll")).to_have_text("Ben がハンデのサイコロを振ります。")
    ben = open_game(table, game_id, 1, locale="ja-JP")
    expect(ben.locator(".roll h2")).to_have_text("Ben のハンデのサイコロを振る")
    rows = tally(page)
    assert {"行・列・斜め", "ボーナス", "ハンデ", "合計値", "予想"} <= set(rows)
    assert "Roll" not in page.locator("#board").inner_text()


def test_tally_adds_lines_bonus_area_and_the_handicap_into_each_total(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Ben"],
                                    {"size": 4, "area": True, "handicap": True})
    page = open_game(table, game_id)
    expect(page.locator(".to-act")).to_contain_text("The die")
    for action in ("roll 3",  # Ben's handicap
                   "roll 4", "place 1 1", "roll 2", "place 4 4", "roll 1", "place 1 2"):
        seat = CHANCE if action.startswith("roll") else companion.view(game_id, None)["mover"]
        companion.act(game_id, seat, action)
    caught_up(table, game_id, page)
    view = companion.view(game_id, None)
    rows = tally(page)
    lines = [str(part["lines"]) for part in view["breakdown"]]
    assert rows["Rows and columns"] == lines
    assert rows["Bonus"] == ["0", "0"]
    assert rows["Largest group (cells)"] == ["2", "1"]
    assert rows["Area"] == ["2", "0"]
    assert rows["Handicap"] == ["—", "3"]
    assert rows["Total"] == [str(total) for total in view["totals"]]
    assert view["totals"][0] == int(lines[0]) + 2 and view["totals"][1] == int(lines[1]) + 3
    assert rows["Projected"] == [f"{value:.1f}" for value in view["projected"]]
    expect(page.locator(".facts-table + p")).to_have_text(
        "Projected: the total if every empty cell of the lines each player dominates now gets "
        "an average roll (2.5).")


def fill_the_grid(table: Table, game_id: int, first_roll: int) -> None:
    """Play a 4×4 game to its end, cells in reading order: Aiko owns columns 1 and 3, Ben 2 and
    4; every roll is a 2 but the first (Aiko's, in row 1 column 1)."""
    companion = table.companion
    for row in range(1, 5):
        for col in range(1, 5):
            roll = first_roll if (row, col) == (1, 1) else 2
            companion.act(game_id, CHANCE, f"roll {roll}")
            companion.act(game_id, companion.view(game_id, None)["mover"], f"place {row} {col}")


@pytest.mark.parametrize(("first_roll", "locale", "winners", "reason"), [
    # columns of 8 and two +10 bonuses each: 36 to 36, or 38 with the first roll a 4
    (4, "en-GB", "Aiko", "Aiko has the highest total, 38."),
    (2, "en-GB", "AikoBen", "Aiko and Ben have equal highest totals (36): a draw."),
    (4, "ja-JP", "Aiko", "合計値 38 で Aiko の勝ちです。"),
    (2, "ja-JP", "AikoBen", "AikoとBen の合計値が同じ (36) で、引き分けです。"),
])
def test_a_full_grid_names_the_winner_and_why_in_words(
    table: Table, first_roll: int, locale: str, winners: str, reason: str
) -> None:
    game_id = table.companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    page = open_game(table, game_id, 0, locale=locale)
    fill_the_grid(table, game_id, first_roll)
    caught_up(table, game_id, page)
    chips = page.locator(".outcome .winners .seat-chip").all_inner_texts()
    assert "".join(chips) == winners
    expect(page.locator(".outcome .reason")).to_have_text(reason)
    # over: no die, no cell to write in, no projection
    assert page.locator(".roll, [data-action], .to-act, tr.projected").count() == 0
    assert page.locator(".cell.owned").count() == 16
    english = locale == "en-GB"
    # two cells each: nobody dominates it, and it shows its cells' sum (it scores for nobody)
    row = next(line for line in table.companion.view(game_id, None)["lines"]
               if line["kind"] == "row" and line["index"] == 1)
    assert lines(page)["Row 1" if english else "行 1"] == ["—", str(row["sum"]), ""]
    assert row["sum"] > 0
    assert lines(page)["Column 2" if english else "列 2"] == ["Ben", "8", "10"]
    assert not IDENTIFIER.search(page.locator("#board").inner_text())


def test_the_handicap_is_rolled_for_the_second_player_first(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"diagonals": True})
    aiko = open_game(table, game_id, 0)
    expect(aiko.locator(".roll")).to_have_text("Ben rolls their handicap.")
    page = open_game(table, game_id, 1)
    expect(page.locator(".roll h2")).to_have_text("Roll Ben's handicap")
    assert tally(page)["Handicap"] == ["—", "…"]
    page.locator(".roll [data-chance='roll 4']").click()
    expect(page.locator(".roll")).to_have_text("Aiko rolls the die.")
    expect(aiko.locator(".roll h2")).to_have_text("Roll for Aiko")
    assert tally(page)["Handicap"] == ["—", "4"]
    assert tally(page)["Total"] == ["0", "4"]


def test_replay_draws_each_steps_grid_without_anything_to_press(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    companion.act(game_id, CHANCE, "roll 2")
    companion.act(game_id, 0, "place 1 1")
    companion.abandon(game_id)
    page = open_game(table, game_id, host=True)
    page.goto(f"{table.url}/games/{game_id}/replay?step=2")
    page.wait_for_selector("#board > .board")
    expect(page.locator(".cell.owned")).to_have_text("2")
    assert page.locator("[data-action], [data-chance], [data-host-post]").count() == 0
    page.goto(f"{table.url}/games/{game_id}/replay?step=1")
    page.wait_for_selector("#board > .board")
    expect(page.locator(".facts .die-face")).to_have_text("2")
    assert page.locator(".cell.owned, [data-action], [data-chance]").count() == 0
    page.goto(f"{table.url}/games/{game_id}/replay?step=0")
    page.wait_for_selector("#board > .board")
    assert page.locator(".cell.owned").count() == 0


def test_a_12_by_12_grid_for_four_fits_a_phone(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Ben", "Chie", "Dai"])
    page = open_game(table, game_id, 0)
    page.locator(".roll [data-chance='roll 6']").click()
    expect(page.locator("button.cell.empty")).to_have_count(144)
    width = page.evaluate("document.documentElement.clientWidth")
    box = page.locator(".grid216").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator('[data-action="place 12 12"]').click()
    expect(page.locator(".cell.owned")).to_have_text("6")
    assert lines(page)["Row 12"] == ["Aiko", "6", ""]
    screenshot(page, "dice216-12x12")


def played(table: Table) -> int:
    """A 6×6 game with diagonals, area and the handicap, a few turns in."""
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Ben"],
                                    {"diagonals": True, "area": True})
    companion.act(game_id, CHANCE, "roll 5")  # Ben's handicap
    for roll, cell in (("roll 6", "place 1 1"), ("roll 2", "place 3 4"), ("roll 4", "place 2 2")):
        companion.act(game_id, CHANCE, roll)
        companion.act(game_id, companion.view(game_id, None)["mover"], cell)
    return game_id


@pytest.mark.parametrize("viewer", ["mover", "other", "spectator", "host"])
def test_a_live_update_draws_the_same_board_as_a_fresh_page(table: Table, viewer: str) -> None:
    """One drawing for the page's first render and its live updates (issue 15)."""
    companion = table.companion
    game_id = played(table)
    mover = companion.view(game_id, None)["mover"]
    seat = {"mover": mover, "other": 1 - mover}.get(viewer)
    live = open_game(table, game_id, seat, host=viewer == "host")
    companion.act(game_id, CHANCE, "roll 3")  # the mover holds a roll: cells to press
    caught_up(table, game_id, live)
    fresh = open_again(live, table, game_id)
    assert board_html(live) == board_html(fresh)
    assert live.locator("button.cell.empty").count() == (33 if viewer == "mover" else 0)
    companion.act(game_id, mover, "place 6 6")  # the roll placed: the die for the other
    caught_up(table, game_id, live)
    fresh = open_again(live, table, game_id)
    assert board_html(live) == board_html(fresh)
    assert live.locator(".roll").count() == (0 if viewer == "spectator" else 1)
    assert not IDENTIFIER.search(live.locator("#board").inner_text())


def test_every_live_update_of_a_long_run_draws_what_a_fresh_page_draws(table: Table) -> None:
    """Twelve actions in a row (Aiko's phone: her turns with cells to press, Ben's, the die),
    each live update compared with the same phone's page loaded afresh (issue 32)."""
    companion = table.companion
    game_id = played(table)
    live = open_game(table, game_id, 0)
    fresh = open_again(live, table, game_id)
    for step in range(12):
        view = companion.view(game_id, None)
        if CHANCE in view["to_act"]:
            companion.act(game_id, CHANCE, f"roll {step % 6 + 1}")
        else:
            r, c = next((r, c) for r, row in enumerate(view["cells"])
                        for c, cell in enumerate(row) if not cell)
            companion.act(game_id, view["mover"], f"place {r + 1} {c + 1}")
        same_as_fresh(live, fresh, companion.view(game_id, None)["version"])
    assert live.locator(".cell.owned").count() == 9


def test_a_live_update_keeps_the_cells_it_did_not_change(table: Table) -> None:
    """A live update patches the board: the cells (and the tables) are the same elements
    afterwards, the one written in changed in place (issue 32)."""
    companion = table.companion
    game_id = played(table)
    mover = companion.view(game_id, None)["mover"]
    page = open_game(table, game_id, 1 - mover)  # the other player: no cell to press
    cells = ".grid216 .cell"
    assert tag_nodes(page, cells) == 36
    tag_nodes(page, "#board > .board, .lines-table tr, .facts-table tr")
    companion.act(game_id, CHANCE, "roll 3")
    caught_up(table, game_id, page)
    assert kept_nodes(page, cells) == 36
    companion.act(game_id, mover, "place 5 5")
    caught_up(table, game_id, page)
    assert kept_nodes(page, cells) == 36
    written = page.locator(cells).nth(4 * 6 + 4)  # row 5, column 5
    expect(written).to_have_text("3")
    expect(written).to_have_class("cell owned")
    assert kept_nodes(page, "#board > .board") == 1
    assert kept_nodes(page, ".lines-table tr") == page.locator(".lines-table tr").count()
    assert kept_nodes(page, ".facts-table tr") == page.locator(".facts-table tr").count()


def test_the_form_with_its_defaults_starts_three_players_with_diagonals_and_handicap(
        table: Table) -> None:
    """The form leaves the size to the player count (12×12 for three) and the handicap to the
    rules (on with diagonals), and says so."""
    host = table.host_phone()
    host.goto(f"{table.url}/host/new/dice216")
    expect(host.locator("#help-handicap")).to_contain_text("on with diagonals, else off")
    host.get_by_role("button", name="Add a player").click()
    for n, name in enumerate(["Aiko", "Ben", "Chie"]):
        host.locator("input.player").nth(n).fill(name)
    host.locator("#opt-diagonals").select_option("on")
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_url("**/join/*")
    game_id = int(host.url.rsplit("/", 1)[1])
    view = table.companion.view(game_id, None)
    assert view["size"] == 12 and view["options"]["diagonals"] is True
    assert view["handicap"] is not None  # on, as the rules default it with diagonals
