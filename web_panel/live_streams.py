"""The phones' live streams: what each one is owed, and one thread that feeds them all.

A :class:`LiveStream` is one phone's stream as data — the version and seat it was last sent, its
own keep-alive and lifetime clocks — with :meth:`LiveStream.poll`, which says what to send now.
It is the one description of a stream's behaviour; two drivers run it:

- :class:`LiveStreams`, once the server has handed the connection over (``web_panel.serving``):
  a single thread writes every stream's events, woken by the session after each commit of a
  game that has streams. A phone watching costs no thread, so the server keeps a small pool
  for pages and actions only, and the C allocator's per-thread caches stay few;
- a blocking generator (``web_panel.events``) under any other WSGI server (the test client),
  holding a thread per stream as before.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from firmware_host.session_api import SessionApi
from web_panel.view_events import ViewEvents

log = logging.getLogger(__name__)

#: How soon a phone reconnects after the server ends a stream (milliseconds).
RETRY_MS = 1000
RETRY = f"retry: {RETRY_MS}\n\n".encode()
#: The event a phone gets when the host re-issued its seat to another phone.
REPLACED = ("event: replaced\ndata: " + json.dumps(
    {"message": "The host gave your seat to another phone; this one now watches the game."})
    + "\n\n").encode()
KEEP_ALIVE = b": keep-alive\n\n"
#: The longest the feeding thread sleeps: how soon it notices a phone that hung up, and a
#: closing panel.
WAIT_SLICE = 1.0


def seat_for_token(session: SessionApi, game_id: int, token: str) -> int | None:
    """The seat ``token`` holds in ``game_id`` now (``None``: none)."""
    if not token or len(token) > 200:
        return None
    return session.seat_for_token(game_id, token)


class LiveStream:
    """One phone's live stream of ``game_id``: the events that bring it up to date, keep-alives
    counted from its own last write, and its end after ``lifetime`` seconds (the phone
    reconnects and resumes with ``Last-Event-ID``). The seat is looked up from the token at
    every change, so a re-issued seat stops receiving at once."""

    def __init__(self, session: SessionApi, events: ViewEvents, game_id: int, token: str,
                 since: int, *, keepalive: float, lifetime: float, now: float,
                 on_end: Callable[[], None] = lambda: None) -> None:
        self.session = session
        self.events = events
        self.game_id = game_id
        self.token = token
        #: The version and seat of what the phone was last sent (``since``: what it says it
        #: has, ``-1`` for nothing).
        self.last = since
        self.last_seat = seat_for_token(session, game_id, token)
        self.keepalive = keepalive
        self.lifetime = lifetime
        self.started = self.sent_at = now
        self._on_end = on_end
        self._ended = threading.Lock()

    def opening(self, now: float) -> bytes:
        """What the stream starts with: how soon to reconnect, then what the phone lacks."""
        data, _ = self.poll(now)
        return RETRY + data

    def poll(self, now: float) -> tuple[bytes, bool]:
        """What to send now (maybe nothing), and whether the stream is over."""
        if now - self.started >= self.lifetime:
            return b"", True
        seat = seat_for_token(self.session, self.game_id, self.token)
        version = self.session.game_version(self.game_id)
        out: list[bytes] = []
        if self.last_seat is not None and seat is None:
            # the host gave this seat to another phone: say so, then go on as a spectator
            out.append(REPLACED)
        if version != self.last or seat != self.last_seat:
            if seat == self.last_seat and self.last >= 0:
                version, event = self.events.since(self.game_id, seat, self.last)
            else:
                version, event = self.events.current(self.game_id, seat)
            if version != self.last or seat != self.last_seat:
                out.append(event)
            self.last, self.last_seat = version, seat
        if not out and now - self.sent_at >= self.keepalive:
            out.append(KEEP_ALIVE)
        if out:
            self.sent_at = now
        return b"".join(out), False

    def due(self) -> float:
        """When the stream needs a write without any change: its keep-alive or its end."""
        return min(self.sent_at + self.keepalive, self.started + self.lifetime)

    def end(self) -> None:
        """The stream is over (ended, or its phone hung up): ``on_end`` runs once."""
        if self._ended.acquire(blocking=False):
            self._on_end()


class Connection(Protocol):
    """A phone's connection as the feeding thread sees it (``web_panel.serving``)."""

    def gone(self) -> bool:
        """Whether the phone hung up (or the connection is closing)."""
        ...

    def write(self, data: bytes) -> bool:
        """Send ``data`` without waiting; ``False`` if the phone is gone, or so far behind
        that the connection should end (it reconnects and resumes)."""
        ...

    def close(self) -> None:
        """End the response and close the connection."""
        ...


@dataclass
class _Fed:
    stream: LiveStream
    connection: Connection
    #: Poll at the next wake even without a change (just handed over: a change may have come
    #: between its first event and now).
    fresh: bool = True


@dataclass
class LiveStreams:
    """Every handed-over live stream, fed by one thread (started with the first stream).

    The session calls :meth:`changed` after each commit (on its own thread: it only notes the
    game and wakes the feeder); the feeder polls the streams of the games that changed, and
    any stream whose keep-alive or end is due; every :data:`WAIT_SLICE` it also ends the
    streams whose phones hung up. While ``ending`` is set (the panel's ``closing``) every
    stream ends, new ones at once; :meth:`close` also stops the thread."""

    session: SessionApi
    ending: threading.Event = field(default_factory=threading.Event)
    wait_slice: float = WAIT_SLICE
    _fed: list[_Fed] = field(default_factory=list)
    _changed: set[int] = field(default_factory=set)
    _added: list[_Fed] = field(default_factory=list)
    _closing: bool = False
    _wake: threading.Condition = field(default_factory=threading.Condition)
    _starting: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None

    def handover(self, stream: LiveStream) -> Handover:
        """What the server is handed for ``stream`` (``web_panel.serving.HAND_OVER``)."""
        return Handover(self, stream)

    def add(self, stream: LiveStream, connection: Connection) -> None:
        """Feed ``stream`` through ``connection`` from now on (its first event is sent)."""
        with self._starting:  # the first stream starts the thread (and the session's calls)
            if self._thread is None and not self._closing:
                self.session.add_listener(self.changed)
                self._thread = threading.Thread(target=self._run, name="live-streams",
                                                daemon=True)
                self._thread.start()
        with self._wake:
            closing = self._closing or self.ending.is_set()
            if not closing:
                self._added.append(_Fed(stream, connection))
                self._wake.notify()
        if closing:
            self._end(_Fed(stream, connection))

    def changed(self, game_id: int | None, version: int) -> None:
        """The session's listener: ``game_id`` changed (``None``: nothing a stream shows)."""
        if game_id is None:
            return
        with self._wake:
            if not self._closing:
                self._changed.add(game_id)
                self._wake.notify()

    def close(self, timeout: float = 5.0) -> None:
        """End every stream and stop the thread (the panel is closing)."""
        with self._starting, self._wake:
            self._closing = True
            self._wake.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    @property
    def count(self) -> int:
        """How many streams are being fed."""
        with self._wake:
            return len(self._fed) + len(self._added)

    def _run(self) -> None:
        while True:
            with self._wake:
                if not (self._changed or self._added or self._closing):
                    now = time.monotonic()
                    due = min((f.stream.due() for f in self._fed), default=now + self.wait_slice)
                    self._wake.wait(max(0.0, min(due - now, self.wait_slice)))
                changed, self._changed = self._changed, set()
                self._fed.extend(self._added)
                self._added = []
                closing = self._closing
            if closing or self.ending.is_set():
                for fed in self._fed:
                    self._end(fed)
                self._fed = []
                if closing:
                    return
                continue
            now = time.monotonic()
            self._fed = [fed for fed in self._fed if self._feed(fed, changed, now)]

    def _feed(self, fed: _Fed, changed: set[int], now: float) -> bool:
        """Write what ``fed`` is owed; ``False`` once it has ended."""
        try:
            if fed.connection.gone():
                self._end(fed)
                return False
            if not (fed.fresh or fed.stream.game_id in changed or now >= fed.stream.due()):
                return True
            fed.fresh = False
            data, over = fed.stream.poll(now)
            if (data and not fed.connection.write(data)) or over:
                self._end(fed)
                return False
            return True
        except Exception:  # one broken stream must not stop the others
            log.exception("live stream of game %d failed", fed.stream.game_id)
            self._end(fed)
            return False

    @staticmethod
    def _end(fed: _Fed) -> None:
        try:
            fed.connection.close()
        finally:
            fed.stream.end()


@dataclass(frozen=True)
class Handover:
    """A live stream the server takes off its request thread: :meth:`start` once the
    response's first bytes are written, or :meth:`end` if it never gets that far."""

    streams: LiveStreams
    stream: LiveStream

    def start(self, connection: Connection) -> None:
        self.streams.add(self.stream, connection)

    def end(self) -> None:
        self.stream.end()
