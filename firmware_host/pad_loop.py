"""The pad & OLED loop: one thread that takes key, die and session events from a queue, lets
the current game's controller act, and redraws the OLED from the companion's published views.

- Inputs arrive from gpiozero's and the serial reader's threads; the companion's listener
  (called on the session thread after each commit) only enqueues a redraw. Nothing here runs
  on those threads but a ``queue.put``.
- Each game's pad controller is a pure step function (:mod:`firmware_host.pad.steps`), found in
  the game's registration; this loop is its shell: it feeds the controller keys and the session's
  answers, sends the actions it asks for, and shows its screen.
- The pad follows the session's *pad game* (``SessionApi.pad``), set by the host, by the games
  menu on the OLED (hold Back, :mod:`firmware_host.pad.menu`) or by the box itself (a game
  started while the pad had none, a tournament's next game). Moves go in with
  ``act_on_pad``, so a move for a game that is no longer the pad's is refused, visibly.
- An ended game stays on the OLED (its last screens, then its results) until OK, even when a
  tournament's next game has started; a game given to the pad otherwise (by the host, the menu,
  or a new game started while the pad's had ended) takes the OLED at once. After OK the
  pad goes on to the pad's game, or the one game being played, or the games menu when several
  are, or the start screen (address, QR code, host PIN) when none is.
- An input nothing can use (no game, a key a screen has no use for) is refused on the OLED in
  words, never dropped; the box speaks its configured language, or the host's choice.
- The OLED is optional: without one the loop still runs (inputs still act) and tries to open
  it again every ``retry_interval`` seconds; after a bus error the display resends the full
  frame at the next redraw or retry.
"""

from __future__ import annotations

import io
import logging
import queue
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from firmware_host.errors import NoSuchGame, NotPadGame, SessionError
from firmware_host.games import Registry
from firmware_host.pad.inputs import Input
from firmware_host.pad.menu import (
    Menu,
    MenuEntry,
    Row,
    SeatChange,
    SeatEntry,
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
    Onward,
    PadEvent,
    PadGame,
    PadState,
    Refused,
    RollDie,
    Table,
    pad_start,
    pad_step,
)
from firmware_host.screens.message import message_screen, refused_screen
from firmware_host.screens.start import start_screen
from firmware_host.screens.text import shown_name, speaks
from firmware_host.screens.words import WORDS, say
from firmware_host.session_api import GameStatus, SessionApi
from rules import CHANCE, RulesError

log = logging.getLogger(__name__)


class Screen(Protocol):
    """What the loop needs of `hardware.oled.Display`."""

    @property
    def problem(self) -> str | None: ...
    def show(self, image: Image.Image) -> Any: ...
    def retry(self) -> Any: ...
    def close(self) -> None: ...


@dataclass
class _OnGame:
    """The game the pad is on: its id, which game it is, its controller and the controller's
    state."""

    game_id: int
    kind: str
    controller: PadGame[Any]
    state: PadState[Any]


_STOP = object()
_REDRAW = object()


class PadLoop:
    """The loop described in the module docstring."""

    def __init__(
        self,
        session: SessionApi,
        games: Registry,
        display: Screen | None,
        *,
        url: str,
        open_display: Callable[[], Screen] | None = None,
        note: Callable[[], str | None] | None = None,
        rng: random.Random | None = None,
        retry_interval: float = 5.0,
        lang: str = "en",
    ) -> None:
        self.session = session
        self.games = games
        self.display = display
        self.url = url
        self.display_problem: str | None = None if display is not None else "missing"
        self._open_display = open_display
        self._note = note
        self._rng = rng if rng is not None else random.SystemRandom()
        self.retry_interval = retry_interval
        self._queue: queue.Queue[object] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._frame = Image.new("1", (128, 64), 0)
        self._frame_version = 0
        self._on: _OnGame | None = None
        #: The game the OLED shows or is about to (``None``: the menu, the start screen): the
        #: session's changes to other games need no redraw.
        self._watching: int | None = None
        #: A redraw is in the queue (redraws are not queued twice).
        self._redraw_queued = False
        self._thread: threading.Thread | None = None
        self._closed = False
        self._frame_listeners: list[Callable[[Image.Image], None]] = []
        #: The OLED's language from the config (the host's choice, if any, wins).
        self.lang = lang
        self._menu: Menu | None = None
        #: A refusal or note shown over everything until the next key: (title, text).
        self._notice: tuple[str, str] | None = None
        #: Ended games whose results were read (OK), so they are never shown again.
        self._dismissed: set[int] = set()

    # --- other threads ------------------------------------------------------------------------
    def start(self) -> None:
        """Registers with the session and starts the loop (draws the first frame)."""
        self.session.add_listener(self._changed)
        self._thread = threading.Thread(target=self._run, name="pad-oled", daemon=True)
        self._thread.start()
        self._put(_REDRAW)

    def add_frame_listener(self, listener: Callable[[Image.Image], None]) -> None:
        """``listener(image)`` is called on the loop thread with every new frame, before the
        frame version moves on (it must not block)."""
        self._frame_listeners.append(listener)

    def submit(self, event: Input) -> None:
        """Queues one input (from any thread)."""
        self._put(event)

    def _changed(self, game_id: int | None, version: int) -> None:
        """A committed change (on the session thread). Another table's move is not drawn when
        the OLED shows a game: it cannot change the frame, and the pad must not queue behind
        other tables' redraws (issue 15). ``_watching`` is set before the pad reads a game's
        snapshot, so a change published after that read is never skipped."""
        watching = self._watching
        if (game_id is not None and watching is not None and game_id != watching
                and self._menu is None and game_id != self.session.pad()["game"]):
            return
        self.submit_redraw()

    def submit_redraw(self) -> None:
        """Queues a redraw (e.g. the die came or went: the start screen says so), unless one
        is already waiting: a redraw draws whatever is current when it runs."""
        with self._idle:
            if self._redraw_queued:
                return
            self._redraw_queued = True
        self._put(_REDRAW)

    def _put(self, item: object) -> None:
        with self._idle:
            self._pending += 1
        self._queue.put(item)

    def wait_idle(self, timeout: float) -> bool:
        """Waits until every queued item was handled and drawn; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    @property
    def frame_version(self) -> int:
        """Bumped each time the frame's pixels change."""
        with self._idle:
            return self._frame_version

    def frame(self) -> Image.Image:
        """A copy of the current frame (what the OLED shows, or would show)."""
        with self._idle:
            return self._frame.copy()

    def frame_png(self) -> bytes:
        out = io.BytesIO()
        self.frame().save(out, format="PNG")
        return out.getvalue()

    def wait_frame(self, since: int, timeout: float) -> int:
        """Waits until the frame version exceeds ``since``; returns the current version."""
        with self._idle:
            self._idle.wait_for(lambda: self._frame_version > since, timeout)
            return self._frame_version

    @property
    def game_id(self) -> int | None:
        """The game the pad is on (None on the start screen)."""
        on = self._on
        return on.game_id if on is not None else None

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

    def language(self) -> str:
        """The language the OLED speaks now: the host's choice, else the config's (English
        when the Japanese font is missing)."""
        try:
            chosen = self.session.pad()["language"]
        except SessionError:
            chosen = None
        return speaks(chosen or self.lang)

    def oled_status(self) -> str:
        """``ok``, ``missing`` (with why) or ``error: ...`` for `Device.status`."""
        if self.display is None:
            return self.display_problem or "missing"
        problem = self.display.problem
        return "ok" if problem is None else f"error: {problem} (retrying)"

    def close(self) -> None:
        """Stops the loop; idempotent. The display is closed by its owner."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(5.0)

    # --- the loop thread ----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            needs_retry = (self.display is None and self._open_display is not None) or (
                self.display is not None and self.display.problem is not None)
            try:
                item = self._queue.get(timeout=self.retry_interval if needs_retry else None)
            except queue.Empty:
                self._retry_display()
                continue
            if item is _STOP:
                return
            if item is _REDRAW:
                with self._idle:
                    self._redraw_queued = False
            try:
                if isinstance(item, Input):
                    self._feed(item)
                self._redraw()
            except Exception:  # a bug in one screen must not stop the pad
                log.exception("pad: failed on %r", item)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def _status(self, game_id: int) -> GameStatus | None:
        try:
            return self.session.summary(game_id)["status"]
        except NoSuchGame:
            return None

    def _table(self, game_id: int, kind: str) -> Table:
        box = self.games.get(kind)
        return Table(game_id, lambda seat: self.session.view(game_id, seat),
                     lang=self.language(), words=box.words if box is not None else None,
                     name=box.rules.name if box is not None else kind,
                     refusals=box.refusals if box is not None else (),
                     onward=lambda: self._onward(game_id),
                     scored=box.scored if box is not None else None)

    def _on_table(self, on: _OnGame) -> Table:
        return self._table(on.game_id, on.kind)

    def _title(self, game_id: int | None) -> str:
        """A game's name in the OLED's language (the box's name for no game)."""
        if game_id is not None:
            try:
                kind = self.session.summary(game_id)["game"]
            except NoSuchGame:
                kind = None
            box = self.games.get(kind) if kind is not None else None
            if box is not None:
                return box.name(self.language())
        return say(WORDS, "box", self.language())

    def _entries(self) -> list[Row]:
        """The games being played, oldest first, then the seats of the pad's game when the box
        can play them, as the games menu lists them."""
        lang = self.language()
        entries: list[Row] = []
        seats: list[Row] = []
        pad = self.session.pad()["game"]
        for summary in sorted(self.session.games(status="active"), key=lambda g: g["id"]):
            box = self.games.get(summary["game"])
            title = box.name(lang) if box is not None else summary["game"]
            players = ",".join(shown_name(n, i) for i, n in enumerate(summary["seats"]))
            entries.append(MenuEntry(summary["id"], title, players))
            if summary["id"] == pad and box is not None and box.bots:
                bots = summary["bots"] or [None] * len(summary["seats"])
                seats += [SeatEntry(pad, seat, shown_name(name, seat), bots[seat],
                                    tuple(box.bots))
                          for seat, name in enumerate(summary["seats"])]
        return entries + seats

    def _onward(self, game_id: int) -> Onward:
        """Where OK leads after the results of ``game_id`` (see :class:`Onward`)."""
        summary = self.session.summary(game_id)
        if summary["tournament"] is not None:
            games = self.session.tournament(summary["tournament"])["games"]
            later = games[games.index(game_id) + 1:] if game_id in games else []
            if later and self._status(later[0]) == "active":
                view = self.session.view(later[0], None)
                to_act = [s for s in view.get("to_act") or [] if isinstance(s, int) and s >= 0]
                seats = list(view.get("seats") or [])
                player = (shown_name(str(seats[to_act[0]]), to_act[0])
                          if to_act and to_act[0] < len(seats) else None)
                return Onward("next", player)
        pad = self.session.pad()["game"]
        if pad is not None and pad != game_id and self._status(pad) == "active":
            return Onward("game")
        live = [g for g in self.session.games(status="active") if g["id"] != game_id]
        if len(live) > 1:
            return Onward("menu")
        return Onward("game") if live else Onward("start")

    def _choose(self, game_id: int | None) -> bool:
        """Makes ``game_id`` the pad's game (chosen on the pad); a refusal becomes a notice."""
        try:
            self.session.set_pad_game(game_id, "pad")
        except (RulesError, SessionError) as error:
            log.info("pad: choosing game %s refused: %s", game_id, error)
            self._notice = (self._title(None), str(error))
            return False
        return True

    def _current(self) -> _OnGame | None:
        """The game the pad shows (see the module docstring); may open the games menu."""
        self._watching = None  # every change is drawn until the pad knows its game again
        pad = self.session.pad()
        if self._menu is not None and self._menu.must_choose and pad["game"] is not None and (
                self._status(pad["game"]) == "active"):
            self._menu = None  # the menu asked for a game, and the pad has one now (the host's)
        on = self._on
        if on is not None:
            status = self._status(on.game_id)
            waiting = status == "finished" and not on.state.done and (
                on.game_id == pad["game"] or pad["by"] == "next")
            if (status == "active" and on.game_id == pad["game"]) or waiting:
                self._watching = on.game_id
                return on
            self._on = None
            if status == "finished" and on.state.done:
                self._dismissed.add(on.game_id)
            if on.game_id == pad["game"] and status != "active":
                self._move_on()
                pad = self.session.pad()
        target = pad["game"]
        status = self._status(target) if target is not None else None
        if target is None or status == "abandoned" or status is None or (
                status == "finished" and target in self._dismissed):
            return self._no_pad_game()
        kind = self.session.summary(target)["game"]
        registration = self.games.get(kind)
        if registration is None or registration.pad is None:
            return None
        controller = registration.pad
        self._watching = target  # before its snapshot is read
        on = _OnGame(target, kind, controller, pad_start(controller, self._table(target, kind)))
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

    def _feed(self, event: PadEvent) -> None:
        """One event through the menu or the current game's controller, then the actions it
        asks for, each answered back to it (accepted or refused)."""
        if isinstance(event, Input) and self._notice is not None:
            self._notice = None  # any key closes a notice
            return
        if isinstance(event, Input) and event.kind == "menu":
            self._toggle_menu()
            return
        on = self._current()
        if self._menu is not None:
            if isinstance(event, Input):
                self._menu_input(event)
            return
        if on is None:
            if isinstance(event, Input) and event.kind != "back":
                self._notice = (self._title(None), say(WORDS, "no_game", self.language()))
            return
        table = self._on_table(on)
        step = pad_step(on.controller, on.state, event, table)
        on.state = step.state
        for command in step.commands:
            answer = self._send(on.game_id, command)
            step = pad_step(on.controller, on.state, answer, self._on_table(on))
            on.state = step.state

    def _toggle_menu(self) -> None:
        if self._menu is not None and not self._menu.must_choose:
            self._menu = None
            return
        current = self.session.pad()["game"]
        self._menu = self._menu or open_menu(self._entries(), current)

    def _menu_input(self, event: Input) -> None:
        assert self._menu is not None
        result = menu_step(self._menu, event, self._entries(), self.language())
        self._menu = result.menu
        if result.refusal is not None:
            self._notice = (say(WORDS, "menu_title", self.language()), result.refusal)
        if result.chosen is not None and result.chosen != self.session.pad()["game"]:
            self._choose(result.chosen)
        if result.seat is not None:
            self._seat(result.seat)

    def _seat(self, change: SeatChange) -> None:
        """Hands a seat of the pad's game to the box or back to a person (the games menu); a
        refusal (a phone holds the seat...) becomes a notice."""
        try:
            self.session.seat_bot(change.game_id, change.seat, change.level)
        except (RulesError, SessionError) as error:
            log.info("pad: seat %d of game %d refused: %s", change.seat, change.game_id, error)
            self._notice = (say(WORDS, "menu_title", self.language()), str(error))

    def _send(self, game_id: int, command: Command) -> Accepted | Refused | Hinted:
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
            text = say(WORDS, "not_pad_game", self.language(), game=self._title(game_id),
                       id=game_id, pad=f"{self._title(pad)} {pad}" if pad else "-")
            self._notice = (self._title(pad), text)
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

    def _draw(self) -> Image.Image:
        lang = self.language()
        if self._notice is not None:
            title, text = self._notice
            return refused_screen(text, title=title, lang=lang)
        on = self._current()
        if self._menu is not None:
            return menu_screen(self._menu, self._entries(), self.session.pad()["game"], lang)
        if on is None:
            note = self._note() if self._note is not None else None
            return start_screen(self.url, self.session.host_pin, note=note, lang=lang)
        try:
            step = pad_step(on.controller, on.state, Changed(), self._on_table(on))
            on.state = step.state
            return step.screen()
        except Exception as error:
            log.exception("pad: drawing game %s failed", on.game_id)
            return message_screen(say(WORDS, "error", lang), str(error), lang=lang)

    def _redraw(self) -> None:
        image = self._draw()
        # the display first, then the version: whoever sees the new version (the simulator's
        # /device page) finds the new image on the OLED
        if self.display is not None:
            self.display.show(image)
        with self._idle:
            if image.tobytes() != self._frame.tobytes():
                for listener in self._frame_listeners:
                    listener(image.copy())
                self._frame = image
                self._frame_version += 1
                self._idle.notify_all()

    def _retry_display(self) -> None:
        if self.display is None and self._open_display is not None:
            try:
                self.display = self._open_display()
            except Exception as error:
                self.display_problem = f"missing: {error}"
                return
            self.display_problem = None
            log.info("OLED found")
        if self.display is not None:
            self.display.retry()
