"""What every page must pass on a phone, checked in Chromium: nothing wider than the screen, no
failed request, no console error, axe-core's rules (no serious or critical violation), and on a
Japanese page no identifier or English sentence a player would read."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import ConsoleMessage, Page, Request, Response

ROOT = Path(__file__).resolve().parents[2]
#: axe-core from npm, installed by ``scripts/bootstrap dev`` (pinned there).
AXE = ROOT / ".venv" / "node_modules" / "axe-core" / "axe.min.js"
#: The phone screens every page is checked on (CSS pixels).
VIEWPORTS = ({"width": 390, "height": 844}, {"width": 360, "height": 740})

#: A snake_case identifier (an option id, a reason code, a message key) in shown text.
IDENTIFIER = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
#: A raw ISO timestamp (times are shown relative to now, the date as a tooltip).
ISO_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
#: A seat counted from 0 ("seat 0"): seats are named by player, numbered from 1.
SEAT_ZERO = re.compile(r"\bseat 0\b", re.IGNORECASE)
#: Three Latin words in a row: an English phrase on a Japanese page.
ENGLISH = re.compile(r"[A-Za-z][a-z']+(?:[ \u00a0][A-Za-z][a-z']*){2,}")
#: A lowercase English word (a status such as "missing", a choice such as "random").
ENGLISH_WORD = re.compile(r"\b[a-z]{3,}\b")
#: An address a page shows as it is (the join link).
ADDRESS = re.compile(r"https?://\S+")
#: Latin words a Japanese page keeps: the games' names and the box's key labels.
KEPT_LATIN = ("UNLOCK", "Hacktrick", "ICO", "OK", "PIN", "QR")


def axe_path() -> Path:
    """axe-core's script (an :class:`AssertionError` saying how to install it when missing)."""
    if not AXE.is_file():
        raise AssertionError(f"axe-core is not installed at {AXE}: run scripts/bootstrap dev")
    return AXE


@dataclass
class PageLog:
    """What went wrong while a page was open: failed requests, error responses, console errors
    and uncaught exceptions."""

    problems: list[str] = field(default_factory=list)
    #: Requests a test aborts on purpose (a live stream cut when the page closes).
    closing: bool = False

    def on_request_failed(self, request: Request) -> None:
        if not self.closing:
            self.problems.append(f"request failed: {request.method} {request.url} "
                                 f"({request.failure})")

    def on_response(self, response: Response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.request.method} "
                                 f"{response.url}")

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def on_page_error(self, error: Exception) -> None:
        self.problems.append(f"uncaught: {error}")


def watch(page: Page) -> PageLog:
    """Record the page's failed requests, error responses, console errors and exceptions."""
    log = PageLog()
    page.on("requestfailed", log.on_request_failed)
    page.on("response", log.on_response)
    page.on("console", log.on_console)
    page.on("pageerror", log.on_page_error)
    return log


def overflow(page: Page) -> list[str]:
    """Whatever sticks out past the screen's right edge (the page scrolls sideways)."""
    found: list[str] = page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const out = [];
        if (document.documentElement.scrollWidth > width) {
            const wide = document.documentElement.scrollWidth;
            out.push(`the page is ${wide}px wide on a ${width}px screen`);
            for (const node of document.body.querySelectorAll("*")) {
                const box = node.getBoundingClientRect();
                if (box.width && box.right > width + 0.5 && out.length < 6) {
                    const name = node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") +
                                 [...node.classList].map(c => "." + c).join("");
                    out.push(`${name} reaches ${Math.round(box.right)}px`);
                }
            }
        }
        return out;
    }""")
    return found


def shown_words(page: Page) -> str:
    """What a player reads or hears on the page: its visible text, its title, and the labels
    and tooltips of its elements."""
    words: str = page.evaluate("""() => {
        const parts = [document.title, document.body.innerText];
        const named = "[aria-label], [title], [placeholder], img[alt]";
        for (const node of document.querySelectorAll(named)) {
            for (const name of ["aria-label", "title", "placeholder", "alt"]) {
                const value = node.getAttribute(name);
                if (value) parts.push(value);
            }
        }
        return parts.join("\\n");
    }""")
    return words


def untranslated(words: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Identifiers and English phrases in a Japanese page's words (``allowed``: the players'
    own names and other words the page may show as they are)."""
    words = ADDRESS.sub(" ", words)
    for kept in (*KEPT_LATIN, *allowed):
        words = words.replace(kept, " ")
    found = [f"identifier {m.group(0)!r}" for m in IDENTIFIER.finditer(words)]
    found += [f"English {m.group(0)!r}" for m in ENGLISH.finditer(words)]
    found += [f"English word {m.group(0)!r}" for m in ENGLISH_WORD.finditer(words)]
    return sorted(set(found))


def axe_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page (WCAG 2 A/AA and best practice).
    The page's context must load axe first: ``context.add_init_script(path=axe_path())`` (an
    init script, not a <script>: the panel's Content-Security-Policy stays on)."""
    results: list[dict[str, Any]] = page.evaluate("""async () => {
        const found = await window.axe.run(document, {resultTypes: ["violations"]});
        return found.violations.filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " " +
                            (n.failureSummary || "").split("\\n").slice(1, 2).join(""))}));
    }""")
    return [f"axe {v['impact']} {v['id']} ({v['help']}): {'; '.join(v['nodes'])}"
            for v in results]


def broken_words(page: Page, selector: str = "table th") -> list[str]:
    """Latin words split over two lines in the cells ``selector`` finds ("Sco / re"): a
    header or a player's name must wrap between words, not inside one."""
    found: list[str] = page.evaluate("""(selector) => {
        const out = [];
        for (const cell of document.querySelectorAll(selector)) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (const match of node.data.matchAll(/[A-Za-z]{2,}/g)) {
                    const range = document.createRange();
                    range.setStart(node, match.index);
                    range.setEnd(node, match.index + match[0].length);
                    const lines = new Set([...range.getClientRects()]
                        .filter(r => r.width > 0).map(r => Math.round(r.top)));
                    if (lines.size > 1) out.push(`"${match[0]}" is split over ${lines.size} lines`);
                }
            }
        }
        return out;
    }""", selector)
    return found
