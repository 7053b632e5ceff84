"""The live streams' events, built once and shared.

A stream event carries its phone's own view — the whole view (``event: view``), or a delta from
the view that phone has (``event: delta``, :mod:`web_panel.view_delta`). Views are per seat, not
per phone: every spectator of a game shares one, each player shares theirs with their other
devices, so a change costs one view per viewer class, however many phones watch.

Each event is serialised once, when its view is built, together with the delta from the view
that viewer class was last sent (which is the view its streaming phones hold); the delta is kept
only when it is smaller than the whole view. Only the newest view *object* of each viewer class
is kept, to diff the next one against: the older ones are kept as event texts alone, so the
shared results stay small and cost the garbage collector nothing to scan.

A delta also carries the moves made since the view it applies to (``moves``: the log's length
then, and the moves after it, as that viewer class may read them), so a phone draws the board
and its move log in one go rather than asking for the log after every change. Whether the log
still begins as it did is told by the last move that viewer class was sent: the read side lists
a log that only grew with the very same move objects, and builds new ones after an undo
(:class:`firmware_host.read_side.MoveLog`). After an undo the delta says so (``moves``:
``[0, null]``, the phone asks for the whole log again). A whole view carries none: the phone
asks for the whole log again, as it cannot tell whether an undo came between (a view polled or
sent after a reconnect may follow one).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from firmware_host.session_api import Move, SessionApi, View
from firmware_host.shared_results import SharedResults
from web_panel.move_log import readable
from web_panel.view_delta import delta

#: A viewer class: (game, seat — ``None`` for spectators).
Viewer = tuple[int, int | None]


@dataclass(frozen=True)
class _Built:
    """One viewer class's events for one version, encoded once for every stream."""

    version: int
    full: bytes
    #: The version this delta applies to and its event, when smaller than ``full``.
    delta_from: int | None = None
    delta: bytes | None = None


@dataclass(frozen=True)
class _Sent:
    """The newest view built for a viewer class, and the log its phones were last sent: its
    length and its last move (the very object the read side listed)."""

    view: View
    moves: int
    last: Move | None


class ViewEvents:
    """Event texts per (game, seat, version), shared by every stream."""

    def __init__(self, session: SessionApi, private: Callable[[str], Collection[str]],
                 size: int = 64, viewers: int = 48) -> None:
        self.session = session
        #: A game's private verbs (``PanelGame.private_moves``), by the game's name.
        self.private = private
        #: Streams only ever ask for their game's current version (a phone behind gets the
        #: delta from the version before, or the whole view), so ``size`` need only cover the
        #: viewer classes being watched: older versions are never asked for again. (At 256,
        #: the whole views of a busy evening's older versions held ~3 MiB for nothing.)
        self._built: SharedResults[tuple[int, int | None, int], _Built] = SharedResults(size)
        #: The newest view built for each of the last ``viewers`` viewer classes (those of
        #: ended games fall out first; a viewer class dropped gets whole views, never wrong).
        self._newest: OrderedDict[Viewer, _Sent] = OrderedDict()
        self._newest_size = viewers
        self._lock = threading.Lock()

    def current(self, game_id: int, seat: int | None) -> tuple[int, bytes]:
        """The game's version now and the ``view`` event for it (built once per version)."""
        built = self._get(game_id, seat)
        return built.version, built.full

    def since(self, game_id: int, seat: int | None, base: int) -> tuple[int, bytes]:
        """The event that brings a phone holding version ``base`` up to date: the delta when it
        applies to ``base`` and is the smaller, else the whole view."""
        built = self._get(game_id, seat)
        if built.delta is not None and built.delta_from == base:
            return built.version, built.delta
        return built.version, built.full

    def _get(self, game_id: int, seat: int | None) -> _Built:
        version = self.session.game_version(game_id)
        return self._built.get((game_id, seat, version),
                               lambda: self._build(game_id, seat))

    def _build(self, game_id: int, seat: int | None) -> _Built:
        viewer = (game_id, seat)
        with self._lock:
            previous = self._newest.get(viewer)
        view = self.session.view(game_id, seat)
        # the view may be newer than the version read a moment ago: its own version is its id
        version: int = view["version"]
        data = json.dumps({"version": version, "view": view}, ensure_ascii=False,
                          separators=(",", ":"))
        full = event_text(version, "view", data).encode()
        # the log from the last move this viewer class was sent (read after the view: never
        # behind it); the read side lists a log that only grew with the very same moves
        since = max(0, previous.moves - 1) if previous is not None else 0
        tail = self.session.moves(game_id, since)
        grew = (previous is None or previous.last is None
                or (bool(tail) and tail[0] is previous.last))
        if grew:  # (with nothing sent before, ``since`` is 0 and ``tail`` the whole log)
            sent = _Sent(view, since + len(tail), tail[-1] if tail else None)
        else:  # an undo: the log as it now is, whole
            whole = self.session.moves(game_id)
            sent = _Sent(view, len(whole), whole[-1] if whole else None)
        with self._lock:
            newest = self._newest.get(viewer)
            if newest is None or newest.view["version"] < version:
                self._newest[viewer] = sent
                self._newest.move_to_end(viewer)
                while len(self._newest) > self._newest_size:
                    self._newest.popitem(last=False)
        if previous is None or previous.view["version"] >= version:
            return _Built(version, full)
        base = previous.view["version"]
        log: list[Any] = [0, None]  # the log no longer begins as it did: the phone asks again
        if grew:
            private = self.private(str(view.get("game", "")))
            new = tail if previous.last is None else tail[1:]
            log = [previous.moves, readable(new, private, seat, view.get("status") != "active")]
        text = _delta_event(previous.view, view, base, version, log).encode()
        if len(text) >= len(full):
            return _Built(version, full)
        return _Built(version, full, base, text)


def _delta_event(old: View, new: View, base: int, version: int, log: list[Any]) -> str:
    data = json.dumps({"version": version, "base": base, "ops": delta(old, new), "moves": log},
                      ensure_ascii=False, separators=(",", ":"))
    return event_text(version, "delta", data)


def event_text(version: int, kind: str, data: str) -> str:
    """One SSE event: its id (the game's version), its kind and its JSON data on one line."""
    return f"id: {version}\nevent: {kind}\ndata: {data}\n\n"
