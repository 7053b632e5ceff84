"""A solo UNLOCK game in the browser, end to end: the host starts UNLOCK Easy on the new-game
page with the box as the Lock and one guesser; the guesser asks for a hint every turn, takes
the suggested code with one tap and sends it, until the code is found; the results name the
winner, show the secret and the hints used. Before the end no page and no live-stream event the
phones receive shows the secret. And with hints off the button is gone and the API refuses in
words."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rules.unlock import Code
from tests.e2e.boards import open_game
from tests.e2e.conftest import Table, screenshot
from tests.prove.leaks import code_found
from tests.web_panel.served import CSRF

pytestmark = pytest.mark.browser

#: Every live-stream event a page receives, kept in the page (an init script wraps
#: EventSource before the panel's scripts run), so a test can search what the stream sent.
RECORD_STREAM = """
(() => {
  const Native = window.EventSource;
  window.__streamed = [];
  window.EventSource = function (url, options) {
    const source = new Native(url, options);
    for (const kind of ["view", "delta", "replaced"]) {
      source.addEventListener(kind, (event) => window.__streamed.push(event.data));
    }
    return source;
  };
  window.EventSource.prototype = Native.prototype;
  window.EventSource.CONNECTING = Native.CONNECTING;
  window.EventSource.OPEN = Native.OPEN;
  window.EventSource.CLOSED = Native.CLOSED;
})();
"""
TURN = re.compile(r"turn (\d+)")


def recording(page: Page) -> Page:
    page.context.add_init_script(RECORD_STREAM)
    return page


def streamed(page: Page) -> list[str]:
    return list(page.evaluate("window.__streamed || []"))


def leaks(page: Page, secret: Code) -> list[str]:
    """Where ``page`` shows the secret: its HTML (the board, the JSON it carries) or an event
    its live stream delivered."""
    found = []
    where = code_found(page.content(), secret)
    if where is not None:
        found.append(f"{page.url}: {where}")
    for data in streamed(page):
        where = code_found(data, secret)
        if where is not None:
            found.append(f"{page.url} stream: {where} in {data[:120]}")
    return found


def host_creates_solo_unlock(table: Table) -> tuple[Page, int]:
    """The host's new-game page: UNLOCK, Easy, the first player (the Lock) played by the box,
    Aiko the one guesser."""
    host = recording(table.new_phone())
    host.goto(f"{table.url}/host")
    host.fill("#pin", table.host_pin)
    host.locator("#pin-form button").click()
    host.get_by_role("link", name="UNLOCK").click()
    first = host.locator("#players .player-row").nth(0)
    first.get_by_role("combobox").select_option("easy")
    expect(first.locator("input.player")).to_have_value("Box")  # a name for the box's seat
    host.locator("#players .player-row").nth(1).locator("input.player").fill("Aiko")
    host.locator("#opt-difficulty").select_option("easy")
    screenshot(host, "host-new-unlock-box-lock")
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_url(re.compile(r".*/join/\d+$"))
    return host, int(host.url.rsplit("/", 1)[1])


def test_a_solo_game_with_the_box_as_the_lock_followed_hint_by_hint(table: Table) -> None:
    companion = table.companion
    host, game_id = host_creates_solo_unlock(table)
    summary = companion.summary(game_id)
    assert summary["seats"] == ["Box", "Aiko"] and summary["bots"] == ["easy", None]
    assert companion.view(game_id, None)["options"]["difficulty"] == "easy"
    expect(host.locator(".seat-list")).to_contain_text("played by the box")

    aiko = recording(table.new_phone())
    aiko.goto(f"{table.url}/join/{game_id}")
    expect(aiko.locator(".seat-list")).to_contain_text("played by the box")
    aiko.get_by_role("button", name="I am Aiko").click()
    aiko.wait_for_url(f"**/games/{game_id}")
    watcher = recording(open_game(table, game_id))
    host.goto(f"{table.url}/games/{game_id}")
    pad = aiko.locator("#pad-card")
    expect(pad).to_be_visible()  # the box has drawn its secret (after its short pause)
    secret = Code.parse(str(companion.view(game_id, 0)["secret"]))

    hints = 0
    while True:
        view = companion.view(game_id, None)
        if view["outcome"]:
            break
        turn = view["turn"]
        expect(aiko.locator("#pad-title")).to_have_text(f"Draw your code for turn {turn}")
        # before the hint: nothing any phone was shown or streamed names the secret
        for page in (aiko, watcher, host):
            assert leaks(page, secret) == []
        before = len(streamed(watcher))
        aiko.get_by_role("button", name="Hint").click()
        tip = aiko.locator("#pad-tip")
        expect(tip.get_by_role("button", name="Use this code")).to_be_visible()
        ghost = aiko.locator("#pad .pad-ghost")
        suggestion = str(ghost.get_attribute("data-code"))
        left = int(view["codes_remaining"])
        words = "1 code left" if left == 1 else f"{left} codes left"
        expect(tip).to_contain_text(words)
        expect(tip).to_contain_text(f"Suggested code: {suggestion}")
        hints += 1
        if turn == 1:
            screenshot(aiko, "unlock-hint")
        # the hint is this seat's: the spectator's stream carried no hint, and the hint
        # button is gone for this turn (asked once)
        assert not any("suggestion" in data or "codes_left" in data
                       for data in streamed(watcher)[before:])
        expect(aiko.locator("#pad-hint-ask")).to_be_hidden()
        aiko.get_by_role("button", name="Use this code").click()
        expect(aiko.locator("#pad-code")).to_have_text(suggestion)
        aiko.get_by_role("button", name="Submit").click()
        expect(aiko.locator(f'#board .clue-card[aria-label*="turn {turn}:"]')).to_have_count(1)
        assert turn <= 10, "the hints should find an Easy code within the turn limit"

    final = companion.view(game_id, None)
    assert final["outcome"]["winners"] == [1]
    assert final["hints"]["used"] == [0, hints]
    for page in (aiko, watcher, host):
        outcome = page.locator(".outcome")
        expect(outcome.locator(".winners")).to_contain_text("Aiko")
        expect(page.locator(".my-card.secret code")).to_have_text(str(secret))
        expect(outcome.locator('td[data-stat="hints"][data-seat="1"]')).to_have_text(str(hints))
        expect(outcome.locator('td[data-stat="hints"][data-seat="0"]')).to_have_text("—")
        assert leaks(page, secret), "the search finds the secret once it may be shown"
    screenshot(aiko, "unlock-solo-results")


def test_hints_turned_off_hide_the_button_and_the_api_refuses_in_words(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("unlock", ["Box", "Aiko"], {"difficulty": "easy"},
                                    bots={0: "easy"})
    aiko = open_game(table, game_id, 1)
    expect(aiko.get_by_role("button", name="Hint")).to_be_visible()
    host = open_game(table, game_id, host=True)
    expect(host.locator(".hints-state")).to_contain_text("Hints: on.")
    host.get_by_role("button", name="Turn hints off").click()
    expect(host.get_by_role("button", name="Turn hints on")).to_be_visible()
    assert companion.view(game_id, None)["hints"]["allowed"] is False
    # the guesser's page hides the button at once (the live view says hints are off)
    expect(aiko.locator("#pad-hint-ask")).to_be_hidden()
    expect(aiko.locator("#pad-card")).to_be_visible()
    reply = post(aiko, f"/api/games/{game_id}/hint")
    assert reply["status"] == 409
    assert reply["body"] == {"error": "not_allowed",
                             "message": "the host has turned hints off for this game"}
    japanese = open_game(table, game_id, locale="ja-JP")
    reply = post(japanese, f"/api/games/{game_id}/hint")  # a spectator: no seat
    assert reply["status"] == 401 and "Traceback" not in json.dumps(reply["body"])
    assert reply["body"]["message"] == "このゲームの席がありません。先に参加してください。"
    assert companion.view(game_id, None)["hints"]["used"] == [0, 0]
    # the host page's own switch turns them on again
    host.goto(f"{table.url}/host")
    host.locator(f'[data-hints-for="{game_id}"]').get_by_role("button",
                                                              name="Turn hints on").click()
    expect(host.locator(f'[data-hints-for="{game_id}"]')).to_contain_text("Hints: on.")
    expect(aiko.get_by_role("button", name="Hint")).to_be_visible()


def test_a_refused_hint_is_said_in_the_banner_in_the_pages_language(table: Table) -> None:
    """The host turns hints off while the phone has not heard yet (its stream is cut and it
    polls): the phone's Hint is refused, and the banner says why in Japanese."""
    companion = table.companion
    game_id = companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
    companion.act(game_id, 0, "secret 2-5-8")
    aiko = table.new_phone(locale="ja-JP")
    aiko.route("**/events*", lambda route: route.abort())
    aiko.goto(f"{table.url}/join/{game_id}")
    aiko.get_by_role("button", name="Aiko として参加").click()
    aiko.wait_for_url(f"**/games/{game_id}")
    ask = aiko.get_by_role("button", name="ヒント")
    expect(ask).to_be_visible()
    companion.allow_hints(game_id, False)
    ask.click()
    expect(aiko.locator("#message")).to_have_text("ホストがこのゲームのヒントをオフにしています。")
    expect(aiko.locator("#pad-hint-use")).to_be_hidden()
    assert companion.view(game_id, None)["hints"]["used"] == [0, 0]


def post(page: Page, path: str) -> dict[str, Any]:
    """A POST from the page (its cookies: its seat) with the panel's CSRF header."""
    header, value = next(iter(CSRF.items()))
    answer: dict[str, Any] = page.evaluate(
        """async ([path, header, value]) => {
            const r = await fetch(path, {method: "POST", credentials: "same-origin",
              headers: {[header]: value, "Content-Type": "application/json"}, body: "{}"});
            return {status: r.status, body: await r.json()};
        }""", [path, header, value])
    return answer
