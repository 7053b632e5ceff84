"""The rules base: options, the registry, and the conformance suite itself (on a toy game)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import pytest

from rules import (
    CHANCE,
    GAME_IDS,
    Game,
    IllegalAction,
    Option,
    OptionError,
    OptionValue,
    UnknownGame,
    get_game,
    resolve_options,
)
from tests.rules.conformance import check_conformance

OPTIONS = (
    Option("turn_limit", "int", 10, "Turns before everyone loses.", allow_none=True, minimum=1),
    Option("difficulty", "choice", "medium", "Level.", choices=("easy", "medium", "hard")),
    Option("size", "int", 3, "Grid size.", choices=(3, 4)),
    Option("auto_connect", "bool", True, "Join dots a stroke passes over."),
    Option("lock", "seat", 0, "The Lock's seat."),
    Option("first_player", "seat", 0, "Who starts.", allow_random=True),
    Option("handicap", "bool", False, "Handicap roll.",
           default_from=lambda chosen, n: bool(chosen.get("auto_connect"))),
)


def test_defaults_fill_every_option() -> None:
    assert resolve_options(OPTIONS, None) == {
        "turn_limit": 10, "difficulty": "medium", "size": 3, "auto_connect": True,
        "lock": 0, "first_player": 0, "handicap": True,
    }


def test_options_accept_form_text() -> None:
    chosen = resolve_options(
        OPTIONS,
        {"turn_limit": "none", "size": "4", "auto_connect": "off", "first_player": "random"},
    )
    assert chosen["turn_limit"] is None
    assert chosen["size"] == 4
    assert chosen["auto_connect"] is False
    assert chosen["first_player"] == "random"


def test_default_may_depend_on_other_options() -> None:
    assert resolve_options(OPTIONS, {"auto_connect": False})["handicap"] is False
    assert resolve_options(OPTIONS, {"auto_connect": False, "handicap": True})["handicap"] is True


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ({"colour": "red"}, "colour"),
        ({"difficulty": "nightmare"}, "difficulty"),
        ({"size": 5}, "size"),
        ({"turn_limit": 0}, "turn_limit"),
        ({"turn_limit": "ten"}, "turn_limit"),
        ({"auto_connect": "maybe"}, "auto_connect"),
        ({"lock": 2}, "lock"),
        ({"size": True}, "size"),
    ],
)
def test_bad_option_is_refused_by_name(given: dict[str, object], named: str) -> None:
    with pytest.raises(OptionError) as refusal:
        resolve_options(OPTIONS, given, n_players=2)
    assert refusal.value.option == named
    assert named in str(refusal.value)


def test_option_descriptions_are_json() -> None:
    json.dumps([o.describe() for o in OPTIONS])


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="unlock"):
        get_game("chess")


def test_registry_lists_the_four_games() -> None:
    assert GAME_IDS == ("unlock", "hacktrick", "ico", "dice216")


def test_errors_are_value_errors() -> None:
    assert issubclass(IllegalAction, ValueError)
    assert issubclass(OptionError, ValueError)


# --- the conformance suite must be able to fail: a toy game, correct and then broken ---------


@dataclass(frozen=True)
class Pile:
    stones: int
    mover: int
    rolled: bool
    secret: int


class NimEnd(StrEnum):
    LAST_STONE = "last_stone"


class Nim(Game[Pile]):
    """Take 1 or 2 stones; chance first rolls a secret number only seat 0 may see."""

    id = "nim"
    name = "Nim"
    min_players = 2
    max_players = 2
    reasons = NimEnd

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> Pile:
        return Pile(stones=7, mover=0, rolled=False, secret=0)

    def to_act(self, state: Pile) -> list[int]:
        if state.stones == 0:
            return []
        return [CHANCE] if not state.rolled else [state.mover]

    def legal_actions(self, state: Pile, seat: int) -> Iterable[str]:
        if seat not in self.to_act(state):
            return []
        if seat == CHANCE:
            return [f"roll {n}" for n in range(1, 7)]
        return [f"take {n}" for n in (1, 2) if n <= state.stones]

    def apply(self, state: Pile, seat: int, action: str) -> Pile:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{action!r} is not allowed for seat {seat} now")
        if seat == CHANCE:
            return replace(state, rolled=True, secret=int(action.split()[1]) * 111)
        taken = int(action.split()[1])
        return replace(state, stones=state.stones - taken, mover=1 - state.mover)

    def view(self, state: Pile, seat: int | None) -> dict[str, Any]:
        return {"game": "nim", "seats": ["a", "b"], "to_act": self.to_act(state),
                "phase": "play", "turn": 7 - state.stones, "you": seat, "options": {},
                "outcome": self.outcome(state), "stones": state.stones,
                "secret": state.secret if seat == 0 else None}

    def outcome(self, state: Pile) -> dict[str, Any] | None:
        if state.stones:
            return None
        return {"winners": [1 - state.mover], "scores": [0, 0], "reason": NimEnd.LAST_STONE}

    def dump(self, state: Pile) -> dict[str, Any]:
        return {"stones": state.stones, "mover": state.mover, "rolled": state.rolled,
                "secret": state.secret}

    def load(self, data: Mapping[str, Any]) -> Pile:
        return Pile(**data)


def nim_leaks(state: Pile, viewer: int | None, view: dict[str, Any]) -> None:
    if viewer != 0 and state.secret:
        assert view["secret"] is None, "the secret reached a viewer other than seat 0"


def test_conformance_passes_a_correct_game() -> None:
    assert check_conformance(Nim(), ["a", "b"], seeds=range(5), leak_check=nim_leaks) > 0


class LeakyNim(Nim):
    def view(self, state: Pile, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "secret": state.secret}


class LenientNim(Nim):
    def apply(self, state: Pile, seat: int, action: str) -> Pile:
        if action == "take 9":
            return replace(state, stones=0)
        return super().apply(state, seat, action)


class MutatingLoadNim(Nim):
    def load(self, data: Mapping[str, Any]) -> Pile:
        return replace(super().load(data), mover=0)


@pytest.mark.parametrize(
    ("broken", "hooks"),
    [
        (LeakyNim(), {"leak_check": nim_leaks}),
        (LenientNim(), {"illegal_examples": lambda state, seat: ["take 9"]}),
        (MutatingLoadNim(), {}),
    ],
    ids=["leaky view", "illegal action accepted", "dump/load loses data"],
)
def test_conformance_fails_a_broken_game(broken: Nim, hooks: dict[str, Any]) -> None:
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        check_conformance(broken, ["a", "b"], seeds=range(5), **hooks)
