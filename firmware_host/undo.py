"""When the host may take back the last action (the Board Game Arena policy).

An action may be taken back only while it revealed no hidden information and involved no chance.
The rule, in order (see docs/decisions.md, "Daemon core"):

1. A chance action (a roll, a shuffle) is never taken back: re-rolling would be cheating.
2. A game may decide itself: if its rules object has ``reveals_hidden(state, seat, action)``,
   the action is undoable exactly when that returns ``False``.
3. Otherwise a game may have a predicate here (UNLOCK: the secret, and a guess that does not
   complete the turn).
4. Otherwise the generic rule, which only looks at views: before the action every player's view
   equals the spectator's (nothing was hidden from anyone, so nothing can have been revealed),
   and after it every viewer but the actor still sees exactly what the spectator sees (the actor
   may see what they just entered, such as a secret they chose).

Rule 4 is conservative: a game with private hands is never undoable by it, which is right for
Hacktrick, where nearly every action shows or draws a card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules import CHANCE, Game

#: Keys of a view that say who is looking, not what they see.
VIEWER_KEYS = frozenset({"you"})

Refusal = str | None
Predicate = Callable[[Game[Any], Any, int, str, Any], Refusal]


def undo_refusal(game: Game[Any], before: Any, seat: int, action: str, after: Any) -> Refusal:
    """Why the action ``seat`` took from ``before`` (giving ``after``) may not be taken back,
    or ``None`` when it may."""
    if seat == CHANCE:
        return "the last action was chance (a roll or a shuffle); it cannot be taken back"
    own = getattr(game, "reveals_hidden", None)
    if callable(own):
        if own(before, seat, action):
            return "the last action revealed hidden information"
        return None
    special = PREDICATES.get(game.id)
    if special is not None:
        return special(game, before, seat, action, after)
    return generic_refusal(game, before, seat, after)


def generic_refusal(game: Game[Any], before: Any, seat: int, after: Any) -> Refusal:
    """Rule 4 above: nothing was hidden before, and only the actor sees more after."""
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
    for state in (before, after):
        public = _visible(game.view(state, None))
        seats = range(len(public.get("seats", [])))
        if any(_visible(game.view(state, s)) != public for s in seats):
            return False
    return True


def _visible(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in VIEWER_KEYS}


def _changed(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


#: UNLOCK: what a secret or a guess that completes no turn may change in a viewer's view
#: (``QUIET``), and what it may change in the actor's own view beyond that (``ECHO``).
UNLOCK_QUIET = {
    "secret": frozenset({"secret_set", "phase", "to_act"}),
    "guess": frozenset({"submitted", "to_act"}),
}
UNLOCK_ECHO = {"secret": frozenset({"secret"}), "guess": frozenset({"my_guess"})}


def _unlock_refusal(game: Game[Any], before: Any, seat: int, action: str, after: Any) -> Refusal:
    """UNLOCK: the secret is undoable before any guess, and a guess while it completes no turn:
    every other guesser and the spectator see only that the actor has acted, and the actor sees
    only what they entered. (The Lock sees every guess anyway and does not score.)"""
    kind = action.strip().split(" ", 1)[0]
    if kind not in UNLOCK_QUIET:
        return generic_refusal(game, before, seat, after)
    public = game.view(before, None)
    lock = public.get("lock")
    viewers: Iterable[int | None] = [
        None, *(s for s in range(len(public.get("seats", []))) if s not in (seat, lock))]
    quiet = UNLOCK_QUIET[kind]
    for viewer in viewers:
        if not _changed(game.view(before, viewer), game.view(after, viewer)) <= quiet:
            return "the guess completed the turn: the codes and their scores were revealed"
    if not _changed(game.view(before, seat), game.view(after, seat)) <= quiet | UNLOCK_ECHO[kind]:
        return "the guess completed the turn: the codes and their scores were revealed"
    return None


PREDICATES: dict[str, Predicate] = {"unlock": _unlock_refusal}
