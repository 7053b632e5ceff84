"""The conformance suite every game's tests run (docs/design.md, "Tests").

Random playouts from many seeds check, at every step, that
- some seat can act until the outcome, and nobody can after it;
- an action's canonical text (what the journal keeps) applies exactly as the action does;
- every legal action applies (a sample where the list is large), without touching the old state;
- illegal actions (junk text, the wrong seat, game-specific examples) raise ``IllegalAction`` and
  leave the state unchanged;
- ``dump``/``load`` round-trips exactly, through JSON;
- every view is JSON-safe, carries the common keys, and leaks nothing its viewer may not see
  (checked by the game's own ``leak_check``).

A game's test module calls :func:`check_conformance` with its own hooks, e.g.::

    def test_conformance_default_options():
        check_conformance(GAME, ["Aiko", "Ben", "Chie"], seeds=range(30), leak_check=no_leaks)

With ``pick=bot_picker(GAME, bots)`` the same checks run along games played by bots (each seat
deciding from its own view, chance drawn by the suite), which reach positions random play
rarely does: the suite's checks, at states where someone plays to win.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any

import pytest

from rules import CHANCE, Game, IllegalAction
from rules.bots import Bot

COMMON_VIEW_KEYS = ("game", "seats", "to_act", "phase", "turn", "you", "options", "outcome")
JUNK_ACTIONS = ("", " ", "xyzzy", "play", "play -1", "place 99 99", "secret", "guess 0-0",
                "roll 0", "roll 999", "\x00", "lead x", "9" * 50, "place", "claim now")

Picker = Callable[[Any, int, random.Random], str]
LeakCheck = Callable[[Any, int | None, dict[str, Any]], None]
IllegalExamples = Callable[[Any, int], Iterable[str]]


def sample_legal(game: Game[Any], state: Any, seat: int, rng: random.Random, k: int) -> list[str]:
    """Up to ``k`` legal actions of ``seat``, drawn without reading a huge list in full."""
    actions = list(islice(iter(game.legal_actions(state, seat)), 5000))
    rng.shuffle(actions)
    return actions[:k]


def playout(
    game: Game[Any],
    players: list[str],
    options: Mapping[str, object] | None,
    seed: int,
    *,
    pick: Picker | None = None,
    max_steps: int = 3000,
) -> Iterator[tuple[Any, int, str]]:
    """Yield ``(state, seat, action)`` along one random game; the last state is terminal."""
    rng = random.Random(seed)
    state = game.start(players, options, seed=seed)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            yield state, 0, ""
            return
        seats = game.to_act(state)
        assert seats, "the game is not over but no seat may act"
        seat = rng.choice(seats)
        if pick is not None:
            action = pick(state, seat, rng)
        else:
            actions = list(islice(iter(game.legal_actions(state, seat)), 5000))
            assert actions, f"seat {seat} is to act but has no legal action"
            action = rng.choice(actions)
        yield state, seat, action
        state = game.apply(state, seat, action)
    pytest.fail(f"no outcome after {max_steps} steps (seed {seed})")


def bot_picker(game: Game[Any], bots: Sequence[Bot]) -> Picker:
    """A :data:`Picker` that asks ``bots[seat]`` with the seat's view and legal actions, and
    draws chance's actions (die rolls) itself, uniformly."""

    def pick(state: Any, seat: int, rng: random.Random) -> str:
        legal = list(game.legal_actions(state, seat))
        if seat == CHANCE:
            return rng.choice(legal)
        return bots[seat].choose(game.view(state, seat), legal, rng)

    return pick


def assert_value_absent(view: Any, needle: object, where: str) -> None:
    """Fail if ``needle`` occurs anywhere inside the JSON-like ``view``."""
    if view == needle:
        pytest.fail(f"{where}: the view contains the secret {needle!r}")
    if isinstance(view, Mapping):
        for key, value in view.items():
            assert_value_absent(value, needle, f"{where}.{key}")
    elif isinstance(view, list | tuple):
        for index, value in enumerate(view):
            assert_value_absent(value, needle, f"{where}[{index}]")


def check_conformance(
    game: Game[Any],
    players: list[str],
    options: Mapping[str, object] | None = None,
    *,
    seeds: Iterable[int] = range(20),
    pick: Picker | None = None,
    leak_check: LeakCheck | None = None,
    illegal_examples: IllegalExamples | None = None,
    legal_sample: int = 6,
    max_steps: int = 3000,
) -> int:
    """Run the conformance checks over random playouts; returns the number of states checked."""
    checked = 0
    for seed in seeds:
        rng = random.Random(~seed)
        for state, _seat, _action in playout(
            game, players, options, seed, pick=pick, max_steps=max_steps
        ):
            _check_state(game, state, players, rng, leak_check, illegal_examples, legal_sample)
            checked += 1
    return checked


def _check_state(
    game: Game[Any],
    state: Any,
    players: list[str],
    rng: random.Random,
    leak_check: LeakCheck | None,
    illegal_examples: IllegalExamples | None,
    legal_sample: int,
) -> None:
    before = game.dump(state)
    assert game.load(json.loads(json.dumps(before))) == state, "dump/load does not round-trip"

    public = {k: v for k, v in game.view(state, None).items() if k != "you"}
    for viewer in [None, *range(len(players))]:
        view = game.view(state, viewer)
        json.dumps(view)
        for key in COMMON_VIEW_KEYS:
            assert key in view, f"view for {viewer} lacks {key!r}"
        assert view["you"] == viewer
        if game.perfect_information:  # the claim the box relies on to skip comparing views
            assert {k: v for k, v in view.items() if k != "you"} == public, (
                f"{game.id} claims perfect information, but seat {viewer} sees more")
        if leak_check is not None:
            leak_check(state, viewer, view)

    to_act = game.to_act(state)
    outcome = game.outcome(state)
    if outcome is not None:
        assert to_act == [], "nobody may act once the game is over"
        assert set(outcome) >= {"winners", "scores", "reason"}
        # reasons are data, one of the game's declared members (never free text)
        assert outcome["reason"] in set(game.reasons), outcome["reason"]
        json.dumps(outcome)
        for seat in range(len(players)):
            assert list(islice(iter(game.legal_actions(state, seat)), 1)) == []
        return

    acting = [s for s in to_act if s != CHANCE] + ([CHANCE] if CHANCE in to_act else [])
    some_legal: list[str] = []
    for seat in acting:
        legal = sample_legal(game, state, seat, rng, legal_sample)
        assert legal, f"seat {seat} is to act but has no legal action"
        some_legal = some_legal or legal
        for action in legal:
            after = game.apply(state, seat, action)
            assert game.dump(state) == before, f"applying {action!r} changed the old state"
            # the journal keeps the canonical text: it must be accepted and do the same, and be
            # its own canonical text
            text = game.canonical(state, seat, action)
            assert game.dump(game.apply(state, seat, text)) == game.dump(after), (action, text)
            assert game.canonical(state, seat, text) == text
        examples = list(illegal_examples(state, seat)) if illegal_examples else []
        for action in [*JUNK_ACTIONS, *examples]:
            _assert_refused(game, state, seat, action, before)

    idle = [s for s in [CHANCE, *range(len(players))] if s not in to_act]
    for seat in idle:
        assert list(islice(iter(game.legal_actions(state, seat)), 1)) == [], (
            f"seat {seat} is not to act but has legal actions"
        )
        for action in some_legal[:2]:
            _assert_refused(game, state, seat, action, before)


def _assert_refused(game: Game[Any], state: Any, seat: int, action: str, before: Any) -> None:
    try:
        game.apply(state, seat, action)
    except IllegalAction as refusal:
        assert str(refusal), f"the refusal of {action!r} has no message"
    else:
        if action in JUNK_ACTIONS and _is_legal(game, state, seat, action):
            return
        pytest.fail(f"seat {seat} was allowed {action!r}, which should be refused")
    assert game.dump(state) == before, f"refusing {action!r} changed the state"


def _is_legal(game: Game[Any], state: Any, seat: int, action: str) -> bool:
    return action in set(islice(iter(game.legal_actions(state, seat)), 100000))
