"""The examples in the UNLOCK modules' docstrings run and say what the code does."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["clues", "codes", "enumeration", "game", "grid", "levels", "tournament"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(f"rules.unlock.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"rules.unlock.{name} has no example"
    assert result.failed == 0
