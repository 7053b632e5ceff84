"""Hacktrick's board drawn on the phone from the seat's view: a hand only on its holder's phone,
the card picker (a card, then how to play it) playing from the phone, the magic square, the card
row, the deck rebuilt, how a round and the game were won in words, the rounds chart, the
seed's words on a Japanese page — and the same DOM whether the board is drawn at page load or
by a live update."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rules.hacktrick.endings import RoundEnd
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

NAMES = ["Aiko", "Ben"]
#: A snake_case identifier (an option id, a reason code, an untranslated key) in shown text.
IDENTIFIER = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


def board_text(page: Page) -> str:
    return str(page.locator("#board").inner_text())


def mover(table: Table, game_id: int) -> int:
    seat: int = table.companion.view(game_id, None)["to_act"][0]
    return seat


def play_plainly(table: Table, game_id: int, until: Any, limit: int = 300) -> int:
    """Take the first plain action (no Ask the sum, no declaration) until
    ``until(spectator_view)`` holds; the number of actions taken (at most ``limit``)."""
    companion = table.companion
    for step in range(1, limit + 1):
        seat = mover(table, game_id)
        legal = [a for a in companion.view(game_id, seat)["legal_actions"]
                 if "declare" not in a and a != "ask"]
        companion.act(game_id, seat, legal[0])
        if until(companion.view(game_id, None)):
            return step
    raise AssertionError(f"not reached within {limit} actions")


def play_until_the_deck_is_rebuilt(table: Table, game_id: int) -> int:
    """Draw whenever allowed, else play the first card allowed; the step (1-based) whose draw
    emptied the deck."""
    companion = table.companion
    for step in range(1, 300):
        seat = mover(table, game_id)
        legal = [a for a in companion.view(game_id, seat)["legal_actions"] if "declare" not in a]
        companion.act(game_id, seat, "draw" if "draw" in legal else legal[0])
        if companion.view(game_id, None)["reshuffled"] is not None:
            return step
    raise AssertionError("the deck was never rebuilt")


@pytest.fixture
def hack(table: Table) -> int:
    """A new game, seed 7: round 1 dealt, the starting player to lead."""
    return table.companion.create_game("hacktrick", NAMES, seed=7)


def test_a_hand_shows_only_on_its_holders_phone(table: Table, hack: int) -> None:
    companion = table.companion
    lead = mover(table, hack)
    hand = companion.view(hack, lead)["hands"][lead]["cards"]
    page = open_game(table, hack, lead)
    picks = page.locator("[data-pick]").evaluate_all("bs => bs.map(b => Number(b.dataset.pick))")
    assert sorted(picks) == sorted(hand)  # every card of the hand, duplicates too
    other = 1 - lead
    other_hand = companion.view(hack, other)["hands"][other]["cards"]
    other_page = open_game(table, hack, other)
    expect(other_page.locator(".hand .data-card.big-card")).to_have_count(len(other_hand))
    shown = other_page.locator(".hand .big-card").evaluate_all(
        "cs => cs.map(c => Number(c.textContent))")
    assert shown == other_hand
    assert other_page.locator("[data-pick]").count() == 0
    watcher = open_game(table, hack)
    assert watcher.locator(".big-card").count() == 0
    assert watcher.locator(".moves").count() == 0


def test_the_picker_shows_a_cards_ways_to_play_in_words(table: Table, hack: int) -> None:
    companion = table.companion
    lead = mover(table, hack)
    first = int(companion.view(hack, lead)["legal_actions"][0].split()[1])
    companion.act(hack, lead, f"lead {first}")
    turn = mover(table, hack)
    page = open_game(table, hack, turn)
    expect(page.locator(".variants:not([hidden])")).to_have_count(0)
    card = page.locator("[data-pick]").first
    value = card.get_attribute("data-pick")
    card.click()
    expect(card).to_have_class(re.compile(r"\bselected\b"))
    open_group = page.locator(".variants:not([hidden])")
    expect(open_group).to_have_count(1)
    assert open_group.get_attribute("data-variants") == value
    legal = [a for a in companion.view(hack, turn)["legal_actions"]
             if a.split()[:2] == ["play", value]]
    actions = open_group.locator("[data-action]").evaluate_all(
        "bs => bs.map(b => b.dataset.action)")
    assert actions == legal
    labels = open_group.locator("[data-action]").all_inner_texts()
    assert f"Play {value}" in labels
    assert f"Play {value} ×2 · declare Guard!" in labels
    assert not any(IDENTIFIER.search(label) or "=" in label for label in labels)
    others = page.locator(".other-moves [data-action]").all_inner_texts()
    assert "Draw a card" in others


def test_leading_from_the_phone_lays_the_first_card_of_the_row(table: Table, hack: int) -> None:
    lead = mover(table, hack)
    page = open_game(table, hack, lead)
    card = page.locator("[data-pick]").first
    value = int(card.get_attribute("data-pick") or "")
    card.click()
    button = page.locator(".variants:not([hidden]) [data-action]")
    expect(button).to_have_text(f"Lead {value}")
    button.click()
    expect(page.locator(".card-row .data-card")).to_have_text([str(value)])
    assert table.companion.view(hack, None)["row"] == [value]


def test_the_players_phones_play_a_card_and_see_it_live(table: Table, hack: int) -> None:
    lead = mover(table, hack)
    player, opponent = open_game(table, hack, lead), open_game(table, hack, 1 - lead)
    expect(opponent.locator("#live")).to_have_class(re.compile(r"\bon\b"))
    player.locator("[data-pick]").first.click()
    player.locator(".variants:not([hidden]) [data-action]").first.click()
    expect(opponent.locator(".card-row .data-card")).to_have_count(1)
    # now the opponent picks and plays: a marker lands on the square of the two cards' sum
    row = table.companion.view(hack, None)["row"]
    opponent.locator("[data-pick]").first.click()
    variant = opponent.locator(".variants:not([hidden]) [data-action]").first
    action = variant.get_attribute("data-action") or ""
    variant.click()
    square = row[-1] + int(action.split()[1])
    marker = player.locator(f'.square[data-square="{square}"] .marker')
    expect(marker).to_have_count(1)
    assert marker.get_attribute("title") == NAMES[1 - lead]
    expect(player.locator(".card-row .data-card")).to_have_count(2)
    expect(player.locator(".card-row .data-card.rightmost")).to_have_text(action.split()[1])
    screenshot(player, "hacktrick")


def test_the_board_shows_the_round_deck_points_and_what_each_player_holds(
    table: Table, hack: int
) -> None:
    view = table.companion.view(hack, None)
    page = open_game(table, hack)
    facts = page.locator(".facts").inner_text()
    assert "Round 1" in facts and f"Deck: {view['deck_size']}" in facts
    assert "Aiko: 0 of 5 excellence points" in facts and "Ben: 0 of 5 excellence points" in facts
    assert f"Starting player: {NAMES[view['starter']]}" in facts
    expect(page.locator(".square")).to_have_count(9)
    squares = page.locator(".square").evaluate_all("ss => ss.map(s => Number(s.dataset.square))")
    assert squares == [2, 7, 6, 9, 5, 1, 4, 3, 8]  # the magic square as laid out
    face_up = page.locator(".face-up .data-card").all_inner_texts()
    assert [int(v) for v in face_up] == view["face_up"]
    table_rows = page.locator(".facts-table tr").all_inner_texts()
    sizes = [str(h["size"]) for h in view["hands"]]
    assert table_rows[1].split("\t") == ["Cards in hand", *sizes]
    assert table_rows[2].split("\t") == ["Announced hand sum", "—", "—"]
    assert table_rows[3].split("\t") == ["Cursor markers left", *["10 (the ×2 among them)"] * 2]
    assert table_rows[4].split("\t") == ["Opponent's cursor markers taken", "0", "0"]


def test_a_declaration_and_a_x2_marker_show_on_the_board(table: Table, hack: int) -> None:
    companion = table.companion
    lead = mover(table, hack)
    first = int(companion.view(hack, lead)["legal_actions"][0].split()[1])
    companion.act(hack, lead, f"lead {first}")
    turn = mover(table, hack)
    play = next(a for a in companion.view(hack, turn)["legal_actions"]
                if a.endswith("x2 declare=play"))
    companion.act(hack, turn, play)
    page = open_game(table, hack)
    expect(page.locator(".declaration")).to_have_text(f"{NAMES[turn]} declared Play!")
    square = first + int(play.split()[1])
    expect(page.locator(f'.square[data-square="{square}"] .marker.x2')).to_have_text("×2")
    sums = page.locator(".facts-table tr").nth(2).inner_text().split("\t")
    announced = companion.view(hack, None)["announced_sums"]
    assert sums == ["Announced hand sum", *(str(s) for s in announced)]
    left = page.locator(".facts-table tr").nth(3).inner_text().split("\t")[1 + turn]
    assert left == "8"  # a plain marker discarded to declare, the ×2 placed


def test_table_cards_pick_from_every_card_value_without_showing_a_hand(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("hacktrick", NAMES, {"cards": "table"}, seed=7)
    lead = mover(table, game_id)
    page = open_game(table, game_id, lead)
    picks = page.locator("[data-pick]").evaluate_all("bs => bs.map(b => Number(b.dataset.pick))")
    assert picks == [0, 1, 2, 3, 4, 5]
    expect(page.locator(".moves .muted")).to_have_text(
        "Pick the card you lay from your hand on the table, then how to play it.")
    assert page.locator(".hand").count() == 0 and page.locator(".face-up").count() == 0


def test_a_draw_with_a_declaration_is_offered_in_words(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("hacktrick", NAMES, {"declare_after_draw": True}, seed=7)
    lead = mover(table, game_id)
    first = companion.view(game_id, lead)["legal_actions"][0]
    companion.act(game_id, lead, first)
    turn = mover(table, game_id)
    assert "draw declare=guard" in companion.view(game_id, turn)["legal_actions"]
    page = open_game(table, game_id, turn)
    others = page.locator(".other-moves [data-action]")
    expect(others.filter(has_text="Draw a card · declare Guard!")).to_have_attribute(
        "data-action", "draw declare=guard")
    assert not any("=" in label for label in others.all_inner_texts())


def test_deck_rebuild_shows_on_the_board_and_in_the_replay(table: Table) -> None:
    # Seed 001: "もし山札が尽きてしまったら…残りのカードを全てシャッフルし新たな山札とします".
    companion = table.companion
    game_id = companion.create_game("hacktrick", NAMES,
                                    {"out_of_markers": "empty_supply", "target": 9}, seed=3)
    step = play_until_the_deck_is_rebuilt(table, game_id)
    rebuilt = companion.view(game_id, None)["reshuffled"]
    text = (f"{NAMES[rebuilt['seat']]}'s draw emptied the deck: the row's {rebuilt['cards']} "
            "cards (all but the rightmost) were shuffled into a new deck.")
    expect(open_game(table, game_id).locator(".reshuffled")).to_have_text(text)
    companion.abandon(game_id)
    viewer = table.new_phone()
    viewer.goto(f"{table.url}/games/{game_id}/replay?step={step}")
    expect(viewer.locator("#board .reshuffled")).to_have_text(text)
    viewer.goto(f"{table.url}/games/{game_id}/replay?step={step - 1}")
    expect(viewer.locator("#board > .board")).to_be_visible()
    assert "emptied the deck" not in board_text(viewer)


def test_a_won_round_says_how_in_words(table: Table) -> None:
    # seed 3, plain play: round 1 ends with a line of Aiko's markers on 2, 4 and 9
    companion = table.companion
    game_id = companion.create_game("hacktrick", NAMES, {"target": 2}, seed=3)
    play_plainly(table, game_id, lambda view: view["last_round"] is not None)
    last = companion.view(game_id, None)["last_round"]
    assert last["reason"] == RoundEnd.LINE
    page = open_game(table, game_id)
    squares = ", ".join(str(s) for s in last["squares"])
    expect(page.locator(".last-round")).to_have_text(
        f"Round 1: {NAMES[last['winner']]} won, excellence points +{last['points']} — "
        f"a cursor marker on each of the squares {squares}, which add up to 15")
    expect(page.locator(".facts")).to_contain_text(
        f"{NAMES[last['winner']]}: 1 of 2 excellence points")
    # the board is cleared for round 2: what won is shown beside it until the next marker
    won = page.locator(".round-result .mini-square.won").all_inner_texts()
    assert sorted(int(s) for s in won) == sorted(last["squares"])


@pytest.mark.parametrize("reason", list(RoundEnd))
def test_every_way_a_round_ends_has_words_in_both_languages(table: Table, hack: int,
                                                            reason: RoundEnd) -> None:
    for locale in ("en-GB", "ja-JP"):
        page = open_game(table, hack, locale=locale)
        view = table.companion.view(hack, None)
        squares = [2, 5, 8] if reason is RoundEnd.LINE else [5]
        view["last_round"] = {"round": 1, "winner": 1, "points": 2, "reason": str(reason),
                              "squares": squares if reason in (RoundEnd.LINE,
                                                               RoundEnd.THREE_ON_A_SQUARE) else []}
        render(page, "hacktrick", view)
        line = page.locator(".last-round").inner_text()
        assert "Ben" in line and "2" in line
        assert not IDENTIFIER.search(line) and "round_end" not in line, line
        if reason is RoundEnd.LINE:
            assert ("2, 5, 8" if locale == "en-GB" else "2・5・8") in line


def test_the_game_ends_with_its_reason_in_words(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("hacktrick", NAMES, {"target": 1}, seed=3)
    play_plainly(table, game_id, lambda view: view["outcome"] is not None)
    for locale, words in (("en-GB", "Aiko wins: the first to reach the target of excellence "
                                    "points (1), after round 1."),
                          ("ja-JP", "ラウンド 1 を終えて、Aiko がエクセレンスポイントを 1 点先取し"
                                    "最終的な勝者となりました。")):
        page = open_game(table, game_id, locale=locale)
        expect(page.locator(".outcome .reason")).to_have_text(words)
        expect(page.locator(".outcome .winners .seat-chip")).to_have_text("Aiko")
        assert page.locator(".moves").count() == 0 and page.locator("[data-pick]").count() == 0


def test_the_rounds_chart_adds_each_rounds_points_to_its_winner(table: Table, hack: int) -> None:
    page = open_game(table, hack)
    chart = page.locator("#progress figure.chart")
    expect(page.locator("#progress")).to_be_empty()  # no round played yet
    play_plainly(table, hack, lambda view: len(view["rounds"]) >= 3)
    rounds = table.companion.view(hack, None)["rounds"]
    totals = [sum(int(r["points"]) for r in rounds if r["winner"] == seat) for seat in (0, 1)]
    page.locator("#progress").scroll_into_view_if_needed()  # (drawn while in sight)
    expect(page.locator("#progress h2")).to_have_text("Excellence points, round by round")
    expect(chart.locator("polyline")).to_have_count(2)
    expect(chart.locator(".legend")).to_have_text(
        [f"{name} {total}" for name, total in zip(NAMES, totals, strict=True)], use_inner_text=True)
    ticks = chart.locator('text[text-anchor="middle"]').evaluate_all(
        "ts => ts.map(t => t.textContent)")
    assert ticks == ["0", *(str(r["round"]) for r in rounds)]


def test_a_japanese_page_names_the_rules_with_the_seeds_words(table: Table, hack: int) -> None:
    lead = mover(table, hack)
    page = open_game(table, hack, lead, locale="ja-JP")
    text = board_text(page)
    for word in ("カード列", "手元のカーソルマーカー", "山札", "スタートプレイヤー", "ラウンド 1",
                 "このラウンドで使用されないデータカード"):  # seed 001's words
        assert word in text, word
    page.locator("[data-pick]").first.click()
    assert "最初に出す" in page.locator(".variants:not([hidden])").inner_text()
    assert not IDENTIFIER.search(text), IDENTIFIER.findall(text)
    screenshot(page, "hacktrick-ja")


def test_host_undo_takes_back_a_play_from_the_board(table: Table, hack: int) -> None:
    companion = table.companion
    host = open_game(table, hack, host=True)
    undo = host.get_by_role("button", name="Undo")
    lead = mover(table, hack)
    companion.act(hack, lead, companion.view(hack, lead)["legal_actions"][0])
    wait_version(host, companion.view(hack, None)["version"])
    expect(undo).to_be_disabled()  # the lead announced both hand sums: it cannot be taken back
    turn = mover(table, hack)
    play = next(a for a in companion.view(hack, turn)["legal_actions"] if a.startswith("play"))
    companion.act(hack, turn, play)
    wait_version(host, companion.view(hack, None)["version"])
    expect(host.locator(".card-row .data-card")).to_have_count(2)
    expect(undo).to_be_enabled()
    undo.click()
    expect(host.locator(".card-row .data-card")).to_have_count(1)
    assert open_game(table, hack).locator("[data-host-post]").count() == 0


def played(table: Table) -> int:
    """A game of seed 7 with the first card led."""
    companion = table.companion
    game_id = companion.create_game("hacktrick", NAMES, seed=7)
    lead = mover(table, game_id)
    companion.act(game_id, lead, companion.view(game_id, lead)["legal_actions"][0])
    return game_id


@pytest.mark.parametrize("viewer", ["mover", "other", "spectator", "host"])
def test_a_live_update_draws_the_same_board_as_a_fresh_page(table: Table, viewer: str) -> None:
    """One drawing for the page's first render and its live updates (issue 15)."""
    companion = table.companion
    game_id = played(table)
    turn = mover(table, game_id)
    seat = {"mover": turn, "other": 1 - turn}.get(viewer)
    live = open_game(table, game_id, seat, host=viewer == "host")
    play = next(a for a in companion.view(game_id, turn)["legal_actions"]
                if a.endswith("declare=play"))
    companion.act(game_id, turn, play)  # a marker, a declaration, a hand one card smaller
    wait_version(live, companion.view(game_id, None)["version"])
    other = mover(table, game_id)
    companion.act(game_id, other, companion.view(game_id, other)["legal_actions"][0])
    wait_version(live, companion.view(game_id, None)["version"])
    fresh = open_again(live, table, game_id)
    assert board_html(live) == board_html(fresh)
    assert live.locator(".card-row .data-card").count() == 3


def test_every_live_update_of_a_long_run_draws_what_a_fresh_page_draws(table: Table) -> None:
    """Eighteen plain actions in a row (Aiko's turns with the picker, Ben's, a round won and
    the next dealt) on Aiko's phone, each live update compared with her page loaded afresh
    (issue 32)."""
    companion = table.companion
    game_id = companion.create_game("hacktrick", NAMES, seed=3)
    live = open_game(table, game_id, 0)
    fresh = open_again(live, table, game_id)
    for _ in range(18):
        play_plainly(table, game_id, lambda view: True)
        same_as_fresh(live, fresh, companion.view(game_id, None)["version"])
    assert companion.view(game_id, None)["rounds"], "a round was won on the way"


def test_a_live_update_keeps_the_squares_it_did_not_change(table: Table) -> None:
    """A live update patches the board: the magic square's squares stay the same elements,
    the one played on gains its marker in place (issue 32)."""
    companion = table.companion
    game_id = played(table)
    page = open_game(table, game_id)
    squares = ".magic .square"
    assert tag_nodes(page, squares) == 9
    tag_nodes(page, "#board > .board, .facts-table tr")
    turn = mover(table, game_id)
    play = next(a for a in companion.view(game_id, turn)["legal_actions"]
                if a.startswith("play") and "declare" not in a)
    companion.act(game_id, turn, play)
    wait_version(page, companion.view(game_id, None)["version"])
    expect(page.locator(".magic .marker")).to_have_count(1)
    assert kept_nodes(page, squares) == 9
    assert kept_nodes(page, "#board > .board") == 1
    assert kept_nodes(page, ".facts-table tr") == 5


def test_the_picker_shows_every_card_and_says_why_one_cannot_be_played(
    table: Table, hack: int
) -> None:
    lead = mover(table, hack)
    page = open_game(table, hack, lead)
    view = table.companion.view(hack, lead)
    view["hands"][lead]["cards"] = [1, 1, 2, 3]
    view["rightmost"] = 2
    view["phase"] = "play"
    view["legal_actions"] = ["play 1", "play 1 x2", "play 3", "draw"]
    render(page, "hacktrick", view)
    cards = page.locator(".pick-cards [data-pick]")
    assert cards.all_inner_texts() == ["1", "1", "2", "3"]
    two = page.locator('.pick-cards [data-pick="2"]')
    expect(two).to_be_disabled()
    why = page.locator("#" + str(two.get_attribute("aria-describedby")))
    expect(why).to_have_text("equals the rightmost card of the row (2)")
    assert page.locator(".pick-cards [data-pick]:not([disabled])").count() == 3


def test_cursor_markers_are_drawn_white_and_red_as_on_the_table(table: Table, hack: int) -> None:
    companion = table.companion
    lead = mover(table, hack)
    first = int(companion.view(hack, lead)["legal_actions"][0].split()[1])
    companion.act(hack, lead, f"lead {first}")
    turn = mover(table, hack)
    companion.act(hack, turn, companion.view(hack, turn)["legal_actions"][0])
    page = open_game(table, hack)
    marker = page.locator(".square .marker").first
    colour = marker.evaluate("m => getComputedStyle(m).backgroundColor")
    expected = "rgb(247, 247, 242)" if turn == 0 else "rgb(183, 28, 28)"
    assert colour == expected
    assert marker.inner_text() == NAMES[turn][0]  # the owner's initial: told apart by text too
