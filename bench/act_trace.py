"""Where an act's time goes inside the box (``BOX_TRACE=1`` in ``bench/box_process.py``).

Each act request is stamped as it passes: WSGI entry, the session command queued, started and
finished (with its journal transaction's duration), the request thread resumed, WSGI exit.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from firmware_host.journal import Journal
from firmware_host.session import SessionThread

_local = threading.local()
records: list[dict[str, float]] = []


def install(app: Any) -> None:
    """Stamp every act of ``app`` (a Flask app) from now on."""
    submit = SessionThread.submit
    transaction = Journal.transaction

    def traced_submit(self: SessionThread, command: Callable[[], Any]) -> Any:
        rec = getattr(_local, "rec", None)

        def stamped() -> Any:
            _local.txn = 0.0
            if rec is not None:
                rec["s"] = time.perf_counter()
            try:
                return command()
            finally:
                if rec is not None:
                    rec["e"] = time.perf_counter()
                    rec["txn"] = _local.txn
        if rec is not None:
            rec["q"] = time.perf_counter()
        return submit(self, stamped)

    @contextlib.contextmanager
    def traced_transaction(self: Journal) -> Iterator[int]:
        start = time.perf_counter()
        with transaction(self) as version:
            yield version
        _local.txn = getattr(_local, "txn", 0.0) + time.perf_counter() - start

    SessionThread.submit = traced_submit  # type: ignore[method-assign]
    Journal.transaction = traced_transaction  # type: ignore[method-assign]
    inner = app.wsgi_app

    def middleware(environ: dict[str, Any], start_response: Any) -> Any:
        if not environ.get("PATH_INFO", "").endswith("/act"):
            return inner(environ, start_response)
        rec = {"w0": time.perf_counter(),
               "game": float(environ["PATH_INFO"].rstrip("/").split("/")[-2])}
        _local.rec = rec
        try:
            return inner(environ, start_response)
        finally:
            rec["w1"] = time.perf_counter()
            _local.rec = None
            records.append(rec)

    app.wsgi_app = middleware
