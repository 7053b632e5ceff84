"""Pairing smart dice from the host page in Chromium (docs/dice.md): the host scans, the dice
nearby are listed by colour, kind and battery, each is given to a player or to the table, a die
whose faces do not fit the game is refused in words; a paired die's roll is the game's; a low
battery is shown; a die moves to the table and is unpaired. The simulator's dice are the fake
Bluetooth backend's (``hardware.smart_dice.fake_ble``), through bleak and the real decoding.
The page passes axe-core, fits a phone, and is Japanese in Japanese."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from firmware_host.companion import JOURNAL_FILE
from hardware.smart_dice.link import DieState
from tests.e2e.conftest import Table, open_table, screenshot
from tests.e2e.page_checks import (
    axe_path,
    axe_violations,
    overflow,
    shown_words,
    untranslated,
)

pytestmark = pytest.mark.browser

RED_GODICE = "C0:FF:EE:00:00:01"
PIXEL_ADA = "C0:FF:EE:00:01:01"
PIXEL_DEE = "C0:FF:EE:00:01:04"


@pytest.fixture
def dice_table(browser: Browser) -> Iterator[Table]:
    with open_table(browser, smart_dice=True) as opened:
        yield opened


def host_page(table: Table, locale: str = "en-GB") -> Page:
    page = table.host_phone(locale)
    page.context.add_init_script(path=str(axe_path()))
    page.reload()
    return page


def row(page: Page, where: str, address: str) -> object:
    return page.locator(f'#dice-{where} .die-row[data-address="{address}"]')


def connected(table: Table, address: str) -> None:
    assert table.device is not None and table.device.dice is not None
    link = table.device.dice.link
    assert link is not None and link.wait_state(address, DieState.CONNECTED, 5.0), address


def test_the_host_pairs_dice_from_the_host_page(dice_table: Table) -> None:
    table = dice_table
    gid = table.companion.create_game("dice216", ["Aiko", "Ben"])
    page = host_page(table)
    card = page.locator("#dice")
    expect(card.locator("h2")).to_have_text("Smart dice")
    expect(page.locator("#dice-none-paired")).to_be_visible()
    expect(page.locator("#dice-game")).to_have_text(
        "The dice roll for 2 1 6 #1, whose die has 6 faces.")

    page.locator("#dice-scan").click()
    expect(page.locator("#dice-nearby .die-row")).to_have_count(8)
    red = row(page, "nearby", RED_GODICE)
    expect(red.locator(".die-name")).to_have_text("red GoDice")  # its faces: the shell chosen
    expect(red.locator(".die-battery")).to_have_text("battery 80%")
    expect(red.locator("select[data-die-shell]")).to_have_value("6")
    ada = row(page, "nearby", PIXEL_ADA)
    expect(ada.locator(".die-name")).to_have_text("onyx black Pixels d6")
    screenshot(page, "host-smart-dice-nearby")

    # a die whose faces do not fit the game is refused, in words
    row(page, "nearby", PIXEL_DEE).locator("[data-die-pair]").click()
    expect(page.locator("#message")).to_contain_text(
        "Pixel Dee is a d20, but 2 1 6 #1 rolls a d6: pair a die of its faces")
    assert table.companion.dice() == []

    red.locator("select[data-die-owner]").select_option(label="Aiko")
    red.locator("[data-die-pair]").click()
    expect(row(page, "paired", RED_GODICE)).to_be_visible()
    row(page, "nearby", PIXEL_ADA).locator("select[data-die-owner]").select_option(label="Ben")
    row(page, "nearby", PIXEL_ADA).locator("[data-die-pair]").click()
    expect(row(page, "paired", PIXEL_ADA)).to_be_visible()
    assert [(d["name"], d["owner"]) for d in table.companion.dice()] == [
        ("GoDice_000001_K_v04", 0), ("Pixel Ada", 1)]
    connected(table, RED_GODICE)
    connected(table, PIXEL_ADA)
    page.reload()
    expect(row(page, "paired", RED_GODICE).locator(".die-state")).to_have_text("connected")
    expect(row(page, "paired", RED_GODICE).locator("select[data-die-owner]")).to_have_value("0")
    expect(row(page, "paired", PIXEL_ADA).locator("select[data-die-owner]")).to_have_value("1")

    # Aiko rolls her die at the table: the box enters it as the game's roll, by that die
    assert table.device is not None and table.device.simulator is not None
    sim = table.device.simulator
    sim.smart_die(RED_GODICE).roll(5)  # type: ignore[attr-defined]
    for _ in range(200):
        if table.companion.view(gid, None)["pending_roll"] == 5:
            break
        page.wait_for_timeout(25)
    assert table.companion.view(gid, None)["pending_roll"] == 5
    with sqlite3.connect(_journal(table), uri=True) as db:
        assert db.execute("SELECT entered_by FROM actions WHERE game_id = ?",
                          (gid,)).fetchall() == [("die GoDice_000001_K_v04",)]

    # Ben's die's battery runs low: the host page says so
    sim.smart_die(PIXEL_ADA).set_battery(9)
    assert table.device.dice is not None and table.device.dice.link is not None
    assert table.device.dice.link.wait_until(
        lambda link: link.status()[PIXEL_ADA].battery == 9, 5.0)
    page.reload()
    expect(row(page, "paired", PIXEL_ADA).locator(".die-battery.die-low")).to_have_text(
        "battery 9%: charge it soon")
    assert axe_violations(page) == []
    assert overflow(page) == []
    screenshot(page, "host-smart-dice")

    # Ben's die goes to the table, then is unpaired
    row(page, "paired", PIXEL_ADA).locator("select[data-die-owner]").select_option("table")
    expect(row(page, "paired", PIXEL_ADA).locator("select[data-die-owner]")).to_have_value(
        "table")
    for _ in range(200):  # the select shows the choice at once; the box has it once answered
        if table.companion.dice()[1]["owner"] is None:
            break
        page.wait_for_timeout(25)
    assert table.companion.dice()[1]["owner"] is None
    row(page, "paired", PIXEL_ADA).locator("[data-die-unpair]").click()
    expect(row(page, "paired", PIXEL_ADA)).to_have_count(0)
    assert [d["address"] for d in table.companion.dice()] == [RED_GODICE]


def test_the_dice_card_in_japanese(dice_table: Table) -> None:
    table = dice_table
    table.companion.create_game("dice216", ["Aiko", "Ben"])
    page = host_page(table, "ja-JP")
    page.locator("#dice-scan").click()
    expect(page.locator("#dice-nearby .die-row")).to_have_count(8)
    expect(row(page, "nearby", PIXEL_ADA).locator(".die-name")).to_have_text(
        "オニキスブラック Pixels 6面")
    row(page, "nearby", PIXEL_ADA).locator("[data-die-pair]").click()
    expect(row(page, "paired", PIXEL_ADA)).to_be_visible()
    names = tuple(d.name for d in table.device.simulator.smart_dice())  # type: ignore[union-attr]
    assert untranslated(shown_words(page), ("Aiko", "Ben", *names)) == []
    assert axe_violations(page) == []
    screenshot(page, "host-smart-dice-ja")


def _journal(table: Table) -> str:
    path = table.companion.journal.path
    assert path.name == JOURNAL_FILE
    return f"file:{path}?mode=ro"
