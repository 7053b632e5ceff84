"""A seat's club code given from the join page of a box in a club, in Chromium: the page's
script in its body runs after ``panel.js`` in its head (both deferred) and sends the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from firmware_host.club.hub import LiveTables
from firmware_host.club.league import League
from firmware_host.companion import Companion
from tests.club.test_club_pages import club_app
from tests.e2e.conftest import PHONE
from tests.web_panel.served import HOST_PIN, data_dir, serve
from web_panel.club import ClubPanel

pytestmark = pytest.mark.browser


def test_a_seat_saves_its_club_code_from_the_join_page(browser: Browser, tmp_path: Path) -> None:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        league = League(tmp_path / "club")
        try:
            app = club_app(companion, ClubPanel(set_code=companion.set_club_code, league=league,
                                                live=LiveTables()))
            game_id = companion.create_game("unlock", ["Aiko", "Ben"])
            _, code, _ = league.create_profile("Ben")
            with serve(app) as served:
                context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                page = context.new_page()
                page.goto(f"{served.url}/join/{game_id}")
                page.get_by_role("button", name="I am Ben").click()
                page.wait_for_url(f"**/games/{game_id}")
                page.goto(f"{served.url}/join/{game_id}")
                page.fill("#club-seat-code", "K7QM-4XP")  # not a club code: said why
                page.locator("#club-seat-form button").click()
                expect(page.locator("#message")).to_contain_text("not a club code")
                expect(page.locator("#club-seat-done")).to_be_hidden()
                page.fill("#club-seat-code", code.lower())
                page.locator("#club-seat-form button").click()
                expect(page.locator("#club-seat-done")).to_be_visible()
                context.close()
            db = sqlite3.connect(companion.journal.path)
            assert db.execute("SELECT seat, code FROM club_codes").fetchall() == [(1, code)]
            db.close()
        finally:
            league.close()
