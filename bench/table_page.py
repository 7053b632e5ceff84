"""The table screen's cost to the box against one phone's (issue 33: "no more than one phone's").

The box runs in a process of its own (the companion, the panel on the daemon's server, its live
streams handed over to the one feeding thread; no pad, so nothing else moves). ICO games for two
are played, a person's seat against the box's easy bot (it answers at once): the bench makes the
person's moves over HTTP, one every ``--pace`` seconds, and when a game ends the host plays it
again, ``--games`` games in a row. Such an evening is played three ways, in turn, ``--rounds``
times (the bot's moves differ from one evening to the next):

- **nobody** watches (the bench alone: the cost of the games themselves);
- **phone**: the person's phone holds the seat, on its game page (390×844), and follows into
  each next game by itself (it asks ``/api/games/N/next`` every 3 s once the game is over);
- **table**: a 1920×1080 screen on ``/table`` follows the pad's game (its stream says when the
  next one starts, and it loads itself again; at a game's end it fetches the standings).

Measured while the games are played (the page's first load is before): the box process's CPU
time (``/proc/PID/stat``, user + system), per 100 actions (the person's and the bot's), and what
the watching browser fetched from the box (Chromium's DevTools network events: requests that
reached the box and their bodies' bytes, the live stream's included). A watcher's share is its
evening's CPU less what the games alone cost at the nobody evenings' rate per action, per game
and per 100 actions (medians over the rounds).

    .venv/bin/python bench/table_page.py [--games 3] [--rounds 3] [--pace 0.15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import (  # noqa: E402
    APIRequestContext,
    Browser,
    BrowserContext,
    Page,
    Playwright,
    sync_playwright,
)

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.web_panel.served import CSRF, HOST_PIN  # noqa: E402

WATCHERS = ("nobody", "phone", "table")
SCREEN = {"width": 1920, "height": 1080}
PLAYERS = ["Aiko", "Box"]
TICK = os.sysconf("SC_CLK_TCK")


# --- the box ----------------------------------------------------------------------------------
def box(data: Path) -> None:
    """The box: prints ``ready PORT`` once it serves, ends when its stdin closes."""
    from firmware_host.companion import Companion
    from tests.web_panel.served import serve
    from web_panel import create_app

    with (Companion.open(data, host_pin=HOST_PIN, bot_delay=0.0) as companion,
          serve(create_app(companion), threads=8) as served):
        print(f"ready {served.port}", flush=True)
        sys.stdin.read()


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


# --- what a browser fetched -------------------------------------------------------------------
@dataclass
class Fetched:
    """The requests a page made that reached the box, and the bytes of their bodies received
    while counting (the live stream opened before counting began included)."""

    requests: set[str] = field(default_factory=set)
    cached: set[str] = field(default_factory=set)
    sizes: dict[str, int] = field(default_factory=dict)
    counting: bool = False

    def watch(self, context: BrowserContext, page: Page) -> None:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.dataReceived", self._data)

    def _sent(self, event: dict[str, Any]) -> None:
        if self.counting and event["request"]["url"].startswith("http"):
            self.requests.add(event["requestId"])

    def _data(self, event: dict[str, Any]) -> None:
        if self.counting:
            self.sizes[event["requestId"]] = (self.sizes.get(event["requestId"], 0)
                                              + int(event["dataLength"]))

    def served(self) -> tuple[int, int]:
        """(requests, bytes) the box served."""
        return (len(self.requests - self.cached),
                sum(size for i, size in self.sizes.items() if i not in self.cached))


# --- one evening ------------------------------------------------------------------------------
@dataclass
class Phase:
    watcher: str
    cpu: float
    actions: int
    requests: int
    bytes: int

    @property
    def per_100(self) -> float:
        return 100 * self.cpu / self.actions


def post(client: APIRequestContext, path: str, body: dict[str, Any]) -> dict[str, Any]:
    reply = client.post(path, data=body, headers=CSRF)
    assert reply.ok, f"{path}: {reply.status} {reply.text()}"
    answer: dict[str, Any] = reply.json()
    return answer


def get(client: APIRequestContext, path: str) -> Any:
    reply = client.get(path)
    assert reply.ok, f"{path}: {reply.status} {reply.text()}"
    return reply.json()


def evening(playwright: Playwright, browser: Browser, url: str, pid: int, watcher: str,
            args: argparse.Namespace, host: APIRequestContext) -> Phase:
    """``args.games`` games in a row, watched by ``watcher``."""
    game_id = post(host, "/api/host/games", {"game": "ico", "players": PLAYERS, "seed": 7,
                                             "bots": {"1": "easy"}})["game_id"]
    fetched = Fetched()
    context: BrowserContext | None = None
    page: Page | None = None
    if watcher == "nobody":
        person = playwright.request.new_context(base_url=url)
    else:
        options: dict[str, Any] = ({"viewport": PHONE, "device_scale_factor": 2,
                                    "is_mobile": True, "has_touch": True}
                                   if watcher == "phone" else {"viewport": SCREEN})
        context = browser.new_context(base_url=url, **options)
        page = context.new_page()
        fetched.watch(context, page)
        person = context.request  # the phone's own cookies: the bench plays for its seat
    post(person, f"/api/games/{game_id}/seats/0/claim", {})
    assert page is None or context is not None
    if page is not None:
        page.goto("/table" if watcher == "table" else f"/games/{game_id}")
        page.wait_for_selector(f'#game[data-game-id="{game_id}"] #live.on')
        page.wait_for_timeout(500)
    fetched.counting = True
    before, actions = cpu_seconds(pid), 0
    for number in range(args.games):
        while True:
            view = get(person, f"/api/games/{game_id}")
            if view["status"] != "active":
                break
            if 0 in view["to_act"] and view["legal_edges"]:
                post(person, f"/api/games/{game_id}/act",
                     {"action": f"place {view['legal_edges'][0]}"})
            time.sleep(args.pace)
        actions += len(get(host, f"/api/games/{game_id}/moves"))
        if number == args.games - 1:
            break
        ended, game_id = game_id, post(host, f"/api/host/games/{game_id}/again", {})["game_id"]
        if watcher == "phone":
            assert page is not None
            page.wait_for_url(f"**/games/{game_id}", timeout=15000)  # it takes the same seat
        else:
            post(person, f"/api/games/{ended}/follow", {})
        if watcher == "table":
            assert page is not None
            page.wait_for_selector(f'#game[data-game-id="{game_id}"] #live.on', timeout=15000)
    if page is not None:  # the last game's results drawn (the screen: with the standings)
        page.wait_for_selector(".outcome", timeout=15000)
        page.wait_for_timeout(500)
    cpu = cpu_seconds(pid) - before
    fetched.counting = False
    requests, size = fetched.served()
    if context is not None:
        context.close()
    else:
        person.dispose()
    return Phase(watcher, cpu, actions, requests, size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games in a row per evening")
    parser.add_argument("--rounds", type=int, default=3, help="evenings of each kind")
    parser.add_argument("--pace", type=float, default=0.15, help="seconds between moves")
    parser.add_argument("--box", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.box is not None:
        box(args.box)
        return
    folder = Path(tempfile.mkdtemp(prefix="table-page-"))
    proc = subprocess.Popen([sys.executable, __file__, "--box", str(folder / "data")],
                            cwd=ROOT, env={**os.environ, "HOME": str(folder)},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        ready = proc.stdout.readline().split()
        assert ready[:1] == ["ready"], f"the box did not start: {ready}"
        url = f"http://127.0.0.1:{ready[1]}"
        print(f"machine: {os.cpu_count()} cores, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; ICO for two (a person and the "
              f"box's easy bot), {args.games} games an evening, a move every {args.pace} s, "
              f"{args.rounds} rounds", flush=True)
        phases: dict[str, list[Phase]] = {w: [] for w in WATCHERS}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            host = playwright.request.new_context(base_url=url)
            post(host, "/api/host/login", {"pin": HOST_PIN})
            for round_number in range(args.rounds):
                order = WATCHERS[round_number % 3:] + WATCHERS[:round_number % 3]
                for watcher in order:
                    phase = evening(playwright, browser, url, proc.pid, watcher, args, host)
                    phases[watcher].append(phase)
                    print(f"  round {round_number + 1} {watcher:6}: {phase.actions} actions, "
                          f"box CPU {phase.cpu:.2f} s ({phase.per_100:.3f} s per 100 actions), "
                          f"{phase.requests} requests, {phase.bytes / 1024:.1f} KiB",
                          flush=True)
            browser.close()
        report(phases, args.games)
    finally:
        proc.stdin.close()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def report(phases: dict[str, list[Phase]], games: int) -> None:
    """The medians of each watcher's evenings, and the table screen's share against a phone's.

    A watcher's share of an evening is its CPU less what the games alone cost at the nobody
    evenings' rate per action (the games are not all as long: the bot plays differently)."""
    rate = statistics.median(p.cpu / p.actions for p in phases["nobody"])
    print("\n| watcher | box CPU per 100 actions | the watcher's share, per game | "
          "per 100 actions | requests per game | KiB per game |\n|---|---|---|---|---|---|")
    share = {}
    for watcher, found in phases.items():
        per_100 = statistics.median(p.per_100 for p in found)
        share[watcher] = statistics.median((p.cpu - rate * p.actions) / games for p in found)
        per_action = statistics.median((p.cpu / p.actions - rate) * 100 for p in found)
        requests = statistics.median(p.requests for p in found) / games
        size = statistics.median(p.bytes for p in found) / 1024 / games
        print(f"| {watcher} | {per_100 * 1000:.0f} ms | "
              + ("— | — | — | — |" if watcher == "nobody" else
                 f"{share[watcher] * 1000:.0f} ms | {per_action * 1000:.0f} ms | "
                 f"{requests:.1f} | {size:.1f} |"))
    if share["phone"] > 0:
        print(f"\nthe table screen's share / one phone's (per game): "
              f"{share['table'] / share['phone']:.2f}")


if __name__ == "__main__":
    main()
