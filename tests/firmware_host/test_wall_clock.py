"""Whether the wall clock has been set: the kernel's own answer (adjtimex), systemd-timesyncd's,
and a date no box can have reached before this program existed."""

from __future__ import annotations

import ctypes
import doctest
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from firmware_host import export, wall_clock
from firmware_host.wall_clock import (
    MAX_ERROR_US,
    NOT_BEFORE,
    KernelClock,
    clock_is_set,
    ntp_synchronised,
    read_kernel_clock,
    timesyncd_synchronised,
)

BOOTED_AT_1970 = datetime(1970, 1, 1, 0, 0, 42, tzinfo=UTC)
AN_EVENING = datetime(2027, 3, 1, 19, 30, tzinfo=UTC)


def kernel(max_error_us: int) -> KernelClock:
    return KernelClock(state=0, status=0, max_error_us=max_error_us, seconds=0.0)


def test_a_clock_at_1970_was_not_set_even_when_the_system_cannot_tell() -> None:
    assert not clock_is_set(BOOTED_AT_1970, lambda: None)
    assert not clock_is_set(NOT_BEFORE - timedelta(seconds=1), lambda: None)
    assert clock_is_set(NOT_BEFORE, lambda: None)


def test_a_plausible_date_is_not_trusted_until_ntp_has_set_the_clock() -> None:
    # fake-hwclock brings back the time of the last shutdown: a real-looking, wrong date
    assert not clock_is_set(AN_EVENING, lambda: False)
    assert clock_is_set(AN_EVENING, lambda: True)


def test_no_answer_from_ntp_leaves_only_the_date_to_judge() -> None:
    assert clock_is_set(AN_EVENING, lambda: None)


def test_the_kernel_counts_its_clock_synchronised_only_under_16_s_of_error() -> None:
    # the kernel starts at NTP_PHASE_LIMIT (16 s) and an NTP client brings it down
    assert not kernel(MAX_ERROR_US).synchronised
    assert kernel(MAX_ERROR_US - 1).synchronised
    assert kernel(12_000).synchronised


def test_the_kernel_answers_before_timesyncd() -> None:
    assert ntp_synchronised(lambda: kernel(MAX_ERROR_US), lambda: True) is False
    assert ntp_synchronised(lambda: kernel(5_000), lambda: False) is True


def test_timesyncd_answers_when_the_kernel_cannot_be_asked() -> None:
    # the hardened unit's system call filter refuses adjtimex: the reading is None
    assert ntp_synchronised(lambda: None, lambda: True) is True
    assert ntp_synchronised(lambda: None, lambda: False) is False
    assert ntp_synchronised(lambda: None, lambda: None) is None


def test_timesyncd_has_set_the_clock_once_its_flag_file_exists(tmp_path: Path) -> None:
    runtime = tmp_path / "timesync"
    assert timesyncd_synchronised(runtime) is None  # not running: it cannot tell
    runtime.mkdir()
    assert timesyncd_synchronised(runtime) is False  # running, not synchronised yet
    (runtime / "synchronized").touch()
    assert timesyncd_synchronised(runtime) is True


def test_the_kernel_reading_is_the_kernels_own() -> None:
    # adjtimex(2) through the C library: the time it reads is the system clock's, so the
    # structure is laid out as the kernel fills it; its error bound is in range
    before = time.time()
    reading = read_kernel_clock()
    after = time.time()
    assert reading is not None
    assert before - 1 <= reading.seconds <= after + 1
    assert 0 <= reading.state <= 5
    assert reading.max_error_us >= 0


@pytest.mark.parametrize(("status", "fraction"), [(0, 250_000), (wall_clock.STA_NANO,
                                                                     250_000_000)])
def test_the_kernels_fraction_of_a_second_is_read_in_its_unit(
        monkeypatch: pytest.MonkeyPatch, status: int, fraction: int) -> None:
    """With STA_NANO set (an NTP client may ask for it) the kernel gives nanoseconds where the
    structure says microseconds: read as microseconds, a reading was up to 1 000 s ahead."""
    def adjtimex(pointer: Any) -> int:
        timex = ctypes.cast(pointer, ctypes.POINTER(wall_clock._Timex)).contents
        timex.status, timex.maxerror = status, 500
        timex.time.tv_sec, timex.time.tv_usec = 1_800_000_000, fraction
        return 0

    monkeypatch.setattr(wall_clock, "_adjtimex", lambda: adjtimex)
    reading = read_kernel_clock()
    assert reading is not None and reading.seconds == 1_800_000_000.25


@pytest.mark.parametrize("module", [wall_clock, export])
def test_docstring_examples_run(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_simulator_trusts_its_computers_clock_whatever_ntp_says(tmp_path: Path) -> None:
    """Off a Pi the computer keeps its own time (a battery-backed clock): its games' times are
    shown as dates even where the kernel says NTP has not synchronised it."""
    from firmware_host.companion import Companion

    with Companion.open(tmp_path, host_pin="135790", hardware="simulator") as companion:
        game_id = companion.create_game("ico", ["Aiko", "Ben"])
        summary = companion.games()[0]
        assert summary["id"] == game_id and summary["created_clock_set"] is True
