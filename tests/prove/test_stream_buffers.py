"""A live stream must not keep what it has already sent: a phone that watches a long evening of
play would otherwise cost the daemon every byte of every event it was shown (docs/design.md:
resident memory bounded by what is live; an SD card is no place for an ever-growing temp file
either).

Waitress keeps a response's output in one buffer per connection and, for a response that never
ends, only moves a read position through it: the sent bytes stay in memory up to
``outbuf_overflow`` (1 MiB), then in a temporary file. This test measures what the server holds
for the connection after several MiB have gone down one stream.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_host.companion import Companion
from tests.web_panel.served import (
    HOST_PIN,
    EventStream,
    Phone,
    Served,
    data_dir,
    make_app,
    serve,
)

SENT = 4 * 1024 * 1024
KEPT = 64 * 1024  # the watermark (32 KiB) and the write that crossed it


@pytest.fixture
def box() -> Iterator[tuple[Companion, Served]]:
    # keep-alives as fast as the stream can write them: megabytes down one stream in seconds
    with (data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion,
          serve(make_app(companion, SSE_KEEPALIVE=0.0, SSE_LIFETIME=3600.0)) as served):
        yield companion, served


def held_by_server(served: Served) -> int:
    """Bytes the server holds in its connections' output buffers (memory or temp file)."""
    total = 0
    for channel in list(served.server._map.values()):
        for outbuf in getattr(channel, "outbufs", []):
            total += len(outbuf.strbuf)
            buf: Any = outbuf.buf
            if buf is not None:
                total += os.fstat(buf.file.fileno()).st_size if hasattr(buf.file, "fileno") \
                    and not hasattr(buf.file, "getbuffer") else buf.file.getbuffer().nbytes
    return total


def test_a_long_stream_does_not_keep_what_it_has_sent(box: tuple[Companion, Served]) -> None:
    companion, served = box
    gid = companion.create_game("dice216", ["Aiko", "Ben", "Chie"], {"size": 12})
    stream = EventStream(Phone(served), f"/api/games/{gid}/events")
    try:
        stream.next_event()
        assert held_by_server(served) <= KEPT  # the measure itself: small at the start
        received = 0
        while received < SENT:
            line = stream.response.readline()
            assert line, "the stream ended"
            received += len(line)
        held = held_by_server(served)
        assert held <= KEPT, (f"after {received / 2**20:.1f} MiB down one stream the server "
                              f"still holds {held / 2**20:.1f} MiB of it")
    finally:
        stream.close()
