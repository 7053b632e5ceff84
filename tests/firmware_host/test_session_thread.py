"""The session thread: a command that waited too long is cancelled, never run later."""

from __future__ import annotations

import threading

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
