"""The move log as a phone may read it: every move's player, time and public figures, and an
action's text only when it is public — a private action (UNLOCK's codes,
``PanelGame.private_moves``) only for its author while the game goes on. The same reading for
the log's own answers (``/api/games/<id>/moves``) and for the moves a live stream's event
carries (:mod:`web_panel.view_events`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from firmware_host.session_api import Move


def readable(moves: Iterable[Move], private: Collection[str], seat: int | None,
             ended: bool) -> list[dict[str, Any]]:
    """``moves`` as ``seat`` (``None``: a spectator) may read them."""
    out = []
    for move in moves:
        verb = move["action"].split(" ", 1)[0]
        shown = ended or verb not in private or (seat is not None and move["seat"] == seat)
        out.append({"step": move["step"], "seat": move["seat"], "verb": verb,
                    "action": move["action"] if shown else None, "by": move["by"],
                    "time": move["time"], "scores": move["scores"]})
    return out
