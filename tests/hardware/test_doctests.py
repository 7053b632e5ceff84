"""The examples in the hardware modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["hardware.buttons", "hardware.debounce", "hardware.pinmap", "hardware.protocol",
           "hardware.serial_die"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str, mock_factory) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
