"""The box's wall clock as a test sets it: the time it tells, and whether NTP has set it.

Handed to the journal through its ``clock`` and ``clock_set`` seams; whether a time is trusted
is still decided by :func:`firmware_host.wall_clock.clock_is_set`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from firmware_host.journal import Journal
from firmware_host.wall_clock import clock_is_set

#: A Pi with no saved clock boots here.
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass
class BoxClock:
    """A wall clock at ``now``; ``synchronised`` is what NTP says of it (None: cannot tell)."""

    now: datetime = EPOCH
    synchronised: bool | None = False

    def read(self) -> datetime:
        return self.now

    def is_set(self, when: datetime) -> bool:
        return clock_is_set(when, lambda: self.synchronised)

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def ntp_sets(self, when: datetime) -> None:
        """NTP steps the clock to ``when`` and reports it synchronised."""
        self.now, self.synchronised = when, True

    def journal(self, path: Path) -> Journal:
        """A journal at ``path`` that reads this clock."""
        return Journal(path, clock=self.read, clock_set=self.is_set)
