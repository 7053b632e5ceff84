"""After the game, in the browser (issue 34): an UNLOCK game played to its end — the phone's
results show a line per guesser once the analysis is ready (asked for only after the end), and
its replay page shows the codes graph and every turn, in English and Japanese, on a 390 px
phone, with no axe violation; while an analysis is being computed the replay says so and
shows it once it is kept; an evaluation's moves are said in the game's own words."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import open_device
from firmware_host.games import Registry, builtin_games
from rules.evaluation import GameRecord
from rules.unlock.analysis import analyse_actions
from tests.e2e.boards import open_game
from tests.e2e.conftest import PHONE, WAIT_MS, Table, screenshot
from tests.e2e.page_checks import (
    axe_path,
    axe_violations,
    overflow,
    shown_words,
    untranslated,
    watch,
)
from tests.web_panel.served import HOST_PIN, data_dir, serve
from web_panel import create_app

pytestmark = pytest.mark.browser

PLAYERS = ["Lock", "Aiko", "Ben"]
ACTIONS = [(0, "secret 1-2-3"), (1, "guess 4-5-6"), (2, "guess 1-2"), (1, "guess 2-3"),
           (2, "guess 1-2-3")]


def checked_phone(browser: Browser, url: str, locale: str) -> Page:
    """A phone at 390 px with axe loaded (an init script: the panel's CSP stays on)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale=locale)
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(path=str(axe_path()))
    return context.new_page()


def problems_of(page: Page, lang: str) -> list[str]:
    found = axe_violations(page) + overflow(page)
    if lang == "ja":
        found += untranslated(shown_words(page), tuple(PLAYERS))
    return found


def test_an_unlock_game_to_its_end_then_the_lines_and_the_replays_graph(
        table: Table, browser: Browser) -> None:
    companion = table.companion
    gid = companion.create_game("unlock", PLAYERS, {"difficulty": "easy"})
    aiko = open_game(table, gid, 1)
    asked: list[str] = []
    aiko.on("request", lambda request: asked.append(request.url)
            if "/analysis" in request.url else None)
    for seat, action in ACTIONS[:-1]:
        companion.act(gid, seat, action)
    expect(aiko.locator(".outcome")).to_have_count(0)
    assert asked == []  # never asked while the game goes on
    companion.act(gid, *ACTIONS[-1])
    lines = aiko.locator("#analysis-results .analysis-lines li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_have_text(
        "Aiko's cards left 1,159 codes on average; the hint's cards would have left 505.5.")
    expect(aiko.locator("#analysis-results .analysis-headline")).to_have_text(
        "Certain on turn 2: one code left. Found on turn 2.")
    assert asked and all(url.endswith(f"/api/games/{gid}/analysis") for url in asked)
    screenshot(aiko, "analysis-results-lines")

    # the Japanese phone of Ben: the lines in Japanese, built from the numbers
    ben = open_game(table, gid, None, locale="ja-JP")
    expect(ben.locator("#analysis-results .analysis-lines li").nth(1)).to_have_text(
        "Ben のカードは平均 631.5 通りを残しました。ヒントのカードなら 505.5 通りでした。")

    for locale, lang in (("en-GB", "en"), ("ja-JP", "ja")):
        page = checked_phone(browser, table.url, locale)
        log = watch(page)
        page.goto(f"{table.url}/games/{gid}/replay")
        section = page.locator("#analysis")
        expect(section).to_have_attribute("data-state", "ready")
        graph = section.locator("svg[role=img]")
        expect(graph).to_be_visible()
        expect(graph.locator("rect.bar")).to_have_count(2)
        box = graph.bounding_box()
        assert box is not None and 300 <= box["width"] <= 390  # the phone's width
        expect(section.locator(".analysis-turns > li")).to_have_count(2)
        expect(section.locator(".analysis-lines li")).to_have_count(2)
        turn = "Turn 2" if lang == "en" else "ターン 2"
        expect(section.locator('.analysis-turns > li[data-turn="2"]')).to_contain_text(turn)
        page.wait_for_timeout(100)
        assert problems_of(page, lang) + log.problems == []
        screenshot(page, f"analysis-replay-unlock-{lang}")
        page.context.close()


@contextmanager
def served_with(browser: Browser, games: Registry) -> Iterator[tuple[Companion, str]]:
    """A companion with ``games`` (another analyser) and its panel served, as ``open_table``."""
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN, games=games) as companion:
        device = open_device(DeviceSettings(url="http://127.0.0.1/"), companion,
                             mode="simulator", games=games, rng=random.Random(34))
        try:
            app = create_app(companion, simulator=device.simulator,
                             config={"SSE_KEEPALIVE": 5.0, "MAX_STREAMS_PER_CLIENT": 64})
            with serve(app, threads=16) as served:
                yield companion, served.url
        finally:
            device.close()


def test_being_computed_then_shown_on_the_replay_and_the_results(browser: Browser) -> None:
    release = threading.Event()

    def slow(record: GameRecord,
             progress: Callable[[float], None] | None = None) -> Mapping[str, Any]:
        assert release.wait(30)
        return analyse_actions(record.players, record.options, record.actions,
                               abandoned=record.abandoned).as_dict()

    games = builtin_games()
    games = games.with_game(replace(games["unlock"], analysis=slow))
    with served_with(browser, games) as (companion, url):
        gid = companion.create_game("unlock", PLAYERS, {"difficulty": "easy"})
        for seat, action in ACTIONS:
            companion.act(gid, seat, action)
        replay = checked_phone(browser, url, "en-GB")
        log = watch(replay)
        replay.goto(f"{url}/games/{gid}/replay")
        expect(replay.locator("#analysis-status")).to_contain_text("being computed")
        assert axe_violations(replay) == []
        results = checked_phone(browser, url, "ja-JP")
        results.goto(f"{url}/games/{gid}")
        expect(results.locator(".outcome")).to_be_visible()
        expect(results.locator("#analysis-results")).to_have_count(0)
        release.set()
        expect(replay.locator("#analysis")).to_have_attribute("data-state", "ready",
                                                              timeout=15000)
        expect(replay.locator("#analysis svg rect.bar")).to_have_count(2)
        expect(results.locator("#analysis-results .analysis-lines li")).to_have_count(
            2, timeout=15000)
        assert log.problems == []
        release.set()


def test_an_evaluations_moves_in_the_games_words(browser: Browser) -> None:
    evaluation = {
        "game": "ico", "kind": "evaluation", "players": ["Aiko", "Ben"], "end": "abandoned",
        "evaluated": True,
        "steps": [{"step": 1, "n": 1, "seat": 0, "action": "place N-U0", "value": 0.0,
                   "best": 0.26, "best_action": "place U0-U1", "loss": 0.26,
                   "turning_point": True}],
        "turning_points": [1],
        "summaries": [{"seat": 0, "player": "Aiko", "moves": 1, "best_moves": 0,
                       "average_loss": 0.26, "worst_step": 1, "sentence": "…"},
                      {"seat": 1, "player": "Ben", "moves": 0, "best_moves": 0,
                       "average_loss": None, "worst_step": None, "sentence": "…"}]}

    def handed(record: GameRecord,
               progress: Callable[[float], None] | None = None) -> Mapping[str, Any]:
        return evaluation

    games = builtin_games()
    games = games.with_game(replace(games["ico"], analysis=handed))
    with served_with(browser, games) as (companion, url):
        gid = companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0"})
        first = "place N-U0"
        companion.act(gid, 0, first)
        companion.abandon(gid)
        companion.settle()
        for locale, lang in (("en-GB", "en"), ("ja-JP", "ja")):
            page = checked_phone(browser, url, locale)
            log = watch(page)
            page.goto(f"{url}/games/{gid}/replay")
            played = page.locator('#analysis .analysis-turning .move[data-which="played"]')
            expect(played).not_to_contain_text(first)  # the game's words, not its record's
            expect(page.locator("#analysis svg .turning")).to_have_count(1)
            page.locator("#analysis .analysis-steps summary").click()
            page.wait_for_timeout(100)
            assert problems_of(page, lang) + log.problems == []
            screenshot(page, f"analysis-replay-ico-{lang}")
            page.context.close()
