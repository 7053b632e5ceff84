"""The table screen (``/table``) on a 1920×1080 screen beside the players' phones for a whole
evening: it follows the pad's game from one game to the next by itself (and the game the host
puts on it from the host page), shows the board, whose turn and the last move while a game is
played, the results and the standings between games, and never a secret; it passes axe-core in
English and Japanese, and nothing on it runs off a 1024×768 tablet's screen sideways."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from rules import CHANCE
from tests.e2e.boards import open_game
from tests.e2e.conftest import WAIT_MS, Table, screenshot
from tests.e2e.page_checks import (
    axe_path,
    axe_violations,
    broken_words,
    overflow,
    shown_words,
    untranslated,
    watch,
)

pytestmark = pytest.mark.browser

SCREEN = {"width": 1920, "height": 1080}
TABLET = {"width": 1024, "height": 768}
NAMES = ["Aiko", "Kenji", "Fumi"]
SECRET = "7-5-3-6"
#: How long the screen may take to move to the next game (its stream says so at once).
FOLLOW_MS = 5000


def screen(browser: Browser, table: Table, viewport: dict[str, int] = SCREEN,
           locale: str = "en-GB") -> Page:
    """A big screen (not a phone: no touch) showing ``/table``, with axe-core loaded."""
    context = browser.new_context(viewport=viewport, device_scale_factor=1, locale=locale)
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(path=str(axe_path()))
    page = context.new_page()
    page.goto(f"{table.url}/table")
    return page


@pytest.fixture
def tv(browser: Browser, table: Table) -> Iterator[Page]:
    page = screen(browser, table)
    yield page
    page.context.close()


def showing(page: Page, game_id: int) -> None:
    """Wait until the screen shows game ``game_id``, drawn and live."""
    page.wait_for_selector(f'#game[data-game-id="{game_id}"] #board > .board', timeout=FOLLOW_MS)
    expect(page.locator("#live.on")).to_be_visible()


def held(page: Page) -> str:
    """Everything the screen holds: its page, and the view and moves its scripts were sent."""
    data = page.evaluate("""() => window.TabletopGame
        ? JSON.stringify([window.TabletopGame.view(), window.TabletopGame.moves()]) : ''""")
    return str(page.content()) + str(data)


def play_out(table: Table, game_id: int, rng: random.Random) -> None:
    """Random legal moves (and die rolls) until the game ends."""
    companion = table.companion
    for _ in range(3000):
        view = companion.view(game_id, None)
        if view["status"] != "active":
            return
        seat = view["to_act"][0]
        companion.act(game_id, seat, rng.choice(companion.legal_actions(game_id, seat)),
                      "test" if seat == CHANCE else None)
    raise AssertionError(f"game {game_id} did not end")


def test_an_evening_on_the_table_screen_beside_the_phones(table: Table, tv: Page) -> None:
    companion, host = table.companion, table.host_api()
    rng = random.Random(33)
    log = watch(tv)
    expect(tv.locator("#table-waiting")).to_contain_text("No game is being played yet")

    # UNLOCK: the screen moves to it by itself; the Lock's code never reaches it
    status, reply = host.post("/api/host/games", {"game": "unlock", "players": NAMES,
                                                  "options": {"turn_limit": 3}})
    assert status == 200, reply
    unlock = reply["game_id"]
    showing(tv, unlock)
    kenji, fumi = open_game(table, unlock, 1), open_game(table, unlock, 2)
    companion.act(unlock, 0, f"secret {SECRET}")
    expect(tv.locator(".to-act")).to_contain_text("Kenji")
    companion.act(unlock, 1, "guess 1-2-3")
    companion.act(unlock, 2, "guess 7-8-9")
    # a guess is named to its author alone while the game goes on (the clue board shows it)
    expect(tv.locator("#last-move")).to_have_text("Last move: Fumi drew a code.")
    expect(fumi.locator("#last-move")).to_have_text("Last move: Fumi drew 7-8-9.")
    expect(tv.locator(".clue-card")).to_have_count(2)
    expect(tv.locator(".track-box")).to_have_attribute("open", "")  # the score track, open
    expect(tv.locator(".scores")).to_contain_text("Kenji")
    assert SECRET not in held(tv)
    screenshot(tv, "table-screen-unlock")
    companion.act(unlock, 1, f"guess {SECRET}")
    companion.act(unlock, 2, "guess 1-4-7")
    # the game is over: its results, and the standings beside them
    expect(tv.locator(".outcome .winners")).to_contain_text("Kenji")
    expect(tv.locator("#standings tbody tr").first).to_contain_text("Kenji")
    expect(kenji.locator(".outcome .winners")).to_contain_text("Kenji")
    screenshot(tv, "table-screen-results")

    # the host starts Hacktrick: the pad takes it, and the screen follows
    status, reply = host.post("/api/host/games", {"game": "hacktrick", "players": NAMES[:2],
                                                  "options": {"target": 1}, "seed": 4})
    hacktrick = reply["game_id"]
    showing(tv, hacktrick)
    expect(tv.locator("#standings")).to_have_count(0)  # a game is being played
    expect(tv.locator(".magic .square")).to_have_count(9)
    play_out(table, hacktrick, rng)
    expect(tv.locator(".outcome")).to_be_visible()
    expect(tv.locator("#standings")).to_be_visible()

    # two games at once: the screen follows the pad's (the first), or the one the host chose
    ico = companion.create_game("ico", NAMES, seed=5)
    dice = companion.create_game("dice216", NAMES[:2], {"size": 4}, seed=6)
    showing(tv, ico)
    ico_phone = open_game(table, ico, 0)
    host_page = table.host_phone()
    host_page.locator(f'.host-game[data-game-id="{dice}"]').get_by_role(
        "button", name="Show on the table screen").click()
    expect(host_page.locator(f'.host-game[data-game-id="{dice}"] .table-badge')).to_be_visible()
    showing(tv, dice)
    expect(tv.locator(".table-follows")).to_have_text("Chosen by the host")
    expect(tv.locator(".grid216 .cell")).to_have_count(16)
    host_page.get_by_role("button", name="Follow the pad").click()
    showing(tv, ico)
    expect(tv.locator(".table-follows")).to_have_text("The game on the box's pad")
    for _ in range(4):
        seat = companion.view(ico, None)["to_act"][0]
        companion.act(ico, seat, companion.legal_actions(ico, seat)[0])
    expect(tv.locator("#last-move")).to_contain_text("places a marker")
    play_out(table, ico, rng)
    expect(tv.locator("#standings")).to_be_visible()
    # play again: a new game of the same kind; the seated phone and the screen both follow
    status, reply = host.post(f"/api/host/games/{ico}/again", {})
    assert status == 200, reply
    again = reply["game_id"]
    showing(tv, again)
    ico_phone.wait_for_url(f"**/games/{again}", timeout=9000)
    screenshot(tv, "table-screen-ico")
    # nothing went wrong on the screen (its reloads end the stream they leave: that is all)
    assert not [p for p in log.problems if "ERR_ABORTED" not in p], log.problems


def test_the_screen_passes_axe_in_both_languages_and_fits_a_tablet(
        browser: Browser, table: Table) -> None:
    companion = table.companion
    rng = random.Random(8)
    pages = {lang: screen(browser, table, locale=locale)
             for lang, locale in (("en", "en-GB"), ("ja", "ja-JP"))}
    problems: list[str] = []

    def check(state: str, shown: str) -> None:
        """Once each screen shows ``shown`` by itself (it moves as the games do)."""
        for lang, page in pages.items():
            page.wait_for_selector(shown, timeout=FOLLOW_MS)
            expect(page.locator("#live.on")).to_be_visible()
            page.wait_for_timeout(300)  # the last move and the chart, after the moves' fetch
            words = shown_words(page)
            said = untranslated(words, tuple(NAMES)) if lang == "ja" else []
            problems.extend(f"{state} {lang}: {p}" for p in said + axe_violations(page))
            for viewport in (SCREEN, TABLET):
                page.set_viewport_size(viewport)
                problems.extend(f"{state} {lang} {viewport['width']}px: {p}"
                                for p in overflow(page) + broken_words(page))
            page.set_viewport_size(SCREEN)
            if lang == "ja":
                screenshot(page, f"table-screen-{state}-ja")
            else:
                page.set_viewport_size(TABLET)
                screenshot(page, f"table-screen-{state}-tablet")
                page.set_viewport_size(SCREEN)

    check("waiting", "#table-waiting")
    for game, players, options in (("unlock", NAMES, {}), ("hacktrick", NAMES[:2], {}),
                                   ("ico", NAMES, {}), ("dice216", NAMES[:2], {})):
        game_id = companion.create_game(game, players, options, seed=9)
        companion.set_pad_game(game_id)
        if game == "unlock":
            companion.act(game_id, 0, f"secret {SECRET}")
        for _ in range(5):
            view = companion.view(game_id, None)
            seat = view["to_act"][0]
            companion.act(game_id, seat, rng.choice(companion.legal_actions(game_id, seat)),
                          "test" if seat == CHANCE else None)
        check(game, f'#game[data-game-id="{game_id}"] #board > .board')
        if game == "unlock":
            assert all(SECRET not in held(page) for page in pages.values())
        if game == "ico":
            play_out(table, game_id, rng)
        else:
            companion.abandon(game_id)
    check("results", f'#game[data-game-id="{game_id}"] ~ .table-side #standings')
    assert not problems, "\n".join(problems)
