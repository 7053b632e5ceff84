"""The part every game's pad controller shares: acting through the companion, refusals, and
drawing only from the companion's published views (shown means saved)."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any, Protocol

from PIL import Image

from firmware_host.errors import SessionError
from firmware_host.pad.inputs import Input
from firmware_host.screens.message import refusal_pages, refused_screen
from rules import RulesError

log = logging.getLogger(__name__)


class Session(Protocol):
    """The part of `firmware_host.companion.Companion` the pad uses."""

    def view(self, game_id: int, seat: int | None) -> dict[str, Any]: ...
    def act(self, game_id: int, seat: int, action: str) -> dict[str, Any]: ...


class Controller(ABC):
    """Turns inputs for one game into actions, and draws its frame from fresh views.

    ``handle`` runs on the pad's own thread, never on gpiozero's or the session's.
    """

    def __init__(self, session: Session, game_id: int) -> None:
        self.session = session
        self.game_id = game_id
        #: The rules' message for the last refused action, shown until the next key.
        self.refusal: str | None = None
        self.refusal_page = 0
        #: Set when OK was pressed on the ended game's last screen: the pad may leave it.
        self.done = False

    def act(self, seat: int, action: str) -> bool:
        """Sends ``action`` for ``seat``; on a refusal keeps its message and returns False."""
        try:
            self.session.act(self.game_id, seat, action)
        except (RulesError, SessionError) as error:
            log.info("pad: %s for seat %s refused: %s", action, seat, error)
            self.refuse(str(error) or "not allowed")
            return False
        self.refusal = None
        return True

    def refuse(self, message: str) -> None:
        """Shows ``message`` as a refusal until the next key."""
        self.refusal, self.refusal_page = message, 0

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.session.view(self.game_id, seat)

    def handle(self, event: Input) -> None:
        """One input. A refusal on screen takes it first: OK shows its next page, any other
        key (or OK on the last page) closes it."""
        if self.refusal is not None:
            if event.kind == "ok" and self.refusal_page + 1 < refusal_pages(self.refusal):
                self.refusal_page += 1
            else:
                self.refusal = None
            return
        if self.view().get("outcome") and self.final_screen_shown():
            self.done = self.done or event.kind == "ok"
            return
        self.on_input(event)

    def final_screen_shown(self) -> bool:
        """Whether the ended game's final screen is up (UNLOCK shows its reveal first)."""
        return True

    def frame(self) -> Image.Image:
        if self.refusal is not None:
            return refused_screen(self.refusal, self.refusal_page)
        return self.draw()

    @abstractmethod
    def on_input(self, event: Input) -> None:
        """React to one input (may call `act`)."""

    @abstractmethod
    def draw(self) -> Image.Image:
        """The frame for the current views and this controller's UI state."""
