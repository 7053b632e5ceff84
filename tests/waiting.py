"""Waiting, in a test, for what another thread or process does: polled, and bounded in time."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(check: Callable[[], object], what: str = "the condition", *,
             timeout: float = 10.0, every: float = 0.02) -> None:
    """Return once ``check()`` is true; fail the test, naming ``what``, after ``timeout``
    seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(every)
