"""The phones' live streams: what each one is owed, and the thread that writes them.

A :class:`LiveStream` is one phone's stream as data — the version and seat it was last sent, its
own keep-alive and lifetime clocks — with :meth:`LiveStream.poll`, which says what to send now,
and :func:`writes`, the stream's writes in time (between them it blocks on the stream's own
game: :meth:`LiveStream.wait`). That is the one description of a stream's behaviour (the table
screen's, ``web_panel.table_stream``, is one with more to say); two drivers run it:

- :class:`LiveStreams`, once the server has handed the connection over (``web_panel.serving``):
  **one thread feeds every stream**. It wakes once per committed change (after the request that
  made it has its answer: ``SessionThread.after``), polls every stream — only those of the
  changed game have anything to send, and their events are worked out once per viewer class
  (``web_panel.view_events``) — queues each phone's bytes in its connection's output buffer
  without a system call, and then wakes the server's loop once, which sends them all. A thread
  per stream (the design before) woke 15 threads per change at a busy table, each making its
  own socket writes, and every write handed the GIL round: the acting request and the pad
  waited behind them (act p99 ~57 ms, press → OLED p99 ~13 ms at 30 phones;
  ``docs/benchmarks.md``, "Busy table");
- a generator (``web_panel.events``) under any other WSGI server, holding its request's thread.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
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
#: The longest a stream sleeps: how soon it notices a phone that hung up, and a closing panel.
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
        """What the stream starts with: how soon to reconnect, then what the phone lacks. A
        phone already up to date is sent nothing, but the event of the version it holds is
        built now (once per viewer class and version, shared), so that its first change comes
        as a delta from it, with its moves, rather than as the whole view."""
        data, _ = self.poll(now)
        if not data and self.game_id >= 0 and self.last >= 0:
            self.events.current(self.game_id, self.last_seat)
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

    def wait(self, timeout: float) -> None:
        """Wait, at most ``timeout`` seconds, for a change this stream may owe an event for:
        its own game's."""
        self.session.wait_for_game(self.game_id, self.last, timeout)

    def end(self) -> None:
        """The stream is over (ended, or its phone hung up): ``on_end`` runs once."""
        if self._ended.acquire(blocking=False):
            self._on_end()


def writes(stream: LiveStream, closing: threading.Event,
           gone: Callable[[], bool]) -> Iterator[bytes]:
    """What ``stream`` writes after its opening, each when it is due, until it is over, the
    panel is ``closing`` or the phone is ``gone`` (checked at least every
    :data:`WAIT_SLICE`): between writes it waits for the changes it may owe an event for
    (:meth:`LiveStream.wait`: its own game's)."""
    while not closing.is_set():
        if gone():
            return
        data, over = stream.poll(time.monotonic())
        if data:
            yield data
        if over:
            return
        remaining = stream.due() - time.monotonic()
        if remaining > 0:
            stream.wait(min(remaining, WAIT_SLICE))


class Connection(Protocol):
    """A handed-over phone connection (``web_panel.serving``)."""

    def gone(self) -> bool:
        """Whether the phone hung up (or the connection is closing)."""
        ...

    def write(self, data: bytes) -> bool:
        """Queue ``data`` to be sent (no system call: :meth:`push` sends); ``False`` if the
        phone is gone, or so far behind that the stream should end (it reconnects and
        resumes)."""
        ...

    @property
    def waker(self) -> Hashable:
        """What :meth:`push` wakes (connections with the same waker need one push)."""
        ...

    def push(self) -> None:
        """Have what was queued on this connection (and on any of the same waker) sent."""
        ...

    def close(self) -> None:
        """End the response and close the connection."""
        ...


class LiveStreams:
    """The handed-over live streams, all fed by one thread (``live``, started with the first)
    that wakes at each committed change and when a stream is due (a keep-alive, its end); a
    stream ends when it is over, its phone hangs up or falls behind, or the panel is
    ``closing``."""

    def __init__(self, session: SessionApi, closing: threading.Event) -> None:
        self.session = session
        self.closing = closing
        self._streams: dict[LiveStream, Connection] = {}
        self._lock = threading.Lock()
        #: Held while streams are polled and written: by the feeder, or by :meth:`add`.
        self._feeding = threading.Lock()
        self._thread: threading.Thread | None = None

    def handover(self, stream: LiveStream) -> Handover:
        """What the server is handed for ``stream`` (``web_panel.serving.HAND_OVER``)."""
        return Handover(self, stream)

    def add(self, stream: LiveStream, connection: Connection) -> None:
        """Write ``stream`` through ``connection`` from now on (its opening is sent)."""
        with self._feeding:  # the feeder is between feeds: it cannot miss a change to this one
            with self._lock:
                if self.closing.is_set():
                    ended = True
                else:
                    ended = False
                    self._streams[stream] = connection
                    if self._thread is None:
                        self._thread = threading.Thread(target=self._run, name="live",
                                                        daemon=True)
                        self._thread.start()
            if ended:
                self._end(stream, connection)
            else:  # a change since its opening, perhaps after the feeder last looked
                self._feed_one(stream, connection, time.monotonic())

    @property
    def count(self) -> int:
        """How many handed-over streams are running."""
        with self._lock:
            return len(self._streams)

    def close(self, timeout: float = 5.0) -> None:
        """End every stream (after the panel's ``closing`` is set)."""
        with self._lock:
            thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(timeout)
        self._end_all()

    def _run(self) -> None:
        try:
            since = self.session.version()
            while not self.closing.is_set():
                due = self._feed(time.monotonic())
                wait = min(WAIT_SLICE, max(0.0, due - time.monotonic()))
                if wait > 0:
                    self.session.wait_for_change(since, wait)
                since = self.session.version()  # read before the next feed: none is missed
        except Exception:
            log.exception("the live streams' thread failed; the phones reconnect and resume")
        finally:
            self._end_all()

    def _feed(self, now: float) -> float:
        """Write what each stream is owed now; returns when the next one is due."""
        with self._feeding:
            with self._lock:
                streams = list(self._streams.items())
            woken: dict[Hashable, Connection] = {}
            due = now + WAIT_SLICE
            for stream, connection in streams:
                wrote, over = self._write_owed(stream, connection, now)
                if over:
                    self._drop(stream)
                    continue
                if wrote:
                    woken[connection.waker] = connection
                due = min(due, stream.due())
            for connection in woken.values():
                connection.push()
            return due

    def _feed_one(self, stream: LiveStream, connection: Connection, now: float) -> None:
        wrote, over = self._write_owed(stream, connection, now)
        if over:
            self._drop(stream)
        elif wrote:
            connection.push()

    @staticmethod
    def _write_owed(stream: LiveStream, connection: Connection, now: float) -> tuple[bool, bool]:
        """Queue what ``stream`` is owed now: (whether anything was queued, whether it is
        over)."""
        try:
            if connection.gone():
                return False, True
            data, over = stream.poll(now)
            if data and not connection.write(data):
                return False, True
            return bool(data), over
        except Exception:  # this stream ends; its phone reconnects and resumes
            log.exception("live stream of game %d failed", stream.game_id)
            return False, True

    def _drop(self, stream: LiveStream) -> None:
        with self._lock:
            connection = self._streams.pop(stream, None)
        if connection is not None:
            self._end(stream, connection)

    def _end_all(self) -> None:
        with self._lock:
            streams, self._streams = self._streams, {}
            self._thread = None
        for stream, connection in streams.items():
            self._end(stream, connection)

    @staticmethod
    def _end(stream: LiveStream, connection: Connection) -> None:
        try:
            connection.close()
        except Exception:
            log.exception("closing a live stream of game %d failed", stream.game_id)
        finally:
            stream.end()


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
