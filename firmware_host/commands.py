"""Commands as values: how a feature changes the session.

A command is a small frozen value (``Act(game_id=3, seat=1, action="guess 1-5-9")``) that the
session owner (:mod:`firmware_host.session_owner`) runs on the session thread in three steps:

1. :meth:`Command.check` looks at the session and refuses (raises) or returns a :class:`Step`
   — nothing is written and nothing in memory changes yet;
2. the step's ``write`` runs inside one journal transaction, which the owner commits ("shown
   means saved": nobody is shown anything yet);
3. the step's ``done`` updates the session's memory once the commit has succeeded and says what
   changed (:class:`Done`): the owner publishes the new snapshots and tells the listeners a
   :class:`Change`.

Each feature keeps its commands in its own module (games, tournaments, seats, the pad, hints,
bots, club codes, host sessions) with its journal records; adding one touches no core module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from firmware_host.session_state import Session
    from firmware_host.snapshots import GameSnapshot
    from firmware_host.tournaments import Tournament

T = TypeVar("T")

#: What a change is about, for listeners that care about one kind (the bots' thread).
PLAY = "play"            # an action, an undo, a game begun or ended
SEATS = "seats"          # who holds the seats, their join codes
BOTS = "bots"            # which seats the box plays
HINTS = "hints"          # hints asked for, allowed or not
BOX = "box"              # a box-wide setting: the pad's game, the box's language


@dataclass(frozen=True)
class Change:
    """What a committed command changed, as the listeners hear it."""

    version: int
    #: The games whose state, seats or settings changed.
    games: tuple[int, ...] = ()
    #: What kind of change it was (:data:`PLAY`, :data:`SEATS`, …).
    kinds: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Done(Generic[T]):
    """What a command did once committed: its result, and what to publish and tell."""

    result: T
    #: New snapshots of these games and tournaments (``None``: none changed).
    games: Mapping[int, GameSnapshot] | None = None
    tournaments: Mapping[int, Tournament] | None = None
    #: The games whose listeners are told, and what kind of change it was; nothing is
    #: published or told when both are empty and no snapshot changed.
    told: tuple[int, ...] = ()
    kinds: frozenset[str] = frozenset()

    @property
    def changed(self) -> bool:
        return bool(self.games or self.tournaments or self.told or self.kinds)


@dataclass(frozen=True)
class Step(Generic[T]):
    """A checked command: what it writes (``None``: nothing) inside the owner's transaction,
    given the journal's new version, and what it does once that is committed — given what
    ``write`` returned and the version (``None`` when nothing was written)."""

    write: Callable[[int], Any] | None
    done: Callable[[Any, int | None], Done[T]]


class Command(Protocol[T]):
    """A change to the session, as a value."""

    def check(self, session: Session) -> Step[T]:
        """Refuse (raise) or say what to write and do; runs on the session thread."""
        ...


def kinds(*names: str) -> frozenset[str]:
    """The kinds of a change, as :class:`Done` takes them."""
    return frozenset(names)
