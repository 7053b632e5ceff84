"""The rules contract every game implements (see DESIGN.md, "The rules contract")."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from rules.options import Option, OptionValue, resolve_options

#: The pseudo-seat of chance: ``to_act`` contains it when the game waits for a die roll or a
#: shuffle, and chance's actions go through the same ``apply`` as the players'.
CHANCE = -1

StateT = TypeVar("StateT")


class Game(ABC, Generic[StateT]):
    """A game's rules: pure functions over immutable states.

    States are plain frozen data; ``apply`` returns a new state or raises
    :class:`rules.IllegalAction` and leaves the old one untouched.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    #: Every ``outcome()["reason"]`` the game can give: data with a translation key per member
    #: (the panel and the OLED name each in the players' language), never free text.
    reasons: ClassVar[type[StrEnum]]

    def resolve_options(
        self, options: Mapping[str, object] | None, n_players: int
    ) -> dict[str, OptionValue]:
        """Validate options against this game's declaration and fill in defaults."""
        return resolve_options(self.options, options, n_players)

    def describe(self) -> dict[str, Any]:
        """A JSON-safe description of the game and its options, for the panel."""
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [o.describe() for o in self.options],
        }

    @abstractmethod
    def start(
        self,
        players: list[str],
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
    ) -> StateT:
        """A new game for ``players`` (names, seat order) with validated ``options``."""

    @abstractmethod
    def to_act(self, state: StateT) -> list[int]:
        """The seats that may act now (``CHANCE`` for a die roll or a shuffle); empty at the end."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> Iterable[str]:
        """Every action ``seat`` may take now, exactly; may be lazy where it is large."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: str) -> StateT:
        """The state after ``seat`` takes ``action``; raises ``IllegalAction`` if refused."""

    def canonical(self, state: StateT, seat: int, action: str) -> str:
        """The one spelling of ``action`` — which ``apply`` accepts from ``seat`` in ``state`` —
        that journals and logs keep, so equal actions read equally (UNLOCK: the code's
        canonical traversal). The default folds white space."""
        return " ".join(action.split())

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see, JSON-safe. The only way state leaves."""

    @abstractmethod
    def outcome(self, state: StateT) -> dict[str, Any] | None:
        """``None`` while the game goes on; else ``winners``, ``scores`` and ``reason`` (a member
        of :attr:`reasons`; any facts the reason speaks of are further keys of the outcome)."""

    @abstractmethod
    def dump(self, state: StateT) -> dict[str, Any]:
        """The state as JSON-safe data; ``load(dump(s)) == s``."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> StateT:
        """The state ``dump`` produced."""
