"""The pad's game and the box's language: box-wide settings, journaled in ``meta``.

The pad plays one game at a time: the one the host or the pad's games menu chose, else the
newest game begun while the pad had none, and a tournament's next game when its last one was
the pad's (docs/session-api.md, "The pad's game").
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.commands import BOX, Done, Step, kinds
from firmware_host.errors import NotAllowed
from firmware_host.journal import Journal
from firmware_host.session_api import PadChooser
from firmware_host.session_state import Live, PadChoice, Session

log = logging.getLogger(__name__)

#: The languages the box's OLED speaks.
BOX_LANGUAGES = ("en", "ja")


def set_setting(journal: Journal, key: str, value: Any) -> None:
    """Keep a box-wide setting (JSON) in ``meta`` under ``setting.KEY``: no schema change,
    journaled like any write."""
    journal.write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                  (f"setting.{key}", json.dumps(value)))


def write_pad(session: Session, game_id: int | None, by: PadChooser) -> PadChoice:
    """Inside the caller's transaction: the pad's new game; returns the setting to show once
    committed."""
    set_setting(session.journal, "pad", {"game": game_id, "by": by})
    return replace(session.pad, game=game_id, by=by if game_id is not None else "none")


def pad_takes(session: Session, game_id: int) -> PadChoice | None:
    """A new game becomes the pad's when the pad has no game being played."""
    if session.pad.game in session.live:
        return None
    return write_pad(session, game_id, "auto")


def pad_follows(session: Session, ended: int, follow_up: Live | None) -> PadChoice | None:
    """A tournament's next game becomes the pad's when its previous game was."""
    if follow_up is None or session.pad.game != ended:
        return None
    return write_pad(session, follow_up.row.id, "next")


@dataclass(frozen=True)
class SetPadGame:
    """The pad follows ``game_id`` (a game being played; ``None``: no game), chosen by the
    ``host`` or on the ``pad``."""

    game_id: int | None
    by: PadChooser

    def check(self, session: Session) -> Step[None]:
        game_id = self.game_id
        if game_id is not None:
            if isinstance(game_id, bool) or not isinstance(game_id, int):
                raise NotAllowed(f"the pad's game is a game number, got {game_id!r}")
            if game_id not in session.live:
                snap = session.snapshots.game(game_id)  # NoSuchGame for an unknown one
                raise NotAllowed(f"game {game_id} is {snap.status}: the pad follows games "
                                 "being played")
        if self.by not in ("host", "pad"):
            raise NotAllowed(f"the pad's game is chosen by the host or on the pad, not "
                             f"{self.by!r}")

        def done(pad: PadChoice, version: int | None) -> Done[None]:
            session.pad = pad
            log.info("the pad is on game %s (chosen by the %s)", game_id, self.by)
            return Done(None, kinds=kinds(BOX))

        return Step(lambda version: write_pad(session, game_id, self.by), done)


@dataclass(frozen=True)
class SetBoxLanguage:
    """The box's language, as the host chose it (``None``: the config's)."""

    language: str | None

    def check(self, session: Session) -> Step[None]:
        language = self.language
        if language is not None and language not in BOX_LANGUAGES:
            raise NotAllowed(f"the box speaks {' or '.join(BOX_LANGUAGES)}, not {language!r}")

        def done(_: None, version: int | None) -> Done[None]:
            session.pad = replace(session.pad, language=language)
            log.info("the box's language: %s", language or "the config's")
            return Done(None, kinds=kinds(BOX))

        return Step(lambda version: set_setting(session.journal, "language", language), done)
