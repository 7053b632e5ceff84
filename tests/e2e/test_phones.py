"""Phones at the table, in Debian's Chromium: join, draw codes with pointer events, see the other
phones update live, host flows, the language switch, reconnecting, and the simulated box."""

from __future__ import annotations

import itertools
import re
import time

import pytest
from playwright.sync_api import Page, Route, expect

from rules import CHANCE
from tests.e2e.boards import wait_version
from tests.e2e.conftest import Table, screenshot
from tests.waiting import wait_for
from tests.web_panel.served import HOST_PIN

pytestmark = pytest.mark.browser


def draw(page: Page, dots: list[int], size: int = 3) -> None:
    """Draw a code on the pattern pad with one continuous pointer stroke."""
    page.locator("#pad").scroll_into_view_if_needed()
    box = page.locator("#pad").bounding_box()
    assert box is not None

    def centre(dot: int) -> tuple[float, float]:
        row, col = divmod(dot - 1, size)
        return (box["x"] + box["width"] * (col + 0.5) / size,
                box["y"] + box["height"] * (row + 0.5) / size)

    page.mouse.move(*centre(dots[0]))
    page.mouse.down()
    for dot in dots[1:]:
        page.mouse.move(*centre(dot), steps=6)
    page.mouse.up()


def draw_with_finger(page: Page, dots: list[int], size: int = 3) -> None:
    """Draw a code with a real touch gesture (Chromium's touch input, through CDP)."""
    pad = page.locator("#pad")
    pad.scroll_into_view_if_needed()
    box = pad.bounding_box()
    assert box is not None
    points = []
    for dot in dots:
        row, col = divmod(dot - 1, size)
        points.append((box["x"] + box["width"] * (col + 0.5) / size,
                       box["y"] + box["height"] * (row + 0.5) / size))
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent",
               {"type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]})
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        for step in range(1, 7):
            x, y = x0 + (x1 - x0) * step / 6, y0 + (y1 - y0) * step / 6
            touch.send("Input.dispatchTouchEvent",
                       {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


def join(page: Page, table: Table, game_id: int, name: str) -> None:
    page.goto(f"{table.url}/join/{game_id}")
    page.get_by_role("button", name=f"I am {name}").click()
    page.wait_for_url(f"**/games/{game_id}")
    expect(page.locator(".you-line")).to_contain_text(name)
    expect(page.locator("#live")).to_have_class(re.compile(r"\bon\b"))


def test_lock_and_guessers_play_a_turn_and_see_each_other_live(table: Table) -> None:
    game_id = table.companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    lock, ben, watcher = table.new_phone(), table.new_phone(), table.new_phone()
    join(lock, table, game_id, "Aiko")
    join(ben, table, game_id, "Ben")
    watcher.goto(f"{table.url}/games/{game_id}")
    expect(ben.locator("#pad-card")).to_be_hidden()

    expect(lock.locator("#pad-card")).to_be_visible()
    draw(lock, [1, 5, 9, 6])
    expect(lock.locator("#pad-code")).to_have_text("1-5-9-6")
    expect(lock.locator("#pad-hint")).to_have_text("This code obeys the level.")
    screenshot(lock, "unlock-lock-drawing")
    lock.locator("#pad-submit").click()
    expect(lock.locator("#pad-card")).to_be_hidden()
    expect(lock.locator(".my-card.secret code")).to_have_text(
        table.companion.view(game_id, 0)["secret"])

    # Ben's phone learns it is his turn without a reload.
    expect(ben.locator("#pad-card")).to_be_visible()
    expect(ben.locator("#pad-title")).to_have_text("Draw your code for turn 1")
    draw(ben, [1, 5, 9])
    ben.locator("#pad-submit").click()
    expect(ben.locator(".my-card code")).to_have_text("1-5-9")
    expect(watcher.locator(".submitted")).to_contain_text("Ben")
    expect(lock.locator(".submitted")).to_contain_text("Ben")

    table.companion.act(game_id, table.companion.view(game_id, None)["lock"] + 2, "guess 4-5-6")
    column = lock.locator('.clue-column[data-matches="2"]')
    expect(column).to_contain_text("Ben")
    expect(watcher.locator('.clue-column[data-matches="0"]')).to_contain_text("Chie")
    expect(watcher.locator('.score[data-seat="1"]')).to_have_text("2")
    assert table.companion.view(game_id, 0)["secret"] not in watcher.content()
    screenshot(watcher, "unlock-spectator")
    screenshot(ben, "unlock-guesser")


def test_pad_hints_live_and_shows_the_servers_refusal(table: Table) -> None:
    game_id = table.companion.create_game("unlock", ["Aiko", "Ben"], {"difficulty": "easy"})
    lock = table.new_phone()
    join(lock, table, game_id, "Aiko")
    draw(lock, [2, 4, 1, 5])
    expect(lock.locator("#pad-hint")).to_contain_text("cross")
    lock.locator("#pad-submit").click()
    expect(lock.locator("#message")).to_be_visible()
    expect(lock.locator("#message")).to_contain_text("cross")
    assert table.companion.view(game_id, 0)["secret"] is None
    lock.locator("#pad-clear").click()
    expect(lock.locator("#message")).to_be_hidden()
    draw(lock, [1, 3])  # the stroke passes over 2: auto-connection makes it 1-2-3
    expect(lock.locator("#pad-code")).to_have_text("1-2-3")
    lock.locator("#pad-undo").click()
    expect(lock.locator("#pad-code")).to_have_text("1-2")
    screenshot(lock, "unlock-pad-hint")


def tap(page: Page, dots: list[int], size: int = 3) -> None:
    """Press the dot buttons one by one (each adds a dot; no stroke passes over the dots
    between): the pad's keyboard way, where a tap on the drawing would start a new code."""
    box = page.locator("#dot-box")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    for dot in dots:
        page.locator(f'#dot-buttons [data-dot="{dot}"]').click()


def test_pad_refuses_a_crossed_dot_and_draws_it_crossed_out(table: Table) -> None:
    # Seed 002: "The path can't cross the same dot twice": with auto-connection off, 1-9 passes
    # over dot 5 without joining it; 5 is crossed: 3-7 may not pass over it, nothing may land on it.
    game_id = table.companion.create_game(
        "unlock", ["Aiko", "Ben"], {"difficulty": "hard", "auto_connect": False})
    lock = table.new_phone()
    join(lock, table, game_id, "Aiko")
    tap(lock, [1, 9, 3])
    expect(lock.locator("#pad-code")).to_have_text("1-9-3")
    expect(lock.locator('.pad-crossed[data-dot="5"]')).to_have_count(1)
    expect(lock.locator('.pad-crossed[data-dot="6"]')).to_have_count(1)
    tap(lock, [7])
    expect(lock.locator("#pad-code")).to_have_text("1-9-3")
    expect(lock.locator("#pad-hint")).to_contain_text(
        "passes over dot 5, which line 1-9 already crossed")
    expect(lock.locator("#pad-hint")).to_have_class(re.compile(r"\bbad\b"))
    tap(lock, [5])
    expect(lock.locator("#pad-code")).to_have_text("1-9-3")
    expect(lock.locator("#pad-hint")).to_contain_text("dot 5 was crossed by line 1-9")
    screenshot(lock, "unlock-pad-crossed-dot")
    tap(lock, [2])
    expect(lock.locator("#pad-code")).to_have_text("1-9-3-2")
    expect(lock.locator("#pad-hint")).to_have_text("This code obeys the level.")
    lock.locator("#pad-submit").click()
    expect(lock.locator("#pad-card")).to_be_hidden()
    assert table.companion.view(game_id, 0)["secret"] == "1-9-3-2"


def test_four_by_four_pad_drawn_with_a_finger(table: Table) -> None:
    game_id = table.companion.create_game("unlock", ["Aiko", "Ben"], {"size": 4})
    lock = table.new_phone()
    join(lock, table, game_id, "Aiko")
    draw_with_finger(lock, [1, 6, 11, 16, 12], size=4)
    expect(lock.locator("#pad-code")).to_have_text("1-6-11-16-12")
    lock.locator("#pad-submit").click()
    expect(lock.locator("#pad-card")).to_be_hidden()
    assert table.companion.view(game_id, 0)["secret"] is not None


def test_host_logs_in_creates_a_game_and_reissues_a_lost_seat(table: Table) -> None:
    host = table.new_phone()
    host.goto(f"{table.url}/host")
    host.locator("#pin").fill("000000")
    host.get_by_role("button", name="Log in").click()
    expect(host.locator("#message")).to_contain_text("not the host PIN")
    host.locator("#pin").fill(HOST_PIN)
    host.get_by_role("button", name="Log in").click()
    host.get_by_role("link", name="UNLOCK").click()
    expect(host.locator('[data-option="difficulty"] .help')).to_contain_text("Default")
    screenshot(host, "host-new-unlock")
    players = host.locator("#players input")
    players.nth(0).fill("Aiko")
    players.nth(1).fill("Ben")
    host.locator("#add-player").click()
    host.locator("#players input").nth(2).fill("Chie")
    host.locator("#opt-difficulty").select_option("hard")
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_url(re.compile(r".*/join/\d+$"))
    game_id = int(host.url.rsplit("/", 1)[1])
    assert table.companion.view(game_id, None)["options"]["difficulty"] == "hard"
    assert table.companion.view(game_id, None)["seats"] == ["Aiko", "Ben", "Chie"]

    lost = table.new_phone()
    join(lost, table, game_id, "Ben")
    host.goto(f"{table.url}/host")
    host.on("dialog", lambda dialog: dialog.accept())
    host.locator(f'.host-game[data-game-id="{game_id}"] [data-reissue]').click()
    host.wait_for_url("**/host/reissued/*")
    expect(host.locator("svg.qr")).to_be_visible()
    screenshot(host, "host-reissued")
    handover = host.locator(".url").inner_text()
    found = table.new_phone()
    found.goto(handover)
    found.get_by_role("button", name="I am Ben").click()
    found.wait_for_url(f"**/games/{game_id}")
    expect(found.locator(".you-line")).to_contain_text("Ben")
    lost.reload()
    expect(lost.locator(".you-line")).to_contain_text("You are watching")

    table.companion.act(game_id, 0, "secret 1-2-3")
    host.goto(f"{table.url}/games/{game_id}")
    undo = host.get_by_role("button", name="Undo")
    expect(undo).to_be_enabled()
    secret_set = table.companion.view(game_id, None)["version"]
    undo.click()
    wait_version(host, secret_set + 1)  # the undo, journaled, reached the page
    expect(undo).to_be_disabled()  # the board came back live: nothing left to take back
    assert table.companion.view(game_id, 0)["secret"] is None
    host.get_by_role("button", name="Abandon").click()
    expect(host.locator(".outcome")).to_contain_text("abandoned")
    assert table.companion.view(game_id, None)["status"] == "abandoned"
    host.goto(f"{table.url}/history")
    host.get_by_role("link", name="Replay").first.click()
    expect(host.locator(".step-count")).to_be_visible()


def test_language_switch_is_remembered(table: Table) -> None:
    table.companion.create_game("dice216", ["Aiko", "Ben"])
    phone = table.new_phone()
    phone.goto(table.url + "/")
    expect(phone.locator("h1").first).to_have_text("Games in play")
    phone.locator("#lang-toggle").click()
    expect(phone.locator("h1").first).to_have_text("進行中のゲーム")
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("lang", "ja")
    screenshot(phone, "home-ja")
    japanese = table.new_phone(locale="ja-JP")
    japanese.goto(table.url + "/history")
    expect(japanese.locator("html")).to_have_attribute("lang", "ja")


def fonts_drawing(page: Page, selector: str) -> set[str]:
    """The fonts the browser draws ``selector``'s text with (DevTools' platform fonts)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cdp.detach()
    return {font["familyName"] for font in fonts}


def test_the_other_languages_name_is_drawn_in_that_languages_font(table: Table) -> None:
    """An English page's 日本語 is Japanese text: marked so, the browser draws it with a
    Japanese font, not whichever font has the characters (on the box, the OLED's pixel font)."""
    phone = table.new_phone()
    phone.goto(table.url + "/")
    expect(phone.locator("#lang-toggle")).to_have_attribute("lang", "ja")
    drawn = fonts_drawing(phone, "#lang-toggle")
    assert drawn and not any("Misaki" in name for name in drawn), drawn
    japanese = table.new_phone(locale="ja-JP")
    japanese.goto(table.url + "/")
    expect(japanese.locator("#lang-toggle")).to_have_attribute("lang", "en")
    assert fonts_drawing(japanese, "h1") == drawn  # as a Japanese page draws its own


def test_a_dropped_stream_shows_reconnecting_and_resumes(table: Table) -> None:
    game_id = table.companion.create_game("dice216", ["Aiko", "Ben"])
    phone = table.new_phone()
    join(phone, table, game_id, "Aiko")
    state = table.served.app.extensions["tabletop"]
    state.closing.set()  # every stream ends, and new ones end at once: as if the box went away
    expect(phone.locator("#reconnecting")).to_be_visible()
    screenshot(phone, "reconnecting")
    table.companion.act(game_id, CHANCE, "roll 5")
    state.closing.clear()
    expect(phone.locator("#reconnecting")).to_be_hidden(timeout=12000)
    expect(phone.locator(".die-face")).to_have_text("5")


def test_a_whole_unlock_game_on_the_device_page(table: Table) -> None:
    game_id = table.companion.create_game("unlock", ["Aiko", "Ben"])
    page = table.host_phone()  # the box's own controls are the host's
    page.goto(table.url + "/device")
    image = page.locator("#oled")

    def press(label: str) -> None:
        before = image.get_attribute("src") or ""
        if label.isdigit():
            page.locator(f'[data-dot="{label}"]').click()
        else:
            page.get_by_role("button", name=label, exact=True).click()
        expect(image).not_to_have_attribute("src", before)

    press("OK")  # the privacy screen opens Aiko's entry: she is the Lock
    for dot in "159":
        press(dot)
    screenshot(page, "device")
    press("OK")
    assert table.companion.view(game_id, 0)["secret"] is not None
    press("OK")  # pass the pad to Ben
    for dot in "159":
        press(dot)
    press("OK")
    outcome = table.companion.view(game_id, None)["outcome"]
    assert outcome is not None and outcome["winners"] == [1]
    expect(page.locator("#message")).to_be_hidden()
    screenshot(page, "device-reveal")


def test_a_4x4_code_is_entered_on_the_device_page_keypad(table: Table) -> None:
    game_id = table.companion.create_game("unlock", ["Aiko", "Ben"], {"size": 4})
    page = table.host_phone()
    page.goto(table.url + "/device")
    image = page.locator("#oled")

    def press(selector: str) -> None:
        before = image.get_attribute("src") or ""
        page.locator(selector).click()
        expect(image).not_to_have_attribute("src", before)

    press('[data-key="ok"]')  # the privacy screen opens the Lock's entry
    for key in "159D":  # the keys in the places of dots 1, 6, 11 and 16
        press(f'[data-keypad="{key}"]')
    expect(page.get_by_role("button", name="D Dot 16")).to_be_visible()
    screenshot(page, "device-keypad")
    press('[data-key="ok"]')
    assert table.companion.view(game_id, 0)["secret"] == "1-6-11-16"


def test_lifting_the_finger_and_drawing_again_starts_a_new_code(table: Table) -> None:
    game_id = table.companion.create_game("unlock", ["Aiko", "Ben"])
    lock = table.new_phone()
    join(lock, table, game_id, "Aiko")
    draw(lock, [4, 5, 6])
    expect(lock.locator("#pad-code")).to_have_text("4-5-6")
    draw(lock, [7, 8])  # a second stroke: a new code, never 4-5-6-7-8
    expect(lock.locator("#pad-code")).to_have_text("7-8")


def test_the_dot_buttons_enter_a_code_with_the_keyboard(table: Table) -> None:
    game_id = table.companion.create_game("unlock", ["Aiko", "Ben"])
    lock = table.new_phone()
    join(lock, table, game_id, "Aiko")
    lock.locator("#dot-box summary").focus()
    lock.keyboard.press("Enter")
    for dot in (1, 5, 9):
        lock.locator(f'#dot-buttons [data-dot="{dot}"]').focus()
        lock.keyboard.press("Enter")
    expect(lock.locator("#pad-code")).to_have_text("1-5-9")
    expect(lock.locator('#dot-buttons [data-dot="5"]')).to_have_attribute(
        "aria-label", "Dot 5 (in the code)")
    lock.locator("#pad-submit").focus()
    lock.keyboard.press("Enter")
    expect(lock.locator("#pad-card")).to_be_hidden()
    assert table.companion.view(game_id, 0)["secret"] == "1-5-9"


#: Records when the board first has a child (``window.__boardAt``, the page's clock).
BOARD_WATCH = """
new MutationObserver((_, observer) => {
  const board = document.getElementById("board");
  if (board && board.firstElementChild) {
    window.__boardAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""


def test_a_game_page_is_first_drawn_with_its_board_even_when_its_scripts_come_late(
        table: Table) -> None:
    """The page's scripts block its rendering: a phone waiting for them draws nothing, rather
    than the page without its board, laid out again once the board comes (issue 32)."""
    game_id = table.companion.create_game("ico", ["Aiko", "Ben", "Chie"])
    page = table.new_phone()
    page.goto(f"{table.url}/join/{game_id}")
    page.add_init_script(BOARD_WATCH)

    def late(route: Route) -> None:
        time.sleep(0.4)  # a slow network: the page is parsed long before its scripts arrive
        route.continue_()

    page.route("**/boards/ico/page.js*", late)
    page.goto(f"{table.url}/games/{game_id}")
    wait_for(lambda: page.evaluate("window.__boardAt !== undefined"), "the board drawn")
    wait_for(lambda: page.evaluate("performance.getEntriesByType('paint').length > 0"),
             "the page's first paint")
    board_at, painted_at = page.evaluate(
        "[window.__boardAt, performance.getEntriesByType('paint')[0].startTime]")
    assert painted_at >= board_at, (painted_at, board_at)
    expect(page.locator("#board svg").first).to_be_visible()
