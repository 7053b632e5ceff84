"""The floor for the load bench: a minimal Flask + waitress server-sent events fan-out.

Each table's driver POSTs the next event's payload (the very bytes the daemon sent for that
action in the same run); the server numbers it and every stream of that table receives it. No
games, no views, no journal: what is left is the cost of this stack (Flask, waitress, SSE) doing
the same fan-out of the same payloads, which the daemon's figures are compared with.

    python bench/floor_server.py --port PORT --threads N
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Flask, Response, request, stream_with_context
from waitress.server import create_server

import web_panel
from web_panel.serving import Loop


class Table:
    def __init__(self) -> None:
        self.events: list[str] = []
        self.changed = threading.Condition()


def make_app(tables: dict[int, Table], closing: threading.Event) -> Flask:
    app = Flask(__name__)

    @app.post("/tables/<int:table>/act")
    def act(table: int) -> dict[str, int]:
        payload = request.get_data(as_text=True)
        room = tables[table]
        with room.changed:
            version = len(room.events) + 1
            room.events.append(f"id: {version}\nevent: view\ndata: {payload}\n\n")
            room.changed.notify_all()
        return {"version": version}

    @app.get("/tables/<int:table>/events")
    def events(table: int) -> Response:
        room = tables[table]

        def stream() -> Iterator[str]:
            yield "retry: 1000\n\n"
            sent = len(room.events)
            if sent:
                yield room.events[-1]
            while not closing.is_set():
                with room.changed:
                    room.changed.wait_for(
                        lambda seen=sent: len(room.events) > seen or closing.is_set(),  # type: ignore[misc]
                        timeout=1.0)
                    fresh = room.events[sent:]
                sent += len(fresh)
                yield from fresh

        return Response(stream_with_context(stream()), mimetype="text/event-stream")

    return app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=80)
    args = parser.parse_args()
    tables = {n: Table() for n in range(8)}
    closing = threading.Event()
    server = create_server(make_app(tables, closing), host="127.0.0.1", port=args.port,
                           threads=args.threads, **web_panel.WAITRESS_SETTINGS)
    serving = Loop(server)  # waitress's loop, stopped by SIGTERM as the box's is

    def stop(signum: int, frame: FrameType | None) -> None:
        closing.set()
        serving.stop()

    signal.signal(signal.SIGTERM, stop)
    print(f"ready {args.port}", flush=True)
    try:
        serving.run()
    finally:
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)


if __name__ == "__main__":
    main()
