"""Every screen, drawn from a view through a luma dummy device, equals its reviewed reference,
in English and in Japanese (``reference/NAME.png`` and ``reference/NAME.ja.png``)."""

from __future__ import annotations

import pytest

from firmware_host.screens.text import HEIGHT, LANGUAGES, WIDTH
from tests.firmware_host.ui.references import assert_matches_reference, through_dummy
from tests.firmware_host.ui.scenes import SCENES

CASES = [(name, lang) for name in sorted(SCENES) for lang in LANGUAGES]


def reference_name(name: str, lang: str) -> str:
    return name if lang == "en" else f"{name}.{lang}"


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_screen_matches_reviewed_reference(name: str, lang: str) -> None:
    image = SCENES[name](lang)
    assert image.size == (WIDTH, HEIGHT) and image.mode == "1"
    assert_matches_reference(through_dummy(image), reference_name(name, lang))


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_screen_is_a_pure_function_of_its_view(name: str, lang: str) -> None:
    assert SCENES[name](lang).tobytes() == SCENES[name](lang).tobytes()


@pytest.mark.parametrize("name", sorted(SCENES))
def test_screen_speaks_each_language(name: str) -> None:
    """The Japanese frame is not the English one: every screen has words to translate."""
    assert SCENES[name]("en").tobytes() != SCENES[name]("ja").tobytes()
