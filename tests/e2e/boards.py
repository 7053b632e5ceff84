"""Helpers for the board tests: a game's page opened as a seat or a spectator, a board drawn
from a view written by the test, and the board's DOM for comparing a first drawing with a live
update (one drawing function for both: ``web_panel/games/<game>/board.js``)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

from tests.e2e.conftest import Table


def open_game(table: Table, game_id: int, seat: int | None = None, *,
              host: bool = False, locale: str = "en-GB") -> Page:
    """A phone on the game's page: holding ``seat`` (claimed through the API), or watching."""
    page = table.host_phone(locale) if host else table.new_phone(locale=locale)
    if seat is not None:
        page.goto(f"{table.url}/join/{game_id}")
        reply = page.evaluate(
            """async ([url]) => {
                const r = await fetch(url, {method: "POST", credentials: "same-origin",
                  headers: {"X-Requested-With": "tabletop", "Content-Type": "application/json"},
                  body: "{}"});
                return r.status;
            }""", [f"/api/games/{game_id}/seats/{seat}/claim"])
        assert reply == 200, reply
    page.goto(f"{table.url}/games/{game_id}")
    page.wait_for_selector("#board > .board")
    return page


def open_again(page: Page, table: Table, game_id: int) -> Page:
    """The same phone (its cookies: its seat, its host session) opening the game once more."""
    again = page.context.new_page()
    again.goto(f"{table.url}/games/{game_id}")
    again.wait_for_selector("#board > .board")
    return again


def wait_version(page: Page, version: int) -> None:
    """Wait until the page's board shows the game's ``version`` (a live update arrived)."""
    page.wait_for_function(
        "v => Number(document.getElementById('game').dataset.version) >= v", arg=version)


#: A node's children as markup, each element's attributes in the order of their names: the
#: kit's patch changes only the attributes that changed, so a patched element may hold its
#: attributes in another order than a first drawing, which means nothing.
MARKUP = """(root) => {
  const out = [];
  const text = (value) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const walk = (node) => {
    if (node.nodeType === 3) { out.push(text(node.data)); return; }
    if (node.nodeType !== 1) return;
    const attrs = [...node.attributes].map((a) => [a.name, a.value])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([name, value]) => " " + name + '="' + text(value).replace(/"/g, "&quot;") + '"');
    out.push("<" + node.localName + attrs.join("") + ">");
    node.childNodes.forEach(walk);
    out.push("</" + node.localName + ">");
  };
  root.childNodes.forEach(walk);
  return out.join("");
}"""


def board_html(page: Page) -> str:
    """The board's DOM as markup (its attributes in order of their names: :data:`MARKUP`)."""
    return str(page.locator("#board").evaluate(MARKUP))


def render(page: Page, game: str, view: dict[str, Any], **ctx: Any) -> None:
    """Draw ``view`` with the game's board script into the page's board (a game page of that
    game must be open): for cases real play reaches only slowly."""
    page.evaluate(
        """([game, view, overrides]) => {
            const board = window.TabletopBoards.board(game);
            const ctx = {t: (k, v) => window.Tabletop.message(k, v), isHost: false,
                         replay: false, urls: {}, ...overrides};
            window.TabletopKit.patch(document.getElementById("board"), board.render(view, ctx));
        }""", [game, json.loads(json.dumps(view)), ctx])


def same_as_fresh(live: Page, fresh: Page, version: int) -> None:
    """Once the live page shows ``version``: its board is the very DOM the same phone's page
    draws when loaded afresh (``fresh``, reloaded here)."""
    wait_version(live, version)
    fresh.reload()
    fresh.wait_for_selector("#board > .board")
    wait_version(fresh, version)
    assert board_html(live) == board_html(fresh), f"version {version}"


def tag_nodes(page: Page, selector: str) -> int:
    """Mark the elements ``selector`` finds (a property on each node object); how many."""
    count: int = page.evaluate(
        "s => { const found = document.querySelectorAll(s);"
        " found.forEach(n => { n.__kept = true; }); return found.length; }", selector)
    return count


def tag_descriptions(page: Page, selector: str) -> int:
    """Mark the description each element ``selector`` finds was last drawn from (kit.js keeps
    it on the node); how many."""
    count: int = page.evaluate(
        "s => { const found = document.querySelectorAll(s);"
        " found.forEach(n => { n.__described = n._tt; }); return found.length; }", selector)
    return count


def kept_descriptions(page: Page, selector: str) -> int:
    """How many of the elements ``selector`` finds are still drawn from the description marked
    by :func:`tag_descriptions` (not described again: a patch did not look inside them)."""
    count: int = page.evaluate(
        "s => [...document.querySelectorAll(s)]"
        ".filter(n => n.__described !== undefined && n._tt === n.__described).length", selector)
    return count


def kept_nodes(page: Page, selector: str) -> int:
    """How many of the elements ``selector`` finds are nodes marked by :func:`tag_nodes` (the
    same objects: not drawn again)."""
    count: int = page.evaluate(
        "s => [...document.querySelectorAll(s)].filter(n => n.__kept === true).length", selector)
    return count
