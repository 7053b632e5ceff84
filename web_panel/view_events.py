"""The live streams' events, built once and shared.

A stream event carries its phone's own view — the whole view (``event: view``), or a delta from
the view that phone has (``event: delta``, :mod:`web_panel.view_delta`). Views are per seat, not
per phone: every spectator of a game shares one, each player shares theirs with their other
devices, so a change costs one view per viewer class, however many phones watch. Each event is
serialised once and kept (a small LRU), and a delta is sent only when it is smaller than the
view.
"""

from __future__ import annotations

import json

from firmware_host.session_api import SessionApi, View
from firmware_host.shared_results import SharedResults
from web_panel.view_delta import delta

#: A viewer class: (game, seat — ``None`` for spectators).
Viewer = tuple[int, int | None]


class ViewEvents:
    """Views and event texts per (game, seat, version), shared by every stream."""

    def __init__(self, session: SessionApi, size: int = 256) -> None:
        self.session = session
        self._views: SharedResults[tuple[int, int | None, int], tuple[View, str]] = (
            SharedResults(size))
        self._deltas: SharedResults[tuple[int, int | None, int, int], str] = SharedResults(size)

    def current(self, game_id: int, seat: int | None) -> tuple[int, str]:
        """The game's version now and the ``view`` event for it (built once per version)."""
        version = self.session.game_version(game_id)
        key = (game_id, seat, version)
        _, text = self._views.get(key, lambda: self._build(game_id, seat, version))
        return version, text

    def since(self, game_id: int, seat: int | None, base: int) -> tuple[int, str]:
        """The event that brings a phone holding version ``base`` up to date: a delta when the
        view of ``base`` is still known and the delta is the smaller, else the whole view."""
        version, full = self.current(game_id, seat)
        known = self._views.peek((game_id, seat, base))
        now = self._views.peek((game_id, seat, version))
        if (known is None or now is None or base == version
                or known[0]["version"] != base or now[0]["version"] != version):
            return version, full
        text = self._deltas.get((game_id, seat, base, version),
                                lambda: _delta_event(known[0], now[0], base, version, full))
        return version, text

    def _build(self, game_id: int, seat: int | None, version: int) -> tuple[View, str]:
        view = self.session.view(game_id, seat)
        # the view may be newer than the version read a moment ago: its own version is its id
        data = json.dumps({"version": view["version"], "view": view}, ensure_ascii=False,
                          separators=(",", ":"))
        return view, event_text(view["version"], "view", data)


def _delta_event(old: View, new: View, base: int, version: int, full: str) -> str:
    ops = delta(old, new)
    data = json.dumps({"version": version, "base": base, "ops": ops}, ensure_ascii=False,
                      separators=(",", ":"))
    text = event_text(version, "delta", data)
    return text if len(text) < len(full) else full


def event_text(version: int, kind: str, data: str) -> str:
    """One SSE event: its id (the game's version), its kind and its JSON data on one line."""
    return f"id: {version}\nevent: {kind}\ndata: {data}\n\n"
