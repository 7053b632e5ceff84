"""UNLOCK on the box: the registration of its pad, undo rule, public extras and tournaments.

- Undo: the secret may be taken back before any guess, and a guess while it completes no turn
  (every other guesser and the spectator see only that the actor has acted, and the actor sees
  only what they entered; the Lock sees every guess anyway and does not score).
- Public extras: ``codes_remaining``, how many codes of the level fit the public clue board.
- Abandoned games reveal the secret (``rules.unlock.Unlock.abandon``).
- Tournaments: one game per player, each the Lock once (``rules.unlock.tournament``).
- Hints: the codes still possible and a suggested guess (``rules.unlock.hints``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from firmware_host.games import BoxGame
from firmware_host.games.unlock.pad import UnlockPad
from firmware_host.games.unlock.screens import scored_seats
from firmware_host.games.unlock.words import REFUSALS, WORDS
from firmware_host.undo import changed_keys, generic_refusal
from rules import Game
from rules.unlock import GAME, codes_remaining
from rules.unlock.analysis import analyse_actions
from rules.unlock.bots import BOTS
from rules.unlock.hints import hint
from rules.unlock.tournament import Tournament

#: What a secret or a guess that completes no turn may change in a viewer's view (``QUIET``),
#: and what it may change in the actor's own view beyond that (``ECHO``).
QUIET = {
    "secret": frozenset({"secret_set", "phase", "to_act"}),
    "guess": frozenset({"submitted", "to_act"}),
}
ECHO = {"secret": frozenset({"secret"}), "guess": frozenset({"my_guess"})}
REVEALED = "the guess completed the turn: the codes and their scores were revealed"


def undo_refusal(game: Game[Any], before: Any, seat: int, action: str,
                 after: Any) -> str | None:
    """Why an UNLOCK action may not be taken back (see the module docstring), or ``None``."""
    kind = action.strip().split(" ", 1)[0]
    if kind not in QUIET:
        return generic_refusal(game, before, seat, after)
    public = game.view(before, None)
    lock = public.get("lock")
    viewers: Iterable[int | None] = [
        None, *(s for s in range(len(public.get("seats", []))) if s not in (seat, lock))]
    for viewer in viewers:
        if not changed_keys(game.view(before, viewer), game.view(after, viewer)) <= QUIET[kind]:
            return REVEALED
    if not changed_keys(game.view(before, seat), game.view(after, seat)) <= (
            QUIET[kind] | ECHO[kind]):
        return REVEALED
    return None


def public_extras(state: Any) -> dict[str, Any]:
    """``codes_remaining``: the codes of the level that still fit the public clue board."""
    return {"codes_remaining": codes_remaining(state)}


def guessers(options: Mapping[str, Any], seats: int) -> list[int]:
    """The seats that compete: only guessers score (the Lock's seat is ``options["lock"]``)."""
    return [seat for seat in range(seats) if seat != options.get("lock")]


BOX = BoxGame(rules=GAME, pad=UnlockPad(), undo=undo_refusal, extras=public_extras,
              abandoned=GAME.abandon, tournament=Tournament, bots=BOTS, words=WORDS,
              refusals=REFUSALS, scored=scored_seats, competing=guessers, hint=hint,
              analysis=lambda record, progress=None: analyse_actions(
                  record.players, record.options, record.actions,
                  abandoned=record.abandoned).as_dict())
