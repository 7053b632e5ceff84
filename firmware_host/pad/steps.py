"""Pad controllers as pure steps: ``step(state, event, table) → Step(state, commands, screen)``.

A game's pad controller (:class:`PadGame`) is data and pure functions: its state is a frozen
value, and each event — a key (:class:`~firmware_host.pad.inputs.Input`), the session's answer to
an action it asked for (:class:`Accepted` / :class:`Refused`), or news that the game changed
(:class:`Changed`) — gives a new state, the actions to send (:class:`Act`) and the screen. It reads
the game only through a :class:`Table` (the published views of one moment), so it is tested with
no thread, pin or session. The pad loop (:mod:`firmware_host.pad_loop`) is the shell that feeds
events in and carries the actions out.

:func:`pad_step` wraps every game's step with what all games share: a refusal stays on screen,
page by page, until a key closes it, and an ended game's last screen waits for OK.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from PIL import Image

from firmware_host.pad.inputs import Input
from firmware_host.screens.message import refusal_pages, refused_screen

View = dict[str, Any]
S = TypeVar("S")


class Table:
    """One game as the pad sees it at one moment: each seat's view, read once and kept."""

    def __init__(self, game_id: int, read: Callable[[int | None], View]) -> None:
        self.game_id = game_id
        self._read = read
        self._views: dict[int | None, View] = {}

    def view(self, seat: int | None = None) -> View:
        """The view of ``seat`` (``None``: the spectator's)."""
        if seat not in self._views:
            self._views[seat] = self._read(seat)
        return self._views[seat]


@dataclass(frozen=True)
class Act:
    """A command: send ``action`` for ``seat`` (or ``rules.CHANCE``) to the session; ``by``
    says who entered it when that is not the seat (a roll from the ``die`` or the ``keypad``)."""

    seat: int
    action: str
    by: str | None = None


@dataclass(frozen=True)
class RollDie:
    """A command: the box rolls its own ``faces``-sided die (its RNG, not the step's) and sends
    the roll for ``rules.CHANCE``."""

    faces: int


Command = Act | RollDie


@dataclass(frozen=True)
class Accepted:
    """The session committed the action a step asked for."""

    act: Command


@dataclass(frozen=True)
class Refused:
    """The session or the rules refused the action a step asked for, with their message."""

    act: Command
    message: str


@dataclass(frozen=True)
class Changed:
    """The game changed (here, on a phone, by an undo): a controller may catch up."""


PadEvent = Input | Accepted | Refused | Changed


@dataclass(frozen=True)
class Step(Generic[S]):
    """What a step gives: the new state, the actions to send, and its screen (drawn when shown;
    a controller's own refusal, e.g. a dot the rules would not take, in ``refusal``)."""

    state: S
    commands: tuple[Command, ...] = ()
    refusal: str | None = None
    draw: Callable[[], Image.Image] | None = field(default=None, compare=False)

    def screen(self) -> Image.Image:
        """The frame for this step."""
        assert self.draw is not None, "pad_step fills in the screen"
        return self.draw()


class PadGame(Protocol[S]):
    """A game's pad controller (one module per game, registered with the game)."""

    def start(self, table: Table) -> S:
        """The state when the pad takes up the game."""
        ...

    def step(self, state: S, event: PadEvent, table: Table) -> Step[S]:
        """The state after ``event``, and any actions to send."""
        ...

    def screen(self, state: S, table: Table) -> Image.Image:
        """The frame for ``state``."""
        ...

    def final_screen_shown(self, state: S, table: Table) -> bool:
        """Whether an ended game's last screen is up (UNLOCK shows its reveal first)."""
        ...


@dataclass(frozen=True)
class PadState(Generic[S]):
    """A game's pad state with what every game shares: the refusal on screen (until the next
    key; long ones page by page) and whether OK was pressed on the ended game's last screen."""

    game: S
    refusal: str | None = None
    refusal_page: int = 0
    done: bool = False


def pad_start(controller: PadGame[S], table: Table) -> PadState[S]:
    """The pad's state when it takes up a game."""
    return PadState(controller.start(table))


def pad_step(controller: PadGame[S], state: PadState[S], event: PadEvent,
             table: Table) -> Step[PadState[S]]:
    """One event through the shared layer, then the game's own step."""
    if isinstance(event, Input) and state.refusal is not None:
        if event.kind == "ok" and state.refusal_page + 1 < refusal_pages(state.refusal):
            state = replace(state, refusal_page=state.refusal_page + 1)
        else:
            state = replace(state, refusal=None, refusal_page=0)
        return _shown(controller, state, table)
    if (isinstance(event, Input) and table.view().get("outcome")
            and controller.final_screen_shown(state.game, table)):
        return _shown(controller, replace(state, done=state.done or event.kind == "ok"), table)
    inner = controller.step(state.game, event, table)
    refusal = inner.refusal
    if isinstance(event, Refused):
        refusal = refusal or event.message or "not allowed"
    if refusal is not None:
        state = replace(state, game=inner.state, refusal=refusal, refusal_page=0)
    elif isinstance(event, Accepted):
        state = replace(state, game=inner.state, refusal=None, refusal_page=0)
    else:
        state = replace(state, game=inner.state)
    return _shown(controller, state, table, inner.commands)


def pad_screen(controller: PadGame[S], state: PadState[S], table: Table) -> Image.Image:
    """The frame for ``state``: the refusal on screen, else the game's own."""
    if state.refusal is not None:
        return refused_screen(state.refusal, state.refusal_page)
    return controller.screen(state.game, table)


def _shown(controller: PadGame[S], state: PadState[S], table: Table,
           commands: tuple[Command, ...] = ()) -> Step[PadState[S]]:
    return Step(state, commands, draw=lambda: pad_screen(controller, state, table))
