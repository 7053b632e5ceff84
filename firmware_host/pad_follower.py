"""What the pad is on: the session's pad game (its controller run here), the games menu, or the
start screen — and a notice over any of them.

- The pad follows the session's *pad game* (``SessionApi.pad``), set by the host, by the games
  menu on the OLED (hold Back, :mod:`firmware_host.pad.menu`) or by the box itself (a game
  started while the pad had none, a tournament's next game). Moves go in with
  ``act_on_pad``, so a move for a game that is no longer the pad's is refused, visibly.
- Each game's pad controller is a pure step function (:mod:`firmware_host.pad.steps`), found in
  the game's registration; :class:`PadFollower` feeds it keys and the session's answers, sends
  the actions it asks for, and draws its screen.
- An ended game stays on the OLED (its last screens, then its results) until OK, even when a
  tournament's next game has started; a game given to the pad otherwise (by the host, the menu,
  or a new game started while the pad's had ended) takes the OLED at once. After OK the
  pad goes on to the pad's game, or the one game being played, or the games menu when several
  are, or the start screen (address, QR code, host PIN) when none is.
- An input nothing can use (no game, a key a screen has no use for) is refused on the OLED in
  words, never dropped.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image

from firmware_host import pad_lighting
from firmware_host.errors import NotPadGame, SessionError
from firmware_host.pad.inputs import Input
from firmware_host.pad.menu import (
    DiceEntry,
    Menu,
    Row,
    SeatChange,
    menu_screen,
    menu_step,
    open_menu,
)
from firmware_host.pad.steps import (
    Accepted,
    Act,
    AskHint,
    Changed,
    Command,
    Hinted,
    PadEvent,
    PadGame,
    PadState,
    Refused,
    RollDie,
    pad_start,
    pad_step,
)
from firmware_host.pad_dice import DiceScreen
from firmware_host.pad_lighting import Lighting
from firmware_host.pad_reads import PadReads
from firmware_host.screens.message import message_screen, refused_screen
from firmware_host.screens.start import start_screen
from firmware_host.screens.text import shown_name
from firmware_host.screens.words import WORDS, say
from firmware_host.session_api import SessionApi
from rules import CHANCE, RulesError

if TYPE_CHECKING:
    from firmware_host.smart_dice import SmartDice

log = logging.getLogger(__name__)


@dataclass
class _OnGame:
    """The game the pad is on: its id, which game it is, its controller and the controller's
    state."""

    game_id: int
    kind: str
    controller: PadGame[Any]
    state: PadState[Any]


class PadFollower:
    """The game the pad is on, the games menu, the notice and the games whose results were
    read; :meth:`feed` and :meth:`draw` run on the pad loop's thread only."""

    def __init__(self, session: SessionApi, reads: PadReads, *,
                 note: Callable[[], str | None] | None, rng: random.Random) -> None:
        self.session = session
        self.reads = reads
        self._note = note
        self._rng = rng
        self._on: _OnGame | None = None
        #: The game the OLED shows or is about to (``None``: the menu, the start screen): the
        #: session's changes to other games need no redraw.
        self._watching: int | None = None
        self._menu: Menu | None = None
        #: A refusal or note shown over everything until the next key: (title, text).
        self._notice: tuple[str, str] | None = None
        #: Ended games whose results were read (OK), so they are never shown again (the last
        #: few: the pad's game never goes back to an older one).
        self._dismissed: deque[int] = deque(maxlen=16)
        #: The box's smart dice (docs/dice.md; ``None``: none), paired on the dice screen.
        self.dice: SmartDice | None = None
        self._dice_screen: DiceScreen | None = None
        #: Queues a redraw (set by the pad loop): a scan's end redraws the dice screen.
        self.redraw: Callable[[], None] = lambda: None

    @property
    def game_id(self) -> int | None:
        """The game the pad is on (None on the start screen)."""
        on = self._on
        return on.game_id if on is not None else None

    @property
    def game(self) -> tuple[int, str] | None:
        """The game the pad is on and which game it is (None on the start screen)."""
        on = self._on
        return (on.game_id, on.kind) if on is not None else None

    @property
    def refusal(self) -> str | None:
        """The refusal on the OLED, if one is shown."""
        if self._notice is not None:
            return self._notice[1]
        on = self._on
        return on.state.refusal if on is not None else None

    @property
    def menu_open(self) -> bool:
        """Whether the games menu is on the OLED."""
        return self._menu is not None

    @property
    def dice_open(self) -> bool:
        """Whether the smart dice's pairing screen is on the OLED."""
        return self._dice_screen is not None

    def unseen(self, game_id: int | None) -> bool:
        """Whether a change to ``game_id`` leaves the OLED as it is (called on the session
        thread): another table's move is not drawn when the OLED shows a game, so the pad
        does not queue behind other tables' redraws (issue 15). ``_watching`` is set before
        the pad reads a game's snapshot, so a change published after that read is never
        skipped."""
        watching = self._watching
        return (game_id is not None and watching is not None and game_id != watching
                and self._menu is None and self._dice_screen is None
                and game_id != self.session.pad()["game"])

    def notice(self, text: str) -> None:
        """Shows ``text`` as a note over whatever the OLED shows, until the next key."""
        title = self.reads.title(self._on.game_id if self._on is not None else None)
        self._notice = (title, text)

    def feed(self, event: PadEvent) -> None:
        """One event through the menu or the current game's controller, then the actions it
        asks for, each answered back to it (accepted or refused)."""
        if isinstance(event, Input) and self._notice is not None:
            self._notice = None  # any key closes a notice
            return
        if isinstance(event, Input) and event.kind == "menu":
            if self._dice_screen is not None:
                self._dice_screen = None
                return
            self._toggle_menu()
            return
        if self._dice_screen is not None:
            if isinstance(event, Input):
                lang = self.reads.language()
                still, refusal = self._dice_screen.feed(event, self._seats(), lang)
                if not still:
                    self._dice_screen = None
                if refusal is not None:
                    self._notice = (say(WORDS, "dice_title", lang), refusal)
            return
        on = self._current()
        if self._menu is not None:
            if isinstance(event, Input):
                self._menu_input(event)
            return
        if on is None:
            if isinstance(event, Input) and event.kind != "back":
                self._notice = (self.reads.title(None),
                                say(WORDS, "no_game", self.reads.language()))
            return
        step = pad_step(on.controller, on.state, event, self.reads.table(on.game_id, on.kind))
        on.state = step.state
        for command in step.commands:
            answer = self._send(on.game_id, command)
            step = pad_step(on.controller, on.state, answer,
                            self.reads.table(on.game_id, on.kind))
            on.state = step.state

    def draw(self, url: str) -> Image.Image:
        """The OLED's screen now (``url``: the panel's address, on the start screen)."""
        lang = self.reads.language()
        if self._notice is not None:
            title, text = self._notice
            return refused_screen(text, title=title, lang=lang)
        if self._dice_screen is not None:
            return self._dice_screen.draw(self._seats(), lang)
        on = self._current()
        if self._menu is not None:
            return menu_screen(self._menu, self._entries(), self.session.pad()["game"],
                               lang)
        if on is None:
            note = self._note() if self._note is not None else None
            return start_screen(url, self.session.host_pin, note=note, lang=lang)
        try:
            step = pad_step(on.controller, on.state, Changed(),
                            self.reads.table(on.game_id, on.kind))
            on.state = step.state
            return step.screen()
        except Exception as error:
            log.exception("pad: drawing game %s failed", on.game_id)
            return message_screen(say(WORDS, "error", lang), str(error), lang=lang)

    def awaiting_analysis(self) -> int | None:
        """The game whose results are on the OLED while its post-game analysis is still being
        computed (their line says so until it is ready), else ``None``."""
        on = self._on
        if on is None or not on.state.results or self._notice is not None or self._menu:
            return None
        box = self.reads.games.get(on.kind)
        if box is None or box.analysis is None:
            return None
        answer = self.reads.analysis(on.game_id)
        return on.game_id if answer is not None and answer["status"] == "pending" else None

    def lighting(self) -> Lighting:
        """What the pad's lights show now (:mod:`firmware_host.pad_lighting`), after
        :meth:`draw`: the game's own lights where its controller has them, else whose turn;
        dark on the start screen, in the menu and over a notice."""
        on = self._on
        if (self._notice is not None or self._menu is not None
                or self._dice_screen is not None or on is None):
            return pad_lighting.DARK
        table = self.reads.table(on.game_id, on.kind)
        if on.state.results:
            return pad_lighting.results(table.view())
        own = getattr(on.controller, "lights", None)
        try:
            return own(on.state.game, table) if own is not None else pad_lighting.turn_of(
                table.view())
        except Exception:  # the lights must never stop the pad
            log.exception("pad: the lights of game %s failed", on.game_id)
            return pad_lighting.DARK

    def _current(self) -> _OnGame | None:
        """The game the pad shows (see the module docstring); may open the games menu."""
        self._watching = None  # every change is drawn until the pad knows its game again
        pad = self.session.pad()
        if self._menu is not None and self._menu.must_choose and pad["game"] is not None and (
                self.reads.status(pad["game"]) == "active"):
            self._menu = None  # the menu asked for a game, and the pad has one now (the host's)
        on = self._on
        if on is not None:
            status = self.reads.status(on.game_id)
            waiting = status == "finished" and not on.state.done and (
                on.game_id == pad["game"] or pad["by"] == "next")
            if (status == "active" and on.game_id == pad["game"]) or waiting:
                self._watching = on.game_id
                return on
            self._on = None
            if status == "finished" and on.state.done:
                self._dismissed.append(on.game_id)
            if on.game_id == pad["game"] and status != "active":
                self._move_on()
                pad = self.session.pad()
        target = pad["game"]
        status = self.reads.status(target) if target is not None else None
        if target is None or status == "abandoned" or status is None or (
                status == "finished" and target in self._dismissed):
            return self._no_pad_game()
        kind = self.session.summary(target)["game"]
        registration = self.reads.games.get(kind)
        if registration is None or registration.pad is None:
            return None
        controller = registration.pad
        self._watching = target  # before its snapshot is read
        on = _OnGame(target, kind, controller,
                     pad_start(controller, self.reads.table(target, kind)))
        self._on = on
        return on

    def _move_on(self) -> None:
        """The pad's game ended and was read: the one game being played becomes the pad's,
        several open the games menu, none clears the pad's game."""
        live = self.session.games(status="active")
        if len(live) == 1:
            self._choose(live[0]["id"])
        elif not live:
            self._choose(None)
        elif self._menu is None:
            self._menu = open_menu(self._entries(), None, must_choose=True)

    def _no_pad_game(self) -> _OnGame | None:
        """No game to show: the one game being played is taken, several open the menu."""
        live = self.session.games(status="active")
        if len(live) == 1:
            if self._choose(live[0]["id"]):
                return self._current()
        elif len(live) > 1 and self._menu is None:
            self._menu = open_menu(self._entries(), None, must_choose=True)
        return None

    def _toggle_menu(self) -> None:
        if self._menu is not None and not self._menu.must_choose:
            self._menu = None
            return
        current = self.session.pad()["game"]
        self._menu = self._menu or open_menu(self._entries(), current)

    def _entries(self) -> list[Row]:
        """The games menu's rows: the reads' games and seats, then "Pair dice" on a box with
        smart dice."""
        entries = self.reads.entries()
        if self.dice is not None:
            entries.append(DiceEntry(say(WORDS, "menu_dice", self.reads.language())))
        return entries

    def _menu_input(self, event: Input) -> None:
        assert self._menu is not None
        result = menu_step(self._menu, event, self._entries(), self.reads.language())
        self._menu = result.menu
        if result.dice and self.dice is not None:
            self._dice_screen = DiceScreen(self.dice, self.redraw)
            return
        if result.refusal is not None:
            self._notice = (say(WORDS, "menu_title", self.reads.language()), result.refusal)
        if result.chosen is not None and result.chosen != self.session.pad()["game"]:
            self._choose(result.chosen)
        if result.seat is not None:
            self._seat(result.seat)

    def _seats(self) -> list[str]:
        """The pad's game's players (none without a game)."""
        on = self._on
        if on is None:
            return []
        return [str(s) for s in self.reads.table(on.game_id, on.kind).view().get("seats") or []]

    def _choose(self, game_id: int | None) -> bool:
        """Makes ``game_id`` the pad's game (chosen on the pad); a refusal becomes a notice."""
        try:
            self.session.set_pad_game(game_id, "pad")
        except (RulesError, SessionError) as error:
            log.info("pad: choosing game %s refused: %s", game_id, error)
            self._notice = (self.reads.title(None), str(error))
            return False
        return True

    def _seat(self, change: SeatChange) -> None:
        """Hands a seat of the pad's game to the box or back to a person (the games menu); a
        refusal (a phone holds the seat...) becomes a notice."""
        try:
            self.session.seat_bot(change.game_id, change.seat, change.level)
        except (RulesError, SessionError) as error:
            log.info("pad: seat %d of game %d refused: %s", change.seat, change.game_id, error)
            self._notice = (say(WORDS, "menu_title", self.reads.language()), str(error))

    def _send(self, game_id: int, command: Command) -> Accepted | Refused | Hinted:
        """A controller's command carried out: a move (the box's own roll for ``RollDie``)
        entered with ``act_on_pad``, or a hint asked for; the session's answer."""
        if isinstance(command, AskHint):
            return self._ask_hint(game_id, command)
        act = command if isinstance(command, Act) else Act(
            CHANCE, f"roll {self._rng.randint(1, command.faces)}", by="box random")
        assert isinstance(command, Act | RollDie)
        bots = self.session.summary(game_id).get("bots") or []
        if 0 <= act.seat < len(bots) and bots[act.seat]:
            # the box plays that seat itself: a move typed on the pad for it is not entered
            name = shown_name(self.session.summary(game_id)["seats"][act.seat], act.seat)
            return Refused(act, f"the box plays {name} itself: nothing was entered")
        try:
            self.session.act_on_pad(game_id, act.seat, act.action, act.by)
        except NotPadGame as error:
            log.info("pad: %s for game %d refused: %s", act.action, game_id, error)
            pad = self.session.pad()["game"]
            title = self.reads.title
            text = say(WORDS, "not_pad_game", self.reads.language(), game=title(game_id),
                       id=game_id, pad=f"{title(pad)} {pad}" if pad else "-")
            self._notice = (title(pad), text)
            return Refused(act, text)
        except (RulesError, SessionError) as error:
            log.info("pad: %s for seat %s refused: %s", act.action, act.seat, error)
            return Refused(act, str(error))
        return Accepted(act)

    def _ask_hint(self, game_id: int, ask: AskHint) -> Hinted | Refused:
        """The seat's hint through the session (counted in the journal like a phone's);
        a refusal (hints off, not a guesser now...) comes back in the session's words."""
        try:
            answer = self.session.hint(game_id, ask.seat)
        except (RulesError, SessionError) as error:
            log.info("pad: hint for seat %d of game %d refused: %s", ask.seat, game_id, error)
            return Refused(ask, str(error))
        log.info("pad: hint for seat %d of game %d", ask.seat, game_id)
        return Hinted(ask, answer)
