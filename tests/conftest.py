"""Shared fixtures and options for the whole suite."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="also run the long suites")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    deselected = [item for item in items if "slow" in item.keywords]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if "slow" not in item.keywords]


# Hypothesis: no per-example deadline (CI machines vary); the suites bound their own sizes.
from hypothesis import settings  # noqa: E402

settings.register_profile("companion", deadline=None, print_blob=True)
settings.load_profile("companion")
