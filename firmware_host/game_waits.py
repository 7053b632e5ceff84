"""Waiting for one game's next change: a condition per game, held only while someone waits.

A live page waits on its own game alone (``SessionApi.wait_for_game``), so a change to one game
wakes only that game's waiters. The condition is made by the first waiter and dropped by the
last, so a box that has played thousands of games holds conditions only for the games being
watched at this moment.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable


class GameWaits:
    """Per game, a condition and how many wait on it."""

    def __init__(self) -> None:
        self._waiting: dict[int, tuple[threading.Condition, int]] = {}
        self._lock = threading.Lock()

    def wait(self, game_id: int, ready: Callable[[], bool], timeout: float) -> None:
        """Block until ``ready()`` (checked at once, then after each :meth:`wake` of the game)
        or ``timeout`` seconds pass."""
        with self._lock:
            condition, count = self._waiting.get(game_id, (None, 0))
            if condition is None:
                condition = threading.Condition()
            self._waiting[game_id] = (condition, count + 1)
        try:
            with condition:
                condition.wait_for(ready, timeout=max(0.0, timeout))
        finally:
            with self._lock:
                _, count = self._waiting[game_id]
                if count == 1:
                    del self._waiting[game_id]
                else:
                    self._waiting[game_id] = (condition, count - 1)

    def wake(self, game_ids: Iterable[int]) -> None:
        """Wake whoever waits on these games (after their change is published: a waiter that
        comes later sees it in ``ready()``)."""
        for game_id in game_ids:
            with self._lock:
                found = self._waiting.get(game_id)
            if found is not None:
                with found[0]:
                    found[0].notify_all()

    def __len__(self) -> int:
        """How many games have someone waiting (as many conditions are held)."""
        with self._lock:
            return len(self._waiting)
