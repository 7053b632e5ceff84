"""Load: 30 phones hold live streams and poll while four games are played over HTTP against the
panel on a real waitress server; every update reaches every phone of its game, with no error.
(The 60-second run against a real ``tabletop run``, with memory, is ``bench/load_phones.py``.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_host.companion import Companion
from tests.prove.phones import percentile, run_load
from tests.web_panel.served import HOST_PIN, Served, data_dir, make_app, serve

PHONES = 30
SECONDS = 6.0


@pytest.fixture
def served() -> Iterator[Served]:
    with (data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion,
          serve(make_app(companion), threads=48) as running):
        yield running


def test_thirty_phones_get_every_update_with_no_error(served: Served) -> None:
    result = run_load(served.port, HOST_PIN, phones=PHONES, seconds=SECONDS, poll_every=0.5)
    assert result.errors == []
    assert result.actions >= 20, f"only {result.actions} actions were played"
    # Every phone of a game saw every action on it (each driver waits for all of them).
    assert len(result.latencies_ms) >= result.actions * (PHONES // 4)
    assert result.polls >= PHONES * 2
    print(f"{PHONES} phones, {result.actions} actions, {len(result.latencies_ms)} deliveries, "
          f"{result.polls} polls: p50 {percentile(result.latencies_ms, 0.5):.1f} ms, "
          f"p99 {percentile(result.latencies_ms, 0.99):.1f} ms")
