"""The boards on a slow phone (issues 15 and 32): each game at its largest, drawn by its
``web_panel/games/<game>/board.js`` in Debian's Chromium at 390 px with the CPU throttled 4×
(``Emulation.setCPUThrottlingRate``, a mid-range phone):

- UNLOCK on Hard, a Lock and five guessers, 20 clue cards (a guesser's phone); then four more
  turns (to 40 cards);
- Hacktrick (two players), 120 actions in (the first player's phone); then 40 more;
- ICO Level 1 for three, 24 turns in (the mover's phone); then played on to its end, and again
  in other games made the same way until 40 actions are measured;
- 2 1 6's 12×12 grid for four (diagonals and area on), 112 cells written, a roll waiting (the
  mover's phone); then played to its end (65 actions).

Measured from a Chromium trace (the renderer's main thread; script, style recalculation and
layout, overlaps counted once; for a page load HTML parsing too):

- **first render**: the page's work from the HTML's arrival (``responseEnd``) to the board drawn
  and laid out, and that time on the wall clock (issue 15's figure; it includes waiting for
  the scripts): on a phone's first visit to the game page (``--cold`` phones, each coming from
  the join page with nothing of the game page cached), and on loading it again (``--loads``);
- **live update**: each action of the game after that, made on the box (the companion) while the
  phone watches: the phone's work from the action to its page settled — the event (a delta with
  the moves since, or a whole view) applied, the board and the move log drawn (the log fetched
  when the event carries no moves), two frames rendered; and its scope, which a noisy machine
  does not change: the layout objects dirtied and the elements restyled (from the same trace;
  the DOM mutation records are counted by ``bench/phone_js_work.py``, untimed: an observer's
  records delivered to it are work the page itself does not do); and, for both, the font
  strikes set up (a family at one size and weight; on Linux each is a call to the browser
  process that the main thread waits for).

Each figure also as time **on the CPU** (the trace's thread time of the same work). Chromium's
throttle spins the main thread for three times each stretch it ran, measured on the wall clock;
on a busy machine a stretch holds the time the thread waited for a core or for the browser, and
the throttle multiplies it. The CPU figure leaves the waits out (the spinning stays in it): where
the two differ most, the machine was busy, not the page. The throttle spins an idle page's
thread as well (a throttled page doing nothing keeps most of a core busy), so only the phone
being measured is throttled: the first phone waits unthrottled while the others make their
first visits. And as on a phone, whose page has a core of its own rather than sharing one with
the box's server, the bench and the browser's other processes, the measured phone's main thread
(and Chromium's throttle thread, which interrupts it) has the machine's last core to itself;
all else runs on the others, the page's other threads on any (``Cores``; ``--share-cores``
leaves every process on every core, as before).

Each scene's live updates are played three times (``--repeat``), on the same games move for
move (:class:`Choices`), each time on a phone loading its page afresh; each update's figure is
the least of its plays (:func:`least_of`): the same update measured again varies by as much as
2.8× on a shared machine, and what varies is mostly the machine, which only ever adds. The
least drops the page's own work that lands at different moments in different plays too
(garbage collection, V8 compiling code as it warms), so every play pooled is printed beside
it.

The machine's speed beside them: a fixed script (``YARDSTICK``) timed on the measured phone
before its first visit and before each game's live updates, the same work whatever the page.

Budgets (issue 32): first render ≤ 200 ms, live update p90 ≤ 30 ms of main-thread work.

    PYTHONPATH=. .venv/bin/python bench/phone_render.py [--cold 4] [--loads 5] [--repeat 3]
        [--games unlock ico] [--share-cores]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, sync_playwright

from firmware_host.companion import Companion
from rules import CHANCE
from rules.unlock import all_codes
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.web_panel.served import HOST_PIN, data_dir, serve
from web_panel import create_app

FIRST_BUDGET_MS = 200.0
UPDATE_BUDGET_MS = 30.0

#: Marks the board first drawn and laid out ("board-drawn", in the page's clock and the trace;
#: the board is drawn once the document is parsed, web_panel/static/game.js);
#: counts the page's fetches in flight; ``__settle(version)`` resolves once the page shows
#: ``version``, has no fetch in flight and has rendered two more frames.
HOOKS = """
document.addEventListener("DOMContentLoaded", () => {
  // the board's own element only (not the whole document: a record for every node parsed
  // would be the bench's work, counted as the page's); its first drawing comes after this
  const board = document.getElementById("board");
  if (board) {
    new MutationObserver((_, observer) => {
      if (!board.firstElementChild) return;
      void document.body.offsetHeight;  // layout
      window.__drawnAt = performance.now();
      performance.mark("board-drawn");
      observer.disconnect();
    }).observe(board, {childList: true});
  }
});
window.__inflight = 0;
const __fetch = window.fetch;
window.fetch = function (...args) {
  window.__inflight += 1;
  return __fetch.apply(this, args).finally(() => { window.__inflight -= 1; });
};
// a fetch's body read too: the page draws what it fetched in the same task as the read ends,
// so the page has settled only once every body it asked for has been read
for (const name of ["json", "text"]) {
  const read = Response.prototype[name];
  Response.prototype[name] = function () {
    window.__inflight += 1;
    return read.call(this).finally(() => { window.__inflight -= 1; });
  };
}
window.__settle = (version) => new Promise((resolve, reject) => {
  let frames = 0;
  const started = performance.now();
  function __benchCheck() {  // not counted as the page's work (by its name)
    const game = document.getElementById("game");
    const shown = game ? Number(game.dataset.version) : -1;
    frames = shown >= version && window.__inflight === 0 ? frames + 1 : 0;
    if (frames > 2) resolve(shown);
    else if (performance.now() - started > 20000) {
      reject(new Error(`version ${shown} of ${version}, ${window.__inflight} fetches in flight`));
    } else requestAnimationFrame(__benchCheck);
  }
  requestAnimationFrame(__benchCheck);
});
"""

#: What the trace counts as the page's work (the DevTools timeline's names).
SCRIPT = {"EvaluateScript", "v8.compile", "v8.compileModule", "v8.evaluateModule",
          "FunctionCall", "EventDispatch", "TimerFire", "FireIdleCallback",
          "RunMicrotasks", "XHRReadyStateChange", "XHRLoad", "v8.run", "V8.Execute"}
STYLE = {"UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet"}
LAYOUT = {"Layout"}
HTML = {"ParseHTML"}
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing",
              "v8.execute", "loading", "fonts"]
#: A font strike (a family at one size and weight) set up: on Linux a call to the browser
#: process, waited for on the main thread.
STRIKE = "WebSandboxSupportLinux::GetWebFontRenderStyleForStrike"


@dataclass
class Scene:
    game: str
    name: str
    make: Callable[[Companion], tuple[int, int]]
    #: The next action of the game (seat, action), or None when it is over.
    next_action: Callable[[Companion, int], tuple[int, str] | None]
    updates: int


# --- the games ---------------------------------------------------------------------------------

def dice_game(companion: Companion) -> tuple[int, int]:
    """A 12×12 game for four with diagonals, area and the handicap: 112 cells written, a roll
    waiting; the mover's phone."""
    game_id = companion.create_game("dice216", ["Aiko", "Ben", "Chie", "Dai"],
                                    {"diagonals": True, "area": True})
    companion.act(game_id, CHANCE, "roll 3")  # the second player's handicap
    for index in range(112):
        companion.act(game_id, CHANCE, f"roll {index % 6 + 1}")
        mover = companion.view(game_id, None)["mover"]
        companion.act(game_id, mover, f"place {index // 12 + 1} {index % 12 + 1}")
    companion.act(game_id, CHANCE, "roll 6")
    return game_id, companion.view(game_id, None)["mover"]


def dice_next(companion: Companion, game_id: int) -> tuple[int, str] | None:
    view = companion.view(game_id, None)
    if view["outcome"]:
        return None
    if CHANCE in view["to_act"]:
        return CHANCE, f"roll {view['turn'] % 6 + 1}"
    empty = [(r, c) for r, row in enumerate(view["cells"]) for c, cell in enumerate(row)
             if not cell]
    r, c = empty[0]
    return view["mover"], f"place {r + 1} {c + 1}"


class Choices:
    """The scenes' choices (the codes drawn, the random moves), from the same start for each
    repetition: every repetition plays the very same games."""

    def __init__(self) -> None:
        self.start()

    def start(self) -> None:
        self.codes = (code for code in all_codes("hard") if code.line_count >= 3)
        self.ico = random.Random(5)
        self.hacktrick = random.Random(7)


CHOICES = Choices()


def unlock_game(companion: Companion) -> tuple[int, int]:
    """UNLOCK on Hard, a Lock and five guessers after four turns: 20 clue cards; a guesser's
    phone."""
    players = ["Lock", "Aiko", "Ben", "Chie", "Dai", "Eri"]
    game_id = companion.create_game("unlock", players, {"difficulty": "hard",
                                                        "turn_limit": None})
    companion.act(game_id, 0, "secret 1-5-9-6-3")
    for _ in range(4):
        for seat in range(1, 6):
            companion.act(game_id, seat, f"guess {next(CHOICES.codes)}")
    assert len(companion.view(game_id, None)["clue_board"]) == 20
    return game_id, 1


def unlock_next(companion: Companion, game_id: int) -> tuple[int, str] | None:
    view = companion.view(game_id, None)
    if view["outcome"]:
        return None
    seat = min(s for s in view["to_act"] if s >= 0)
    return seat, f"guess {next(CHOICES.codes)}"


def ico_game(companion: Companion) -> tuple[int, int]:
    """ICO Level 1 for three, 24 turns in (random legal moves; a game won sooner is set aside
    for another): markers on many edges; the mover's phone."""
    while True:
        game_id = companion.create_game("ico", ["Aiko", "Ben", "Chie"], {"start_face": "T0"},
                                        seed=5)
        for _ in range(24):
            step = ico_next(companion, game_id)
            if step is None:
                break
            companion.act(game_id, *step)
        view = companion.view(game_id, None)
        if not view["outcome"]:
            return game_id, view["mover"]


def ico_next(companion: Companion, game_id: int) -> tuple[int, str] | None:
    """A random legal action of the mover (read from the view: ICO shows them)."""
    view = companion.view(game_id, None)
    if view["outcome"]:
        return None
    if view["phase"] == "roll" and view["can_claim"] is False:
        return view["mover"], f"roll {view['placed']}"
    verb = "roll" if view["phase"] in ("roll", "move") else "place"
    return view["mover"], CHOICES.ico.choice([f"{verb} {edge}" for edge in view["legal_edges"]])


def hacktrick_game(companion: Companion) -> tuple[int, int]:
    """Hacktrick for two, first to 9 points, 120 actions in (several rounds on the chart, a
    long row); the first player's phone."""
    game_id = companion.create_game("hacktrick", ["Aiko", "Ben"], {"target": 9}, seed=7)
    for _ in range(120):
        step = hacktrick_next(companion, game_id)
        assert step is not None
        companion.act(game_id, *step)
    return game_id, 0


def hacktrick_next(companion: Companion, game_id: int) -> tuple[int, str] | None:
    view = companion.view(game_id, None)
    if view["outcome"]:
        return None
    seat = view["to_act"][0]
    legal = companion.view(game_id, seat)["legal_actions"]
    plays = [a for a in legal if a.startswith(("play", "lead"))]
    return seat, CHOICES.hacktrick.choice(plays or legal)


SCENES = {
    "unlock": Scene("unlock", "UNLOCK, Hard, 20 → 40 clue cards", unlock_game, unlock_next, 20),
    "hacktrick": Scene("hacktrick", "Hacktrick, 120 actions in", hacktrick_game,
                       hacktrick_next, 40),
    "ico": Scene("ico", "ICO, three players, 24 turns in", ico_game, ico_next, 40),
    "dice216": Scene("dice216", "2 1 6, 12×12 for four, 112 → 144 cells", dice_game,
                     dice_next, 65),
}


# --- the trace ---------------------------------------------------------------------------------

def union(intervals: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[tuple[float, float]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def without(intervals: list[tuple[float, float]],
            holes: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``intervals`` (merged) less ``holes`` (the bench's own calls)."""
    out = []
    merged = union(holes)
    for start, end in intervals:
        for hole_start, hole_end in merged:
            if hole_end <= start or hole_start >= end:
                continue
            if hole_start > start:
                out.append((start, hole_start))
            start = max(start, hole_end)
        if start < end:
            out.append((start, end))
    return out


def clipped(intervals: list[tuple[float, float]], start: float, end: float) -> float:
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in intervals)


@dataclass
class Trace:
    """The page's main thread in a Chromium trace: its work (script, style, layout, HTML
    parsing) and all its tasks as intervals (µs), and the page's marks."""

    work: list[tuple[float, float]]
    style_layout: list[tuple[float, float]]
    tasks: list[tuple[float, float]]
    marks: dict[str, list[float]]
    #: (time, layout objects dirtied) of each layout; (time, elements restyled) of each style
    #: recalculation: the scope of the work, which a noisy machine does not change.
    dirtied: list[tuple[float, int]]
    restyled: list[tuple[float, int]]
    #: When each font strike was set up.
    strikes: list[float]
    #: (start, end, thread time) of each outermost span of work, the bench's own left out.
    on_cpu: list[tuple[float, float, float]]

    @classmethod
    def read(cls, raw: bytes) -> Trace:
        data = json.loads(raw)
        events: list[dict[str, Any]] = data["traceEvents"] if isinstance(data, dict) else data
        marks: dict[tuple[int, int], dict[str, list[float]]] = {}
        for event in events:
            if "blink.user_timing" in event.get("cat", "") and event.get("ph") in ("I", "R", "n"):
                key = (event["pid"], event["tid"])
                marks.setdefault(key, {}).setdefault(event["name"], []).append(event["ts"])
        # the page's main thread: the one with the bench's marks
        thread = max(marks, key=lambda k: sum(len(v) for v in marks[k]))
        work, style_layout, tasks, bench, frames = [], [], [], [], []
        dirtied, restyled, timed, strikes = [], [], [], []
        for event in events:
            if (event["pid"], event["tid"]) != thread or event.get("ph") != "X":
                continue
            name = event["name"]
            span = (float(event["ts"]), float(event["ts"]) + float(event.get("dur", 0)))
            args = event.get("args", {})
            if name == "Layout":
                dirtied.append((span[0], int((args.get("beginData") or {}).get("dirtyObjects", 0))))
            elif name == "UpdateLayoutTree":
                restyled.append((span[0], int(args.get("elementCount", 0))))
            if name == STRIKE:
                strikes.append(span[0])
            if name == "RunTask":
                tasks.append(span)
            elif str((args.get("data") or {}).get("functionName", "")).startswith("__bench") or (
                    name == "EvaluateScript" and not args.get("data")):
                bench.append(span)  # the bench's calls, and the scripts it runs (``quietly``)
            elif name == "FireAnimationFrame":
                frames.append(span)  # the bench's own, if its check ran in it: below
                work.append(span)
            elif name in STYLE or name in LAYOUT:
                style_layout.append(span)
                work.append(span)
            elif name in SCRIPT or name in HTML:
                work.append(span)
            if work and work[-1] is span:
                timed.append((*span, float(event.get("tdur", 0))))
        # the bench's frame callbacks whole (the throttling's pauses land in them too)
        bench += [frame for frame in frames
                  if any(frame[0] <= start and end <= frame[1] for start, end in bench)]
        holes = union(bench)
        on_cpu, reach = [], -1.0
        for start, end, cpu in sorted(timed, key=lambda t: (t[0], -t[1])):
            if start >= reach:  # outermost
                reach = end
                if not any(a <= start and end <= b for a, b in holes):
                    on_cpu.append((start, end, cpu))
        return cls(without(union(work), bench), without(union(style_layout), bench),
                   union(tasks), marks[thread], dirtied, restyled, strikes, on_cpu)

    def between(self, start: float, end: float) -> Work:
        """The work between two moments of the trace (µs), in ms."""
        return Work(clipped(self.work, start, end) / 1000,
                    clipped(self.style_layout, start, end) / 1000,
                    clipped(self.tasks, start, end) / 1000,
                    sum(n for at, n in self.dirtied if start <= at <= end),
                    sum(n for at, n in self.restyled if start <= at <= end),
                    sum(1 for at in self.strikes if start <= at <= end),
                    # a span the window cuts: its share of the thread time
                    on_cpu=sum(cpu * max(0.0, min(b, end) - max(a, start)) / max(b - a, 1.0)
                               for a, b, cpu in self.on_cpu) / 1000)


@dataclass
class Work:
    """Script + style + layout (+ HTML parsing), the style and layout part, and every task of
    the main thread (painting and the rest too), in ms."""

    work: float
    style_layout: float
    busy: float
    dirtied: int = 0
    restyled: int = 0
    #: Font strikes set up (each a call to the browser process on Linux).
    strikes: int = 0
    #: The work's time on the CPU (the trace's thread time, the throttle's spinning in it):
    #: the wall clock's figure less the time the thread waited for a core or for the browser.
    on_cpu: float = 0.0
    #: For a live update: "end" (the action ended the game), "first" (the first change the
    #: page showed after it loaded), else "".
    moment: str = ""


# --- the phone ---------------------------------------------------------------------------------

class Cores:
    """The measured phone's main thread on a core of its own, as on a phone, whose page does
    not share a core with the box's server, the bench, or the browser's other processes: those
    on the other cores. Chromium's throttle thread goes with the main thread (it interrupts that
    thread to slow it down, and late on a busy core would slow it less); the page's other
    threads (compositing, raster, V8's helpers, which the main thread may wait for) may run on
    any core. Off (``phone`` None) with one core, or when asked (``--share-cores``)."""

    def __init__(self, on: bool) -> None:
        self.all = set(os.sched_getaffinity(0))
        self.phone = max(self.all) if on and len(self.all) > 1 else None
        self.rest = self.all - {self.phone} if self.phone is not None else self.all

    def give(self, browser: Browser, page: Page) -> None:
        """Give ``page``'s main thread the phone's core; every thread of this process and of
        its children (the browser's, the other phones') not the page's on the rest."""
        if self.phone is None:
            return
        main = renderer_main_thread(browser, page)
        for pid in [os.getpid(), *descendants(os.getpid())]:
            for task in Path(f"/proc/{pid}/task").glob("*"):
                with contextlib.suppress(OSError):  # a thread that has ended
                    if pid != main:
                        cores = self.rest
                    elif int(task.name) == main or (task / "comm").read_text().startswith(
                            "CPUThrottling"):
                        cores = {self.phone}
                    else:
                        cores = self.all
                    os.sched_setaffinity(int(task.name), cores)


def renderer_main_thread(browser: Browser, page: Page) -> int:
    """The process id of ``page``'s renderer, which is its main thread's id (Linux; a trace
    gives both as the system's)."""
    browser.start_tracing(page=page, categories=["blink.user_timing"])
    page.evaluate("performance.mark('bench-whoami')")
    data = json.loads(browser.stop_tracing())
    events = data["traceEvents"] if isinstance(data, dict) else data
    mark = next(e for e in events if e["name"] == "bench-whoami")
    assert mark["pid"] == mark["tid"], mark
    return int(mark["pid"])


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Playwright's driver, the browser and all it started)."""
    children: dict[int, list[int]] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(proc.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def phone(browser: Browser, url: str, game_id: int, seat: int | None, throttle: float,
          like: BrowserContext | None = None) -> tuple[BrowserContext, Page]:
    """A phone on the game's join page holding ``seat`` (or the seat of phone ``like``: its
    cookies, nothing of its cache), the CPU throttled."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2,  # type: ignore[arg-type]
                                  is_mobile=True, has_touch=True,
                                  storage_state=like.storage_state() if like else None)
    context.add_init_script(HOOKS)
    page = context.new_page()
    page.goto(f"{url}/join/{game_id}")
    if seat is not None and like is None:
        claimed = page.evaluate(
            """async (url) => (await fetch(url, {method: "POST",
                headers: {"X-Requested-With": "tabletop"}})).status""",
            f"/api/games/{game_id}/seats/{seat}/claim")
        assert claimed == 200, claimed
    throttle_cpu(page, throttle)
    return context, page


#: The DevTools session throttling each phone's page (the throttle ends with its session).
_THROTTLES: WeakKeyDictionary[Page, CDPSession] = WeakKeyDictionary()


def throttle_cpu(page: Page, rate: float) -> None:
    """Throttle ``page``'s main thread ``rate``× (1: not at all). Chromium's throttle spins the
    thread for (rate − 1)× each stretch it ran, idle or not: a throttled page doing nothing keeps
    most of a core busy, so a phone not being measured is not left throttled beside one that
    is."""
    if page not in _THROTTLES:
        _THROTTLES[page] = page.context.new_cdp_session(page)
    _THROTTLES[page].send("Emulation.setCPUThrottlingRate", {"rate": rate})


def load(browser: Browser, page: Page, url: str, game_id: int) -> tuple[Work, float]:
    """One load of the game page: the work from the HTML's arrival (``responseEnd``) to the
    board drawn and laid out, and that time on the wall clock."""
    browser.start_tracing(page=page, categories=CATEGORIES)
    page.goto(f"{url}/games/{game_id}")
    page.wait_for_function("window.__drawnAt !== undefined")
    drawn, arrived = page.evaluate(
        "[window.__drawnAt, performance.getEntriesByType('navigation')[0].responseEnd]")
    trace = Trace.read(browser.stop_tracing())
    done = trace.marks["board-drawn"][-1]
    return trace.between(done - (drawn - arrived) * 1000, done), drawn - arrived


#: A fixed piece of script (describing and building 400 elements off the page, a JSON round
#: trip, a sort): how long it takes on the measured phone tells how fast the machine was when
#: the figures beside it were taken. The same work each time, whatever the page.
YARDSTICK = """() => {
  const started = performance.now();
  const box = document.createElement("div");
  const rows = [];
  for (let i = 0; i < 400; i += 1) {
    const cell = document.createElement("span");
    cell.setAttribute("class", "cell " + (i % 7));
    cell.textContent = String(i * 31 % 97);
    box.appendChild(cell);
    rows.push({ i, text: cell.textContent, seats: [i % 3, i % 5] });
  }
  JSON.parse(JSON.stringify(rows)).sort((a, b) => a.text.localeCompare(b.text));
  return performance.now() - started;
}"""


def yardstick(page: Page, times: int = 7) -> float:
    """The median time of :data:`YARDSTICK` on ``page`` (as throttled), in ms."""
    return statistics.median(page.evaluate(YARDSTICK) for _ in range(times))


def live_updates(browser: Browser, page: Page, companion: Companion, game_id: int,
                 scene: Scene, wanted: int) -> list[Work]:
    """The phone's work for each of the game's next actions, up to ``wanted`` or the game's
    end."""
    page.evaluate("v => window.__settle(v)", companion.view(game_id, None)["version"])
    browser.start_tracing(page=page, categories=CATEGORIES)
    done = 0
    while done < wanted:
        step = scene.next_action(companion, game_id)
        if step is None:
            break
        quietly(page, f"performance.mark('update-start-{done}')")
        companion.act(game_id, *step)
        settle_quietly(page, companion.view(game_id, None)["version"])
        quietly(page, f"performance.mark('update-end-{done}')")
        done += 1
    trace = Trace.read(browser.stop_tracing())
    works = [trace.between(trace.marks[f"update-start-{index}"][0],
                           trace.marks[f"update-end-{index}"][0]) for index in range(done)]
    if works:
        works[0].moment = "first"
        if scene.next_action(companion, game_id) is None:
            works[-1].moment = "end"
    return works


def quietly(page: Page, expression: str) -> None:
    """Run ``expression`` on ``page`` through the DevTools protocol alone, answering nothing:
    Playwright's ``evaluate`` runs its own script in the page to hand the answer back (promises,
    the answer serialised), which the trace shows as microtasks of the page's, counted as its
    work; a script the protocol runs is an ``EvaluateScript`` of no source, left out."""
    _THROTTLES[page].send("Runtime.evaluate", {"expression": expression})


def settle_quietly(page: Page, version: int) -> None:
    """Wait until ``page`` shows ``version`` and has settled (``__settle``), asking it quietly:
    the page says so on its console, from the bench's own frame callback."""
    said = f"bench-settled {version}"
    failed = f"{said} failed: "
    with page.expect_console_message(lambda m: m.text == said or m.text.startswith(failed),
                                     timeout=30000) as message:
        quietly(page, f"window.__settle({version}).then("
                      f"function __benchSettled() {{ console.debug({said!r}); }}, "
                      f"function __benchFailed(e) {{ console.debug({failed!r} + e); }})")
    if message.value.text != said:
        raise RuntimeError(f"the page did not settle: {message.value.text}")


def p90_of(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def figures(values: list[float], p90: bool = True) -> str:
    ninety = f"p90 {p90_of(values):.1f} / " if p90 else ""
    return f"p50 {statistics.median(values):.1f} / {ninety}max {max(values):.1f} ms"


def run(scene: Scene, browser: Browser, companion: Companion, url: str,
        args: argparse.Namespace, cores: Cores) -> None:
    """The first renders on the scene's first game, then its live updates over as many games as
    it takes (a game that ends is followed by another made the same way), played
    ``args.repeat`` times from the same start (:class:`Choices`): the same games, move for
    move, each on a phone loading its page afresh."""
    plays: list[list[Work]] = []
    speeds: list[float] = []
    games = 0
    for repetition in range(args.repeat):
        CHOICES.start()
        updates: list[Work] = []
        games = 0
        while len(updates) < scene.updates and games < 5:
            game_id, seat = scene.make(companion)
            games += 1
            context, page = phone(browser, url, game_id, seat, args.throttle)
            cores.give(browser, page)
            if repetition == 0 and games == 1:
                first_renders(scene, browser, context, page, url, game_id, seat, args, cores)
            else:
                page.goto(f"{url}/games/{game_id}")
            speeds.append(yardstick(page))
            updates += live_updates(browser, page, companion, game_id, scene,
                                    scene.updates - len(updates))
            context.close()
        plays.append(updates)
    report_updates(plays, games, speeds)


def first_renders(scene: Scene, browser: Browser, context: BrowserContext, page: Page,
                  url: str, game_id: int, seat: int, args: argparse.Namespace,
                  cores: Cores) -> None:
    """The phone's first visit and more phones' (``--cold``), then loads again (``--loads``)."""
    before = yardstick(page)
    cold = [load(browser, page, url, game_id)]  # this phone's first visit
    throttle_cpu(page, 1)  # waiting, idle, while the others are measured
    for _ in range(args.cold - 1):  # more phones, each on its first visit
        other, again = phone(browser, url, game_id, seat, args.throttle, context)
        cores.give(browser, again)
        cold.append(load(browser, again, url, game_id))
        other.close()
    throttle_cpu(page, args.throttle)
    cores.give(browser, page)
    warm = [load(browser, page, url, game_id) for _ in range(args.loads)]
    nodes = page.evaluate("document.querySelectorAll('#board *').length")
    print(f"{scene.name} ({nodes} board elements)")
    worst = max(w.work for w, _ in cold + warm)
    for name, loads in (("first visit", cold), ("again", warm)):
        print(f"  first render, {name} ({len(loads)}): "
              f"{figures([w.work for w, _ in loads], p90=False)} "
              f"[{', '.join(f'{w.work:.0f}' for w, _ in loads)}] "
              f"(on the CPU {figures([w.on_cpu for w, _ in loads], p90=False)}; "
              f"style + layout {statistics.median(w.style_layout for w, _ in loads):.0f}"
              f" ms; {statistics.median(w.strikes for w, _ in loads):.0f} font strikes "
              f"set up; every task {statistics.median(w.busy for w, _ in loads):.0f} ms; "
              f"wall, HTML → board drawn {statistics.median(t for _, t in loads):.0f} "
              "ms)")
    print(f"  first render {'met' if worst <= FIRST_BUDGET_MS else 'OVER'}: max "
          f"{worst:.0f} ms (≤ {FIRST_BUDGET_MS:.0f} ms); the machine's speed: a fixed "
          f"script took {before:.1f} ms on the phone before its first visit")


def least_of(plays: list[list[Work]]) -> list[Work]:
    """Each update's least work over the plays of the same games. The same update measured
    again varies as much as 2.8× on a shared machine, and what varies is mostly the machine
    (waits, a slower core), which only ever adds; so a p90 over the updates' least measures
    the page's updates rather than the machine (less the page's own work that lands at
    different moments in different plays, which the pooled figures keep)."""
    count = min(len(play) for play in plays)
    return [min((play[index] for play in plays), key=lambda u: u.work) for index in range(count)]


def report_updates(plays: list[list[Work]], games: int, speeds: list[float]) -> None:
    updates = least_of(plays)
    work = [u.work for u in updates]
    each = (f"each the least of {len(plays)} plays of the same game{'s' if games > 1 else ''}"
            if len(plays) > 1 else "one play")
    print(f"  live update ({len(updates)} actions, {games} game{'s' if games > 1 else ''}; "
          f"{each}): {figures(work)} (on the CPU {figures([u.on_cpu for u in updates])}; "
          f"style + layout {figures([u.style_layout for u in updates])}; "
          f"every task {figures([u.busy for u in updates])}) "
          f"{'met' if p90_of(work) <= UPDATE_BUDGET_MS else 'OVER'} "
          f"(p90 ≤ {UPDATE_BUDGET_MS:.0f} ms)", flush=True)
    if len(plays) > 1:
        pooled = [u.work for play in plays for u in play]
        print(f"    every play pooled ({len(pooled)}): {figures(pooled)}; each play's p90: "
              f"{', '.join(f'{p90_of([u.work for u in play]):.1f}' for play in plays)} ms")
    print(f"    the machine's speed: a fixed script took {statistics.median(speeds):.1f} ms on "
          f"the phone (medians before each game: {', '.join(f'{v:.1f}' for v in speeds)})")
    print("    its scope, mean per update: "
          f"{statistics.mean(u.dirtied for u in updates):.1f} layout objects dirtied, "
          f"{statistics.mean(u.restyled for u in updates):.1f} elements restyled; "
          f"{sum(u.strikes for u in updates)} font strikes set up in all")
    parts = [(name, [u for u in updates if u.moment == moment])
             for name, moment in (("a game's end", "end"), ("the first after a load", "first"),
                                  ("the others", ""))]
    print("    of which " + "; ".join(
        f"{name} ({len(some)}): {figures([u.work for u in some])} (style + layout p50 "
        f"{statistics.median(u.style_layout for u in some):.1f})"
        for name, some in parts if some), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cold", type=int, default=4, help="first visits (fresh phones)")
    parser.add_argument("--loads", type=int, default=5, help="loads again (scripts cached)")
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument("--repeat", type=int, default=3,
                        help="plays of each scene's live updates (each update: its least)")
    parser.add_argument("--games", nargs="*", default=list(SCENES), choices=list(SCENES))
    parser.add_argument("--share-cores", action="store_true",
                        help="leave the measured phone's main thread on the cores all else uses")
    args = parser.parse_args()
    cores = Cores(not args.share_cores)
    with (data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion,
          serve(create_app(companion)) as served, sync_playwright() as playwright):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"CPU throttled {args.throttle:g}×, {PHONE['width']} px; main-thread work: "
              "script + style + layout (+ HTML parsing for a load), from a Chromium trace. "
              f"Budgets: first render ≤ {FIRST_BUDGET_MS:.0f} ms, live update p90 ≤ "
              f"{UPDATE_BUDGET_MS:.0f} ms", flush=True)
        print(f"the measured phone's main thread on core {cores.phone}, all else on "
              f"{sorted(cores.rest)}" if cores.phone is not None else
              f"every process on the same cores {sorted(cores.rest)}", flush=True)
        for game in args.games:
            run(SCENES[game], browser, companion, served.url, args, cores)
        browser.close()


if __name__ == "__main__":
    main()
