"""Issue 30: one device cannot lock the other phones out (``web_panel.client_limits``).

Waitress stopped accepting anyone once it held 100 connections, and kept a connection that never
finished its request for as long as it trickled: one device holding a hundred half-sent requests
left every other phone's request waiting until it timed out. Here one loopback address
(127.0.0.2: Linux routes all of 127.0.0.0/8 to this machine) plays that device, against the real
waitress server, while phones from 127.0.0.1 and 127.0.0.3 play.
"""

from __future__ import annotations

import http.client
import selectors
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from flask import Flask
from waitress import wasyncore

from firmware_host.companion import Companion
from tests.web_panel.served import EventStream, Phone, Served, make_app, serve
from web_panel.client_limits import CONNECTIONS_PER_CLIENT, REFUSAL, REQUEST_TIMEOUT, client_of
from web_panel.serving import Loop, create_server

DEVICE = "127.0.0.2"  # the device holding requests it never finishes
HELD = 300
#: Seconds any request of the other phones may take (a stream's event: from the act's answer).
BOUND = 2.0
#: Past the request timeout, how late a connection may be closed: the server looks once a
#: second, and its loop wakes at least once a second.
SLACK = 3.0
SECRET = "1-5-9-6"
T = TypeVar("T")


def unfinished(port: int | str) -> tuple[bytes, ...]:
    """Requests that never end: half a request line, headers without their blank line, a POST
    with less body than its Content-Length says."""
    host = b"Host: 127.0.0.1:%d\r\n" % int(port)
    return (b"GET /api/gam",
            b"GET / HTTP/1.1\r\n" + host + b"Accept: text/html\r\nX-Slow: 1",
            b"POST /api/host/login HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
            b"X-Requested-With: tabletop\r\nContent-Length: 1000\r\n\r\n{\"pin\": \"1")


def connect(port: int | str, source: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", int(port)), timeout=5,
                                    source_address=(source, 0))
    sock.settimeout(5)
    return sock


@dataclass
class Crowd:
    """One device holding up to ``held`` connections with a request it never finishes,
    opening another (at most every ``pace`` seconds) whenever the server closes one, for at
    most ``seconds``."""

    port: int
    held: int
    pace: float = 0.2
    seconds: float = 60.0
    opened: int = 0
    #: Seconds each connection the server closed had been open.
    lifetimes: list[float] = field(default_factory=list)
    #: Connections the server answered with its 429 before closing them.
    told: int = 0
    refilling: bool = True
    stopping: threading.Event = field(default_factory=threading.Event)
    started: dict[socket.socket, float] = field(default_factory=dict)
    failed: BaseException | None = None

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        kinds = unfinished(self.port)
        until = time.monotonic() + self.seconds
        try:
            refilled = 0.0
            while not self.stopping.is_set() and time.monotonic() < until:
                if self.refilling and time.monotonic() - refilled >= self.pace:
                    refilled = time.monotonic()
                    while len(self.started) < self.held:
                        sock = connect(self.port, DEVICE)
                        sock.sendall(kinds[self.opened % len(kinds)])
                        self.started[sock] = time.monotonic()
                        selector.register(sock, selectors.EVENT_READ)
                        self.opened += 1
                for key, _ in selector.select(0.05):
                    sock = key.fileobj  # type: ignore[assignment]
                    try:
                        answer = sock.recv(4096)
                    except OSError:  # reset: closed over bytes it had not read
                        answer = b""
                    self.told += answer.startswith(b"HTTP/1.1 429")
                    self.lifetimes.append(time.monotonic() - self.started.pop(sock))
                    selector.unregister(sock)
                    sock.close()
        except BaseException as error:  # the test fails with it
            self.failed = error
        finally:
            for sock in self.started:
                sock.close()
            selector.close()

    def wait_closed(self, timeout: float) -> bool:
        """Stop opening; wait until the server has closed every connection."""
        self.refilling = False
        deadline = time.monotonic() + timeout
        while self.started and time.monotonic() < deadline:
            time.sleep(0.05)
        return not self.started


@contextmanager
def crowd(served: Served) -> Iterator[Crowd]:
    device = Crowd(int(served.port), HELD)
    thread = threading.Thread(target=device.run, name="crowd", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while device.opened < HELD and time.monotonic() < deadline:
            time.sleep(0.05)
        yield device
    finally:
        device.stopping.set()
        thread.join(10)
        assert not thread.is_alive()
        assert device.failed is None, device.failed


class Timed:
    """The other phones' requests, each timed."""

    def __init__(self) -> None:
        self.took: list[float] = []

    def __call__(self, what: str, call: Callable[..., T], *args: Any) -> T:
        started = time.monotonic()
        result = call(*args)
        self.took.append(time.monotonic() - started)
        assert self.took[-1] <= BOUND, (what, self.took[-1])
        return result


def play(served: Served, companion: Companion, timed: Timed, seconds: float) -> int:
    """A host on 127.0.0.1 creates a game, Aiko (the Lock, 127.0.0.3) watches it live and sets
    its code, Ben (127.0.0.1) guesses, and both read pages, for ``seconds``; the turns played."""
    host = Phone(served, source="127.0.0.1")
    aiko, ben = Phone(served, source="127.0.0.3"), Phone(served, source="127.0.0.1")
    timed("login", host.login_host)
    status, reply = timed("create", host.post, "/api/host/games",
                          {"game": "unlock", "players": ["Aiko", "Ben"],
                           "options": {"turn_limit": None}})
    assert status == 200, reply
    game = reply["game_id"]
    timed("claim", aiko.claim, game, 0)
    timed("claim", ben.claim, game, 1)
    stream = timed("stream", EventStream, aiko, f"/api/games/{game}/events")
    try:
        timed("first event", stream.next_event)
        phone, action = aiko, f"secret {SECRET}"
        deadline = time.monotonic() + seconds
        for turn in range(1, 500):
            status, reply = timed("act", phone.post, f"/api/games/{game}/act",
                                  {"action": action})
            assert status == 200, reply
            assert timed("event", stream.next_event)["data"]["version"] >= turn
            for path in ("/", f"/games/{game}", f"/join/{game}", "/history"):
                status, _ = timed("page", phone.get, path)
                assert status == 200, path
            if time.monotonic() > deadline:
                return turn
            phone, action = ben, next(guess for guess in companion.legal_actions(game, 1)
                                      if guess != f"guess {SECRET}")
        raise AssertionError("the turns ran out before the time")
    finally:
        stream.close()


def test_one_device_holding_300_unfinished_requests_locks_no_one_out(
        companion: Companion) -> None:
    app = make_app(companion)
    timed = Timed()
    with serve(app, per_client=CONNECTIONS_PER_CLIENT) as served, crowd(served) as device:
        assert device.opened >= HELD
        # long enough for the device's first connections to time out and be opened again
        turns = play(served, companion, timed, seconds=REQUEST_TIMEOUT + 2)
        assert served.server.clients.held(DEVICE) <= CONNECTIONS_PER_CLIENT
        closed_in_time = device.wait_closed(REQUEST_TIMEOUT + SLACK)
        assert closed_in_time, f"{len(device.started)} of the device's connections still open"
        assert max(device.lifetimes) <= REQUEST_TIMEOUT + SLACK
        assert device.told > 0  # the device was told why (429), not only cut off
    p50, worst = statistics.median(timed.took), max(timed.took)
    print(f"\nother phones' {len(timed.took)} requests while {DEVICE} held {HELD}: "
          f"p50 {p50 * 1000:.1f} ms, max {worst * 1000:.1f} ms ({turns} turns); the device opened "
          f"{device.opened} connections, {device.told} told 429")


# --- the request timeout --------------------------------------------------------------------

def test_a_slowloris_is_closed_after_the_request_timeout_and_a_slow_phone_is_answered(
        app: Flask) -> None:
    timeout = 2.0
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    with serve(app, request_timeout=timeout) as served:
        slow = [connect(served.port, "127.0.0.2") for _ in unfinished(served.port)]
        silent = connect(served.port, "127.0.0.2")  # opened, and says nothing at all
        honest = connect(served.port, "127.0.0.3")  # sends its request over 1.2 s
        started = time.monotonic()
        closed: dict[socket.socket, float] = {}
        try:
            for sock, kind in zip(slow, unfinished(served.port), strict=True):
                sock.sendall(kind)
            for sock in (*slow, silent):
                sock.setblocking(False)  # looked at without waiting
            for tick in range(1, round((timeout + SLACK) / 0.3)):
                time.sleep(0.3)
                honest.sendall(request[(tick - 1) * 10:tick * 10] if tick < 4 else
                               request[(tick - 1) * 10:] if tick == 4 else b"")
                for sock in [*slow, silent]:
                    if sock in closed:
                        continue
                    # the slow ones trickle a byte every 0.3 s, the silent one nothing
                    if not _open(sock) or (sock is not silent and not _trickle(sock)):
                        closed[sock] = time.monotonic() - started
                if len(closed) == len(slow) + 1:
                    break
            assert len(closed) == len(slow) + 1, "a connection that never ended was kept"
            assert all(timeout - 0.5 <= after <= timeout + SLACK for after in closed.values()), \
                sorted(closed.values())
            assert honest.recv(4096).startswith(b"HTTP/1.1 200")
        finally:
            for sock in (*slow, silent, honest):
                sock.close()


def test_a_body_past_what_the_panel_takes_is_refused_before_it_is_read(app: Flask) -> None:
    """Waitress reads a request's whole body before the panel sees it (past 512 KiB into a
    temporary file): a body declared far past what the panel takes is refused from its
    Content-Length at once; one just past the panel's 64 KiB gets the panel's own answer."""
    head = (b"POST /api/host/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nX-Requested-With: tabletop\r\n")
    with serve(app) as served:
        sock = connect(served.port, "127.0.0.1")
        try:
            started = time.monotonic()
            sock.sendall(head + b"Content-Length: %d\r\n\r\n" % (1 << 30))
            reply = sock.recv(4096)  # not one byte of the body sent
            waited = time.monotonic() - started
        finally:
            sock.close()
        assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
        assert waited < REQUEST_TIMEOUT / 2, waited
        status, answer = Phone(served).post("/api/host/login", {"pin": "1" * 100_000})
        assert status == 413, answer
        assert answer == {"error": "request_entity_too_large",
                          "message": "This request is too large for the companion."}


def _trickle(sock: socket.socket) -> bool:
    """One more byte of a request that never ends; ``False`` if the server has closed it."""
    try:
        return sock.send(b"x", socket.MSG_NOSIGNAL) == 1
    except BlockingIOError:
        return True
    except OSError:
        return False


def _open(sock: socket.socket) -> bool:
    """Whether the server still holds ``sock`` (non-blocking) open: it has not sent its end,
    nor reset it."""
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True  # nothing to read: still open
    except OSError:
        return False


def test_a_live_stream_outlives_the_request_timeout(companion: Companion) -> None:
    game = companion.create_game("unlock", ["Aiko", "Ben"])
    with serve(make_app(companion), request_timeout=1.0) as served:
        aiko = Phone(served, source="127.0.0.3")
        aiko.claim(game, 0)
        stream = EventStream(aiko, f"/api/games/{game}/events")
        try:
            first = stream.next_event()["data"]["version"]
            quiet_until = time.monotonic() + 4.0  # four times the timeout, keep-alives only
            while time.monotonic() < quiet_until:
                stream.next_comment()
            assert aiko.post(f"/api/games/{game}/act", {"action": f"secret {SECRET}"})[0] == 200
            assert stream.next_event()["data"]["version"] > first
        finally:
            stream.close()


# --- a device's share of connections --------------------------------------------------------

def test_a_device_past_its_share_is_told_429_and_the_others_are_served(app: Flask) -> None:
    with serve(app, per_client=4) as served:
        held = [connect(served.port, "127.0.0.2") for _ in range(4)]
        try:
            deadline = time.monotonic() + 5
            while served.server.clients.held("127.0.0.2") < 4 and time.monotonic() < deadline:
                time.sleep(0.02)
            started = time.monotonic()
            with connect(served.port, "127.0.0.2") as fifth:
                assert fifth.recv(4096) == REFUSAL
                assert fifth.recv(4096) == b""  # and closed
            assert time.monotonic() - started < 1.0
            assert Phone(served, source="127.0.0.3").get("/")[0] == 200
            held.pop().close()
            assert retry(lambda: Phone(served, source="127.0.0.2").get("/")[0]) == 200
        finally:
            for sock in held:
                sock.close()
        # the table forgets a device once it holds nothing (it never outgrows the connections)
        assert retry(lambda: served.server.clients.held("127.0.0.2"), 0) == 0
        assert len(served.server.clients) == 0


def retry(read: Callable[[], object], want: object = 200, seconds: float = 5.0) -> object:
    """``read()`` until it gives ``want`` or ``seconds`` pass (the server closes a socket on
    its loop's next turn); its last value."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = read()
        except (OSError, http.client.HTTPException):
            value = None
        if value == want or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def test_the_share_holds_on_ipv6_too() -> None:
    try:
        server = create_server(lambda e, s: [], host="::1", port=0, threads=1, per_client=2)
    except OSError as error:
        pytest.skip(f"no IPv6 loopback here: {error}")
    loop = Loop(server)
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    socks: list[socket.socket] = []
    try:
        for _ in range(3):
            socks.append(socket.create_connection(("::1", server.effective_port), timeout=5))
        assert socks[2].recv(4096) == REFUSAL
        assert server.clients.held("::1") == 2
    finally:
        for sock in socks:
            sock.close()
        loop.stop()
        thread.join(5)
        assert not thread.is_alive()
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        wasyncore.close_all(server._map)  # the server and the connections it still holds


def test_a_device_is_its_address_however_it_is_written() -> None:
    assert client_of(("::ffff:192.168.1.7", 5000, 0, 0)) == "192.168.1.7"
    assert client_of(("fe80::1%wlan0", 5000, 0, 3)) == "fe80::1"
    assert client_of(("2001:DB8:0:0::1", 80, 0, 0)) == "2001:db8::1"
    assert client_of(("10.0.0.9", 80)) == "10.0.0.9"
    assert client_of("") == ""  # a Unix socket's peer
