"""Results computed once and shared: a small LRU map whose values are built outside its lock.

The read side keeps costly public facts (UNLOCK's codes remaining) and the states of ended games
here, the snapshots the games that ended lately; the panel keeps the views its live streams
share. A key's value is built
by the first reader that asks for it; readers of the same key wait for that one build, and
readers of other keys never wait behind it: no lock is held while a value is built.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SharedResults(Generic[K, V]):
    """At most ``size`` results by key, the least recently used dropped first."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._results: OrderedDict[K, Future[V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, build: Callable[[], V]) -> V:
        """The result for ``key``, built once by ``build`` (an error is raised to every reader
        waiting for that build, and the next reader builds again)."""
        with self._lock:
            found = self._results.get(key)
            if found is not None:
                self._results.move_to_end(key)
            else:
                future: Future[V] = Future()
                self._results[key] = future
                while len(self._results) > self.size:
                    self._results.popitem(last=False)
        if found is not None:
            return found.result()
        try:
            future.set_result(build())
        except BaseException as error:
            future.set_exception(error)
            with self._lock:
                if self._results.get(key) is future:
                    del self._results[key]
            raise
        return future.result()

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (the most recently used), replacing what was there."""
        future: Future[V] = Future()
        future.set_result(value)
        with self._lock:
            self._results[key] = future
            self._results.move_to_end(key)
            while len(self._results) > self.size:
                self._results.popitem(last=False)

    def __len__(self) -> int:
        """How many results are kept (or being built)."""
        with self._lock:
            return len(self._results)

    def peek(self, key: K) -> V | None:
        """The result for ``key`` if it is built, without building or waiting."""
        with self._lock:
            future = self._results.get(key)
        if future is None or not future.done() or future.exception() is not None:
            return None
        return future.result()
