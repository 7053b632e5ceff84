"""The Easy strategy tree of the hint engine's book (issue 19 asks for ≤ 5.95 guesses on average
and never more than 7; this tree averages 5.912 and needs 7 at most: docs/bots.md).
Used by ``scripts/unlock_books.py``; needs numpy and numba (the ``books`` extra). About 26
minutes on a two-core machine (the repair's rollouts use both).

Why a search: the one-step choice (the guess leaving least to tell apart) averages ~5.98
guesses and needs 8 for ~50 secrets — mostly codes of three lines or fewer, which any guess
splits into at most four or five classes, so sets of them left for the last guesses cannot be
told apart in time. The search:

1. **A rollout policy** that plays one step ahead — the guess with the least weighted
   ``Σ w(s)·ln(class size)`` left, a code of few lines weighing more (it answers any guess with
   one of few counts, so it is the slow one to tell apart: ``line_weights``) — except near the
   limit: with two guesses left it plays a guess that separates every code still possible, if
   there is one (a candidate first); with three left, the first guess in score order after
   which every class can be separated that way.
2. **Policy improvement** (one step of lookahead over rollouts): at every board of the tree, the
   ``k`` best-scored guesses (and the two best candidates) are each played out with the rollout
   policy to the end, for every secret still possible; the guess whose rollouts need fewest
   guesses in all — after fewest secrets beyond 7 — is kept. Where every one of them still
   leaves a secret beyond 7 and the board is small enough, the ``widen`` best-scored guesses
   are tried too.
3. **A repair at depth 2** (``repair_at``): the improved tree below the chosen guess is built
   and walked; where it still leaves a secret beyond 7, the ``repair_ranked`` best-scored guesses
   are ranked by their rollouts and the improved tree is built below each in that order until
   one leaves none (``repaired``). Rollouts misjudge those boards; the built subtree does not.
4. **The first guess** is fixed: ``7-4-1-2-3-6-5-8-9``, the best of ~190 first guesses played
   out with the rollout policy (fewest secrets beyond 7, then fewest guesses).

The tree is then walked secret by secret (:func:`walk`) and its figures written into the book.
"""

from __future__ import annotations

import time
from typing import Any

import numba as nb
import numpy as np

from rules.unlock.books import set_key
from rules.unlock.enumeration import code_table

HIT = 15  # the class of the guess itself
MOST = 7  # guesses allowed for any secret
FIRST = "7-4-1-2-3-6-5-8-9"
WEIGHT = 100_000  # a secret beyond MOST costs this many guesses in the comparisons


def feedback_table(masks: Any) -> Any:
    """``table[g, s]``: how many lines code ``g`` shares with code ``s``; ``HIT`` when equal."""
    bits = np.array([[(int(m) >> line) & 1 for line in range(64)] for m in masks], np.uint8)
    shared = bits.astype(np.int32) @ bits.T.astype(np.int32)
    table = shared.astype(np.uint8)
    np.fill_diagonal(table, HIT)
    return table


@nb.njit
def scores(table: Any, survivors: Any, weights: Any) -> Any:
    """Every guess's score over ``survivors``: Σ w(s)·ln(size of the class s falls in) over the
    secrets ``s`` still possible (a hit −0.001). With every weight 1 this is the engine's
    Σ c·ln c; the tree weighs a code of few lines more (``line_weights``)."""
    out = np.empty(table.shape[0])
    counts = np.zeros(16, np.int64)
    weighed = np.zeros(16)
    for guess in range(table.shape[0]):
        counts[:] = 0
        weighed[:] = 0.0
        row = table[guess]
        for i in range(survivors.shape[0]):
            v = row[survivors[i]]
            counts[v] += 1
            weighed[v] += weights[survivors[i]]
        score = 0.0
        for v in range(HIT):
            if counts[v] > 1:
                score += weighed[v] * np.log(counts[v])
        out[guess] = score - 1e-3 * counts[HIT]
    return out


def line_weights(masks: Any) -> Any:
    """ln 9 / ln(lines + 1) for each code: a code of ``L`` lines answers any guess with one of
    ``L + 1`` counts, so telling it apart from its class takes about ln(size)/ln(L + 1)
    guesses — a line code (1) weighs 3.2, a full one (8) 1."""
    lines = np.array([bin(int(m)).count("1") for m in masks], np.float64)
    return np.log(9.0) / np.log(lines + 1.0)


@nb.njit
def best(table: Any, survivors: Any, weights: Any) -> np.int64:
    """The best-scored guess (ties to the earlier code)."""
    all_scores = scores(table, survivors, weights)
    chosen = 0
    for guess in range(all_scores.shape[0]):
        if all_scores[guess] < all_scores[chosen]:
            chosen = guess
    return chosen


@nb.njit
def split(table: Any, survivors: Any, guess: np.int64) -> Any:
    """``survivors`` ordered by class (each class in its original order), the classes' starts
    and sizes."""
    counts = np.zeros(16, np.int64)
    row = table[guess]
    for i in range(survivors.shape[0]):
        counts[row[survivors[i]]] += 1
    starts = np.zeros(17, np.int64)
    for v in range(16):
        starts[v + 1] = starts[v] + counts[v]
    out = np.empty(survivors.shape[0], np.int32)
    at = starts[:16].copy()
    for i in range(survivors.shape[0]):
        v = row[survivors[i]]
        out[at[v]] = survivors[i]
        at[v] += 1
    return out, starts, counts


@nb.njit
def separates(table: Any, survivors: Any, guess: np.int64) -> bool:
    """Whether ``guess`` leaves every class with one code at most."""
    counts = np.zeros(16, np.int64)
    row = table[guess]
    for i in range(survivors.shape[0]):
        v = row[survivors[i]]
        counts[v] += 1
        if v != HIT and counts[v] > 1:
            return False
    return True


@nb.njit
def separating(table: Any, survivors: Any) -> np.int64:
    """A guess after which each code is found with the next guess at most (a candidate
    first), or -1."""
    n = survivors.shape[0]
    if n == 1:
        return survivors[0]
    if n > 10:  # at most nine match counts and a hit
        return -1
    for i in range(n):
        if separates(table, survivors, survivors[i]):
            return survivors[i]
    for guess in range(table.shape[0]):
        if separates(table, survivors, guess):
            return guess
    return -1


@nb.njit
def policy(table: Any, survivors: Any, made: int, weights: Any) -> np.int64:
    """The rollout policy's guess after ``made`` guesses (see the module docstring)."""
    n = survivors.shape[0]
    if n <= 2:
        return survivors[0]
    left = MOST - made
    if left == 2:
        guess = separating(table, survivors)
        if guess >= 0:
            return guess
    if left == 3:
        order = np.argsort(scores(table, survivors, weights))
        for k in range(min(300, order.shape[0])):
            guess = order[k]
            out, starts, counts = split(table, survivors, guess)
            fine = True
            for v in range(HIT):
                if counts[v] > 2 and separating(table, out[starts[v]:starts[v + 1]]) < 0:
                    fine = False
                    break
            if fine:
                return guess
        return order[0]
    return best(table, survivors, weights)


@nb.njit
def rollout(table: Any, survivors: Any, made: int, weights: Any) -> Any:
    """(guesses, secrets beyond ``MOST``) over ``survivors`` with the rollout policy."""
    n = survivors.shape[0]
    if n == 1:
        return made + 1, 1 if made + 1 > MOST else 0
    if n == 2:
        return 2 * made + 3, (1 if made + 1 > MOST else 0) + (1 if made + 2 > MOST else 0)
    return play(table, survivors, policy(table, survivors, made, weights), made, weights)


@nb.njit
def play(table: Any, survivors: Any, guess: np.int64, made: int, weights: Any) -> Any:
    """(guesses, secrets beyond ``MOST``) when ``guess`` is played now, rollouts after."""
    out, starts, counts = split(table, survivors, guess)
    total, beyond = 0, 0
    if counts[HIT] > 0:
        total += made + 1
        beyond += 1 if made + 1 > MOST else 0
    for v in range(HIT):
        if counts[v] > 0:
            more, late = rollout(table, out[starts[v]:starts[v + 1]], made + 1, weights)
            total += more
            beyond += late
    return total, beyond


@nb.njit(parallel=True)
def play_each(table: Any, survivors: Any, guesses: Any, made: int, weights: Any) -> Any:
    """:func:`play` for each of ``guesses``: rows of (guesses in all, secrets beyond)."""
    out = np.empty((guesses.shape[0], 2), np.int64)
    for i in nb.prange(guesses.shape[0]):
        total, beyond = play(table, survivors, guesses[i], made, weights)
        out[i, 0] = total
        out[i, 1] = beyond
    return out


def figures(table: Any, tree: dict[bytes, int], survivors: Any, made: int) -> tuple[int, int]:
    """(guesses in all, secrets beyond ``MOST``) when ``tree`` is followed from ``survivors``
    after ``made`` guesses."""
    needed = walk(table, tree, survivors, made).values()
    return sum(needed), sum(1 for n in needed if n > MOST)


class Search:
    """Policy improvement over the rollouts, building the tree board by board."""

    def __init__(self, table: Any, weights: Any, first: int, k: int = 6,
                 widen_below: int = 300, widen: int = 200, repair_at: int | None = 2,
                 repair_ranked: int = 600, repair_tries: int = 24) -> None:
        self.table, self.weights, self.first = table, weights, first
        self.k, self.widen_below, self.widen = k, widen_below, widen
        self.repair_at, self.repair_ranked = repair_at, repair_ranked
        self.repair_tries = repair_tries
        self.tree: dict[bytes, int] = {}

    def candidates(self, survivors: Any, count: int) -> list[int]:
        all_scores = scores(self.table, survivors, self.weights)
        order = [int(g) for g in np.argsort(all_scores, kind="stable")[:count]]
        own = survivors[np.argsort(all_scores[survivors], kind="stable")[:2]]
        return order + [int(g) for g in own if int(g) not in order]

    def choose(self, survivors: Any, made: int) -> int:
        if made == 0:
            return self.first
        best: tuple[int, int] | None = None
        beyond = 0
        for guess in self.candidates(survivors, self.k):
            total, late = play(self.table, survivors, guess, made, self.weights)
            if best is None or total + WEIGHT * late < best[0]:
                best, beyond = (total + WEIGHT * late, guess), late
        if beyond and len(survivors) <= self.widen_below:
            for guess in self.candidates(survivors, self.widen):
                total, late = play(self.table, survivors, guess, made, self.weights)
                if best is None or total + WEIGHT * late < best[0]:
                    best = (total + WEIGHT * late, guess)
        assert best is not None
        return best[1]

    def build(self, survivors: Any, made: int = 0) -> None:
        """Choose a guess for ``survivors`` and every board below it."""
        if len(survivors) <= 2:
            return  # the engine plays the first candidate, as the rollouts assume
        guess = self.choose(survivors, made)
        if made == self.repair_at:
            self.tree.update(self.repaired(survivors, guess, made))
        else:
            self.place(survivors, guess, made)

    def place(self, survivors: Any, guess: int, made: int) -> None:
        """Play ``guess`` at ``survivors`` and build every board below it."""
        self.tree[survivors.tobytes()] = guess
        out, starts, counts = split(self.table, survivors, guess)
        for v in range(HIT):
            if counts[v] > 0:
                self.build(out[starts[v]:starts[v + 1]], made + 1)

    def below(self, survivors: Any, guess: int, made: int) -> dict[bytes, int]:
        """The improved tree from ``survivors`` when ``guess`` is played there."""
        trial = Search(self.table, self.weights, self.first, self.k, self.widen_below,
                       self.widen, repair_at=None)
        trial.place(survivors, guess, made)
        return trial.tree

    def repaired(self, survivors: Any, guess: int, made: int) -> dict[bytes, int]:
        """The tree below ``guess``, or — when it leaves a secret beyond ``MOST`` — below the
        first of the ``repair_ranked`` best-scored guesses, ranked by their rollouts, whose
        improved tree leaves none (the fewest beyond, then the fewest guesses, if none does)."""
        tree = self.below(survivors, guess, made)
        total, beyond = figures(self.table, tree, survivors, made)
        if not beyond:
            return tree
        best = (beyond, total, tree)
        ranked = np.argsort(scores(self.table, survivors, self.weights), kind="stable")
        ranked = ranked[:self.repair_ranked]
        rolled = play_each(self.table, survivors, ranked, made, self.weights)
        order = sorted(range(len(ranked)), key=lambda i: (rolled[i, 1], rolled[i, 0], i))
        tries = [int(ranked[i]) for i in order if int(ranked[i]) != guess]
        for other in tries[:self.repair_tries]:
            tree = self.below(survivors, other, made)
            total, beyond = figures(self.table, tree, survivors, made)
            if (beyond, total) < best[:2]:
                best = (beyond, total, tree)
            if not beyond:
                break
        return best[2]


def walk(table: Any, tree: dict[bytes, int], survivors: Any = None,
         made: int = 0) -> dict[int, int]:
    """Guesses each secret needs when the tree is followed (the found code included), from the
    start or from ``survivors`` after ``made`` guesses."""
    if survivors is None:
        survivors = np.arange(table.shape[0], dtype=np.int32)
    needed: dict[int, int] = {}
    boards = [(survivors, made)]
    while boards:
        survivors, made = boards.pop()
        guess = tree.get(survivors.tobytes(), int(survivors[0]))
        out, starts, counts = split(table, survivors, guess)
        if counts[HIT]:
            needed[int(guess)] = made + 1
        for v in range(HIT):
            if counts[v] > 0:
                boards.append((out[starts[v]:starts[v + 1]], made + 1))
    return needed


def easy_tree() -> tuple[dict[str, int], dict[str, Any]]:
    """The Easy book's entries and a note of its figures."""
    codes = code_table("easy")
    table = feedback_table(codes.masks)
    first = next(i for i in range(len(codes)) if codes.text(i) == FIRST)
    started = time.monotonic()
    search = Search(table, line_weights(codes.masks), first)
    search.build(np.arange(len(codes), dtype=np.int32))
    needed = walk(table, search.tree)
    guesses = list(needed.values())
    note = {"strategy": f"lookahead over rollouts from {FIRST} (scripts/unlock_easy_tree.py)",
            "average": round(sum(guesses) / len(guesses), 4), "most": max(guesses),
            "secrets": len(guesses)}
    print(f"  easy: {len(search.tree)} boards, average {note['average']}, most {note['most']}, "
          f"{time.monotonic() - started:.0f} s", flush=True)
    entries = {set_key(np.frombuffer(key, dtype=np.int32).tolist()): guess
               for key, guess in search.tree.items()}
    return entries, note
