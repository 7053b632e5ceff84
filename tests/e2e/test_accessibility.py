"""Beyond axe (``test_every_page.py``): every control reached with the Tab key and a move played
by keyboard alone in each game; ICO's labels legible on a 360 px phone with AA contrast; the
players' colours kept apart under Chromium's colour-blindness simulations; and seats, and
ICO's pairs of opposite faces, told apart without colour at all (shapes, glyphs, names)."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from rules import CHANCE
from tests.e2e.boards import open_game
from tests.e2e.conftest import Table

pytestmark = pytest.mark.browser

NAMES = ["Aiko", "Kenji", "Fumi", "Dan"]
#: Chromium's simulations (``Emulation.setEmulatedVisionDeficiency``).
DEFICIENCIES = ("protanopia", "deuteranopia", "tritanopia", "achromatopsia")
#: The least colour difference (CIE76 ΔE) between two players' colours under a simulation:
#: 20 is far beyond "just noticeable" (about 2.3); in grey only lightness is left, so 10.
APART = {"protanopia": 20.0, "deuteranopia": 20.0, "tritanopia": 20.0, "achromatopsia": 10.0}

#: Every control a pointer can use on the page, each numbered (``data-tab-id``) and named.
FOCUSABLE = """() => [...document.querySelectorAll(
    'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), summary,'
    + ' [tabindex]:not([tabindex="-1"])')]
    .filter(n => n.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}))
    .map((n, i) => { n.dataset.tabId = String(i);
                     return i + " " + n.outerHTML.slice(0, 90); })"""


def tab_through(page: Page) -> set[str]:
    """The numbers (``data-tab-id``) of everything the Tab key reaches, from the top of the
    page round to the first control reached again."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); "
                  "window.scrollTo(0, 0); }")
    reached: set[str] = set()
    for _ in range(400):
        page.keyboard.press("Tab")
        tab_id = page.evaluate("() => document.activeElement.dataset.tabId || null")
        if tab_id in reached:
            break
        if tab_id is not None:
            reached.add(tab_id)
    return reached


def unreached(page: Page) -> list[str]:
    """The controls of the page the Tab key never reaches."""
    controls = page.evaluate(FOCUSABLE)
    reached = tab_through(page)
    return [c for c in controls if c.split(" ", 1)[0] not in reached]


@pytest.mark.parametrize(("game", "seat"), [
    ("unlock", 1), ("hacktrick", 0), ("ico", 0), ("dice216", 0)])
def test_every_control_of_a_game_page_is_reached_with_the_tab_key(
        table: Table, game: str, seat: int) -> None:
    companion = table.companion
    game_id = companion.create_game(game, NAMES[:2])
    if game == "unlock":
        companion.act(game_id, 0, "secret 1-5-9")
    if game == "dice216":
        companion.act(game_id, CHANCE, "roll 3", "test")
    page = open_game(table, game_id, seat, host=True)
    page.wait_for_timeout(200)
    assert not unreached(page)


def test_host_pages_are_reached_with_the_tab_key(table: Table) -> None:
    table.companion.create_game("ico", NAMES[:2])
    host = table.host_phone()
    for path in ("/host", "/host/new/dice216", "/host/new/unlock", "/device", "/standings"):
        host.goto(table.url + path)
        assert not unreached(host), path


def press_on(page: Page, selector: str) -> None:
    """Focus ``selector`` and press Enter (what a keyboard or switch user does)."""
    page.locator(selector).first.focus()
    page.keyboard.press("Enter")


def test_each_game_is_played_by_keyboard_alone(table: Table) -> None:
    companion = table.companion
    ico = companion.create_game("ico", NAMES[:2], {"start_face": "T0"})
    page = open_game(table, ico, 0)
    press_on(page, ".face-edges button[data-action]")
    expect(page.locator("#last-move")).to_contain_text("Aiko places a marker on")
    dice = companion.create_game("dice216", NAMES[:2])
    page = open_game(table, dice, 0)
    press_on(page, ".roll [data-chance='roll 5']")
    press_on(page, "button.cell.empty")
    expect(page.locator("#last-move")).to_contain_text("Aiko writes 5 in row 1, column 1.")
    hack = companion.create_game("hacktrick", NAMES[:2], seed=2)
    page = open_game(table, hack, 0)
    press_on(page, "button.pick:not(.unplayable)")
    press_on(page, ".variants:not([hidden]) button[data-action]")
    expect(page.locator("#last-move")).to_contain_text("Aiko leads")


def test_a_hint_is_asked_for_and_taken_by_keyboard_alone(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("unlock", NAMES[:2], {"difficulty": "easy"})
    companion.act(game_id, 0, "secret 1-5-9")
    page = open_game(table, game_id, 1)
    expect(page.locator("#pad-hint-ask svg.icon")).to_be_visible()  # a bulb drawn, not an emoji
    assert "\U0001F4A1" not in page.locator("#pad-hint-ask").inner_text()
    press_on(page, "#pad-hint-ask")
    expect(page.locator("#pad-tip")).to_contain_text("3560 codes left")
    suggestion = str(page.locator("#pad .pad-ghost").get_attribute("data-code"))
    press_on(page, "#pad-hint-use")
    expect(page.locator("#pad-code")).to_have_text(suggestion)
    press_on(page, "#pad-submit")
    expect(page.locator("#last-move")).to_contain_text(f"Kenji drew {suggestion}.")
    assert companion.view(game_id, None)["hints"]["used"] == [0, 1]


def relative_luminance(rgb: tuple[int, ...]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def hex_rgb(colour: str) -> tuple[int, int, int]:
    if colour.startswith("rgb"):
        r, g, b = (int(v) for v in colour[colour.index("(") + 1:-1].split(",")[:3])
        return r, g, b
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_ico_labels_are_legible_on_a_360_px_phone(table: Table) -> None:
    game_id = table.companion.create_game("ico", NAMES[:2], {"start_face": "T0"})
    page = open_game(table, game_id, 0)
    page.set_viewport_size({"width": 360, "height": 740})
    labels = page.locator(".ico-net .face-label").evaluate_all("""nodes => nodes.map(n => {
        const face = document.querySelector(`.ico-net .face[data-face="${n.firstChild.data}"]`);
        return {px: parseFloat(n.getAttribute('font-size')) * n.getScreenCTM().a,
                ink: getComputedStyle(n).fill, paper: getComputedStyle(face).fill};
    })""")
    assert len(labels) == 20
    for label in labels:
        assert label["px"] >= 10.5, label  # the paper board's face names, not 7 px
        assert contrast(hex_rgb(label["ink"]), hex_rgb(label["paper"])) >= 4.5, label


def sampled_colours(page: Page, selector: str) -> list[tuple[int, int, int]]:
    """The colour inside each element matched (a few pixels in from its left edge, half-way
    down: the chip's own colour, before its text), as the screen shows it."""
    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    scale = image.width / page.viewport_size["width"]  # type: ignore[index]
    colours = []
    for box in page.locator(selector).evaluate_all(
            "nodes => nodes.map(n => { const b = n.getBoundingClientRect();"
            " return [b.left, b.top, b.height]; })"):
        x, y = (box[0] + 6) * scale, (box[1] + box[2] / 2) * scale
        pixel = image.getpixel((int(x), int(y)))
        assert isinstance(pixel, tuple)
        colours.append((pixel[0], pixel[1], pixel[2]))
    return colours


def lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_players_colours_stay_apart_under_colour_blindness_simulations(table: Table) -> None:
    game_id = table.companion.create_game("ico", NAMES, {"start_face": "T0"})
    page = open_game(table, game_id)
    expect(page.locator(".facts > .seat-chip")).to_have_count(4)  # each one's markers left
    cdp = page.context.new_cdp_session(page)
    try:
        for deficiency in DEFICIENCIES:
            cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": deficiency})
            colours = sampled_colours(page, ".facts > .seat-chip")
            assert len(colours) == 4
            closest = min(math.dist(lab(a), lab(b)) for a, b in itertools.combinations(colours, 2))
            assert closest >= APART[deficiency], (deficiency, colours, closest)
    finally:
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        cdp.detach()


def test_seats_and_face_pairs_are_told_apart_without_colour(table: Table) -> None:
    companion = table.companion
    game_id = companion.create_game("ico", NAMES, {"start_face": "T0"})
    for _ in range(4):  # a marker of each player on the net
        seat = companion.view(game_id, None)["to_act"][0]
        companion.act(game_id, seat, companion.legal_actions(game_id, seat)[0])
    page = open_game(table, game_id)
    shapes = page.locator(".ico-net .marker").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.seat, n.tagName + (n.getAttribute('d') || '')"
        ".replace(/[-0-9.]+/g, '#')])")
    by_seat = {seat: shape for seat, shape in shapes}
    assert len(by_seat) == 4 and len(set(by_seat.values())) == 4, by_seat  # four shapes
    glyphs = dict(page.locator(".ico-net .face-label").evaluate_all(
        "nodes => nodes.map(n => [n.firstChild.data, n.querySelector('.pair-glyph').textContent])"))
    pairs = {(face["id"], face["opposite"]) for face in companion.view(game_id, None)["faces"]}
    assert all(glyphs[a] == glyphs[b] for a, b in pairs)
    assert len(set(glyphs.values())) == 10  # one glyph per pair of opposite faces
    # a seat's chip names its player, and the legend of a chart gives each seat its shape
    expect(page.locator(".facts > .seat-chip")).to_have_text(
        [f"{name}: {n} markers left" for name, n in zip(
            NAMES, companion.view(game_id, None)["markers_left"], strict=True)])
    # (the chart is drawn once the moves are fetched, after the board)
    expect(page.locator("#progress .legend")).to_have_count(4)
    legend = page.locator("#progress .legend").evaluate_all("ns => ns.map(n => n.dataset.shape)")
    assert sorted(legend) == ["circle", "diamond", "square", "triangle"]
