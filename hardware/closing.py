"""What every driver shares with gpiozero's devices: ``close()`` releases what the driver holds
and is safe to call twice, and the driver works as a context manager."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self


class Closing(ABC):
    """A driver that holds pins, a bus or a port until :meth:`close`."""

    @abstractmethod
    def close(self) -> None:
        """Release everything; idempotent."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
