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
                   seats: Sequence[int] | None = None, note: str = "",
                   analysis: str = "") -> Image.Image:
    """``view``'s outcome under the game's ``title``: the winners, ``reason`` (how it ended),
    the scores of ``seats`` (default: every seat) best first, a ``note`` under them (the hints
    each player used) as room allows, and the ``onward`` lines at the bottom; ``analysis`` (the
    post-game analysis in one line, :func:`analysis_line`) right under the winners."""
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
    if analysis:
        y = pen.lines(0, y, [pen.fit(analysis, WIDTH)])
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


def analysis_line(answer: Mapping[str, Any] | None, lang: str) -> str:
    """The post-game analysis in one line of the results (``SessionApi.analysis``'s answer):
    UNLOCK's turn the code became certain (or how many codes were left), the other games'
    largest turning point; "analysing" while it is computed; empty when there is none.

    >>> analysis_line({"status": "ready", "analysis": {"kind": "codes", "certain_turn": 4}},
    ...               "en")
    'Certain on turn 4'
    >>> analysis_line({"status": "ready", "analysis": {"kind": "evaluation", "steps": [
    ...     {"step": 1, "n": 3, "loss": 0.3, "turning_point": True}]}}, "en")
    'Turning point: #3'
    """
    if not answer:
        return ""
    if answer.get("status") == "pending":
        return say(WORDS, "analysis.pending", lang)
    found = answer.get("analysis")
    if answer.get("status") != "ready" or not isinstance(found, Mapping):
        return ""
    try:
        if (found.get("kind") or "codes") == "codes":
            return _codes_line(found, lang)
        if found.get("kind") == "evaluation" and found.get("evaluated", True):
            return _turning_line(found, lang)
    except (KeyError, TypeError, ValueError):
        pass
    return ""


def _codes_line(found: Mapping[str, Any], lang: str) -> str:
    if found.get("enumerable") is False:
        return ""
    certain = found.get("certain_turn")
    if certain is not None:
        return say(WORDS, "analysis.certain", lang, turn=int(certain))
    turns = found.get("turns") or []
    left = turns[-1]["codes_after"] if turns else found.get("codes_in_level")
    return say(WORDS, "analysis.uncertain", lang, n=int(left)) if left is not None else ""


def _turning_line(found: Mapping[str, Any], lang: str) -> str:
    turning = [s for s in found.get("steps") or [] if s.get("turning_point")]
    if not turning:
        return say(WORDS, "analysis.no_turning", lang) if found.get("steps") else ""
    worst = max(turning, key=lambda s: (float(s["loss"]), -int(s["step"])))
    return say(WORDS, "analysis.turning", lang, n=int(worst.get("n") or worst["step"]))
