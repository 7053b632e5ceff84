"""UNLOCK's bots: a bot seated as the Lock draws its secret uniformly among the level's codes;
an easy guesser only plays codes the public clue board still allows."""

from __future__ import annotations

import random

from rules import get_game
from rules.unlock import Clue, Code, consistent_codes
from rules.unlock.bots import BOTS, is_lock

GAME = get_game("unlock")


def test_the_lock_draws_every_easy_code_about_equally_often() -> None:
    state = GAME.start(["Box", "Aiko"], {"difficulty": "easy"}, seed=1)
    view, legal = GAME.view(state, 0), list(GAME.legal_actions(state, 0))
    assert is_lock(view) and len(legal) == 3560
    rng = random.Random(2024)
    draws = 20 * len(legal)
    counts: dict[str, int] = dict.fromkeys(legal, 0)
    for _ in range(draws):
        counts[BOTS["easy"].choose(view, legal, rng)] += 1
    expected = draws / len(legal)
    chi_square = sum((n - expected) ** 2 / expected for n in counts.values())
    # 3559 degrees of freedom: mean 3559, standard deviation ≈ 84; a lean toward short or
    # long codes (a random walk's bias) lands far beyond five deviations
    assert abs(chi_square - 3559) < 5 * 84, chi_square
    assert min(counts.values()) > 0


def test_a_random_walk_secret_would_fail_that_test() -> None:
    # the test above can fail: codes drawn by the playouts' random walk are far from uniform
    from rules.unlock import random_code

    rng = random.Random(7)
    state = GAME.start(["Box", "Aiko"], {"difficulty": "easy"}, seed=1)
    legal = [a.partition(" ")[2] for a in GAME.legal_actions(state, 0)]
    counts = dict.fromkeys(legal, 0)
    draws = 20 * len(legal)
    for _ in range(draws):
        counts[str(random_code(rng, "easy"))] += 1
    expected = draws / len(legal)
    assert sum((n - expected) ** 2 / expected for n in counts.values()) > 3559 + 5 * 84


def test_an_easy_guesser_only_guesses_codes_the_board_allows() -> None:
    rng = random.Random(5)
    for seed in range(6):
        state = GAME.start(["Lock", "Aiko", "Ben"], {"difficulty": "medium"}, seed=seed)
        state = GAME.apply(state, 0, BOTS["random"].choose(
            GAME.view(state, 0), list(GAME.legal_actions(state, 0)), rng))
        while GAME.outcome(state) is None:
            for seat in GAME.to_act(state):
                view = GAME.view(state, seat)
                action = BOTS["easy"].choose(view, list(GAME.legal_actions(state, seat)), rng)
                board = [Clue(Code.parse(c["code"]), c["matches"])
                         for c in view["clue_board"] if not c["repeat"]]
                code = Code.parse(action.partition(" ")[2])
                assert list(consistent_codes([code], board)) == [code]
                state = GAME.apply(state, seat, action)
