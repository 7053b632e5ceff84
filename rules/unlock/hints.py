"""UNLOCK's hint engine: from the public clue board alone, how many codes still fit and a
strong next guess.

A hint uses only what every player sees — the clue board's cards and their matches — so it can
be given to any guesser without leaking anything (the secret is never read). It says how many
codes of the level still fit the board and suggests a guess:

- where the board is one the level's **opening book** knows (``rules/unlock/books/``, built
  offline by ``scripts/unlock_books.py`` with lookahead over whole strategy trees), the book's
  guess. On Easy the book holds a whole strategy: a guesser who follows the hint every turn
  finds a secret in 5.912 guesses on average over all 3 560 and within 7 for every one of them
  (docs/bots.md). On Medium and Hard it holds the first guesses;
- elsewhere (another guesser's cards, a guess of one's own, a later turn on Medium or Hard),
  the guess that leaves least to tell apart on average (:meth:`Splitter.score`), over the codes
  still possible and, on the larger levels, an even sample of the level's codes.

>>> from rules.unlock.clues import Clue
>>> from rules.unlock.codes import Code
>>> hint = suggest([Clue(Code.parse("1-2-3-6-9-8-7-4"), 1)], "easy")
>>> hint.codes_left
696
>>> len(suggest(hint.clues_after(Code.parse("1-5"), 1), "easy").suggestion.path) > 1
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.unlock.books import opening_book
from rules.unlock.clues import Clue, clues_from_view, consistent_indices, line_index
from rules.unlock.codes import Code
from rules.unlock.enumeration import code_table, is_enumerable
from rules.unlock.splits import Splitter

#: At most this many candidates are split exactly; beyond, an even sample of them stands in.
SAMPLE = 1500
#: Guesses tried away from the book besides the candidates: the whole level when it has at most
#: ``WHOLE`` codes (Easy), else an even sample of ``POOL`` of them.
WHOLE = 4000
POOL = 1200
#: Candidates tried as guesses themselves (an even sample when there are more).
OWN = 400


class NoHint(RulesError):
    """Why no hint can be given (not a guesser, not guessing now, a 4×4 card...)."""


@dataclass(frozen=True)
class Hint:
    """What a hint says: the codes still possible and the guess to play."""

    codes_left: int
    suggestion: Code
    #: Where the suggestion comes from: ``book`` (the level's opening book) or ``search``.
    source: str
    clues: tuple[Clue, ...]

    def as_dict(self) -> dict[str, Any]:
        """The JSON document a phone or the pad receives."""
        return {
            "codes_left": self.codes_left,
            "suggestion": str(self.suggestion),
            "dots": list(self.suggestion.path),
            "source": self.source,
        }

    def clues_after(self, guess: Code, matches: int) -> list[Clue]:
        """The board once ``guess`` has scored ``matches`` (to follow a hint in tests)."""
        return [*self.clues, Clue(guess, matches)]


def suggest(clues: Sequence[Clue], difficulty: str, size: int = 3,
            auto_connect: bool = True, alongside: Sequence[Code] = ()) -> Hint:
    """The hint for a board holding ``clues`` (public cards and their matches).

    ``alongside``: codes other guessers will play this same turn (a table of bots that share
    out the work); the suggestion is then the code that, with them, leaves least to tell apart.
    """
    if not is_enumerable(difficulty, size):
        raise NoHint(f"hints need the 3×3 card: the {size}×{size} codes of {difficulty} are too "
                     "many to list")
    table = code_table(difficulty, size, auto_connect)
    survivors = consistent_indices(line_index(difficulty, size, auto_connect), clues)
    if not survivors:
        raise NoHint("no code of the level fits every card on the clue board")
    book = opening_book(difficulty, size, auto_connect) if not alongside else None
    guess = book.guess(survivors) if book is not None else None
    source = "book"
    if guess is None:
        played = {clue.code.lines for clue in clues} | {code.lines for code in alongside}
        guess = best_guess(table.masks, survivors, played, [code.lines for code in alongside])
        source = "search"
    return Hint(len(survivors), table.code(guess), source, tuple(clues))


def best_guess(masks: Sequence[int], survivors: Sequence[int], played: set[int],
               alongside: Sequence[int] = ()) -> int:
    """The index (into ``masks``) of the guess leaving least to tell apart among ``survivors``
    (indices into ``masks``), with the guesses ``alongside`` (masks) played in the same turn: the
    candidates themselves, then the level's codes, in order; ties go to a candidate (it may end
    the game), then to the earlier code. Never one of ``played``."""
    fresh = [index for index in survivors if masks[index] not in played]
    if len(fresh) <= 2 and fresh:
        return fresh[0]
    sample = _even(survivors, SAMPLE)
    splitter = Splitter([masks[i] for i in sample])
    parts = splitter.partition(alongside) if alongside else []
    best_score, best = float("inf"), survivors[0]
    own = _even(survivors, OWN)
    level = range(len(masks)) if len(masks) <= WHOLE else _even(range(len(masks)), POOL)
    for index in (*own, *level):
        mask = masks[index]
        if mask in played:
            continue
        score = splitter.score(mask, parts)
        if score < best_score:
            best_score, best = score, index
    return best


def _even(items: Sequence[int], most: int) -> Sequence[int]:
    """At most ``most`` of ``items``, evenly spread (all of them when there are few)."""
    if len(items) <= most:
        return items
    step = len(items) / most
    return [items[int(k * step)] for k in range(most)]


def hint(view: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The hint for guesser ``seat`` from an UNLOCK ``view`` (a spectator's is enough: only
    the public clue board is read). Raises :class:`NoHint` naming why there is none."""
    if view.get("phase") != "guess":
        raise NoHint("hints are given while the guessers are guessing"
                     if view.get("phase") == "secret" else "the game is over")
    if seat == view.get("lock"):
        raise NoHint("the Lock knows the code: hints are for the guessers")
    if seat in view.get("submitted", ()):
        raise NoHint("you have already entered your code for this turn")
    return suggest(clues_from_view(view), str(view["difficulty"]), int(view["size"]),
                   bool(view["options"]["auto_connect"])).as_dict()
