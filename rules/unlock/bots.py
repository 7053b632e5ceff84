"""UNLOCK's bots: the box as the Lock, and guessers that read only the public clue board.

A bot of any level seated as the Lock draws its secret uniformly among the legal codes of the
level (``legal`` holds exactly those) with the generator it is given — the box passes the
operating system's (:class:`random.SystemRandom`), so the secret is as unguessable as any
player's. As a guesser:

- ``random``: any legal guess;
- ``easy``: a code still consistent with every card on the clue board, at random (a sensible
  player who does not plan ahead);
- ``hard``: the hint engine's suggestion (``rules.unlock.hints``: the opening book, else the guess
  that leaves least to tell apart) — on the 4×4 card, which has no hints, as ``easy``.

>>> import random
>>> from rules import get_game
>>> game = get_game("unlock")
>>> state = game.start(["Box", "Aiko"], {"difficulty": "easy"}, seed=1)
>>> lock = BOTS["easy"].choose(game.view(state, 0), list(game.legal_actions(state, 0)),
...                            random.Random(4))
>>> lock.startswith("secret ")
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.bots import RandomBot, require_legal
from rules.unlock.clues import clues_from_view, consistent_indices, line_index
from rules.unlock.codes import Code
from rules.unlock.enumeration import code_table, is_enumerable
from rules.unlock.hints import suggest


def is_lock(view: Mapping[str, Any]) -> bool:
    """Whether the seat whose view this is is the game's Lock."""
    return view.get("you") is not None and view.get("you") == view.get("lock")


class _UnlockBot:
    """The Lock's uniform secret, then the level's guess."""

    level = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        if is_lock(view):
            return legal[rng.randrange(len(legal))]
        return self.guess(view, legal, rng)

    def guess(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        return RandomBot().choose(view, legal, rng)


class EasyBot(_UnlockBot):
    """Guesses a code consistent with the clue board, at random."""

    level = "easy"

    def guess(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        difficulty, size = str(view["difficulty"]), int(view["size"])
        if not is_enumerable(difficulty, size):
            return legal[rng.randrange(len(legal))]
        auto_connect = bool(view["options"]["auto_connect"])
        survivors = consistent_indices(line_index(difficulty, size, auto_connect),
                                       clues_from_view(view))
        if survivors:  # a played card is never among them, so the guess is legal
            action = "guess " + code_table(difficulty, size, auto_connect).text(
                survivors[rng.randrange(len(survivors))])
            if action in legal:
                return action
        # nothing fits (a board the level cannot produce): any legal guess
        return legal[rng.randrange(len(legal))]


class HardBot(EasyBot):
    """Plays the hint engine's suggestion, from the public clue board alone.

    Several ``hard`` guessers at one table share out the turn: each works out, from the same
    public board, what the ones seated before it will play, and suggests the code that leaves
    least to tell apart together with theirs (two bots playing one suggestion would learn what
    one card teaches).
    """

    level = "hard"

    def guess(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        difficulty, size = str(view["difficulty"]), int(view["size"])
        if not is_enumerable(difficulty, size):
            return super().guess(view, legal, rng)
        clues = clues_from_view(view)
        auto_connect = bool(view["options"]["auto_connect"])
        alongside: list[Code] = []
        for _ in range(hard_seats_before(view)):
            alongside.append(suggest(clues, difficulty, size, auto_connect, alongside).suggestion)
        action = "guess " + str(suggest(clues, difficulty, size, auto_connect,
                                        alongside).suggestion)
        return action if action in legal else super().guess(view, legal, rng)


def hard_seats_before(view: Mapping[str, Any]) -> int:
    """How many guessers seated before this one are ``hard`` bots too (every guesser, when the
    view does not say who the bots are: the rules' own bot games seat only bots)."""
    you, lock = view["you"], view.get("lock")
    levels = view.get("bots")
    return sum(1 for seat in range(you) if seat != lock
               and (levels is None or (seat < len(levels) and levels[seat] == "hard")))


#: UNLOCK's bots by level.
BOTS: Mapping[str, _UnlockBot] = {"random": _UnlockBot(), "easy": EasyBot(), "hard": HardBot()}
