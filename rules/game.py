"""The rules contract every game implements (see docs/design.md, "The rules contract")."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from rules.errors import OptionError
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
    #: Said after "is for N–M players, not K" when the count is wrong (e.g. who plays).
    players_note: ClassVar[str] = ""
    #: True when nothing is ever hidden: every seat's view is the spectator's (but for
    #: ``you``) in every state. The box then skips comparing views (undo, logs); the
    #: conformance suite checks the claim. ``False`` is always safe.
    perfect_information: ClassVar[bool] = False

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

    def start(
        self,
        players: list[str],
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
    ) -> StateT:
        """A new game for ``players`` (names, in seat order) with validated ``options``;
        ``seed`` (``None``: 0) fixes every random choice, so a game replays from it.

        The checks every game makes are made here; the game builds its state in :meth:`setup`.
        """
        names = self.check_players(players)
        chosen = self.resolve_options(options, len(names))
        if seed is None:
            seed = 0
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError("seed", f"a seed is a whole number, got {seed!r}")
        return self.setup(names, chosen, seed)

    def check_players(self, players: object) -> tuple[str, ...]:
        """The players' names: a list of non-empty texts, as many as the game takes."""
        if not isinstance(players, list | tuple):
            raise OptionError("players", f"players must be a list of names, not {players!r}")
        for name in players:
            if not isinstance(name, str) or not name.strip():
                raise OptionError("players",
                                  f"a player's name must be non-empty text, not {name!r}")
        if not self.min_players <= len(players) <= self.max_players:
            count = (str(self.min_players) if self.min_players == self.max_players
                     else f"{self.min_players}–{self.max_players}")
            raise OptionError("players", f"{self.name} is for {count} players, "
                              f"not {len(players)}{self.players_note}")
        return tuple(players)

    @abstractmethod
    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> StateT:
        """The first state of a game for checked ``players`` and resolved ``options``."""

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
