"""The examples in the ICO modules' docstrings run and hold."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

import rules.ico
from rules.ico import actions, balance, geometry, net


@pytest.mark.parametrize("module", [rules.ico, actions, balance, geometry, net],
                         ids=lambda m: m.__name__)
def test_docstring_examples_hold(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
