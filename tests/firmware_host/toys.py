"""Two small games on the real rules contract, for testing the daemon apart from the four games.

- ``race`` (perfect information with chance): chance rolls a die, then the mover takes the roll
  (``take``) or passes (``pass``); the first to 10 wins. ``first_player`` may be ``random``
  (drawn from the seed), so a replay must use the stored seed.
- ``vault`` (hidden information, UNLOCK-shaped): the Lock (option ``lock``) sets a secret number
  1–9, then the guessers guess one at a time and hear "higher"/"lower"; a right guess scores
  10 − (wrong guesses so far) and ends the game. The secret is visible only to the Lock until
  the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from firmware_host.games import BoxGame, Registry
from rules import CHANCE, Game, IllegalAction, Option, OptionValue
from rules.unlock.tournament import Tournament


@dataclass(frozen=True)
class RaceState:
    names: tuple[str, ...]
    totals: tuple[int, ...]
    mover: int
    roll: int | None


class RaceEnd(StrEnum):
    REACHED_GOAL = "reached_goal"


class Race(Game[RaceState]):
    id = "race"
    reasons = RaceEnd
    name = "Race"
    min_players = 2
    max_players = 4
    options = (Option("first_player", "seat", 0, "Who starts.", allow_random=True),
               Option("goal", "int", 10, "Points to win.", minimum=1))

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> RaceState:
        first = options["first_player"]
        if first == "random":
            first = random.Random(seed).randrange(len(players))
        assert isinstance(first, int)
        return RaceState(players, (0,) * len(players), first, None)

    def to_act(self, state: RaceState) -> list[int]:
        if max(state.totals) >= 10:
            return []
        return [CHANCE] if state.roll is None else [state.mover]

    def legal_actions(self, state: RaceState, seat: int) -> Iterable[str]:
        if seat not in self.to_act(state):
            return []
        return [f"roll {n}" for n in range(1, 7)] if seat == CHANCE else ["take", "pass"]

    def apply(self, state: RaceState, seat: int, action: str) -> RaceState:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{action!r} is not allowed for seat {seat} now")
        if seat == CHANCE:
            return replace(state, roll=int(action.split()[1]))
        assert state.roll is not None
        totals = list(state.totals)
        if action == "take":
            totals[seat] += state.roll
        return RaceState(state.names, tuple(totals), (seat + 1) % len(state.names), None)

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        return {"game": self.id, "seats": list(state.names), "to_act": self.to_act(state),
                "phase": "roll" if state.roll is None else "move", "turn": sum(state.totals),
                "you": seat, "options": {}, "outcome": self.outcome(state),
                "totals": list(state.totals), "roll": state.roll}

    def outcome(self, state: RaceState) -> dict[str, Any] | None:
        if max(state.totals) < 10:
            return None
        best = max(state.totals)
        return {"winners": [s for s, t in enumerate(state.totals) if t == best],
                "scores": list(state.totals), "reason": RaceEnd.REACHED_GOAL}

    def dump(self, state: RaceState) -> dict[str, Any]:
        return {"names": list(state.names), "totals": list(state.totals), "mover": state.mover,
                "roll": state.roll}

    def load(self, data: Mapping[str, Any]) -> RaceState:
        return RaceState(tuple(data["names"]), tuple(data["totals"]), data["mover"], data["roll"])


@dataclass(frozen=True)
class VaultState:
    names: tuple[str, ...]
    lock: int
    secret: int | None
    guesses: tuple[tuple[int, int, str], ...]  # seat, number, "higher"/"lower"/"open"
    mover: int


class VaultEnd(StrEnum):
    OPENED = "opened"


class Vault(Game[VaultState]):
    id = "vault"
    reasons = VaultEnd
    name = "Vault"
    min_players = 2
    max_players = 5
    options = (Option("lock", "seat", 0, "The Lock's seat."),)

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> VaultState:
        lock = options["lock"]
        assert isinstance(lock, int)
        return VaultState(players, lock, None, (), self._after(lock, len(players)))

    @staticmethod
    def _after(seat: int, n: int) -> int:
        return (seat + 1) % n

    def _guessers(self, state: VaultState) -> list[int]:
        return [s for s in range(len(state.names)) if s != state.lock]

    def to_act(self, state: VaultState) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return [state.lock] if state.secret is None else [state.mover]

    def legal_actions(self, state: VaultState, seat: int) -> Iterable[str]:
        if seat not in self.to_act(state):
            return []
        word = "secret" if state.secret is None else "guess"
        return [f"{word} {n}" for n in range(1, 10)]

    def apply(self, state: VaultState, seat: int, action: str) -> VaultState:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{action!r} is not allowed for seat {seat} now")
        number = int(action.split()[1])
        if state.secret is None:
            return replace(state, secret=number)
        said = ("open" if number == state.secret
                else "higher" if state.secret > number else "lower")
        guessers = self._guessers(state)
        nxt = guessers[(guessers.index(seat) + 1) % len(guessers)]
        return replace(state, guesses=(*state.guesses, (seat, number, said)), mover=nxt)

    def view(self, state: VaultState, seat: int | None) -> dict[str, Any]:
        over = self.outcome(state) is not None
        return {"game": self.id, "seats": list(state.names), "to_act": self.to_act(state),
                "phase": "secret" if state.secret is None else "guess",
                "turn": len(state.guesses), "you": seat, "options": {"lock": state.lock},
                "outcome": self.outcome(state), "lock": state.lock,
                "secret": state.secret if over or seat == state.lock else None,
                "guesses": [list(g) for g in state.guesses]}

    def outcome(self, state: VaultState) -> dict[str, Any] | None:
        if not state.guesses or state.guesses[-1][2] != "open":
            return None
        winner = state.guesses[-1][0]
        scores = [0] * len(state.names)
        scores[winner] = 10 - (len(state.guesses) - 1)
        return {"winners": [winner], "scores": scores, "reason": VaultEnd.OPENED}

    def dump(self, state: VaultState) -> dict[str, Any]:
        return {"names": list(state.names), "lock": state.lock, "secret": state.secret,
                "guesses": [list(g) for g in state.guesses], "mover": state.mover}

    def load(self, data: Mapping[str, Any]) -> VaultState:
        return VaultState(tuple(data["names"]), data["lock"], data["secret"],
                          tuple(tuple(g) for g in data["guesses"]), data["mover"])


TOYS: dict[str, Game[Any]] = {"race": Race(), "vault": Vault()}


def toy_games() -> Registry:
    """The toys as the box registers games; the vault has UNLOCK's tournaments (each player
    is its Lock once)."""
    return Registry([BoxGame(TOYS["race"]), BoxGame(TOYS["vault"], tournament=Tournament)])
