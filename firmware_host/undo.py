"""When the host may take back the last action (the Board Game Arena policy).

An action may be taken back only while it revealed no hidden information and involved no chance.
The rule, in order (see docs/decisions.md, "Daemon core"):

1. A chance action (a roll, a shuffle) is never taken back: re-rolling would be cheating.
2. A game may decide itself: its registration's ``undo`` policy (``firmware_host.games.<game>``:
   Hacktrick asks its rules what an action disclosed; UNLOCK allows the secret and a guess that
   completes no turn).
3. Otherwise the generic rule, which only looks at views: before the action every player's view
   equals the spectator's (nothing was hidden from anyone, so nothing can have been revealed),
   and after it every viewer but the actor still sees exactly what the spectator sees (the actor
   may see what they just entered, such as a secret they chose).

Rule 3 is conservative: a game with private hands is never undoable by it.
``BoxGame.undo_refusal`` applies this order; this module holds the generic rule.
"""

from __future__ import annotations

from typing import Any

from rules import Game

#: Keys of a view that say who is looking, not what they see.
VIEWER_KEYS = frozenset({"you"})

Refusal = str | None


def generic_refusal(game: Game[Any], before: Any, seat: int, after: Any) -> Refusal:
    """Rule 3 above: nothing was hidden before, and only the actor sees more after."""
    if game.perfect_information:
        return None
    players = range(len(game.view(before, None).get("seats", [])))
    public_before = _visible(game.view(before, None))
    if any(_visible(game.view(before, s)) != public_before for s in players):
        return "the game hides information from some players, so the action may have revealed it"
    public_after = _visible(game.view(after, None))
    if any(_visible(game.view(after, s)) != public_after for s in players if s != seat):
        return "the last action showed a player something the others cannot see"
    return None


def is_public(game: Game[Any], before: Any, after: Any) -> bool:
    """Whether every player saw all of ``before`` and ``after`` (a perfect-information step):
    only then may a log print the action itself."""
    if game.perfect_information:
        return True
    for state in (before, after):
        public = _visible(game.view(state, None))
        seats = range(len(public.get("seats", [])))
        if any(_visible(game.view(state, s)) != public for s in seats):
            return False
    return True


def changed_keys(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    """The keys whose values differ between two views."""
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def _visible(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in VIEWER_KEYS}
