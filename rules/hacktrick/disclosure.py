"""Whether an action can be taken back: the daemon's undo asks :func:`reveals_hidden`.

An action cannot be undone when it showed someone hidden information or involved chance:
a draw (the drawer saw a card; under Play! a hand may be shown), Ask the sum (a sum was
announced), the lead with virtual cards (both hand sums are announced), and any action that
ended a round and so started a new one (a new deal, a new shuffle). A plain play or a
declaration reveals nothing that was not already public and can be taken back.
"""

from __future__ import annotations

from rules.hacktrick.actions import Action
from rules.hacktrick.state import HacktrickState
from rules.hacktrick.turns import apply_action


def reveals_hidden(state_before: HacktrickState, seat: int, action: str) -> bool:
    """True if ``action`` by ``seat`` from ``state_before`` revealed hidden information or
    involved chance (so undo must be refused). Raises ``IllegalAction`` if the action is
    not legal there.

    >>> from rules.hacktrick.positions import position
    >>> state = position(hands=((1, 2), (4, 5)), row=(3,))
    >>> reveals_hidden(state, 0, "play 1"), reveals_hidden(state, 0, "draw")
    (False, True)
    """
    parsed = Action.parse(action)
    after = apply_action(state_before, seat, parsed)
    if parsed.verb in ("draw", "ask"):
        return True
    if parsed.verb == "lead" and not state_before.settings.table:
        return True
    return after.round != state_before.round or after.shuffles != state_before.shuffles
