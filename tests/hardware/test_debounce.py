"""Our debounce guard: leading edge at once, chatter inside the window ignored, settled after."""

from __future__ import annotations

import pytest

from hardware.debounce import DebounceGuard
from tests.hardware.conftest import ManualClock


@pytest.fixture
def guard(clock: ManualClock) -> DebounceGuard:
    return DebounceGuard(window=0.02, clock=clock)


def test_first_edge_is_accepted_immediately(guard: DebounceGuard) -> None:
    assert guard.edge("k", True) is True
    assert guard.level("k")


def test_edges_inside_the_window_are_ignored_and_counted(guard, clock) -> None:
    guard.edge("k", True)
    clock.now += 0.005
    assert guard.edge("k", False) is None
    clock.now += 0.005
    assert guard.edge("k", True) is None
    assert guard.suppressed == 2
    assert guard.level("k")


def test_edge_after_the_window_is_accepted(guard, clock) -> None:
    guard.edge("k", True)
    clock.now += 0.021
    assert guard.edge("k", False) is False


def test_window_boundary_counts_as_passed(guard, clock) -> None:
    guard.edge("k", True)
    clock.now += 0.02
    assert guard.edge("k", False) is False


def test_settle_accepts_a_level_that_changed_inside_the_window(guard, clock) -> None:
    guard.edge("k", True)
    clock.now += 0.005
    guard.edge("k", False)
    assert guard.remaining("k") == pytest.approx(0.015)
    assert guard.settle("k", False) is None  # too early
    clock.now += 0.015
    assert guard.settle("k", False) is False
    assert guard.remaining("k") is None


def test_settle_with_unchanged_level_reports_nothing(guard, clock) -> None:
    guard.edge("k", True)
    clock.now += 0.005
    guard.edge("k", False)
    clock.now += 0.02
    assert guard.settle("k", True) is None
    assert guard.level("k")


def test_keys_are_independent(guard, clock) -> None:
    guard.edge(1, True)
    assert guard.edge(2, True) is True


def test_reset_sets_the_level_without_an_event(guard) -> None:
    guard.reset("k", True)
    assert guard.edge("k", True) is None
    assert guard.edge("k", False) is False


def test_negative_window_is_refused() -> None:
    with pytest.raises(ValueError, match="debounce window"):
        DebounceGuard(window=-0.01)
