"""The phones' live streams: what each one is owed, and the threads that write them.

A :class:`LiveStream` is one phone's stream as data — the version and seat it was last sent, its
own keep-alive and lifetime clocks — with :meth:`LiveStream.poll`, which says what to send now,
and :func:`writes`, the stream's writes in time (it blocks on the stream's own game between
them). That is the one description of a stream's behaviour; two drivers run it:

- :class:`LiveStreams`, once the server has handed the connection over (``web_panel.serving``):
  each stream runs on a thread of its own that ends with it, so the server's pool of request
  threads serves pages and actions only. A thread's glibc caches of freed memory (``tcache``)
  go when the thread does: a pool thread that served streams in turn kept them for good, and
  80 of them grew the daemon by ~10 MiB over minutes (``docs/benchmarks.md``);
- a generator (``web_panel.events``) under any other WSGI server, holding its request's thread.

One thread feeding every stream was tried and measured: each small socket write gives the GIL
away, so the one writer waited behind the busy threads after every write — delivery p50 rose
from ~0 to 6.5–13 ms and the CPU per action by 12–18 % on the busy-table bench.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
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


def writes(stream: LiveStream, session: SessionApi, closing: threading.Event,
           gone: Callable[[], bool]) -> Iterator[bytes]:
    """What ``stream`` writes after its opening, each when it is due, until it is over, the
    panel is ``closing`` or the phone is ``gone`` (checked at least every
    :data:`WAIT_SLICE`): between writes it waits on its own game's changes only."""
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
            session.wait_for_game(stream.game_id, stream.last, min(remaining, WAIT_SLICE))


class Connection(Protocol):
    """A handed-over phone connection (``web_panel.serving``)."""

    def gone(self) -> bool:
        """Whether the phone hung up (or the connection is closing)."""
        ...

    def write(self, data: bytes) -> bool:
        """Send ``data``; ``False`` if the phone is gone, or so far behind that the stream
        should end (it reconnects and resumes)."""
        ...

    def close(self) -> None:
        """End the response and close the connection."""
        ...


class LiveStreams:
    """The handed-over live streams, each on a thread of its own (named ``live-GAME``) that
    ends with the stream: when it is over, its phone hangs up or falls behind, or the panel
    is ``closing``."""

    def __init__(self, session: SessionApi, closing: threading.Event) -> None:
        self.session = session
        self.closing = closing
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()

    def handover(self, stream: LiveStream) -> Handover:
        """What the server is handed for ``stream`` (``web_panel.serving.HAND_OVER``)."""
        return Handover(self, stream)

    def add(self, stream: LiveStream, connection: Connection) -> None:
        """Write ``stream`` through ``connection`` from now on (its opening is sent)."""
        thread = threading.Thread(target=self._serve, args=(stream, connection),
                                  name=f"live-{stream.game_id}", daemon=True)
        with self._lock:
            self._threads.add(thread)
        try:
            thread.start()
        except BaseException:  # no thread to be had: the phone reconnects and resumes
            with self._lock:
                self._threads.discard(thread)
            self._end(stream, connection)
            raise

    @property
    def count(self) -> int:
        """How many handed-over streams are running."""
        with self._lock:
            return len(self._threads)

    def close(self, timeout: float = 5.0) -> None:
        """Wait for the streams to end (after the panel's ``closing`` is set)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._threads)
        for thread in threads:  # one not started yet sees ``closing`` and ends at once
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))

    def _serve(self, stream: LiveStream, connection: Connection) -> None:
        try:
            for data in writes(stream, self.session, self.closing, connection.gone):
                if not connection.write(data):
                    break
        except Exception:  # the stream ends; the phone reconnects and resumes
            log.exception("live stream of game %d failed", stream.game_id)
        finally:
            self._end(stream, connection)
            with self._lock:
                self._threads.discard(threading.current_thread())

    @staticmethod
    def _end(stream: LiveStream, connection: Connection) -> None:
        try:
            connection.close()
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
