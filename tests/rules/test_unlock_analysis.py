"""UNLOCK's post-game analysis (rules/unlock/analysis.py): every count checked against an
enumeration of the 3×3 levels written here from the rules alone (docs/rules/unlock.md), with
its own geometry, its own lines and its own feedback; the turn the secret became certain and
the turn it was found; turn limits, repeats, the 4×4 card, and the same result every time."""

from __future__ import annotations

import doctest
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from rules.unlock import GAME, UnlockState, all_codes, random_code
from rules.unlock import analysis as analysis_module
from rules.unlock.analysis import UnlockAnalysis, analyse, analyse_actions
from rules.unlock.hints import hint

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Lock", "Aiko", "Ben", "Chie", "Dai", "Emi"]
LEVELS = [(level, auto) for level in ("easy", "medium", "hard") for auto in (True, False)]

# --- an independent 3×3 card: dots, lines, the levels' codes, feedback --------------------------

DOTS = range(1, 10)
#: Row and column of each dot, numbered like a phone keypad.
POSITION = {dot: divmod(dot - 1, 3) for dot in DOTS}
#: Every line (a pair of dots, smaller first), numbered here in our own order: bit of a line.
PAIRS = [(a, b) for a in DOTS for b in DOTS if a < b]
BIT = {pair: 1 << n for n, pair in enumerate(sorted(PAIRS, key=lambda p: (p[1], p[0])))}


def turn_sign(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 0) - (value < 0)


@cache
def passed_over(a: int, b: int) -> frozenset[int]:
    """The dots strictly inside the segment a–b (on it, between its ends)."""
    (ra, ca), (rb, cb) = POSITION[a], POSITION[b]
    inside = set()
    for dot in DOTS:
        r, c = POSITION[dot]
        on_line = turn_sign((ra, ca), (rb, cb), (r, c)) == 0
        between = min(ra, rb) <= r <= max(ra, rb) and min(ca, cb) <= c <= max(ca, cb)
        if on_line and between and dot not in (a, b):
            inside.add(dot)
    return frozenset(inside)


@cache
def cross(one: tuple[int, int], two: tuple[int, int]) -> bool:
    """Two lines cross: they meet in one point inside both (touching at a dot is not)."""
    if set(one) & set(two):
        return False
    p, q = POSITION[one[0]], POSITION[one[1]]
    r, s = POSITION[two[0]], POSITION[two[1]]
    return (turn_sign(p, q, r) * turn_sign(p, q, s) < 0
            and turn_sign(r, s, p) * turn_sign(r, s, q) < 0)


def touching(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = POSITION[a], POSITION[b]
    return max(abs(ra - rb), abs(ca - cb)) == 1


def line(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@cache
def level_codes(level: str, auto_connect: bool) -> dict[int, str]:
    """Every code of the level as {our lines mask: one way to draw it}, from the rules alone.

    A path visits each dot once; Easy joins touching dots only; with auto-connection a stroke
    over a free dot joins it, so its lines never pass over a dot; without it a line may pass
    over a free dot, which is then crossed for good (nothing lands on it or passes over it
    again), and no line passes over a dot the path uses. Easy and Medium: no two lines cross,
    no loop. Hard: crossings, and the last stroke may come back to the first dot, closing a
    loop of 3 lines or more.
    """
    hard = level == "hard"

    def may_join(a: int, b: int) -> bool:
        if level == "easy" and not touching(a, b):
            return False
        return not (auto_connect and passed_over(a, b))

    codes: dict[int, str] = {}

    def walk(path: list[int], lines: list[tuple[int, int]], crossed: frozenset[int]) -> None:
        here = path[-1]
        for dot in DOTS:
            if dot in path or dot in crossed or not may_join(here, dot):
                continue
            over = passed_over(here, dot)
            if over & set(path) or over & crossed:
                continue
            new = line(here, dot)
            if not hard and any(cross(new, old) for old in lines):
                continue
            drawn = [*lines, new]
            codes.setdefault(mask_of(drawn), "-".join(map(str, [*path, dot])))
            walk([*path, dot], drawn, crossed | over)
        start = path[0]
        if hard and len(lines) >= 2 and may_join(here, start):
            over = passed_over(here, start)
            if not over & set(path) and not over & crossed:
                drawn = [*lines, line(here, start)]
                codes.setdefault(mask_of(drawn), "-".join(map(str, [*path, start])))

    for start in DOTS:
        walk([start], [], frozenset())
    return codes


def mask_of(lines: Sequence[tuple[int, int]]) -> int:
    mask = 0
    for pair in lines:
        mask |= BIT[pair]
    return mask


def ours(text: str) -> int:
    """Our lines mask of a code written as its dots in drawing order (``1-2-5-1``)."""
    dots = [int(part) for part in text.split("-")]
    return mask_of([line(a, b) for a, b in pairwise(dots)])


def matches(secret: int, guess: int) -> int:
    """How many of the guess's lines are lines of the secret."""
    return bin(secret & guess).count("1")


def lines_in(code: int) -> int:
    return bin(code).count("1")


# --- the enumeration agrees with the engine's ------------------------------------------------

#: docs/rules-notes.md, "Codes per level".
DOCUMENTED = {("easy", True): 3560, ("easy", False): 3560, ("medium", True): 9088,
              ("medium", False): 14892, ("hard", True): 76913, ("hard", False): 103102}


@pytest.mark.parametrize(("level", "auto"), LEVELS)
def test_the_independent_enumeration_lists_the_engines_codes(level: str, auto: bool) -> None:
    mine = level_codes(level, auto)
    assert len(mine) == DOCUMENTED[level, auto]
    engine = {ours(str(code)) for code in all_codes(level, 3, auto)}
    assert engine == set(mine)


# --- games, played on the engine, with guesses chosen from our enumeration ---------------------

#: Chooses a guesser's code: (rng, every code of the level, the codes fitting the board, the
#: secret, the codes played) → a code, all as our lines masks.
Chooser = Callable[[random.Random, list[int], list[int], int, set[int]], int]


def fitting(codes: Sequence[int], board: Sequence[tuple[int, int]], played: set[int]) -> list[int]:
    """The codes holding each card's matches of its lines that are not a card played."""
    return [code for code in codes if code not in played
            and all(matches(code, card) == hits for card, hits in board)]


def a_candidate_not_the_secret(rng: random.Random, codes: list[int], fits: list[int],
                               secret: int, played: set[int]) -> int:
    """A code that could be the secret, but not the secret unless nothing else is left."""
    others = [code for code in fits if code != secret]
    return rng.choice(others) if others else secret


def anything_but_the_secret(rng: random.Random, codes: list[int], fits: list[int],
                            secret: int, played: set[int]) -> int:
    """Any code of the level not played yet but the secret."""
    while True:
        code = rng.choice(codes)
        if code != secret and code not in played:
            return code


def play(level: str, auto: bool, guessers: int, seed: int, chooser: Chooser,
         **options: object) -> tuple[list[tuple[int, str]], UnlockState]:
    """A game played on the rules engine to its end: the actions and the final state."""
    rng = random.Random(seed)
    codes = level_codes(level, auto)
    every = sorted(codes)
    secret = rng.choice(every)
    names = NAMES[: guessers + 1]
    opts = {"difficulty": level, "auto_connect": auto, **options}
    state = GAME.start(names, opts)
    actions = [(0, f"secret {codes[secret]}")]
    state = GAME.apply(state, *actions[0])
    board: list[tuple[int, int]] = []
    played: set[int] = set()
    while state.end is None:
        fits = fitting(every, board, played)
        for seat in state.guessers:
            choice = chooser(rng, every, fits, secret, played)
            actions.append((seat, f"guess {codes[choice]}"))
        for seat, action in actions[-guessers:]:
            state = GAME.apply(state, seat, action)
        turn = [ours(action.split()[1]) for _, action in actions[-guessers:]]
        board += [(card, matches(secret, card)) for card in turn if card not in played]
        played |= set(turn)
    return actions, state


# --- every count, against the enumeration ------------------------------------------------------


def check_counts(result: UnlockAnalysis, level: str, auto: bool) -> None:
    """Every figure of ``result`` recomputed from our enumeration and our feedback."""
    codes = sorted(level_codes(level, auto))
    assert result.enumerable and result.codes_in_level == len(codes)
    assert result.secret is not None
    secret = ours(result.secret)
    board: list[tuple[int, int]] = []
    played: set[int] = set()
    for turn in result.turns:
        before = fitting(codes, board, played)
        assert turn.codes_before == len(before)
        for card in turn.cards:
            mine = ours(card.code)
            assert card.matches == matches(secret, mine)
            assert card.misses == lines_in(mine) - card.matches
            assert card.repeat == (mine in played)
            assert card.found == (mine == secret)
            left = 1 if mine == secret else len(
                fitting(before, [(mine, card.matches)], played | {mine}))
            assert (card.codes_left, card.ruled_out) == (left, len(before) - left)
        hinted = ours(turn.hint.code)
        assert hinted in level_codes(level, auto)  # a legal code of the level
        hits = matches(secret, hinted)
        assert (turn.hint.matches, turn.hint.misses) == (hits, lines_in(hinted) - hits)
        left = 1 if hinted == secret else len(fitting(before, [(hinted, hits)], played | {hinted}))
        assert (turn.hint.codes_left, turn.hint.ruled_out) == (left, len(before) - left)
        cards = [ours(card.code) for card in turn.cards]
        board += [(card, matches(secret, card)) for card in cards if card not in played]
        played |= set(cards)
        after = 1 if secret in cards else len(fitting(codes, board, played))
        assert turn.codes_after == after
    afters = [turn.codes_after for turn in result.turns]
    assert result.certain_turn == next((t.turn for t in result.turns if t.codes_after == 1), None)
    assert all(a > 1 for a in afters[: (result.certain_turn or len(afters) + 1) - 1])
    check_summaries(result)


def check_summaries(result: UnlockAnalysis) -> None:
    for summary in result.summaries:
        pairs = [(card.codes_left, turn.hint.codes_left)
                 for turn in result.turns for card in turn.cards if card.seat == summary.seat]
        assert summary.cards == len(pairs)
        assert summary.average_left == sum(p[0] for p in pairs) / len(pairs)
        assert summary.hint_average_left == sum(p[1] for p in pairs) / len(pairs)
        mine, hinted = summary.average_left, summary.hint_average_left
        assert summary.verdict == ("better" if mine < hinted else
                                   "equal" if mine == hinted else "worse")
        assert f"{mine:.1f}" in summary.sentence and f"{hinted:.1f}" in summary.sentence
        assert summary.player in summary.sentence


@pytest.mark.parametrize(("level", "auto"), LEVELS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_count_agrees_with_the_independent_enumeration(level: str, auto: bool,
                                                              seed: int) -> None:
    guessers = 2 + seed
    actions, state = play(level, auto, guessers, seed, a_candidate_not_the_secret)
    result = analyse(state)
    assert result.end == "found" and result.found_turn == state.turn
    assert [t.turn for t in result.turns] == list(range(1, state.turn + 1))
    assert all(len(t.cards) == guessers for t in result.turns)
    check_counts(result, level, auto)
    # what the journal keeps gives the same analysis as the final state
    names = NAMES[: guessers + 1]
    assert analyse_actions(names, dict(state.options), actions) == result


@pytest.mark.parametrize(("level", "auto"), [("easy", True), ("medium", False), ("hard", True)])
def test_the_hint_card_is_the_hint_a_guesser_got_at_the_start_of_the_turn(level: str,
                                                                           auto: bool) -> None:
    actions, state = play(level, auto, 3, 7, a_candidate_not_the_secret)
    result = analyse(state)
    replay = GAME.start(NAMES[:4], dict(state.options))
    replay = GAME.apply(replay, *actions[0])
    for turn, start in zip(result.turns, range(1, len(actions), 3), strict=True):
        for seat in replay.guessers:
            assert hint(GAME.view(replay, None), seat)["suggestion"] == turn.hint.code
        for seat, action in actions[start : start + 3]:
            replay = GAME.apply(replay, seat, action)


# --- when the secret was certain, when it was found -------------------------------------------


def test_the_secret_is_certain_after_one_turn_and_found_in_the_next() -> None:
    # Guessers play codes that fit but are not the secret: the board narrows to the secret,
    # and only then is it drawn.
    _, state = play("medium", True, 3, 11, a_candidate_not_the_secret)
    result = analyse(state)
    assert result.found_turn == state.turn
    assert result.certain_turn == result.found_turn - 1
    assert result.turns[result.certain_turn - 1].codes_after == 1
    assert all(t.codes_after > 1 for t in result.turns[: result.certain_turn - 1])
    last = result.turns[-1]
    assert last.codes_before == 1 and all(card.found for card in last.cards)
    assert all(card.ruled_out == 0 and card.codes_left == 1 for card in last.cards)


def test_a_lucky_find_makes_the_secret_certain_in_the_same_turn() -> None:
    actions = [(0, "secret 1-5-9-6-3"), (1, "guess 4-5-6"), (2, "guess 1-5-9-6-3")]
    result = analyse_actions(NAMES[:3], {"difficulty": "medium"}, actions)
    assert (result.certain_turn, result.found_turn) == (1, 1)
    (turn,) = result.turns
    assert turn.codes_before == 9088 and turn.codes_after == 1
    found = turn.cards[1]
    assert found.found and found.codes_left == 1 and found.ruled_out == 9087
    check_counts(result, "medium", True)


def test_a_secret_never_found_at_the_turn_limit() -> None:
    _, state = play("hard", False, 3, 5, anything_but_the_secret, turn_limit=4)
    result = analyse(state)
    assert result.end == "turn_limit" and result.found_turn is None
    assert len(result.turns) == 4
    assert not any(card.found for turn in result.turns for card in turn.cards)
    check_counts(result, "hard", False)


def test_a_secret_certain_but_never_drawn() -> None:
    def narrow_then_miss(rng: random.Random, codes: list[int], fits: list[int], secret: int,
                         played: set[int]) -> int:
        if fits == [secret]:
            return anything_but_the_secret(rng, codes, fits, secret, played)
        return a_candidate_not_the_secret(rng, codes, fits, secret, played)

    _, state = play("easy", True, 3, 3, narrow_then_miss, turn_limit=10)
    result = analyse(state)
    assert result.end == "turn_limit" and result.found_turn is None
    assert result.certain_turn is not None and result.certain_turn < 10
    assert all(t.codes_after == 1 for t in result.turns[result.certain_turn - 1 :])
    check_counts(result, "easy", True)


def test_no_turn_ever_narrows_to_one_code() -> None:
    # three turns of cards far from the secret: thousands of codes still fit
    actions = [(0, "secret 1-2-3")]
    for guess in ("4-5-6", "7-8-9", "4-8-6"):
        actions.append((1, f"guess {guess}"))
    result = analyse_actions(NAMES[:2], {"difficulty": "medium", "turn_limit": 3}, actions)
    assert (result.certain_turn, result.found_turn, result.end) == (None, None, "turn_limit")
    assert [t.codes_after for t in result.turns] == sorted(
        (t.codes_after for t in result.turns), reverse=True)
    check_counts(result, "medium", True)


# --- repeats ------------------------------------------------------------------------------------


def test_a_repeat_scored_zero_is_listed_but_rules_nothing_out() -> None:
    options = {"difficulty": "hard", "auto_connect": False, "repeats": "score_zero"}
    actions = [(0, "secret 1-5-9-3"), (1, "guess 1-3"), (2, "guess 1-3"),
               (1, "guess 1-3"), (2, "guess 7-5-3"), (1, "guess 7-5-3"), (2, "guess 1-5-9-3")]
    result = analyse_actions(NAMES[:3], options, actions)
    first, second, third = result.turns
    # two guessers drawing the same new code in one turn are both clues
    assert [card.repeat for card in first.cards] == [False, False]
    assert first.cards[0].ruled_out == first.cards[1].ruled_out > 0
    repeat = second.cards[0]
    assert repeat.repeat and repeat.ruled_out == 0 and repeat.codes_left == second.codes_before
    assert third.cards[0].repeat and third.cards[0].ruled_out == 0
    assert result.found_turn == 3
    check_counts(result, "hard", False)


# --- the 4×4 card, unfinished and abandoned games --------------------------------------------


def test_the_4x4_card_is_not_enumerated_and_says_so() -> None:
    rng = random.Random(4)
    secret = random_code(rng, "medium", 4)
    actions = [(0, f"secret {secret}")]
    for _ in range(2):
        guess = random_code(rng, "medium", 4)
        while guess == secret:
            guess = random_code(rng, "medium", 4)
        actions.append((1, f"guess {guess}"))
    actions.append((1, f"guess {secret}"))
    result = analyse_actions(NAMES[:2], {"size": 4, "repeats": "score_zero"}, actions)
    assert not result.enumerable and result.codes_in_level is None
    assert result.turns == () and result.summaries == () and result.certain_turn is None
    assert result.found_turn == 3 and result.secret == str(secret)
    assert result.note is not None and "4×4" in result.note and "too many" in result.note


def test_an_unfinished_game_has_no_analysis_yet() -> None:
    actions = [(0, "secret 1-2-3"), (1, "guess 4-5-6")]
    with pytest.raises(ValueError, match="once it ends"):
        analyse_actions(NAMES[:3], {}, actions)


def test_an_abandoned_game_is_analysed_over_its_revealed_turns_only() -> None:
    actions = [(0, "secret 1-2-3"), (1, "guess 4-5-6"), (2, "guess 7-8-9"), (1, "guess 1-2")]
    result = analyse_actions(NAMES[:3], {"difficulty": "easy"}, actions, abandoned=True)
    assert result.end == "abandoned" and len(result.turns) == 1  # turn 2's card stays hidden
    assert result.found_turn is None
    check_counts(result, "easy", True)
    early = analyse_actions(NAMES[:3], {}, [], abandoned=True)
    assert early.secret is None and early.turns == ()
    assert [s.verdict for s in early.summaries] == [None, None]
    assert early.summaries[0].sentence == "Aiko played no card before the game ended."


# --- the same every time, and plain data ----------------------------------------------------


def test_the_analysis_is_the_same_every_time_and_plain_json() -> None:
    _, state = play("hard", True, 4, 9, a_candidate_not_the_secret)
    once = analyse(state)
    assert analyse(state) == once
    document = once.as_dict()
    assert json.loads(json.dumps(document)) == document
    assert document["turns"][0]["hint"]["code"] == once.turns[0].hint.code
    assert {s["seat"] for s in document["summaries"]} == set(state.guessers)


def test_another_process_with_another_hash_seed_gives_the_same_analysis() -> None:
    actions, state = play("medium", False, 3, 12, a_candidate_not_the_secret)
    here = json.dumps(analyse(state).as_dict(), sort_keys=True)
    script = (
        "import json, sys\n"
        "from rules.unlock.analysis import analyse_actions\n"
        "names, options, actions = json.load(sys.stdin)\n"
        "result = analyse_actions(names, options, [tuple(a) for a in actions])\n"
        "print(json.dumps(result.as_dict(), sort_keys=True))\n"
    )
    given = json.dumps([NAMES[:4], dict(state.options), actions])
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", script], input=given, text=True,
                              capture_output=True, check=True, cwd=ROOT, env=env)
        assert done.stdout.strip() == here


def test_the_docstring_example_holds() -> None:
    result = doctest.testmod(analysis_module)
    assert result.attempted > 0 and result.failed == 0

