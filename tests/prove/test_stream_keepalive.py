"""A phone watching a quiet game (one that has ended, or whose players are thinking) while other
games are played still gets its keep-alives: proxies and phones drop a silent connection, and
docs/design.md promises keep-alives on every stream."""

from __future__ import annotations

import threading
from collections.abc import Iterator

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

KEEPALIVE = 0.5


@pytest.fixture
def box() -> Iterator[tuple[Companion, Served]]:
    with (data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion,
          serve(make_app(companion, SSE_KEEPALIVE=KEEPALIVE)) as served):
        yield companion, served


def test_a_quiet_game_s_stream_gets_keep_alives_while_another_game_is_played(
    box: tuple[Companion, Served],
) -> None:
    companion, served = box
    quiet = companion.create_game("unlock", ["Lock", "Aiko"])
    busy = companion.create_game("dice216", ["Aiko", "Ben", "Chie"], {"size": 12})
    stream = EventStream(Phone(served), f"/api/games/{quiet}/events")
    stop = threading.Event()

    def play() -> None:  # another table plays a move every 50 ms
        rolled = False
        cells = iter((r, c) for r in range(1, 13) for c in range(1, 13))
        while not stop.wait(0.05):
            if not rolled:
                companion.act(busy, -1, "roll 3")
            else:
                row, col = next(cells)
                companion.act(busy, companion.view(busy, None)["to_act"][0],
                              f"place {row} {col}")
            rolled = not rolled

    player = threading.Thread(target=play, daemon=True)
    try:
        assert stream.next_event()["data"]["version"] == companion.view(quiet, None)["version"]
        player.start()
        # Over 20 keep-alive periods (the stream's read times out after 10 s), at least one
        # keep-alive must come.
        assert stream.next_comment() == "keep-alive"
    finally:
        stop.set()
        stream.close()
        if player.is_alive():
            player.join(5)
