"""What each viewer may see of a Hacktrick state — the only way state leaves the rules.

A hand's cards go only to its holder (every hand's size is public); the deck's order and the
random seed go to nobody; announced sums, shown hands and everything else are public.
"""

from __future__ import annotations

from typing import Any

from rules.hacktrick.board import COLOURS, LAYOUT, LINES, SQUARES, on_square
from rules.hacktrick.endings import Reason
from rules.hacktrick.state import HacktrickState
from rules.hacktrick.turns import legal_actions


def to_act(state: HacktrickState) -> list[int]:
    return [] if state.phase == "over" else [state.mover]


def outcome(state: HacktrickState) -> dict[str, Any] | None:
    if state.phase != "over":
        return None
    winner = state.results[-1].winner
    return {
        "winners": [winner],
        "scores": list(state.points),
        "reason": Reason.TARGET_REACHED,
        "target": state.settings.target,
        "rounds": state.round,
    }


def view(state: HacktrickState, seat: int | None) -> dict[str, Any]:
    """The JSON-safe view for ``seat`` (``None``: a spectator)."""
    table = state.settings.table
    latest: list[int | None] = [None, None]
    for announcement in state.announcements:
        latest[announcement.seat] = announcement.total
    declaration = state.declaration
    return {
        "game": "hacktrick",
        "seats": list(state.players),
        "colours": list(COLOURS),
        "to_act": to_act(state),
        "phase": state.phase,
        "turn": state.turn,
        "you": seat,
        "options": state.settings.as_dict(),
        "outcome": outcome(state),
        "round": state.round,
        "starter": state.starter,
        "points": list(state.points),
        "layout": [list(r) for r in LAYOUT],
        "lines": [list(line) for line in LINES],
        "board": {
            str(s): [{"owner": m.owner, "x2": m.x2} for m in on_square(state.board, s)]
            for s in SQUARES
        },
        "row": list(state.row),
        "rightmost": state.rightmost,
        "face_up": None if table else list(state.face_up),
        "deck_size": state.deck_size,
        "hands": [
            {
                "size": state.hand_size(s),
                "cards": list(state.hands[s]) if seat == s and not table else None,
            }
            for s in (0, 1)
        ],
        "supply": [
            {"own": sup.own_total, "x2": sup.own_x2, "captured": sup.captured_total,
             "captured_x2": sup.captured_x2}
            for sup in state.supplies
        ],
        "discarded": list(state.discarded),
        "declaration": None if declaration is None else {
            "kind": declaration.kind, "by": declaration.by, "against": 1 - declaration.by
        },
        "asked": state.asked,
        "announced_sums": latest,
        "announcements": [
            {"turn": a.turn, "seat": a.seat, "sum": a.total, "reason": a.reason}
            for a in state.announcements
        ],
        "shown": None if state.shown is None else {
            "turn": state.shown.turn, "seat": state.shown.seat, "cards": list(state.shown.cards)
        },
        "reshuffles": [
            {"turn": r.turn, "seat": r.seat, "cards": r.cards} for r in state.reshuffles
        ],
        "reshuffled": _reshuffled(state),
        "last_round": None if not state.results else _result(state, -1),
        "rounds": [_result(state, i) for i in range(len(state.results))],
        "legal_actions": legal_actions(state, seat) if seat is not None else [],
    }


def _reshuffled(state: HacktrickState) -> dict[str, Any] | None:
    """The deck rebuild made by the last turn taken, if it made one (for "just happened")."""
    if not state.reshuffles or state.reshuffles[-1].turn != state.turn - 1:
        return None
    r = state.reshuffles[-1]
    return {"turn": r.turn, "seat": r.seat, "cards": r.cards}


def _result(state: HacktrickState, index: int) -> dict[str, Any]:
    r = state.results[index]
    return {"round": r.round, "winner": r.winner, "points": r.points, "reason": r.reason,
            "squares": list(r.squares)}
