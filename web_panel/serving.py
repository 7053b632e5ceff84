"""How the panel is served: waitress, whose request threads hand live streams over.

Waitress runs each request on one of a fixed pool of threads, and a server-sent event stream is
a request that does not end: served the plain way, every phone watching a game holds a pool
thread for as long as it watches, so the pool had to be sized for the phones (80), and every
pool thread, serving streams and requests in turn, kept glibc caches of freed memory of its own
(``tcache``) for good: the daemon grew by ~10 MiB over minutes under 30 phones
(``docs/benchmarks.md``).

Here the stream's request runs on a pool thread like any other (the seat, the cap, the first
event: ``web_panel.events``); the view then hands the stream over through
``environ[HAND_OVER]``, and once its first bytes are written the connection belongs to
:class:`web_panel.live_streams.LiveStreams`, whose one thread queues every stream's events in
waitress's own output buffers and wakes the server's loop to send them. The pool thread is free
at once: the pool serves pages and actions only.

How the hand-over keeps waitress's bookkeeping away from a connection whose response has not
ended: the task leaves its request in the connection's queue (a connection with a request in
progress takes no other request, and its output is flushed under the connection's lock, which
the stream thread's writes take too); the queue's second dispatch of the connection finds it
handed over and returns. Ending the stream ends the response and closes the connection.

What one device may hold (``web_panel.client_limits``): the server refuses a device's connection
past its share as it accepts it, and once a second closes any connection that has owed a whole
request for longer than the request timeout (a connection answering a request, a live stream
included, owes none).

>>> server = create_server(app, host="127.0.0.1", port=8080, threads=16)  # doctest: +SKIP
>>> server.run()  # doctest: +SKIP
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Protocol, TypedDict, cast

from waitress.adjustments import Adjustments
from waitress.buffers import OverflowableBuffer
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher, WSGITask
from waitress.wasyncore import file_dispatcher, loop

from web_panel.client_limits import (
    CONNECTIONS_PER_CLIENT,
    REQUEST_TIMEOUT,
    ClientTable,
    client_of,
    refuse,
)
from web_panel.live_streams import Connection

#: Waitress threads the panel needs for its pages and actions: served by
#: :func:`web_panel.serving.create_server`, live streams hold none (60 phones stream on 16).
RECOMMENDED_THREADS = 16

#: How waitress should serve the panel (:func:`web_panel.serving.create_server` applies them):
#: - ``channel_request_lookahead=1``: a connection stays readable while its request runs (or
#:   its stream is fed), so a live stream learns at once that its phone hung up;
#: - ``outbuf_high_watermark``: a never-ending response (a live stream) gets a fresh output
#:   buffer every 32 KiB, and the sent ones are dropped. Waitress keeps what a response has
#:   sent until its buffer is replaced: once one write of 8 KiB or more (a phone's first, whole
#:   view) has turned a stream's buffer into a growing ``BytesIO``, every later event stays in
#:   it up to the watermark — with waitress's default (16 MiB) every byte a stream ever sent
#:   stays in memory, then in a temporary file; at 256 KiB, 30 phones could hold 7.5 MiB. A
#:   writer waits only while more than the watermark is unsent (a phone too slow to read),
#:   which also bounds what a stalled phone makes the box hold;
#: - ``max_request_body_size``: waitress reads a request's whole body before the panel sees it
#:   (past 512 KiB into a temporary file, on a Pi the SD card), up to 1 GiB by default. No
#:   request the panel takes has a body above 64 KiB (its ``MAX_CONTENT_LENGTH``, answered
#:   with the panel's own JSON 413); waitress answers a body declared above 256 KiB with its
#:   413 before reading any of it.
class ServerSettings(TypedDict):
    """The waitress settings the panel needs (see :data:`WAITRESS_SETTINGS`)."""

    channel_request_lookahead: int
    outbuf_high_watermark: int
    max_request_body_size: int


WAITRESS_SETTINGS: ServerSettings = {
    "channel_request_lookahead": 1,
    "outbuf_high_watermark": 32 * 1024,
    "max_request_body_size": 256 * 1024,
}
#: Connections the server holds at once (waitress's default, 100, is 60 phones' streams and
#: a kept-alive connection beside some of them; ``select`` takes descriptors up to 1024).
CONNECTION_LIMIT = 256

#: The WSGI environ key of the callable a response uses to hand its stream over.
HAND_OVER = "tabletop.hand_over"


class Streamed(Protocol):
    """What a view hands over (:class:`web_panel.live_streams.Handover`)."""

    def start(self, connection: Connection) -> None: ...
    def end(self) -> None: ...


HandOver = Callable[[Streamed], None]


class _LiveTask(WSGITask):
    """A request's task whose response may hand its stream over (``environ[HAND_OVER]``)."""

    handed: Streamed | None = None
    executed = False

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ[HAND_OVER] = self._hand_over
        return environ

    def _hand_over(self, stream: Streamed) -> None:
        self.handed = stream

    def execute(self) -> None:
        super().execute()
        self.executed = True

    def finish(self) -> None:
        if self.handed is None:  # a handed-over response is ended by the streams' thread
            super().finish()

    def service(self) -> None:
        channel: Any = self.channel  # a _LiveChannel (waitress's stubs know the base)
        kept = False
        try:
            super().service()
            if self.handed is not None and self.executed and self.wrote_header \
                    and channel.connected:
                self.close_on_finish = False
                with channel.requests_lock:
                    channel.requests.insert(0, self.request)  # see the module's docstring
                channel.handed = self
                kept = True
        finally:
            if self.handed is not None and not kept:
                self.handed.end()


class _Parser(HTTPRequestParser):
    """Waitress's request parser, with an empty path until a first line names one: when the
    client hangs up while a request whose first line could not be read (``BREW /pot``) is being
    refused, waitress logs "Client disconnected while serving <path>" and, with no path, fails
    in that log line instead (an ``AttributeError`` logged as an error; issue 30's odd bytes)."""

    path = ""


class _LiveChannel(HTTPChannel):
    task_class = _LiveTask
    parser_class = _Parser
    #: The task whose stream this connection carries, once handed over.
    handed: _LiveTask | None = None
    #: The device this connection counts against (``None`` once counted closed).
    client: str | None = None
    #: Since when (``time.monotonic()``: a Pi without a clock jumps when it learns the time)
    #: the connection owes a whole request: from its opening, or from its next request's first
    #: byte; ``None`` while it owes none (a request whole, or none begun since the last).
    owed_since: float | None = None

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Adjustments,
                 map: dict[int, Any] | None = None) -> None:
        self.owed_since = time.monotonic()
        super().__init__(server, sock, addr, adj, map)
        self.client = client_of(addr)
        server.clients.add(self.client)

    def received(self, data: bytes) -> bool:
        done: bool = super().received(data)
        if self.request is None:
            self.owed_since = None  # every request begun is whole
        elif self.owed_since is None:
            self.owed_since = time.monotonic()  # the first bytes of the next request
        return done

    def overdue(self, now: float, timeout: float) -> bool:
        """Whether the connection has owed a whole request for over ``timeout`` seconds while
        none of its requests is being answered (a live stream is an answer in progress)."""
        owed = self.owed_since
        return owed is not None and now - owed > timeout and not self.requests

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        client, self.client = self.client, None
        if client is not None:
            server: Any = self.server  # a _PanelServer (waitress's stubs know the base)
            server.clients.release(client)

    def service(self) -> None:
        if self.handed is not None:
            return  # the request left in the queue on purpose: the stream's thread has it
        super().service()
        task = self.handed
        if task is not None and task.handed is not None:
            task.handed.start(_StreamConnection(self, task))

    def handle_close(self) -> None:
        super().handle_close()
        task = self.handed
        if task is not None and task.handed is not None:
            # the phone hung up: its stream's slot is free now, not when its thread next looks
            # (a table's phones all move to its next game at once, near the cap)
            task.handed.end()


class _StreamConnection:
    """A handed-over connection, as :class:`web_panel.live_streams.LiveStreams` writes it."""

    def __init__(self, channel: Any, task: Any) -> None:
        self.channel = channel
        self.task = task
        #: A phone this far behind (bytes not yet sent) is dropped: it reconnects and resumes,
        #: and the box never holds more than this for one slow phone.
        self.behind = channel.adj.outbuf_high_watermark

    def gone(self) -> bool:
        channel = self.channel
        return bool(not channel.connected or channel.will_close or channel.close_when_flushed)

    def write(self, data: bytes) -> bool:
        channel = self.channel
        if self.gone() or channel.total_outbufs_len > self.behind:
            return False
        if self.task.chunked_response:  # as the response began (``WSGITask.write``)
            data = b"%X\r\n%s\r\n" % (len(data), data)
        with channel.outbuf_lock:
            if not channel.connected:
                return False
            self._queue(data)
            if channel.total_outbufs_len > self.behind // 2:
                # a phone that lags (or a stream that outpaces the loop): send from here, as
                # ``write_soon`` does for every write, so it is dropped only when truly stalled
                channel._flush_exception(channel._flush_some, do_close=False)
        return True

    def _queue(self, data: bytes) -> None:
        """Append ``data`` to the connection's output, as ``HTTPChannel.write_soon`` does but
        without its send, and without waiting for a phone past the watermark (the caller holds
        ``outbuf_lock``)."""
        channel = self.channel
        if channel.current_outbuf_count >= channel.adj.outbuf_high_watermark:
            channel.outbufs.append(OverflowableBuffer(channel.adj.outbuf_overflow))
            channel.current_outbuf_count = 0
        channel.outbufs[-1].append(data)
        channel.current_outbuf_count += len(data)
        channel.total_outbufs_len += len(data)

    @property
    def waker(self) -> Any:
        return self.channel.server

    def push(self) -> None:
        self.channel.server.pull_trigger()  # the loop sends every queued connection's bytes

    def close(self) -> None:
        channel = self.channel
        if self.task.chunked_response:
            with channel.outbuf_lock:  # never waits: a stalled phone must not hold the feeder
                if channel.connected:
                    self._queue(b"0\r\n\r\n")  # the end of a chunked response
                    # sent now where the phone takes it (the loop may be stopping: shutdown)
                    channel._flush_exception(channel._flush_some, do_close=False)
        with channel.requests_lock:
            channel.close_when_flushed = True
            for request in channel.requests:
                request.close()
            channel.requests = []
        channel.server.pull_trigger()


class _PanelServer(TcpWSGIServer):
    """Waitress's TCP server, refusing a device past its share of connections and closing
    connections that owe a request for too long (``web_panel.client_limits``)."""

    channel_class = _LiveChannel
    effective_host: str
    effective_port: int

    def __init__(self, app: Any, sockets: dict[int, Any], *, clients: ClientTable,
                 request_timeout: float, **settings: Any) -> None:
        self.clients = clients
        self.request_timeout = request_timeout
        super().__init__(app, sockets, **settings)

    def accept(self) -> tuple[Any, Any] | None:
        # refused before waitress builds a connection for it: one send and a close
        pair: tuple[Any, Any] | None = super().accept()
        if pair is not None and self.clients.full(client_of(pair[1])):
            refuse(pair[0])
            return None
        return pair

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # type: ignore[arg-type]  # waitress gives it time.time()
        # every ``cleanup_interval`` (one second here), with the loop's own wake-ups
        clock = time.monotonic()
        channels = cast(dict[int, _LiveChannel], self.active_channels)  # the stubs say one
        for channel in channels.values():
            if channel.overdue(clock, self.request_timeout):
                channel.will_close = True  # closed by the loop's next turn, as waitress does


def create_server(app: Any, *, host: str, port: int, threads: int | None = None,
                  per_client: int = CONNECTIONS_PER_CLIENT,
                  request_timeout: float = REQUEST_TIMEOUT, **settings: Any) -> Any:
    """A waitress server for the panel ``app`` (any WSGI callable that serves it), with the
    settings the panel needs (``WAITRESS_SETTINGS``) and live streams handed over;
    ``threads`` serve pages and actions (default ``RECOMMENDED_THREADS``);
    ``per_client`` connections one device may hold, ``request_timeout`` the seconds a
    connection has to deliver a whole request (``web_panel.client_limits``); ``settings`` are
    further waitress adjustments (``channel_timeout``, ``ident``, ...). Built as waitress's
    own ``create_server`` builds it, for TCP: one server per address the host resolves to."""
    threads = RECOMMENDED_THREADS if threads is None else threads
    adj = Adjustments(host=host, port=port, threads=threads,
                      **{"cleanup_interval": 1, "connection_limit": CONNECTION_LIMIT,
                         **WAITRESS_SETTINGS, **settings})
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict[int, Any] = {}
    clients = ClientTable(per_client)  # a device's connections to every address count together
    servers = [_PanelServer(app, sockets, clients=clients, request_timeout=request_timeout,
                            dispatcher=dispatcher, adj=adj, sockinfo=sockinfo)
               for sockinfo in adj.listen]
    if len(servers) == 1:
        return servers[0]
    return MultiSocketServer(sockets, adj, [(s.effective_host, s.effective_port)
                                            for s in servers], dispatcher, servers[-1].log_info)


class Loop:
    """A waitress server's event loop that a signal handler can stop.

    ``server.run()`` leaves only on an exception, and one raised by a signal handler lands
    wherever the loop happens to be: waitress swallows it in places (flushing a response, a
    trigger's thunk), and the box then ran on after SIGTERM. Here the handler calls
    :meth:`stop`, which only sets a flag and writes a byte to a pipe of the loop's own (not
    waitress's trigger: the handler may interrupt the loop while it holds the trigger's lock,
    and a full pipe must not block it); the loop looks at the flag after each wake-up.
    """

    def __init__(self, server: Any) -> None:
        self._adj = server.adj
        # one server's connections, or every listening server's (one per resolved address)
        self._sockets: dict[int, Any] = getattr(server, "_map", None) or server.map
        self._wake = _Wake(self._sockets)
        self.stopped = False

    def run(self) -> None:
        """Serve until :meth:`stop` (returns at once if it was called already)."""
        try:
            while self._sockets and not self.stopped:
                loop(timeout=self._adj.asyncore_loop_timeout, map=self._sockets,
                     use_poll=self._adj.asyncore_use_poll, count=1)
        finally:
            self._wake.close()

    def stop(self) -> None:
        """End :meth:`run` (safe in a signal handler: it never waits, on a lock or a pipe)."""
        self.stopped = True
        self._wake.pull()


class _Wake(file_dispatcher):
    """A pipe in the loop's map: a byte written to it wakes the loop."""

    def __init__(self, sockets: dict[int, Any]) -> None:
        read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._closing = threading.Lock()
        # which makes the read end non-blocking and keeps a duplicate of it (the stubs say a
        # file; waitress takes an fd)
        super().__init__(read, map=sockets)  # type: ignore[arg-type]
        os.close(read)

    def pull(self) -> None:
        # Never waits: in a signal handler it may have interrupted close() on its own thread;
        # then, or while another thread closes the pipe, the loop is ending anyway.
        if not self._closing.acquire(blocking=False):
            return
        try:
            if self._write >= 0:
                with suppress(OSError):  # full: the loop wakes anyway
                    os.write(self._write, b"x")
        finally:
            self._closing.release()

    def writable(self) -> bool:
        return False

    def handle_read(self) -> None:
        with suppress(OSError):
            self.recv(4096)

    def close(self) -> None:
        with self._closing:  # no byte is written to a descriptor closed (and reused) meanwhile
            if self._write >= 0:
                os.close(self._write)
                self._write = -1
        super().close()
