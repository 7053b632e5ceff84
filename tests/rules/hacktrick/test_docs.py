"""The examples in the Hacktrick modules' docstrings still hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["__init__", "actions", "board", "cards", "disclosure", "positions", "text"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(
        "rules.hacktrick" if name == "__init__" else f"rules.hacktrick.{name}"
    )
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0
