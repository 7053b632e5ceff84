"""2 1 6's board on a slow phone: a 12×12 grid for four (diagonals and area on, 140 cells
written, a roll waiting) drawn by ``web_panel/games/dice216/board.js`` in Debian's Chromium with
the CPU throttled 4× (``Emulation.setCPUThrottlingRate``, a mid-range phone).

Prints, for the first page load (scripts not yet cached) and over several more, the time from
the page's HTML arriving (``responseEnd``) to the board drawn and laid out; and, over many redraws
of the same view, the script and layout time of one live update's drawing (``render`` +
``replaceChildren`` + a forced layout). Issue 15's budgets: ≤ 300 ms and ≤ 50 ms.

    PYTHONPATH=. .venv/bin/python bench/board_dice216_render.py [--loads 11] [--redraws 40]
"""

from __future__ import annotations

import argparse
import statistics

from playwright.sync_api import sync_playwright

from firmware_host.companion import Companion
from rules import CHANCE
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
(n) => {
  const view = window.TabletopGame.view();
  const board = document.getElementById("board");
  const renderer = window.TabletopBoards.board("dice216");
  const ctx = {t: (k, v) => window.Tabletop.message(k, v), isHost: false, replay: false,
               urls: {}};
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


def busy_game(companion: Companion) -> int:
    """A 12×12 game for four with diagonals, area and the handicap: 140 cells written, a roll
    waiting."""
    game_id = companion.create_game("dice216", ["Aiko", "Ben", "Chie", "Dai"],
                                    {"diagonals": True, "area": True})
    companion.act(game_id, CHANCE, "roll 3")  # the second player's handicap
    for index in range(140):
        companion.act(game_id, CHANCE, f"roll {index % 6 + 1}")
        mover = companion.view(game_id, None)["mover"]
        companion.act(game_id, mover, f"place {index // 12 + 1} {index % 12 + 1}")
    companion.act(game_id, CHANCE, "roll 6")
    return game_id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=11)
    parser.add_argument("--redraws", type=int, default=40)
    parser.add_argument("--throttle", type=float, default=4.0)
    args = parser.parse_args()
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        game_id = busy_game(companion)
        mover = companion.view(game_id, None)["mover"]
        with serve(create_app(companion)) as served, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=PHONE, device_scale_factor=2,  # type: ignore[arg-type]
                                          is_mobile=True, has_touch=True)
            context.add_init_script(DRAWN)
            page = context.new_page()
            page.goto(f"{served.url}/join/{game_id}")
            claimed = page.evaluate(
                """async (url) => (await fetch(url, {method: "POST",
                    headers: {"X-Requested-With": "tabletop"}})).status""",
                f"/api/games/{game_id}/seats/{mover}/claim")
            assert claimed == 200, claimed
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            first = []
            for _ in range(args.loads):
                page.goto(f"{served.url}/games/{game_id}")
                page.wait_for_function("window.__drawnAt !== undefined")
                first.append(page.evaluate(
                    "window.__drawnAt - performance.getEntriesByType('navigation')[0].responseEnd"))
            assert page.locator("button.cell.empty").count() == 4
            page.evaluate(REDRAW, 5)  # warm the script up, as a page that has been open a while
            redraws = page.evaluate(REDRAW, args.redraws)
            nodes = page.evaluate("document.querySelectorAll('#board *').length")
            browser.close()
    print(f"2 1 6, 12×12 for four, {nodes} board elements, CPU throttled {args.throttle:g}×")
    warm = first[1:]
    print(f"first drawing after the HTML: cold page {first[0]:.1f} ms; then "
          f"({len(warm)} loads) median {statistics.median(warm):.1f} ms, max {max(warm):.1f} ms "
          "(budget 300 ms)")
    print(f"a live update's drawing ({args.redraws} redraws): median "
          f"{statistics.median(redraws):.1f} ms, max {max(redraws):.1f} ms (budget 50 ms)")


if __name__ == "__main__":
    main()
