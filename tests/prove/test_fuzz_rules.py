"""Bad actions against every game's rules: random text and near misses of legal actions, from
any seat, at random points of random games.

Every refusal is an ``IllegalAction`` with a message, and leaves the state as it was; an accepted
action came from a seat that may act, and (where the legal list is small enough to try) does
exactly what one of the legal actions does.
"""

from __future__ import annotations

import random
import re
from itertools import islice
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import CHANCE, IllegalAction, get_game

#: game id → players and options of the games fuzzed (UNLOCK on Hard: the largest grammar).
TABLES: dict[str, tuple[list[str], dict[str, object] | None]] = {
    "unlock": (["Lock", "Aiko", "Ben"], {"difficulty": "hard"}),
    "hacktrick": (["Aiko", "Ben"], None),
    "ico": (["Aiko", "Ben", "Chie"], None),
    "dice216": (["Aiko", "Ben"], None),
}
VERBS = ("secret", "guess", "lead", "ask", "play", "draw", "place", "roll", "claim", "declare")
ODD_NUMBERS = ("0", "-1", "10", "16", "17", "99", "2147483648", "1e3", "٣", "+2", "0x3", "1.5")
CHARS = "0123456789- xX=+,;:\t\n×_/" + "abcdefghijklmnopqrstuvwxyz"
EXACT_CHECK_LIMIT = 60


def position(game_id: str, seed: int, steps: int) -> Any:
    """The state after ``steps`` random legal actions (fewer if the game ends first)."""
    rules = get_game(game_id)
    players, options = TABLES[game_id]
    rng = random.Random(seed)
    state = rules.start(players, options, seed=seed)
    for _ in range(steps):
        seats = rules.to_act(state)
        if not seats:
            break
        seat = rng.choice(seats)
        legal = list(islice(iter(rules.legal_actions(state, seat)), 300))
        state = rules.apply(state, seat, rng.choice(legal))
    return state


@st.composite
def near_miss(draw: st.DrawFn, legal: list[str]) -> str:
    """A legal action, bent: a character changed, dropped or doubled, a number made odd, the
    verb swapped, the case or spacing changed, or junk appended."""
    if not legal:
        return draw(st.sampled_from(VERBS))
    text = draw(st.sampled_from(legal))
    kind = draw(st.sampled_from(("replace", "drop", "double", "number", "verb", "case",
                                 "space", "append", "truncate")))
    if not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    if kind == "replace":
        return text[:at] + draw(st.sampled_from(CHARS)) + text[at + 1:]
    if kind == "drop":
        return text[:at] + text[at + 1:]
    if kind == "double":
        return text[:at] + text[at] + text[at:]
    if kind == "number":
        numbers = list(re.finditer(r"\d+", text))
        if not numbers:
            return text + " " + draw(st.sampled_from(ODD_NUMBERS))
        match = draw(st.sampled_from(numbers))
        return text[:match.start()] + draw(st.sampled_from(ODD_NUMBERS)) + text[match.end():]
    if kind == "verb":
        rest = text.partition(" ")[2]
        return draw(st.sampled_from(VERBS)) + (" " + rest if rest else "")
    if kind == "case":
        return text.upper()
    if kind == "space":
        return text.replace(" ", draw(st.sampled_from(("  ", "\t", "", " \n "))))
    if kind == "append":
        return text + draw(st.sampled_from((" x2", " declare=play", " 3", "-5", " extra", "\x00")))
    return text[:at]


@st.composite
def attempt(draw: st.DrawFn, game_id: str) -> tuple[Any, int, str]:
    state = position(game_id, draw(st.integers(0, 2**16)), draw(st.integers(0, 80)))
    rules = get_game(game_id)
    players = len(TABLES[game_id][0])
    seat = draw(st.sampled_from([*rules.to_act(state), CHANCE, -2, 0, 1, players - 1, players,
                                 99]))
    acting = rules.to_act(state)
    legal = list(islice(iter(rules.legal_actions(state, acting[0])), 500)) if acting else []
    action = draw(st.one_of(near_miss(legal), st.text(max_size=30),
                            st.builds(lambda v, t: f"{v} {t}", st.sampled_from(VERBS),
                                      st.text(alphabet=CHARS, max_size=12))))
    return state, seat, action


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_bad_actions_are_refused_cleanly_and_change_nothing(game_id: str) -> None:
    rules = get_game(game_id)

    @settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
    @given(attempt(game_id))
    def check(case: tuple[Any, int, str]) -> None:
        state, seat, action = case
        before = rules.dump(state)
        try:
            after = rules.apply(state, seat, action)
        except IllegalAction as refusal:
            assert str(refusal).strip(), "a refusal must say which rule refused it"
            assert rules.dump(state) == before, "a refused action changed the state"
            return
        assert rules.dump(state) == before, "apply changed the old state"
        assert seat in rules.to_act(state), f"seat {seat} acted out of turn with {action!r}"
        legal = list(islice(iter(rules.legal_actions(state, seat)), EXACT_CHECK_LIMIT + 1))
        if len(legal) <= EXACT_CHECK_LIMIT:
            results = [rules.dump(rules.apply(state, seat, a)) for a in legal]
            assert rules.dump(after) in results, f"{action!r} did what no legal action does"

    check()
