"""The session thread: a command that waited too long is cancelled, never run later."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pytest

from firmware_host.errors import SessionBusy
from firmware_host.session import SessionThread


def test_a_command_not_taken_in_time_is_cancelled_and_never_runs() -> None:
    thread = SessionThread()
    release = threading.Event()
    ran: list[str] = []
    try:
        thread.submit(lambda: release.wait(5.0))  # keeps the thread busy
        with pytest.raises(SessionBusy, match="nothing was changed"):
            thread.call(lambda: ran.append("late"), timeout=0.05)
        release.set()
        thread.call(lambda: None, timeout=5.0)  # everything queued before it has run
        assert ran == []
    finally:
        release.set()
        thread.close()


def test_a_command_already_running_is_waited_for() -> None:
    thread = SessionThread()
    started = threading.Event()
    try:
        def slow() -> str:
            started.set()
            threading.Event().wait(0.2)
            return "done"

        assert thread.call(slow, timeout=0.05) == "done"
        assert started.is_set()
    finally:
        thread.close()


def test_after_runs_once_the_caller_has_its_answer() -> None:
    """What a command leaves for later (waking the live streams of its change) runs only when
    the command's caller already has the answer, so the reply never waits behind it."""
    thread = SessionThread()
    seen: list[bool] = []
    try:
        holder: dict[str, Future[str]] = {}
        ready = threading.Event()

        def command() -> str:
            ready.wait(5.0)
            thread.after(lambda: seen.append(holder["future"].done()))
            return "answer"

        holder["future"] = thread.submit(command)
        ready.set()
        assert holder["future"].result(5.0) == "answer"
        thread.call(lambda: None, timeout=5.0)  # the follow-up has run by now
        assert seen == [True]
    finally:
        thread.close()


def test_after_off_the_session_thread_runs_at_once() -> None:
    thread = SessionThread()
    seen: list[str] = []
    try:
        thread.after(lambda: seen.append(threading.current_thread().name))
        assert seen == [threading.current_thread().name]
    finally:
        thread.close()


def test_a_failing_follow_up_is_logged_and_the_thread_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    thread = SessionThread()
    try:
        def broken() -> None:
            raise ValueError("boom")

        thread.call(lambda: thread.after(broken), timeout=5.0)
        assert thread.call(lambda: "still here", timeout=5.0) == "still here"
        assert "follow-up failed" in caplog.text
    finally:
        thread.close()
