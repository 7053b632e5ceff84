"""Around every board, as a new player at the table sees it on a phone: the last move and the
move log in words (secrets hidden from the other phones), replay steps in words in both
languages, the "your turn" cue, results with each player's figures, play again and the next
tournament game in the same seat, a tie that names who tied, the progress charts, the rules in
short, the standings across games, and the host putting a game on the box's pad."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from firmware_host.companion import Companion
from rules import CHANCE
from tests.e2e.boards import open_game, wait_version
from tests.e2e.conftest import Table, screenshot
from tests.waiting import wait_for

pytestmark = pytest.mark.browser

NAMES = ["Aiko", "Kenji", "Fumi"]
#: How long a phone may take to notice the next game (it asks every 3 s).
FOLLOW_MS = 9000


def open_log(page: Page) -> None:
    page.locator("#move-log summary").click()
    expect(page.locator("#move-log")).to_have_attribute("open", "")


def test_the_move_log_says_each_move_in_words_and_hides_codes_from_other_phones(
        table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("unlock", NAMES)
    kenji, fumi = open_game(table, game_id, 1), open_game(table, game_id, 2)
    companion.act(game_id, 0, "secret 1-5-9")
    companion.act(game_id, 1, "guess 2-5-8")
    expect(fumi.locator("#last-move")).to_have_text("Last move: Kenji drew a code.")
    expect(kenji.locator("#last-move")).to_have_text("Last move: Kenji drew 2-5-8.")
    open_log(fumi)
    expect(fumi.locator("#move-list li")).to_have_count(2)
    expect(fumi.locator("#move-list li").first).to_contain_text("Aiko set the secret code.")
    expect(fumi.locator("#move-list li.latest")).to_contain_text("Kenji drew a code.")
    expect(fumi.locator("#move-list time").first).to_have_text("just now")
    assert "2-5-8" not in fumi.locator("#move-log").inner_text()
    assert "1-5-9" not in fumi.content()
    screenshot(fumi, "move-log")


def test_the_move_log_comes_with_each_change_and_follows_an_undo(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Kenji"])
    companion.act(game_id, CHANCE, "roll 4", "test")
    kenji = open_game(table, game_id, 1)
    expect(kenji.locator("#last-move")).to_have_text("Last move: The die shows 4.")  # asked for
    asked: list[str] = []
    kenji.on("request", lambda request: asked.append(request.url) if "/moves" in request.url
             else None)
    companion.act(game_id, 0, "place 1 1")
    expect(kenji.locator("#last-move")).to_have_text("Last move: Aiko writes 4 in row 1, column 1.")
    companion.act(game_id, CHANCE, "roll 5", "test")
    expect(kenji.locator("#last-move")).to_have_text("Last move: The die shows 5.")
    companion.act(game_id, 1, "place 2 2")
    expect(kenji.locator("#last-move")).to_have_text(
        "Last move: Kenji writes 5 in row 2, column 2.")
    assert asked == []  # the moves came with the changes: the page asked for none
    open_log(kenji)
    expect(kenji.locator("#move-list li")).to_have_count(4)
    companion.undo(game_id)
    expect(kenji.locator("#move-list li")).to_have_count(3)
    expect(kenji.locator("#last-move")).to_have_text("Last move: The die shows 5.")
    companion.act(game_id, 1, "place 3 3")
    log = kenji.locator("#move-list li")
    expect(log.and_(kenji.locator(".latest"))).to_contain_text("Kenji writes 5 in row 3, column 3.")
    expect(kenji.locator("#move-list li")).to_have_count(4)
    expect(log.nth(1)).to_contain_text("Aiko writes 4 in row 1, column 1.")


def test_a_phone_without_its_live_stream_follows_an_undo_in_its_move_log(table: Table) -> None:
    """Cut off from its stream, a phone asks for the whole view every 3 s: a view that comes
    without the moves since may follow an undo, so the log is not simply gone on with."""
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Kenji"])
    companion.act(game_id, CHANCE, "roll 4", "test")
    companion.act(game_id, 0, "place 1 1")
    companion.act(game_id, CHANCE, "roll 5", "test")
    companion.act(game_id, 1, "place 2 2")
    phone = table.new_phone()
    phone.route(re.compile(r".*/api/games/\d+/events.*"), lambda route: route.abort())
    phone.goto(f"{table.url}/games/{game_id}")
    open_log(phone)
    log = phone.locator("#move-list li")
    expect(log).to_have_count(4)
    expect(phone.locator("#reconnecting")).to_be_visible()  # it polls
    companion.undo(game_id)
    expect(log).to_have_count(3, timeout=FOLLOW_MS)
    expect(phone.locator("#last-move")).to_have_text("Last move: The die shows 5.")
    companion.act(game_id, 1, "place 3 3")
    companion.undo(game_id)
    companion.act(game_id, 1, "place 4 4")  # a log as long as the phone's, rewritten
    expect(phone.locator("#last-move")).to_have_text(
        "Last move: Kenji writes 5 in row 4, column 4.", timeout=FOLLOW_MS)
    expect(log).to_have_count(4)
    expect(log.last).to_contain_text("Kenji writes 5 in row 4, column 4.")
    expect(log.nth(1)).to_contain_text("Aiko writes 4 in row 1, column 1.")


def test_replay_steps_are_said_in_words_in_both_languages(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("hacktrick", ["Aiko", "Dan"], seed=11)
    moves: list[tuple[int, str]] = []
    for _ in range(3):
        seat = companion.view(game_id, None)["to_act"][0]
        legal = companion.view(game_id, seat)["legal_actions"]
        plays = [a for a in legal if a.startswith(("lead", "play"))]
        action = next((a for a in plays if "x2" in a and "declare=play" in a), plays[0])
        companion.act(game_id, seat, action)
        moves.append((seat, action))
    board = companion.view(game_id, None)["board"]
    companion.abandon(game_id)
    names = ["Aiko", "Dan"]
    # the third move played a card on the square of its sum with the card before it: the
    # words name that square, where the board holds its marker
    (lead_seat, lead), (_, second), (seat, third) = moves
    card = int(third.split()[1])
    square = int(second.split()[1]) + card
    assert any(m["owner"] == seat for m in board[str(square)]), (board, moves)
    tail = (", ×2" if " x2" in third else "") + (", declares Play!" if "declare=play" in third
                                                   else "") + "."
    page = table.new_phone()
    page.goto(f"{table.url}/games/{game_id}/replay?step=3")
    expect(page.locator("#step-words")).to_have_text(
        f"{names[seat]} plays {card} on square {square}{tail}")
    page.goto(f"{table.url}/games/{game_id}/replay?step=1")
    expect(page.locator("#step-words")).to_have_text(
        f"{names[lead_seat]} leads {lead.split()[1]}.")
    ja = table.new_phone(locale="ja-JP")
    ja.goto(f"{table.url}/games/{game_id}/replay?step=3")
    expect(ja.locator("#step-words")).to_contain_text(
        f"{names[seat]} が {card} を出し、マス {square} にカーソルマーカーを置きました")
    screenshot(ja, "replay-words-ja")


def test_your_turn_shows_in_the_title_and_the_sound_switch_is_kept(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Kenji"], {"start_face": "T0"})
    aiko, kenji = open_game(table, game_id, 0), open_game(table, game_id, 1)
    expect(aiko).to_have_title(re.compile(r"^● Your move · ICO"))
    expect(aiko.locator("body")).to_have_class(re.compile(r"\bmy-turn\b"))
    expect(kenji).to_have_title(re.compile(r"^ICO"))
    edge = companion.view(game_id, 0)["legal_edges"][0]
    aiko.locator(f'.edge-hit[data-action="place {edge}"]').dispatch_event("click")
    expect(kenji).to_have_title(re.compile(r"^● Your move"))
    expect(aiko).to_have_title(re.compile(r"^ICO"))
    toggle = kenji.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text("Sound on your turn: on")
    kenji.reload()
    expect(kenji.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    # the same phone's other tab turns it off: this page follows (it keeps the choice it read)
    other = kenji.context.new_page()
    other.goto(kenji.url)
    other.locator("#sound-toggle").click()
    expect(other.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    expect(kenji.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    other.close()


def play_until_the_turn_of(companion: Companion, game_id: int, seat: int) -> None:
    """Each mover's first legal action until it is ``seat``'s turn (bounded)."""
    for _ in range(20):
        mover = companion.view(game_id, None)["mover"]
        if mover == seat:
            return
        companion.act(game_id, mover, companion.legal_actions(game_id, mover)[0])
    raise AssertionError(f"seat {seat} never came to move")


def test_a_change_that_makes_it_your_turn_buzzes_the_phone(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Kenji"], {"start_face": "T0"})
    kenji = open_game(table, game_id, 1)
    kenji.locator("h1").click()  # a tap on the page: a phone buzzes only after one
    kenji.evaluate("() => { window.buzzes = 0; navigator.vibrate = () => { window.buzzes += 1; "
                   "return true; }; }")
    play_until_the_turn_of(companion, game_id, 1)
    expect(kenji).to_have_title(re.compile(r"^● Your move"))
    wait_for(lambda: kenji.evaluate("window.buzzes") == 1, "the phone to buzz")
    kenji.evaluate("() => { window.buzzes = 0; }")
    play_until_the_turn_of(companion, game_id, 0)
    expect(kenji).to_have_title(re.compile(r"^ICO"))
    play_until_the_turn_of(companion, game_id, 1)
    expect(kenji).to_have_title(re.compile(r"^● Your move"))
    wait_for(lambda: kenji.evaluate("window.buzzes") == 1, "the phone to buzz again")


def test_a_delta_makes_a_new_view_and_leaves_the_one_it_applies_to(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Kenji"], {"start_face": "T0"})
    page = open_game(table, game_id, 1)
    old, new, same = page.evaluate("""() => {
        const view = {turn: 1, seats: ["A", "B"], edges: [{id: 1, markers: [0, 0]}], rest: {x: 1}};
        const before = JSON.stringify(view);
        const after = window.TabletopGame.applyDelta(view, [
            ["s", ["turn"], 2], ["s", ["edges", 0, "markers", 1], 1], ["d", ["seats", 1]],
            ["s", ["edges", 1], {id: 2, markers: [1, 0]}]]);
        return [JSON.stringify(view) === before, after, after.rest === view.rest];
    }""")
    assert old, "the view a delta applies to is left as it was"
    assert new == {"turn": 2, "seats": ["A"], "rest": {"x": 1},
                   "edges": [{"id": 1, "markers": [0, 1]}, {"id": 2, "markers": [1, 0]}]}
    assert same  # what the delta does not touch is shared, not copied


def test_a_game_that_ends_on_the_screen_asks_nothing_at_that_moment(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Kenji"], {"start_face": "T0"})
    kenji = open_game(table, game_id, 1)
    companion.act(game_id, 0, companion.legal_actions(game_id, 0)[0])  # a first change
    expect(kenji.locator("#last-move")).to_be_visible()
    asked: list[tuple[float, str]] = []
    kenji.on("request", lambda request: asked.append((time.monotonic(), request.url)))
    companion.abandon(game_id)
    ended = time.monotonic()
    expect(kenji.locator(".outcome")).to_be_visible()
    kenji.wait_for_timeout(1500)
    assert [url for at, url in asked if at - ended < 1.5] == []
    # the next game in this seat is asked for a round later (the host's "play again" can
    # only come after the end)
    with kenji.expect_request(lambda request: "/next" in request.url, timeout=6000):
        pass


def test_results_show_each_players_figures_and_play_again_keeps_the_seats(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("unlock", NAMES, {"difficulty": "easy", "turn_limit": 4})
    kenji = open_game(table, game_id, 1)
    host = open_game(table, game_id, host=True)
    companion.act(game_id, 0, "secret 1-5-9")
    companion.act(game_id, 1, "guess 2-5-8")
    companion.act(game_id, 2, "guess 1-5-9")
    results = kenji.locator(".outcome table.results")
    expect(results).to_be_visible()
    expect(kenji.locator(".outcome .winners")).to_contain_text("Fumi")
    header = results.locator("tr").first
    expect(header).to_contain_text("Codes drawn")
    expect(header).to_contain_text("Best matches")
    expect(results.locator("tr.winner-row")).to_contain_text("Fumi")
    expect(kenji.locator(".clue-card.opened")).to_contain_text("Fumi")
    # the open lock drawn, not an emoji (a browser without an emoji font shows a box)
    expect(kenji.locator(".clue-card.opened .opened-tag svg.icon")).to_be_visible()
    assert "\U0001F513" not in kenji.locator(".clue-card.opened").inner_text()
    screenshot(kenji, "results")
    assert kenji.locator("[data-play-again]").count() == 0  # the host's
    host.locator("[data-play-again]").click()
    host.wait_for_url(lambda url: not url.endswith(f"/games/{game_id}"))
    again = int(host.url.rsplit("/", 1)[1])
    assert again != game_id
    assert companion.view(again, None)["options"] == companion.view(game_id, None)["options"]
    assert companion.summary(again)["seats"] == NAMES
    kenji.wait_for_url(f"**/games/{again}", timeout=FOLLOW_MS)
    expect(kenji.locator(".you-line")).to_contain_text("Kenji")
    assert companion.summary(again)["claimed"] == [False, True, False]


def test_tournament_phones_take_the_same_seat_in_the_next_game(table: Table) -> None:
    companion = table.companion
    tid = companion.create_tournament("unlock", ["Aiko", "Kenji"])
    first = companion.tournament(tid)["games"][0]
    aiko, kenji = open_game(table, first, 0), open_game(table, first, 1)
    companion.act(first, 0, "secret 1-5-9")
    companion.act(first, 1, "guess 1-5-9")
    second = companion.tournament(tid)["games"][1]
    for page, name in ((aiko, "Aiko"), (kenji, "Kenji")):
        page.wait_for_url(f"**/games/{second}", timeout=FOLLOW_MS)
        expect(page.locator(".you-line")).to_contain_text(name)
    assert companion.summary(second)["claimed"] == [True, True]
    # Kenji is the Lock now: his phone draws the secret without joining again
    expect(kenji.locator("#pad-card")).to_contain_text("Draw the secret code")


def test_a_tie_names_everyone_who_tied(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("unlock", NAMES)
    companion.act(game_id, 0, "secret 1-5-9")
    companion.act(game_id, 1, "guess 1-5-9")
    companion.act(game_id, 2, "guess 1-5-9")
    for locale, tied, words in (("en-GB", "Tied", "Kenji and Fumi tied on the top score"),
                                ("ja-JP", "同点", "KenjiとFumi が最高得点で並び")):
        page = open_game(table, game_id, locale=locale)
        expect(page.locator(".outcome .winners.tied")).to_contain_text(tied)
        expect(page.locator(".outcome .winners.tied .seat-chip")).to_have_text(["Kenji", "Fumi"])
        expect(page.locator(".outcome .reason")).to_contain_text(words)


def test_a_tied_tournament_names_the_players_who_tied(table: Table) -> None:
    companion = table.companion
    tid = companion.create_tournament("unlock", ["Aiko", "Kenji"])
    for lock, guesser in ((0, 1), (1, 0)):
        game_id = companion.tournament(tid)["games"][-1]
        companion.act(game_id, lock, "secret 1-5-9")
        companion.act(game_id, guesser, "guess 1-5-9")
    tour = companion.tournament(tid)
    assert tour["status"] == "finished" and tour["winners"] == [0, 1]
    page = table.new_phone()
    page.goto(f"{table.url}/tournaments/{tid}")
    expect(page.locator("#tournament-result")).to_contain_text(
        f"Aiko and Kenji tie with {tour['totals'][0]} points each.")
    expect(page.locator(".tour-games li").first).to_contain_text("Lock: Aiko")


@pytest.mark.parametrize(("game", "options", "title"), [
    ("ico", {"start_face": "T0"}, "Markers placed, move by move"),
    ("dice216", {}, "Totals, number by number"),
])
def test_games_in_play_chart_every_player_even_when_they_share_a_score(
        table: Table, game: str, options: dict[str, object], title: str) -> None:
    companion = table.companion
    game_id = companion.create_game(game, ["Aiko", "Kenji"], options)
    for _ in range(4):  # two moves each (and the die before each 2 1 6 move)
        seat = companion.view(game_id, None)["to_act"][0]
        if seat == CHANCE:
            companion.act(game_id, CHANCE, "roll 1", "test")
            seat = companion.view(game_id, None)["to_act"][0]
        companion.act(game_id, seat, companion.legal_actions(game_id, seat)[0])
    page = open_game(table, game_id)
    chart = page.locator("#progress")
    chart.scroll_into_view_if_needed()  # (drawn while in sight)
    expect(chart.locator("h2")).to_have_text(title)
    expect(chart.locator("g.series")).to_have_count(2)
    for seat in (0, 1):  # both lines drawn, each with its own points, though they overlap
        points = chart.locator(f'g.series[data-seat="{seat}"] .point')
        assert points.count() >= 3
    dashes = chart.locator("g.series polyline").evaluate_all(
        "lines => lines.map(l => l.getAttribute('stroke-dasharray'))")
    assert len(set(dashes)) == 2, dashes
    expect(chart.locator("figcaption .legend")).to_have_count(2)


def test_a_chart_out_of_sight_is_drawn_again_when_scrolled_to(table: Table) -> None:
    """Below the board on a phone, the progress chart is drawn once (its place, title and legend
    on the page from the start), then again only as it comes into sight, with the figures as they
    are then: the moves made while it was out of sight are not drawn one by one (issue 32: each
    was work for every update of the phone)."""
    companion = table.companion
    game_id = companion.create_game("dice216", ["Aiko", "Kenji"])

    def place() -> None:  # the die, then the number written
        companion.act(game_id, CHANCE, "roll 2", "test")
        mover = companion.view(game_id, None)["to_act"][0]
        companion.act(game_id, mover, companion.legal_actions(game_id, mover)[0])

    place()
    page = open_game(table, game_id, 0)
    chart = page.locator("#progress")
    points = chart.locator('g.series[data-seat="0"] .point')
    expect(points).to_have_count(2)  # drawn once, out of sight: the start and one move
    below = chart.evaluate("n => n.getBoundingClientRect().top - innerHeight")
    assert below > 0, below
    for _ in range(2):
        place()
    wait_version(page, companion.view(game_id, None)["version"])
    expect(page.locator("#last-move")).to_contain_text("row 1, column 3")  # the third move
    assert points.count() == 2  # not drawn again while out of sight
    chart.scroll_into_view_if_needed()
    expect(points).to_have_count(4)  # the start and three moves
    expect(chart.locator("figcaption .legend")).to_have_count(2)


def test_a_point_added_to_the_chart_moves_no_tick_and_no_earlier_point(table: Table) -> None:
    """The axes end at round figures past the data: x at eight ticks of 1, 2, 3, 4, 6… steps,
    y at 1, 2 or 5 times a power of ten."""
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Kenji"], {"start_face": "T0"})
    page = open_game(table, game_id, 0)
    page.locator("#progress").scroll_into_view_if_needed()  # (drawn while in sight)
    chart = page.locator("#progress svg")

    def drawn() -> dict[str, list[str]]:
        return chart.evaluate("""svg => ({
            x: [...svg.querySelectorAll("text.tick[text-anchor=middle]")].map(t => t.textContent
                + "@" + t.getAttribute("x")),
            y: [...svg.querySelectorAll("text.tick[text-anchor=end]")].map(t => t.textContent),
            lines: [...svg.querySelectorAll("polyline")].map(l => l.getAttribute("points"))})""")

    def steps() -> int:
        return len(drawn()["lines"][0].split()) - 1 if chart.count() else 0

    def place() -> None:  # act until the chart has one more step (a roll adds none)
        start = steps()
        while steps() == start:
            mover = companion.view(game_id, None)["to_act"][0]
            companion.act(game_id, mover, companion.legal_actions(game_id, mover)[0])
            wait_version(page, companion.view(game_id, None)["version"])

    for _ in range(3):
        place()
    before = drawn()
    top = max(companion.view(game_id, None)["markers_per_colour"] - left
              for left in companion.view(game_id, None)["markers_left"])
    assert before["y"] == ["0", "2" if top <= 2 else "5"]
    assert [label.split("@")[0] for label in before["x"]] == ["0", "1", "2", "3"]
    place()
    after = drawn()
    assert after["x"][:-1] == before["x"]  # the ticks where they were, the new step's added
    assert after["x"][-1].startswith("4@")
    for old, new in zip(before["lines"], after["lines"], strict=True):
        assert new.startswith(old + " ")  # the earlier points where they were, one added


@pytest.mark.parametrize(("game", "en", "ja"), [
    ("unlock", "The Lock draws a secret code", "ロックは秘密のコード"),
    ("hacktrick", "Ask the sum", "アスク・ザ・サム"),
    ("ico", "The black tile marks the active face", "アクティブな三角形"),
    ("dice216", "You dominate a row or column", "支配"),
])
def test_each_game_has_its_rules_in_short_in_both_languages(
        table: Table, game: str, en: str, ja: str) -> None:
    game_id = table.companion.create_game(game, ["Aiko", "Kenji"])
    for locale, words in (("en-GB", en), ("ja-JP", ja)):
        page = open_game(table, game_id, locale=locale)
        help_box = page.locator("#rules-help")
        help_box.locator("summary").click()
        expect(help_box).to_contain_text(words)


def test_a_spectator_is_offered_join_only_while_a_seat_is_free(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", ["Aiko", "Kenji"])
    watcher = open_game(table, game_id)
    expect(watcher.locator(".you-line a", has_text="Join")).to_be_visible()
    open_game(table, game_id, 0)
    open_game(table, game_id, 1)
    watcher.reload()
    expect(watcher.locator(".you-line")).to_have_text(re.compile(r"^\s*You are watching\.\s*$"))
    watcher.goto(table.url + "/")
    row = watcher.locator(f'.game-row[data-game-id="{game_id}"]')
    expect(row.get_by_role("link", name="Join")).to_have_count(0)
    expect(row.get_by_role("link", name="Watch")).to_be_visible()


def test_the_standings_rank_players_across_games_and_per_game(table: Table) -> None:
    companion = table.companion
    for guesser in (1, 1, 2):
        game_id = companion.create_game("unlock", NAMES)
        companion.act(game_id, 0, "secret 1-5-9")
        companion.act(game_id, 1, "guess 2-5-8" if guesser == 2 else "guess 1-5-9")
        companion.act(game_id, 2, "guess 1-5-9" if guesser == 2 else "guess 2-5-8")
    ico = companion.create_game("ico", ["Kenji", "Fumi"])
    companion.abandon(ico)  # an abandoned game counts for nothing
    page = table.new_phone()
    page.goto(table.url + "/")
    page.get_by_role("link", name="Standings").click()
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Kenji")
    expect(rows.nth(0).locator("td").nth(1)).to_have_text("3")  # played
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("2")  # won
    expect(rows.nth(1)).to_contain_text("Fumi")
    page.get_by_role("link", name="ICO").click()
    expect(page.locator("h1")).to_have_text("Standings: ICO")
    expect(page.locator("#standings")).to_have_count(0)  # its only game was abandoned
    page.get_by_role("link", name="UNLOCK").click()
    expect(page.locator("h1")).to_have_text("Standings: UNLOCK")
    expect(page.locator("#standings thead")).to_contain_text("Points")
    expect(page.locator("#standings tbody tr").nth(0)).to_contain_text("Kenji")
    screenshot(page, "standings")


def test_the_host_puts_a_game_on_the_box_pad(table: Table) -> None:
    companion = table.companion
    older = companion.create_game("unlock", ["Aiko", "Kenji"])  # the pad takes the first game
    newer = companion.create_game("unlock", ["Fumi", "Dan"])
    host = table.host_phone()
    expect(host.locator("#pad-note")).to_have_text(
        "The box's pad stays on its game until you or the box choose another.")
    expect(host.locator(f'.host-game[data-game-id="{older}"] .pad-badge')).to_be_visible()
    host.locator(f'.host-game[data-game-id="{newer}"]').get_by_role(
        "button", name="Play this game on the box's pad").click()
    expect(host.locator(f'.host-game[data-game-id="{newer}"] .pad-badge')).to_have_text(
        "▣ On the box's pad")
    assert companion.pad()["game"] == newer
    screenshot(host, "host-pad")
    device = host.context.new_page()
    device.goto(table.url + "/device")
    for button in ('[data-key="ok"]', '[data-dot="1"]', '[data-dot="5"]', '[data-dot="9"]',
                   '[data-key="ok"]'):
        before = device.locator("#oled").get_attribute("src")
        device.locator(button).click()
        expect(device.locator("#oled")).not_to_have_attribute("src", before or "")
    assert companion.view(newer, 0)["secret"] == "1-5-9"
    assert companion.view(older, 0)["secret"] is None



def test_each_move_is_put_into_words_once_and_as_a_fresh_page_words_it(table: Table) -> None:
    """The page keeps the words of the moves it has: a change puts only the moves it brought
    into words (the board's ``describe`` asked from where the log had got to), and they are the
    words a page loaded afresh gives the whole log, Hacktrick's too, whose words for a card
    played name the square it makes with the card before it (issue 32: every move of the game
    was put into words again at each change)."""
    companion = table.companion
    game_id = companion.create_game("hacktrick", ["Aiko", "Kenji"], seed=7)
    page = open_game(table, game_id, 0)
    page.evaluate("""() => {
        const board = TabletopBoards.board("hacktrick");
        const words = board.describe;
        window.asked = [];
        board.describe = (moves, view, ctx, from) => {
            window.asked.push([moves.length, from]);
            return words(moves, view, ctx, from);
        };
    }""")
    for _ in range(6):
        seat = companion.view(game_id, None)["to_act"][0]
        legal = companion.view(game_id, seat)["legal_actions"]
        companion.act(game_id, seat, next(a for a in legal if a.startswith(("lead", "play"))))
        wait_version(page, companion.view(game_id, None)["version"])
    wait_for(lambda: page.evaluate("TabletopGame.moves().length") == 6, "the page's six moves")
    # each ask from where the words had got to: no move put into words twice (a change's moves
    # come with it; those of a change that came while the log was being asked for, after it)
    asked = page.evaluate("window.asked")
    described = 0
    for length, start in asked:
        assert start == described, asked
        described = length
    assert described == 6, asked
    open_log(page)
    expect(page.locator("#move-list li > span")).to_have_count(6)  # drawn as the fold opens
    live = page.locator("#move-list li > span").all_inner_texts()
    assert len(live) == 6 and sum("on square" in text for text in live) >= 4, live
    page.reload()  # the same phone's page, loaded afresh: the whole log put into words at once
    open_log(page)
    expect(page.locator("#move-list li > span")).to_have_text(live)


def test_a_message_fills_its_blanks_once_and_keeps_the_rest(table: Table) -> None:
    """The page's words (panel.js ``message``): each blank filled from the values, in one pass (a
    value's own braces stay as they are), a blank without a value kept, the same message filled
    again with other values as the move log does for every move."""
    game_id = table.companion.create_game("dice216", ["Aiko", "Kenji"])
    page = open_game(table, game_id)
    filled = page.evaluate("""() => [
        Tabletop.message("move_place", {name: "A{row}", n: 3, row: 1, column: 2}),
        Tabletop.message("move_place", {name: "Kenji", n: 6, row: 4}),
        Tabletop.message("no such key {x}", {x: "X"}),
        Tabletop.message("move_place")]""")
    assert filled == ["A{row} writes 3 in row 1, column 2.",
                      "Kenji writes 6 in row 4, column {column}.",
                      "no such key X",
                      "{name} writes {n} in row {row}, column {column}."]
