"""The JavaScript a phone runs for each live update (issue 32), counted rather than timed: the
scenes of ``bench/phone_render.py`` played once, unthrottled, with V8's precise coverage on the
page (``Profiler.startPreciseCoverage`` with call counts), taken after each update. Per update:
the blocks of the page's own scripts executed (each function's ranges, nested ones too), the
function calls, and the DOM mutation records on the game (a ``MutationObserver``, which the
timed bench leaves out: the records delivered to it would be counted as the page's work). A
count does not move with the machine's speed, so it shows a change to the page's scripts even
where the timed figures are lost in a noisy machine's; it does not see the browser's own work
(style, layout, DOM calls), which ``phone_render.py`` times.

    PYTHONPATH=. .venv/bin/python bench/phone_js_work.py [--games unlock ico] [--top 12]
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from bench.phone_render import CHOICES, SCENES, Scene, p90_of, phone
from firmware_host.companion import Companion
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web_panel.served import HOST_PIN, data_dir, serve
from web_panel import create_app

#: Counts the DOM mutation records on the game (its section, board and all around it).
MUTATIONS = """
window.__mutations = 0;
document.addEventListener("DOMContentLoaded", () => {
  const game = document.getElementById("game");
  if (game) {
    new MutationObserver((records) => { window.__mutations += records.length; })
      .observe(game, {subtree: true, childList: true, attributes: true, characterData: true});
  }
});
"""


def page_counts(coverage: list[dict[str, Any]], names: Counter[str]) -> tuple[int, int]:
    """Blocks executed and functions called in the page's own scripts (its bundle and the
    panel's), since the last take; each function's calls added to ``names``."""
    blocks = calls = 0
    for script in coverage:
        if "/boards/" not in script["url"] and "/static/" not in script["url"]:
            continue
        for function in script["functions"]:
            ranges = function["ranges"]
            if not ranges[0]["count"]:
                continue
            calls += ranges[0]["count"]
            blocks += sum(r["count"] for r in ranges)
            names[function["functionName"] or "(anonymous)"] += ranges[0]["count"]
    return blocks, calls


def run(scene: Scene, browser: Browser, companion: Companion, url: str, top: int) -> None:
    CHOICES.start()
    blocks: list[int] = []
    calls: list[int] = []
    mutations: list[int] = []
    names: Counter[str] = Counter()
    games = 0
    while len(blocks) < scene.updates and games < 5:
        game_id, seat = scene.make(companion)
        games += 1
        context, page = phone(browser, url, game_id, seat, 1)
        context.add_init_script(MUTATIONS)
        cdp = context.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.startPreciseCoverage", {"callCount": True, "detailed": True})
        page.goto(f"{url}/games/{game_id}")
        page.wait_for_function("window.__drawnAt !== undefined")
        page.evaluate("v => window.__settle(v)", companion.view(game_id, None)["version"])
        cdp.send("Profiler.takePreciseCoverage")  # the first render's, left out
        while len(blocks) < scene.updates:
            step = scene.next_action(companion, game_id)
            if step is None:
                break
            before = page.evaluate("window.__mutations")
            companion.act(game_id, *step)
            page.evaluate("v => window.__settle(v)", companion.view(game_id, None)["version"])
            mutations.append(page.evaluate("window.__mutations") - before)
            counted = page_counts(cdp.send("Profiler.takePreciseCoverage")["result"], names)
            blocks.append(counted[0])
            calls.append(counted[1])
        context.close()
    print(f"{scene.name}: {len(blocks)} live updates, {games} game{'s' if games > 1 else ''}")
    print(f"  blocks executed per update: p50 {statistics.median(blocks):.0f} / p90 "
          f"{p90_of([float(b) for b in blocks]):.0f} / max {max(blocks)}; "
          f"function calls p50 {statistics.median(calls):.0f} / p90 "
          f"{p90_of([float(c) for c in calls]):.0f}; DOM mutation records p50 "
          f"{statistics.median(mutations):.0f} / p90 {p90_of([float(m) for m in mutations]):.0f}")
    print("  calls per update, the most called: " + ", ".join(
        f"{name} {count / len(blocks):.0f}" for name, count in names.most_common(top)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", nargs="*", default=list(SCENES), choices=list(SCENES))
    parser.add_argument("--top", type=int, default=12, help="functions named, most called first")
    args = parser.parse_args()
    with (data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion,
          serve(create_app(companion)) as served, sync_playwright() as playwright):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for game in args.games:
            run(SCENES[game], browser, companion, served.url, args.top)
        browser.close()


if __name__ == "__main__":
    main()
