"""The boards on a slow phone (issue 15): UNLOCK with a 20-card clue board, the ICO net in
mid-game, and 2 1 6's 12×12 grid for four (diagonals and area on, 140 cells written), each drawn
by its ``web_panel/games/<game>/board.js`` in Debian's Chromium with the CPU throttled 4×
(``Emulation.setCPUThrottlingRate``, a mid-range phone).

Prints, for the first page load (scripts not yet cached) and over several more, the time from
the page's HTML arriving (``responseEnd``) to the board drawn and laid out; and, over many redraws
of the same view, the script and layout time of one live update's drawing (``render`` +
``replaceChildren`` + a forced layout). Issue 15's budgets: ≤ 300 ms and ≤ 50 ms.

    PYTHONPATH=. .venv/bin/python bench/phone_render.py [--loads 11] [--redraws 40]
"""

from __future__ import annotations

import argparse
import random
import statistics

from playwright.sync_api import Browser, sync_playwright

from firmware_host.companion import Companion
from rules import CHANCE
from rules.unlock import all_codes
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.web_panel.served import HOST_PIN, data_dir, serve
from web_panel import create_app

#: Records when the board is first drawn and laid out, in the page's clock.
DRAWN = """
new MutationObserver((_, observer) => {
  const board = document.getElementById("board");
  if (board && board.firstElementChild) {
    void document.body.offsetHeight;  // layout
    window.__drawnAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""

#: Redraws the page's view ``n`` times as a live update does; the time of each, in ms.
REDRAW = """
([game, n]) => {
  const view = window.TabletopGame.view();
  const board = document.getElementById("board");
  const renderer = window.TabletopBoards.board(game);
  const ctx = window.TabletopGame.ctx;
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    board.replaceChildren(renderer.render(view, ctx));
    void document.body.offsetHeight;
    times.push(performance.now() - start);
  }
  return times;
}
"""


def dice_game(companion: Companion) -> tuple[int, int | None]:
    """A 12×12 game for four with diagonals, area and the handicap: 140 cells written, a roll
    waiting; the mover's phone."""
    game_id = companion.create_game("dice216", ["Aiko", "Ben", "Chie", "Dai"],
                                    {"diagonals": True, "area": True})
    companion.act(game_id, CHANCE, "roll 3")  # the second player's handicap
    for index in range(140):
        companion.act(game_id, CHANCE, f"roll {index % 6 + 1}")
        mover = companion.view(game_id, None)["mover"]
        companion.act(game_id, mover, f"place {index // 12 + 1} {index % 12 + 1}")
    companion.act(game_id, CHANCE, "roll 6")
    return game_id, companion.view(game_id, None)["mover"]


def unlock_game(companion: Companion) -> tuple[int, int | None]:
    """UNLOCK on Hard, a Lock and five guessers after four turns: 20 clue cards; a guesser's
    phone."""
    players = ["Lock", "Aiko", "Ben", "Chie", "Dai", "Eri"]
    game_id = companion.create_game("unlock", players, {"difficulty": "hard",
                                                        "turn_limit": None})
    companion.act(game_id, 0, "secret 1-5-9-6-3")
    codes = iter(c for c in all_codes("hard") if c.line_count >= 3)
    for _ in range(4):
        for seat in range(1, 6):
            companion.act(game_id, seat, f"guess {next(codes)}")
    assert len(companion.view(game_id, None)["clue_board"]) == 20
    return game_id, 1


def ico_game(companion: Companion) -> tuple[int, int | None]:
    """ICO Level 1 for three, 24 turns in: markers on many edges; the mover's phone."""
    game_id = companion.create_game("ico", ["Aiko", "Ben", "Chie"], {"start_face": "T0"},
                                    seed=5)
    rng = random.Random(5)
    for _ in range(24):
        view = companion.view(game_id, None)
        if view["outcome"]:
            break
        companion.act(game_id, view["mover"], rng.choice(rules_legal(companion, game_id)))
    return game_id, companion.view(game_id, None)["mover"]


def rules_legal(companion: Companion, game_id: int) -> list[str]:
    """The mover's legal actions, read from the view (ICO shows them)."""
    view = companion.view(game_id, None)
    if view["phase"] == "roll" and view["can_claim"] is False:
        return [f"roll {view['placed']}"]
    verb = "roll" if view["phase"] in ("roll", "move") else "place"
    return [f"{verb} {edge}" for edge in view["legal_edges"]]


def measure(served_url: str, browser: Browser, game: str, game_id: int, seat: int | None,
            args: argparse.Namespace) -> tuple[list[float], list[float], int]:
    """First drawings after the HTML (the first with nothing cached), and live-update drawings."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2,  # type: ignore[arg-type]
                                  is_mobile=True, has_touch=True)
    context.add_init_script(DRAWN)
    page = context.new_page()
    page.goto(f"{served_url}/join/{game_id}")
    if seat is not None:
        claimed = page.evaluate(
            """async (url) => (await fetch(url, {method: "POST",
                headers: {"X-Requested-With": "tabletop"}})).status""",
            f"/api/games/{game_id}/seats/{seat}/claim")
        assert claimed == 200, claimed
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
    first = []
    for _ in range(args.loads):
        page.goto(f"{served_url}/games/{game_id}")
        page.wait_for_function("window.__drawnAt !== undefined")
        first.append(page.evaluate(
            "window.__drawnAt - performance.getEntriesByType('navigation')[0].responseEnd"))
    page.evaluate(REDRAW, [game, 5])  # warm the script up, as a page that has been open a while
    redraws = page.evaluate(REDRAW, [game, args.redraws])
    nodes = page.evaluate("document.querySelectorAll('#board *').length")
    context.close()
    return first, redraws, nodes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=11)
    parser.add_argument("--redraws", type=int, default=40)
    parser.add_argument("--throttle", type=float, default=4.0)
    args = parser.parse_args()
    scenes = (("unlock", "UNLOCK, Hard, 20 clue cards", unlock_game),
              ("ico", "ICO, three players, 24 turns in", ico_game),
              ("dice216", "2 1 6, 12×12 for four", dice_game))
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        games = [(game, name, *make(companion)) for game, name, make in scenes]
        with serve(create_app(companion)) as served, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            print(f"CPU throttled {args.throttle:g}× (budgets: first drawing ≤ 300 ms after "
                  "the HTML, a live update ≤ 50 ms of script and layout)")
            for game, name, game_id, seat in games:
                first, redraws, nodes = measure(served.url, browser, game, game_id, seat, args)
                warm = first[1:]
                print(f"{name} ({nodes} board elements): first drawing, cold "
                      f"{first[0]:.0f} ms, then median {statistics.median(warm):.0f} ms / max "
                      f"{max(warm):.0f} ms; live update median "
                      f"{statistics.median(redraws):.1f} ms / max {max(redraws):.1f} ms")
            browser.close()


if __name__ == "__main__":
    main()
