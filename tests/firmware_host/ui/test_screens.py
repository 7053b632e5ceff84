"""Every screen, drawn from a view through a luma dummy device, equals its reviewed reference."""

from __future__ import annotations

import pytest

from firmware_host.screens.text import HEIGHT, WIDTH
from tests.firmware_host.ui.references import assert_matches_reference, through_dummy
from tests.firmware_host.ui.scenes import SCENES


@pytest.mark.parametrize("name", sorted(SCENES))
def test_screen_matches_reviewed_reference(name: str) -> None:
    image = SCENES[name]()
    assert image.size == (WIDTH, HEIGHT) and image.mode == "1"
    assert_matches_reference(through_dummy(image), name)


@pytest.mark.parametrize("name", sorted(SCENES))
def test_screen_is_a_pure_function_of_its_view(name: str) -> None:
    assert SCENES[name]().tobytes() == SCENES[name]().tobytes()
