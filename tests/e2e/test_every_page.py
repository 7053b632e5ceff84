"""Every page of the panel, for every role, on two phone screens (390×844 and 360×740) in both
languages: nothing overflows sideways, no word in a table heading is split over two lines, no
request fails, the console has no error, axe-core finds no serious or critical violation, and a
Japanese page shows no identifier and no English phrase. Each page's screenshot is kept under
``test-artifacts/screenshots/pages/``.

The games are an evening at the table: each of the four games in play and finished, a
tournament between two games, an UNLOCK game whose Lock is the box, a phone holding a seat in
each game (seat 1 on the English phone, seat 2 on the Japanese one; guessers beside the box's
Lock) and the host's phone. On the box's game a player's page is also seen with a hint asked
for (the count, the suggested code dashed on the pad, "use this code")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from firmware_host.companion import Companion
from rules import CHANCE
from tests.e2e.conftest import SCREENSHOTS, open_table
from tests.e2e.page_checks import (
    IDENTIFIER,
    ISO_TIME,
    SEAT_ZERO,
    VIEWPORTS,
    PageLog,
    axe_path,
    axe_violations,
    broken_words,
    overflow,
    shown_words,
    untranslated,
    watch,
)
from tests.web_panel.served import CSRF, HOST_PIN

pytestmark = pytest.mark.browser

#: The players: names a Japanese page shows as they are.
NAMES = ["Aiko", "Kenji", "Fumi"]
LOCALES = {"en": "en-GB", "ja": "ja-JP"}
#: Which seat each language's player phone holds (in the game whose Lock is the box: the
#: seat after).
SEAT = {"en": 0, "ja": 1}
#: The games whose first seat the box plays.
BOX_LOCK = ("unlock-solo",)
ROLES = ("spectator", "player", "host")
PAGE_SHOTS = SCREENSHOTS / "pages"


def play_out(companion: Companion, game_id: int, rng: random.Random, limit: int = 4000) -> None:
    """Random legal actions (and die rolls) until the game ends (at most ``limit``)."""
    for _ in range(limit):
        view = companion.view(game_id, None)
        if view["status"] != "active":
            return
        seat = view["to_act"][0]
        legal = companion.legal_actions(game_id, seat)
        companion.act(game_id, seat, rng.choice(legal), "test" if seat == CHANCE else None)
    raise AssertionError(f"game {game_id} did not end within {limit} actions")


def play_some(companion: Companion, game_id: int, rng: random.Random, count: int) -> None:
    """``count`` random legal actions (the game goes on)."""
    for _ in range(count):
        seat = companion.view(game_id, None)["to_act"][0]
        companion.act(game_id, seat, rng.choice(companion.legal_actions(game_id, seat)))


@dataclass
class Evening:
    """The served panel with its games, and one browser context per role and language."""

    url: str
    games: dict[str, int]
    tournament: int
    contexts: dict[tuple[str, str], BrowserContext]
    #: One phone per role and language, going from page to page, and what went wrong on it.
    pages: dict[tuple[str, str], tuple[Page, PageLog]]


def _context(browser: Browser, url: str, role: str, lang: str) -> BrowserContext:
    context = browser.new_context(viewport=VIEWPORTS[0], device_scale_factor=1,
                                  is_mobile=True, has_touch=True, locale=LOCALES[lang])
    context.set_default_timeout(10000)
    context.add_init_script(path=str(axe_path()))
    if role == "host":
        reply = context.request.post(f"{url}/api/host/login", data={"pin": HOST_PIN},
                                     headers=CSRF)
        assert reply.ok, reply.text()
    return context


def _claim(context: BrowserContext, url: str, game_id: int, seat: int) -> None:
    reply = context.request.post(f"{url}/api/games/{game_id}/seats/{seat}/claim", data={},
                                 headers=CSRF)
    assert reply.ok, reply.text()


@pytest.fixture(scope="module")
def evening(browser: Browser) -> Iterator[Evening]:
    rng = random.Random(18)
    with open_table(browser) as table:
        url, companion = table.url, table.companion
        contexts = {(role, lang): _context(browser, url, role, lang)
                    for role in ROLES for lang in LOCALES}
        games = {
            "unlock": companion.create_game("unlock", NAMES),
            "unlock-over": companion.create_game("unlock", NAMES[:2]),
            "hacktrick": companion.create_game("hacktrick", NAMES[:2], seed=3),
            "hacktrick-over": companion.create_game("hacktrick", NAMES[:2], {"target": 2},
                                                    seed=4),
            "ico": companion.create_game("ico", NAMES, seed=5),
            "ico-over": companion.create_game("ico", NAMES[:2], seed=6),
            "dice216": companion.create_game("dice216", NAMES[:2],
                                             {"diagonals": True}, seed=7),
            "dice216-over": companion.create_game("dice216", NAMES[:2], {"size": 4}, seed=8),
        }
        tournament = companion.create_tournament("unlock", NAMES[:2])
        games["tournament-first"] = companion.tournament(tournament)["games"][0]
        games["unlock-solo"] = companion.create_game("unlock", ["Box", *NAMES[:2]],
                                                     {"difficulty": "easy"}, bots={0: "easy"})
        for lang, seat in SEAT.items():
            for key, game_id in games.items():
                _claim(contexts[("player", lang)], url, game_id,
                       seat + 1 if key in BOX_LOCK else seat)
        solo = games["unlock-solo"]
        version = 0
        while companion.view(solo, None)["phase"] != "guess":  # the box draws its secret
            version = companion.wait_for_game(solo, version, 10.0)
        # UNLOCK: a secret, two turns of guesses; the other games a few moves; then the ends
        unlock = games["unlock"]
        companion.act(unlock, 0, "secret 1-5-9")
        for guesses in (("2-5-8", "4-5-6"), ("1-5-7", "3-5-9")):
            for seat, code in zip((1, 2), guesses, strict=True):
                companion.act(unlock, seat, f"guess {code}")
        for over in (games["unlock-over"], games["tournament-first"]):
            companion.act(over, 0, "secret 1-5-9")
            companion.act(over, 1, "guess 2-5-8")
            companion.act(over, 1, "guess 1-5-9")
        games["tournament-next"] = companion.tournament(tournament)["games"][1]
        for lang in SEAT:
            reply = contexts[("player", lang)].request.post(
                f"{url}/api/games/{games['tournament-first']}/follow", data={}, headers=CSRF)
            assert reply.ok, reply.text()
        for name in ("hacktrick", "ico", "dice216"):
            play_some(companion, games[name], rng, 9)
        for name in ("hacktrick-over", "ico-over", "dice216-over"):
            play_out(companion, games[name], rng)
        pages = {}
        for key, context in contexts.items():
            page = context.new_page()
            pages[key] = (page, watch(page))
        yield Evening(url, games, tournament, contexts, pages)
        for context in contexts.values():
            context.close()


#: (name, path or a game's key, roles). A game key opens its page (``…/replay`` its replay).
PAGES: list[tuple[str, str, tuple[str, ...]]] = [
    ("home", "/", ("spectator", "host")),  # a seat changes nothing on the home page
    ("history", "/history", ("spectator",)),
    ("standings", "/standings", ("spectator",)),
    ("tournament", "/tournaments/{tournament}", ("spectator",)),
    ("join", "/join/{unlock}", ("spectator",)),
    ("host-login", "/host", ("spectator",)),
    ("host", "/host", ("host",)),
    ("device", "/device", ("host",)),
    *[(f"new-{game}", f"/host/new/{game}", ("host",))
      for game in ("unlock", "hacktrick", "ico", "dice216")],
    *[(key, "/games/{" + key + "}", ROLES)
      for key in ("unlock", "unlock-over", "hacktrick", "hacktrick-over", "ico", "ico-over",
                  "dice216", "dice216-over", "tournament-next", "unlock-solo")],
    ("unlock-solo-hint", "/games/{unlock-solo}", ("player",)),
    *[(f"{key}-replay", "/games/{" + key + "}/replay", ("spectator",))
      for key in ("unlock-over", "hacktrick-over", "ico-over", "dice216-over")],
]
CASES = [pytest.param(name, path, role, lang, id=f"{name}-{role}-{lang}")
         for name, path, roles in PAGES for role in roles for lang in LOCALES]


def _open(page: Page, address: str) -> None:
    """Open ``address`` and wait until the page has drawn what its scripts draw: a game's
    board, and the move log and chart that follow its first fetch of the moves."""
    game_page = "/games/" in address and not address.endswith("/replay")
    if game_page:
        with page.expect_response(lambda response: "/moves?" in response.url):
            page.goto(address)
        page.wait_for_selector("#board > *")
    else:
        page.goto(address)
    page.wait_for_timeout(100)  # the move log's and the chart's drawing after the fetch


@pytest.mark.parametrize(("name", "path", "role", "lang"), CASES)
def test_every_page_fits_a_phone_loads_cleanly_and_passes_axe(
        evening: Evening, name: str, path: str, role: str, lang: str) -> None:
    address = evening.url + path.format(tournament=evening.tournament, **evening.games)
    page, log = evening.pages[(role, lang)]
    log.closing = True  # the last page's live stream ends as the phone leaves it
    page.set_viewport_size(VIEWPORTS[0])
    page.goto("about:blank")
    log.problems.clear()
    log.closing = False
    problems: list[str] = []
    _open(page, address)
    if name.endswith("-hint"):  # the player asks for a hint: its words and the dashed code
        page.locator("#pad-hint-ask").click()
        page.locator("#pad-hint-use").wait_for(state="visible")
    words = shown_words(page)
    problems += untranslated(words, tuple(NAMES)) if lang == "ja" else []
    problems += [f"identifier {m.group(0)!r}" for m in IDENTIFIER.finditer(words)
                 if lang == "en"]
    problems += [f"raw time {m.group(0)!r}" for m in ISO_TIME.finditer(words)]
    problems += [f"0-based seat {m.group(0)!r}" for m in SEAT_ZERO.finditer(words)]
    problems += axe_violations(page)
    PAGE_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(PAGE_SHOTS / f"{name}-{role}-{lang}.png"), full_page=True)
    for viewport in VIEWPORTS:  # the same page laid out on each phone's screen
        page.set_viewport_size(viewport)
        problems += [f"{viewport['width']}px: {p}" for p in overflow(page)]
        problems += [f"{viewport['width']}px: {p}" for p in broken_words(page)]
    problems += log.problems
    assert not problems, "\n".join(problems)
