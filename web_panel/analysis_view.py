"""An ended game's post-game analysis (issue 34) as the pages show it, in English or Japanese:
the replay page's analysis section, the club's game page, and the lines under a phone's results.

Two kinds of analysis (docs/analysis.md):

- ``codes`` — UNLOCK's (``rules/unlock/analysis.py``; an analysis kept before ``kind`` existed
  has none and is this kind): a bar graph of the codes still fitting the clue board after each
  turn on a log scale, each turn's cards with their codes left and ruled out and the hint's
  card, the turns it became certain and was found, and a line per guesser;
- ``evaluation`` — the other games' (``rules/evaluation.py``): a graph of every weighed move's
  evaluation from the mover's side (+1 won for the mover, −1 lost), each point in its mover's
  colour and shape, the losses drawn down from the bot's best, the turning points ringed and
  listed; every move annotated; a line per player.

Every sentence is built here from the analysis's numbers and verdicts in the page's language
(never by translating the English sentence the analysis carries). Graphs are inline SVG drawn
on the server (``web_panel/analysis_graphs.py``), so a page needs no script to show them. An
analysis that does not have the shape of either kind (a foreign box's, on the club's hub)
shows nothing and is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from firmware_host.seat_colours import ink_on, seat_colour
from web_panel.analysis_graphs import (
    NOTICEABLE,
    SHAPES,
    codes_graph,
    count,
    evaluation_graph,
    loss_text,
    name_of,
    number,
    signed,
    whole,
    words,
)

log = logging.getLogger(__name__)


Analysis = Mapping[str, Any]
#: The URL of a replay step (``None``: the page has no replay to link to).
StepUrl = Callable[[int], str] | None


@dataclass(frozen=True)
class PlayerLine:
    """One player's line: their seat (for their colour), name and sentence."""

    seat: int
    player: str
    text: str
    style: str


@dataclass(frozen=True)
class StepShown:
    """One weighed move, annotated."""

    step: int
    n: int
    seat: int
    player: str
    style: str
    turning: bool
    href: str | None
    label: str
    move: Markup
    notes: Markup


@dataclass(frozen=True)
class TurnShown:
    """One UNLOCK turn, annotated: its codes before and after, and a line per card."""

    turn: int
    label: str
    codes: str
    mark: str
    cards: list[tuple[str, str]]
    hint: str


@dataclass(frozen=True)
class Shown:
    """An analysis as a page shows it (``web_panel/templates/analysis.html``)."""

    kind: str
    intro: str
    notes: list[str]
    headline: str
    graph: Markup | None
    legend: list[tuple[str, str, str]] = field(default_factory=list)
    turning: list[StepShown] = field(default_factory=list)
    steps: list[StepShown] = field(default_factory=list)
    turns: list[TurnShown] = field(default_factory=list)
    lines: list[PlayerLine] = field(default_factory=list)


def shown(analysis: Analysis, lang: str, *, players: Sequence[str] = (),
          view: Mapping[str, Any] | None = None, step_url: StepUrl = None) -> Shown | None:
    """``analysis`` for a page in ``lang``; ``players`` and ``view`` (the game's final view,
    for the seats' colours) as the page knows them; ``step_url`` links a move to its replay
    step. ``None`` for data that is no analysis this page can show."""
    try:
        kind = analysis_kind(analysis)
        if kind == "codes":
            return _codes(analysis, lang, list(players), view)
        if kind == "evaluation":
            return _evaluation(analysis, lang, list(players), view, step_url)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        log.warning("an analysis could not be shown: %r", error)
    return None


def summary(analysis: Analysis, lang: str, *,
            players: Sequence[str] = ()) -> dict[str, Any] | None:
    """What a phone's results show (``GET /api/games/<id>/analysis``'s ``headline`` and
    ``lines``): the analysis's headline and a line per player, in ``lang``."""
    found = shown(analysis, lang, players=players)
    if found is None:
        return None
    return {"headline": found.headline,
            "lines": [{"seat": line.seat, "player": line.player, "text": line.text}
                      for line in found.lines]}


def analysis_kind(analysis: Analysis) -> str:
    """``codes`` (UNLOCK's, also an analysis kept before ``kind`` existed) or
    ``evaluation``."""
    return str(analysis.get("kind") or "codes")


def _style(seat: int, view: Mapping[str, Any] | None) -> str:
    colour = seat_colour(seat, view)
    return f"--seat: {colour}; --seat-ink: {ink_on(colour)}"


# --- the evaluation kind ----------------------------------------------------------------------
def _evaluation(analysis: Analysis, lang: str, players: list[str],
                view: Mapping[str, Any] | None, step_url: StepUrl) -> Shown:
    names = [str(p) for p in analysis.get("players") or players]
    raw = list(analysis.get("steps") or [])
    steps = [_step(item, lang, names, view, step_url) for item in raw]
    by_step = {s.step: s for s in steps}
    turning = [by_step[int(t)] for t in analysis.get("turning_points") or [] if t in by_step]
    notes = []
    if analysis.get("end") == "abandoned":
        notes.append(words("analysis_abandoned", lang))
    if analysis.get("evaluated") is False:
        notes.append(words("analysis_not_evaluated", lang))
    headline = (words("analysis_turning_headline", lang,
                   moves=", ".join(str(s.n) for s in turning)) if turning
                else words("analysis_no_turning_point", lang) if steps else "")
    lines = [_eval_line(item, lang, names, view, by_step)
             for item in analysis.get("summaries") or []]
    seats = sorted({s.seat for s in steps})
    legend = [(name_of(seat, names), SHAPES[seat % len(SHAPES)], _style(seat, view))
              for seat in seats]
    return Shown("evaluation", words("analysis_eval_intro", lang), notes, headline,
                 evaluation_graph(raw, lang, names, view) if steps else None, legend=legend,
                 turning=turning, steps=steps, lines=lines)


def _step(item: Mapping[str, Any], lang: str, names: Sequence[str],
          view: Mapping[str, Any] | None, step_url: StepUrl) -> StepShown:
    step = whole(item["step"]) or 0
    n = whole(item.get("n")) or step
    seat = whole(item["seat"]) or 0
    name = name_of(seat, names)
    action = str(item["action"])
    best_action = str(item.get("best_action") or action)
    loss = max(number(item.get("loss", 0.0)), 0.0)
    parts = [escape(words("analysis_value", lang, value=signed(item["value"])))]
    if item.get("forced"):
        parts.append(escape(words("analysis_forced", lang)))
    elif best_action == action or loss < NOTICEABLE:
        parts.append(escape(words("analysis_best_same", lang)))
    else:
        best = words("analysis_best", lang, move="\x00", value=signed(item["best"]))
        before, after = best.split("\x00", 1)
        parts.append(escape(before) + _move(best_action, seat, n, name, lang, "best")
                     + escape(after))
    if loss >= NOTICEABLE:
        parts.append(escape(words("analysis_loss", lang, loss=loss_text(loss))))
    turning = bool(item.get("turning_point"))
    if turning:
        parts.append(Markup('<b class="turning-mark">{}</b>').format(
            words("analysis_turning_point", lang)))
    return StepShown(step=step, n=n, seat=seat, player=name, style=_style(seat, view),
                     turning=turning, href=step_url(n) if step_url is not None else None,
                     label=words("analysis_move_n", lang, n=n),
                     move=_move(action, seat, n, name, lang, "played"),
                     notes=Markup(" · ").join(parts))


def _move(action: str, seat: int, n: int, name: str, lang: str, which: str) -> Markup:
    """A move in words: who did what, as the game's records say it; the replay page's script
    puts the game's own words in its place (``static/analysis.js``)."""
    return Markup('<span class="move" data-which="{}" data-n="{}" data-seat="{}" '
                  'data-move="{}">{}</span>').format(
        which, n, seat, action, words("move_generic", lang, name=name, action=action))


def _eval_line(item: Mapping[str, Any], lang: str, names: Sequence[str],
               view: Mapping[str, Any] | None, by_step: Mapping[int, StepShown]) -> PlayerLine:
    seat = whole(item["seat"]) or 0
    name = str(item.get("player") or name_of(seat, names))
    moves = whole(item.get("moves")) or 0
    if not moves:
        text = words("analysis_eval_none", lang, name=name)
    else:
        text = words("analysis_eval_summary", lang, name=name, moves=moves,
                  best=whole(item.get("best_moves")) or 0,
                  loss=loss_text(item.get("average_loss") or 0.0))
        worst = whole(item.get("worst_step"))
        if worst is not None:
            n = by_step[worst].n if worst in by_step else worst
            text += (" " if lang == "en" else "") + words("analysis_eval_worst", lang, n=n)
    return PlayerLine(seat, name, text, _style(seat, view))


# --- UNLOCK's codes ---------------------------------------------------------------------------
def _codes(analysis: Analysis, lang: str, players: list[str],
           view: Mapping[str, Any] | None) -> Shown:
    names = list(players)
    for item in analysis.get("summaries") or []:
        seat = whole(item["seat"]) or 0
        while len(names) <= seat:
            names.append(f"#{len(names) + 1}")
        names[seat] = str(item.get("player") or names[seat])
    notes = []
    if analysis.get("end") == "abandoned":
        notes.append(words("analysis_abandoned", lang))
    if analysis.get("secret"):
        notes.append(words("analysis_secret", lang, code=str(analysis["secret"])))
    if analysis.get("enumerable") is False:
        notes.append(words("analysis_not_counted", lang))
        return Shown("codes", "", notes, "", None)
    total = whole(analysis.get("codes_in_level"))
    if total is not None:
        notes.append(words("analysis_level", lang, n=count(total)))
    raw = list(analysis.get("turns") or [])
    certain = whole(analysis.get("certain_turn"))
    found = whole(analysis.get("found_turn"))
    turns = [_turn(item, lang, names, certain, found) for item in raw]
    headline = []
    if certain is not None:
        headline.append(words("analysis_certain", lang, n=certain))
    if found is not None:
        headline.append(words("analysis_found", lang, n=found))
    if certain is None:
        left = whole(raw[-1]["codes_after"]) if raw else total
        if left is not None:
            headline.append(words("analysis_never_certain", lang, n=count(left)))
    lines = [_codes_line(item, lang, view) for item in analysis.get("summaries") or []]
    graph = codes_graph(raw, total, certain, found, lang) if raw else None
    return Shown("codes", words("analysis_codes_intro", lang) if raw else "", notes,
                 (" " if lang == "en" else "").join(headline), graph, turns=turns, lines=lines)


def _turn(item: Mapping[str, Any], lang: str, names: Sequence[str], certain: int | None,
          found: int | None) -> TurnShown:
    turn = whole(item["turn"]) or 0
    cards = []
    for card in item.get("cards") or []:
        seat = whole(card["seat"]) or 0
        if card.get("repeat"):
            text = words("analysis_card_repeat", lang, code=str(card["code"]))
        else:
            text = words("analysis_card", lang, code=str(card["code"]), matches=card["matches"],
                      misses=card["misses"], left=count(card["codes_left"]),
                      out=count(card["ruled_out"]))
            if card.get("found"):
                text += " · " + words("analysis_card_found", lang)
        cards.append((name_of(seat, names) + " · " + text, _style(seat, None)))
    hint = item.get("hint")
    hint_text = ""
    if isinstance(hint, Mapping):
        hint_text = (words("analysis_hint_found", lang, code=str(hint["code"])) if hint.get("found")
                     else words("analysis_hint_card", lang, code=str(hint["code"]),
                             left=count(hint["codes_left"]), out=count(hint["ruled_out"])))
    marks = [words("analysis_mark_certain", lang) if turn == certain else "",
             words("analysis_mark_found", lang) if turn == found else ""]
    return TurnShown(turn, words("analysis_turn_n", lang, n=turn),
                     words("analysis_turn_codes", lang, before=count(item["codes_before"]),
                        after=count(item["codes_after"])),
                     " · ".join(m for m in marks if m), cards, hint_text)


def _codes_line(item: Mapping[str, Any], lang: str,
                view: Mapping[str, Any] | None) -> PlayerLine:
    seat = whole(item["seat"]) or 0
    name = str(item.get("player") or f"#{seat + 1}")
    verdict = item.get("verdict")
    if not item.get("cards") or verdict not in ("better", "equal", "worse"):
        text = words("analysis_codes_none", lang, name=name)
    else:
        text = words(f"analysis_codes_{verdict}", lang, name=name,
                  mine=count(item["average_left"]), hint=count(item["hint_average_left"]))
    return PlayerLine(seat, name, text, _style(seat, view))


