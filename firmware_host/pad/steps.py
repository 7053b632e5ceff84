"""Pad controllers as pure steps: ``step(state, event, table) → Step(state, commands, screen)``.

A game's pad controller (:class:`PadGame`) is data and pure functions: its state is a frozen
value, and each event — a key (:class:`~firmware_host.pad.inputs.Input`), the session's answer to
an action it asked for (:class:`Accepted` / :class:`Refused`), or news that the game changed
(:class:`Changed`) — gives a new state, the actions to send (:class:`Act`) and the screen. It reads
the game only through a :class:`Table` (the published views of one moment), so it is tested with
no thread, pin or session. The pad loop's :class:`~firmware_host.pad_follower.PadFollower` is the
shell that feeds events in and carries the actions out.

:func:`pad_step` wraps every game's step with what all games share: a refusal stays on screen,
page by page, until a key closes it; an ended game's last screen waits for OK, then the results
(the winner, the scores, how to go on) wait for OK; any other key there is refused, in words.

The :class:`Table` also carries the OLED's language and the game's words (``BoxGame.words``):
every screen shows the game's name (:attr:`Table.title`) and speaks ``table.lang``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, Protocol, TypeVar

from PIL import Image

from firmware_host.pad.inputs import Input
from firmware_host.refusals import Phrasebook, phrase
from firmware_host.screens.message import refusal_pages, refused_screen
from firmware_host.screens.results import analysis_line, hints_note, results_screen
from firmware_host.screens.text import speaks
from firmware_host.screens.words import WORDS, Words, key_name, say

View = dict[str, Any]
S = TypeVar("S")


@dataclass(frozen=True)
class Onward:
    """Where OK on an ended game's results leads: the tournament's ``next`` game (whose first
    player takes the pad), the games ``menu`` (several games are being played), the one other
    ``game`` being played, or the ``start`` screen."""

    kind: Literal["next", "menu", "game", "start"]
    player: str | None = None


class Table:
    """One game as the pad sees it at one moment: each seat's view, read once and kept; the
    OLED's language and the game's words."""

    def __init__(self, game_id: int, read: Callable[[int | None], View], *, lang: str = "en",
                 words: Words | None = None, name: str | None = None,
                 refusals: Phrasebook = (),
                 onward: Callable[[], Onward] | None = None,
                 scored: Callable[[Mapping[str, Any]], Sequence[int]] | None = None,
                 analysis: Callable[[], Mapping[str, Any] | None] | None = None) -> None:
        self.game_id = game_id
        self._read = read
        self._views: dict[int | None, View] = {}
        #: The language the OLED speaks (``en``, or ``ja`` when its font is installed).
        self.lang = speaks(lang)
        self.words: Words = words or {}
        self._name = name
        self.refusals = refusals
        self._onward = onward
        self._scored = scored
        self._analysis = analysis
        self._answer: Mapping[str, Any] | None = None

    @property
    def title(self) -> str:
        """The game's name in the OLED's language: the title of every screen."""
        if "name" in self.words:
            return say(self.words, "name", self.lang)
        return self._name or ""

    def say(self, key: str, /, **values: Any) -> str:
        """The game's text ``key`` (else the box's own) in the OLED's language."""
        words = self.words if key in self.words else WORDS
        return say(words, key, self.lang, **values)

    def phrase(self, message: str) -> str:
        """A refusal of the rules or the session in the OLED's language (``rules`` speak
        English; the game's phrasebook and the box's turn it into the seeds' words)."""
        return str(phrase(message, self.lang, [(self.refusals, self.words)]))

    def scored(self) -> Sequence[int] | None:
        """The seats the results list with their scores (``None``: every seat)."""
        return self._scored(self.view()) if self._scored is not None else None

    def analysis(self) -> Mapping[str, Any] | None:
        """The ended game's post-game analysis as the session answers it (read once;
        ``None``: the game has none)."""
        if self._analysis is not None and self._answer is None:
            self._answer = self._analysis()
        return self._answer

    def onward(self) -> Onward:
        """Where OK on the ended game's results leads."""
        return self._onward() if self._onward is not None else Onward("start")

    def unused(self, event: Input) -> str:
        """The refusal of an input the screen has no use for: "dot 4 does nothing here"."""
        if event.kind == "die":
            return self.say("no_roll_due", value=event.value)
        return self.say("no_key_here",
                        key=key_name(event.kind, event.value, event.key, self.lang))

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


@dataclass(frozen=True)
class AskHint:
    """A command: ask the session for ``seat``'s hint (``SessionApi.hint``: counted in the
    journal, refused when the host turned hints off)."""

    seat: int


Command = Act | RollDie | AskHint


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
class Hinted:
    """The session's answer to :class:`AskHint`: the game's hint document (UNLOCK:
    ``codes_left``, ``suggestion``, ``dots``)."""

    act: AskHint
    hint: Mapping[str, Any]


@dataclass(frozen=True)
class Changed:
    """The game changed (here, on a phone, by an undo): a controller may catch up."""


PadEvent = Input | Accepted | Refused | Hinted | Changed


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
    #: The ended game's results are up (after OK on its last screen).
    results: bool = False
    done: bool = False


def pad_start(controller: PadGame[S], table: Table) -> PadState[S]:
    """The pad's state when it takes up a game."""
    return PadState(controller.start(table))


def holds_ok(controller: PadGame[Any]) -> bool:
    """Whether the controller has a use for OK held (``hold_ok``): a class attribute
    ``holds_ok = True`` says so (UNLOCK's hint)."""
    return bool(getattr(controller, "holds_ok", False))


def pad_step(controller: PadGame[S], state: PadState[S], event: PadEvent,
             table: Table) -> Step[PadState[S]]:
    """One event through the shared layer, then the game's own step.

    OK held (``hold_ok``) follows an OK press that has acted already: a game with no use for
    it ignores it (nothing to refuse: the press did its work); for one that has, it replaces
    the refusal the press may have brought up."""
    if isinstance(event, Input) and event.kind == "hold_ok":
        if not holds_ok(controller) or (table.view().get("outcome")
                                        and controller.final_screen_shown(state.game, table)):
            return _shown(controller, state, table)
        state = replace(state, refusal=None, refusal_page=0)
    elif isinstance(event, Input) and state.refusal is not None:
        if event.kind == "ok" and state.refusal_page + 1 < refusal_pages(state.refusal):
            state = replace(state, refusal_page=state.refusal_page + 1)
        else:
            state = replace(state, refusal=None, refusal_page=0)
        return _shown(controller, state, table)
    if (isinstance(event, Input) and table.view().get("outcome")
            and controller.final_screen_shown(state.game, table)):
        if event.kind == "ok":
            state = replace(state, done=True) if state.results else replace(state, results=True)
        elif event.kind == "back" and state.results:
            state = replace(state, results=False)  # back to the game's last screen
        else:
            state = replace(state, refusal=table.say("over_press_ok"), refusal_page=0)
        return _shown(controller, state, table)
    inner = controller.step(state.game, event, table)
    refusal = inner.refusal
    if isinstance(event, Refused):
        refusal = refusal or table.phrase(event.message or "not allowed")
    if refusal is not None:
        state = replace(state, game=inner.state, refusal=refusal, refusal_page=0)
    elif isinstance(event, Accepted | Hinted):
        state = replace(state, game=inner.state, refusal=None, refusal_page=0)
    else:
        state = replace(state, game=inner.state)
    return _shown(controller, state, table, inner.commands)


def pad_screen(controller: PadGame[S], state: PadState[S], table: Table) -> Image.Image:
    """The frame for ``state``: the refusal on screen, the results, else the game's own."""
    if state.refusal is not None:
        return refused_screen(state.refusal, state.refusal_page, title=table.title,
                              lang=table.lang)
    if state.results:
        seats = table.scored()
        return results_screen(table.view(), table.title, _onward_hint(table), lang=table.lang,
                              reason=_reason(table), seats=seats,
                              note=hints_note(table.view(), seats, table.lang),
                              analysis=analysis_line(table.analysis(), table.lang))
    return controller.screen(state.game, table)


def _onward_hint(table: Table) -> list[str]:
    """The results' last lines: how to go on (and in a tournament whom to pass the pad to)."""
    onward = table.onward()
    if onward.kind == "next":
        lines = [table.say("ok_next_game")]
        if onward.player:
            lines.insert(0, table.say("next_pass", name=onward.player))
        return lines
    return [table.say({"menu": "ok_menu", "game": "ok_next_game",
                       "start": "ok_start"}[onward.kind])]


def _reason(table: Table) -> str:
    """How the game ended, in the game's words (``reason.<reason>``), blanks filled from the
    outcome and the seats' names."""
    view = table.view()
    outcome: Mapping[str, Any] = view.get("outcome") or {}
    key = f"reason.{outcome.get('reason')}"
    if key not in table.words:
        return ""
    seats = [str(s) for s in view.get("seats") or []]
    winners = [seats[w] for w in outcome.get("winners") or [] if 0 <= w < len(seats)]
    values = {k: v for k, v in outcome.items() if isinstance(v, str | int)}
    values.update(winner=", ".join(winners), total=values.get("total", ""))
    try:
        return table.say(key, **values)
    except (KeyError, IndexError):
        return ""


def _shown(controller: PadGame[S], state: PadState[S], table: Table,
           commands: tuple[Command, ...] = ()) -> Step[PadState[S]]:
    return Step(state, commands, draw=lambda: pad_screen(controller, state, table))
