"""Club tests: a real Mosquitto started per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.broker import RunningBroker, running_broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[RunningBroker]:
    with running_broker(tmp_path / "broker") as running:
        yield running
