"""A legible text picture of a Hacktrick position, for logs and failing tests.

:func:`render_view` draws any view (so a log built from the spectator's view shows no hand);
:func:`render` draws a state, with both hands and the deck unless ``hands=False``.

>>> from rules.hacktrick.positions import position
>>> print(render(position(hands=((1, 2), (4,)), row=(3, 0), board={3: "W*", 8: "RR"})))
Hacktrick · round 1 · turn 2 · points White 0, Red 0 (to 5)
  2 .      7 .      6 .
  9 .      5 .      1 .
  4 .      3 W*     8 RR
Row: 3 [0] · deck 11 · face up 0 0
White (W): hand 1 2 · supply 9 · captured 0 · discarded 0
Red (R): hand 4 · supply 7 +×2 · captured 0 · discarded 0
Deck: 1 1 2 2 3 3 4 4 5 5 5
To act: White
"""

from __future__ import annotations

from typing import Any

from rules.hacktrick.board import LETTERS
from rules.hacktrick.endings import RoundEnd
from rules.hacktrick.state import HacktrickState
from rules.hacktrick.views import view

#: The text form's words for how a round was won.
ROUND_ENDS = {
    RoundEnd.THREE_ON_A_SQUARE: "three markers on one square",
    RoundEnd.LINE: "a marker on each square of a line",
    RoundEnd.OUT_OF_MARKERS: "the opponent ran out of markers",
    RoundEnd.NO_MOVE: "the opponent could take no turn",
}


def render(state: HacktrickState, *, hands: bool = True) -> str:
    """The position as text; ``hands=False`` leaves out the hands and the deck (for logs)."""
    public = view(state, None)
    if hands and not state.settings.table:
        for seat in (0, 1):
            public["hands"][seat]["cards"] = list(state.hands[seat])
    lines = render_view(public).splitlines()
    if hands and not state.settings.table:
        lines.insert(-1, "Deck: " + (" ".join(str(c) for c in state.deck) or "empty"))
    return "\n".join(lines)


def render_view(view: dict[str, Any]) -> str:
    """A view drawn as text: the magic square with markers (``*`` marks ×2), row, supplies."""
    seats: list[str] = view["seats"]
    points = ", ".join(f"{name} {p}" for name, p in zip(seats, view["points"], strict=True))
    out = [
        f"Hacktrick · round {view['round']} · turn {view['turn']} · points {points} "
        f"(to {view['options']['target']})"
    ]
    for layout_row in view["layout"]:
        cells = []
        for square in layout_row:
            markers = "".join(
                LETTERS[m["owner"]] + ("*" if m["x2"] else "") for m in view["board"][str(square)]
            )
            cells.append(f"{square} {markers or '.':<6}")
        out.append("  " + " ".join(cells).rstrip())
    row = [str(c) for c in view["row"]]
    if row:
        row[-1] = f"[{row[-1]}]"
    face_up = view["face_up"]
    cards = f" · face up {' '.join(str(c) for c in face_up)}" if face_up is not None else ""
    out.append(f"Row: {' '.join(row) or '(empty)'} · deck {view['deck_size']}{cards}")
    for seat, name in enumerate(seats):
        hand = view["hands"][seat]
        shown = " ".join(str(c) for c in hand["cards"]) if hand["cards"] is not None else None
        size = hand["size"]
        held = (shown or "empty") if shown is not None else f"{size} card{'s' * (size != 1)}"
        supply = view["supply"][seat]
        plain = supply["own"] - supply["x2"]
        x2 = " +×2" if supply["x2"] else ""
        captured = supply["captured"]
        said = view["announced_sums"][seat]
        sums = f" · said sum {said}" if said is not None else ""
        out.append(
            f"{name} ({LETTERS[seat]}): hand {held} · supply {plain}{x2} · captured {captured}"
            f"{' incl. ×2' if supply['captured_x2'] else ''} · discarded {view['discarded'][seat]}"
            f"{sums}"
        )
    if view["declaration"] is not None:
        d = view["declaration"]
        word = "Play!" if d["kind"] == "play" else "Guard!"
        out.append(f"{word} declared by {seats[d['by']]}")
    for r in view["reshuffles"]:
        out.append(
            f"Deck rebuilt in turn {r['turn']}: {seats[r['seat']]}'s draw emptied it; "
            f"{r['cards']} cards of the row shuffled into a new deck"
        )
    if view["shown"] is not None:
        s = view["shown"]
        out.append(f"{seats[s['seat']]} showed {' '.join(str(c) for c in s['cards'])}")
    last = view["last_round"]
    if last is not None:
        squares = f" ({' '.join(str(s) for s in last['squares'])})" if last["squares"] else ""
        out.append(
            f"Round {last['round']}: {seats[last['winner']]} won {last['points']} "
            f"point{'s' if last['points'] != 1 else ''}: {ROUND_ENDS[last['reason']]}{squares}"
        )
    if view["outcome"] is not None:
        winner = seats[view["outcome"]["winners"][0]]
        out.append(f"Game over: {winner} reached {view['outcome']['target']} points")
    else:
        who = seats[view["to_act"][0]]
        lead = " (lead a card)" if view["phase"] == "lead" else ""
        asked = " (has asked the sum)" if view["asked"] else ""
        out.append(f"To act: {who}{lead}{asked}")
    return "\n".join(out)
