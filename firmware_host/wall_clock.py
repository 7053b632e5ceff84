"""Whether the wall clock has been set, so that a time read from it can be trusted.

A Raspberry Pi has no battery-backed clock. It boots at 1970, or at the time it last shut down
(``fake-hwclock``, or the clock systemd-timesyncd saved), and is right only once NTP has set
it — a box at a table without internet may never be. The journal keeps every time as read and,
beside it, whether the clock had been set then (:func:`clock_is_set`); history and exports show
the others as "before the clock was set" instead of a wrong date.

Two sources say whether NTP has set the clock, asked in this order:

- the kernel (``adjtimex(2)``, read-only): synchronised while its estimated maximum error is
  under 16 s, the test systemd's ``timedatectl`` uses for ``NTPSynchronized``. The hardened
  unit's system call filter refuses the call (``@clock`` is left out), so on the box it is
  usually not available;
- systemd-timesyncd (Raspberry Pi OS's NTP client): it creates ``/run/systemd/timesync`` when it
  starts and ``synchronized`` in it once it has set the clock.

When neither can tell, only the date is judged: a clock before :data:`NOT_BEFORE` was not set.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

#: No box ran this program before this day (the day it began), so a clock showing an earlier
#: one was not set: a Pi booted without network and without a saved clock shows 1970. A
#: release may raise it to its own build date.
NOT_BEFORE = datetime(2026, 11, 21, tzinfo=UTC)

#: The kernel's largest "maximum error" (µs) at which its clock counts as synchronised; past
#: it the kernel itself flags the clock unsynchronised (``NTP_PHASE_LIMIT``).
MAX_ERROR_US = 16_000_000

#: ``adjtimex``'s status bit saying its time is in nanoseconds, not microseconds.
STA_NANO = 0x2000
#: Where systemd-timesyncd says it has set the clock.
TIMESYNC_DIR = Path("/run/systemd/timesync")

#: Whether NTP has set the clock: ``True``, ``False``, or ``None`` when the system cannot tell.
SyncSource = Callable[[], bool | None]


class _Timeval(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_usec", ctypes.c_long)]


class _Timex(ctypes.Structure):
    """``struct timex`` (``<sys/timex.h>``) as the C library's ``adjtimex`` takes it."""

    _fields_ = [
        ("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
        ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
        ("constant", ctypes.c_long), ("precision", ctypes.c_long),
        ("tolerance", ctypes.c_long), ("time", _Timeval), ("tick", ctypes.c_long),
        ("ppsfreq", ctypes.c_long), ("jitter", ctypes.c_long), ("shift", ctypes.c_int),
        ("stabil", ctypes.c_long), ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long),
        ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long), ("tai", ctypes.c_int),
        ("reserved", ctypes.c_int * 11),
    ]


@dataclass(frozen=True)
class KernelClock:
    """What ``adjtimex(2)`` reports of the kernel's clock (it changes nothing)."""

    #: The clock state it returns (0 ``TIME_OK`` … 5 ``TIME_ERROR``: not synchronised).
    state: int
    #: The ``STA_*`` status bits.
    status: int
    #: The estimated maximum error, in microseconds.
    max_error_us: int
    #: The time it read, in seconds since the epoch.
    seconds: float

    @property
    def synchronised(self) -> bool:
        """Whether an NTP client has set the clock lately (its error bound is under 16 s).

        The ``STA_UNSYNC`` bit is not used: some set it on purpose to stop the kernel writing
        the hardware clock (systemd reads the clock the same way)."""
        return self.max_error_us < MAX_ERROR_US


@functools.cache
def _adjtimex() -> Callable[..., int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        function: Callable[..., int] = libc.adjtimex
    except (OSError, AttributeError):  # no C library, or one without adjtimex (not Linux)
        return None
    return function


def read_kernel_clock() -> KernelClock | None:
    """The kernel's clock as ``adjtimex(2)`` reports it, or ``None`` where it cannot be asked
    (not Linux, or the call is refused by a system call filter)."""
    adjtimex = _adjtimex()
    if adjtimex is None:
        return None
    timex = _Timex()  # modes 0: read only
    state = adjtimex(ctypes.byref(timex))
    if state < 0:
        return None
    # with STA_NANO set (an NTP client asked for it), the "microseconds" are nanoseconds
    fraction = timex.time.tv_usec / (1e9 if timex.status & STA_NANO else 1e6)
    return KernelClock(state, timex.status, timex.maxerror, timex.time.tv_sec + fraction)


def timesyncd_synchronised(directory: Path = TIMESYNC_DIR) -> bool | None:
    """systemd-timesyncd's answer, or ``None`` when it is not running (no ``directory``)."""
    if not directory.is_dir():
        return None
    return (directory / "synchronized").exists()


def ntp_synchronised(kernel: Callable[[], KernelClock | None] = read_kernel_clock,
                     timesyncd: SyncSource = timesyncd_synchronised) -> bool | None:
    """Whether NTP has set the clock: the kernel's answer, else systemd-timesyncd's, else
    ``None`` (the system cannot tell)."""
    reading = kernel()
    if reading is not None:
        return reading.synchronised
    return timesyncd()


def clock_is_set(when: datetime, synchronised: SyncSource = ntp_synchronised) -> bool:
    """Whether ``when``, just read from the wall clock, can be trusted: it is not before
    :data:`NOT_BEFORE` and NTP has set the clock (or the system cannot tell).

    >>> clock_is_set(datetime(1970, 1, 1, 0, 0, 42, tzinfo=UTC), lambda: None)
    False
    >>> clock_is_set(datetime(2027, 3, 1, 19, 30, tzinfo=UTC), lambda: False)
    False
    >>> clock_is_set(datetime(2027, 3, 1, 19, 30, tzinfo=UTC), lambda: True)
    True
    """
    return when >= NOT_BEFORE and synchronised() is not False


def keeps_its_time(when: datetime) -> bool:
    """The check for a computer with a battery-backed clock (the simulator on a laptop): any
    time it reads is trusted."""
    return True
