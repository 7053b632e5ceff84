"""The daemon's server loop stops on SIGTERM wherever the signal lands (``Loop``).

Before: the handler raised an exception into the loop, and waitress swallows exceptions raised
inside some of its handlers (flushing a response, a trigger's thunk) — a box sent SIGTERM just
as it answered a phone ran on, and systemd had to kill it."""

from __future__ import annotations

import http.client
import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

import pytest
from waitress.wasyncore import file_dispatcher

from web_panel.serving import Loop, create_server


def hello(environ: object, start_response: object) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain")])  # type: ignore[operator]
    return [b"hello"]


@pytest.fixture
def server() -> Iterator[object]:
    made = create_server(hello, host="127.0.0.1", port=0, threads=2)
    try:
        yield made
    finally:
        made.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        made.close()


class SwallowingHandler(file_dispatcher):  # type: ignore[misc]
    """A connection's handler that, like waitress's own in places, logs and swallows any
    exception — here SIGTERM arrives while it runs."""

    def __init__(self, sockets: dict[int, object]) -> None:
        read, self.write = os.pipe()
        super().__init__(read, map=sockets)  # keeps a duplicate of ``read``
        os.close(read)
        os.write(self.write, b"x")  # readable at once
        self.swallowed: list[BaseException] = []

    def writable(self) -> bool:
        return False

    def handle_read(self) -> None:
        self.recv(1)
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10_000):  # the handler runs here, between two of these steps
                pass
        except Exception as error:
            self.swallowed.append(error)


def run_with_sigterm(loop: Loop) -> float:
    """Run ``loop`` in this (the main) thread with SIGTERM stopping it; the seconds it ran."""
    def stop(signum: int, frame: FrameType | None) -> None:
        loop.stop()

    previous = signal.signal(signal.SIGTERM, stop)
    guard = threading.Timer(10, lambda: os.kill(os.getpid(), signal.SIGINT))
    guard.start()  # a loop that never stops fails the test instead of hanging it
    started = time.monotonic()
    try:
        loop.run()
    except KeyboardInterrupt:
        pytest.fail("SIGTERM did not stop the loop")
    finally:
        guard.cancel()
        signal.signal(signal.SIGTERM, previous)
    return time.monotonic() - started


def test_sigterm_inside_a_handler_that_swallows_exceptions_stops_the_loop(server: object
                                                                          ) -> None:
    sockets = server._map  # type: ignore[attr-defined]
    handler = SwallowingHandler(sockets)
    try:
        took = run_with_sigterm(Loop(server))
    finally:
        handler.close()
        os.close(handler.write)
    assert handler.swallowed == []  # nothing was raised into the handler
    assert took < 2


def test_the_loop_serves_until_sigterm_and_stops_at_once(server: object) -> None:
    loop = Loop(server)
    port = server.effective_port  # type: ignore[attr-defined]
    answers: list[bytes] = []

    def phone() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/")
        answers.append(connection.getresponse().read())
        connection.close()
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=phone, daemon=True).start()
    took = run_with_sigterm(loop)
    assert answers == [b"hello"]
    assert took < 2  # woken, not left to its one-second poll


def test_a_stop_before_the_loop_runs_is_kept(server: object) -> None:
    loop = Loop(server)
    loop.stop()
    started = time.monotonic()
    loop.run()
    assert time.monotonic() - started < 0.5


def test_a_finished_loop_leaves_no_descriptor_and_a_late_stop_is_harmless(server: object
                                                                          ) -> None:
    before = len(os.listdir("/proc/self/fd"))
    loop = Loop(server)
    assert len(os.listdir("/proc/self/fd")) == before + 2  # its wake-up pipe
    loop.stop()
    loop.run()
    assert len(os.listdir("/proc/self/fd")) == before
    loop.stop()  # e.g. a second Ctrl-C while the box closes: nothing written anywhere
