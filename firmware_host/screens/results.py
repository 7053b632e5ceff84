"""The results of an ended game, the same for every game: who won (or a draw), how, each
player's score, and how to go on (OK: the tournament's next game — pass the pad to whom —, the
games menu, or the start screen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from firmware_host.screens.text import HEIGHT, LINE_H, WIDTH, Pen, blank, shown_name
from firmware_host.screens.words import WORDS, say


def results_screen(view: Mapping[str, Any], title: str, onward: Sequence[str], *,
                   lang: str = "en", reason: str = "",
                   seats: Sequence[int] | None = None, note: str = "") -> Image.Image:
    """``view``'s outcome under the game's ``title``: the winners, ``reason`` (how it ended),
    the scores of ``seats`` (default: every seat) best first, a ``note`` under them (the hints
    each player used) as room allows, and the ``onward`` lines at the bottom."""
    image = blank()
    pen = Pen(image, lang)
    y = pen.header(title, say(WORDS, "game_over", lang))
    outcome: Mapping[str, Any] = view.get("outcome") or {}
    names = [str(s) for s in view.get("seats") or []]
    winners = [w for w in outcome.get("winners") or [] if 0 <= w < len(names)]
    shown = ", ".join(shown_name(names[w], w) for w in winners)
    if not winners:
        headline = say(WORDS, "draw", lang)
    else:
        headline = say(WORDS, "winner" if len(winners) == 1 else "winners", lang, names=shown)
    y = pen.lines(0, y, pen.wrap(headline)[:2])
    scores = list(outcome.get("scores") or [])
    listed = [s for s in (seats if seats is not None else range(len(names)))
              if 0 <= s < len(names)]
    listed.sort(key=lambda s: -scores[s] if s < len(scores) else 0)
    entries = [f"{shown_name(names[s], s)} {scores[s] if s < len(scores) else '-'}"
               for s in listed]
    score_lines = pen.wrap("  ".join(entries).replace(" ", "\u00a0").replace(
        "\u00a0\u00a0", "  "))
    bottom = HEIGHT - LINE_H * len(onward)
    room = (bottom - y) // LINE_H
    reason_lines = pen.wrap(reason) if reason else []
    note_lines = pen.wrap(note) if note else []
    keep_scores = min(len(score_lines), max(1, room - min(len(reason_lines), 1)))
    keep_note = min(len(note_lines), max(0, room - keep_scores - min(len(reason_lines), 1)))
    keep_reason = max(0, room - keep_scores - keep_note)
    body = [*reason_lines[:keep_reason], *score_lines[:keep_scores], *note_lines[:keep_note]]
    if len(reason_lines) > keep_reason and keep_reason:
        body[keep_reason - 1] = pen.more(body[keep_reason - 1])
    pen.lines(0, y, [line.replace("\u00a0", " ") for line in body])
    pen.lines(0, bottom, [pen.fit(line, WIDTH) for line in onward])
    return image


def hints_note(view: Mapping[str, Any], seats: Sequence[int] | None, lang: str) -> str:
    """The hints the players of ``seats`` (default: every seat) asked for, as the results'
    note: those who asked, with how many ("hints: Aiko 2 Chloe 1" — the others asked for
    none); empty when nobody asked for one."""
    hints = view.get("hints")
    used = list(hints.get("used") or []) if isinstance(hints, Mapping) else []
    if not any(used):
        return ""
    names = [str(s) for s in view.get("seats") or []]
    listed = [s for s in (seats if seats is not None else range(len(names)))
              if 0 <= s < len(names) and s < len(used) and used[s]]
    entries = " ".join(f"{shown_name(names[s], s)}\u00a0{used[s]}" for s in listed)
    return say(WORDS, "hints_used", lang, entries=entries)
