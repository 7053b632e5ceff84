"""The hardware layer's exceptions: one root, leaves that also inherit a standard type."""

from __future__ import annotations


class HardwareError(Exception):
    """Root of every error the hardware layer raises on purpose."""


class DeviceNotFound(HardwareError, OSError):
    """A device is missing or unreachable; the message names it, where we looked, what to check."""

    def __init__(self, device: str, where: str, advice: str) -> None:
        self.device = device
        self.where = where
        self.advice = advice
        super().__init__(f"{device} not found on {where}: {advice}")

    def __str__(self) -> str:
        return f"{self.device} not found on {self.where}: {self.advice}"

    def __reduce__(self) -> tuple[type[DeviceNotFound], tuple[str, str, str]]:
        return (type(self), (self.device, self.where, self.advice))


class ProtocolError(HardwareError, ValueError):
    """A serial frame that cannot be accepted; ``reason`` is a short counter key."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


class PinMapError(HardwareError, ValueError):
    """A pin map or device configuration that cannot work (pin used twice, reserved pin...)."""
