"""Fixtures: a companion on a real journal file in a temporary data directory."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_host.companion import Companion
from tests.firmware_host.toys import toy_games

OpenCompanion = Callable[[], Companion]


@pytest.fixture
def open_companion(tmp_path: Path) -> Iterator[OpenCompanion]:
    """Opens companions on one data directory (as a restarted daemon would); closes them all."""
    opened: list[Companion] = []

    def open_() -> Companion:
        companion = Companion.open(tmp_path / "data", games=toy_games())
        opened.append(companion)
        return companion

    yield open_
    for companion in opened:
        companion.close()


@pytest.fixture
def companion(open_companion: OpenCompanion) -> Companion:
    return open_companion()
