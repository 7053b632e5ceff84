"""A register-level model of the MPR121 behind an smbus2-shaped interface, wired to a gpiozero
mock pin as its IRQ line (written from the datasheet, not from our driver)."""

from __future__ import annotations

import errno

from gpiozero.pins.mock import MockPin

ECR = 0x5E
STOP_MODE_ONLY = set(range(0x2B, 0x5E)) - {ECR}  # filters, thresholds, debounce, AFE config


class Mpr121Model:
    """Registers 0x00–0x80 of one MPR121 at ``address``; ``irq`` is driven low on a status
    change and released when register 0x00 is read, like the open-drain IRQ output."""

    def __init__(self, address: int = 0x5A, irq: MockPin | None = None) -> None:
        self.address = address
        self.irq = irq
        self.fail_reads = 0  # the next N reads raise OSError (a glitch on the bus)
        self.ignored_writes: list[int] = []
        self._reset()

    def _reset(self) -> None:
        self.registers = bytearray(0x81)
        self.registers[0x5C] = 0x10  # AFE configuration 1 default
        self.registers[0x5D] = 0x24  # AFE configuration 2 default
        self.touched = 0
        self.overcurrent = False
        self._release_irq()

    # What the fingers do.
    @property
    def running(self) -> int:
        """Electrodes 0..n-1 scanned (ECR ELE_EN); 0 is stop mode."""
        return self.registers[ECR] & 0x0F

    def touch(self, electrode: int) -> None:
        self._set(self.touched | 1 << electrode)

    def release(self, electrode: int) -> None:
        self._set(self.touched & ~(1 << electrode))

    def _set(self, touched: int) -> None:
        mask = (1 << self.running) - 1  # electrodes not scanned never report
        touched &= mask
        if touched != self.status_mask():
            self.touched = touched
            self._update_status()
            if self.irq is not None:
                self.irq.drive_low()

    def status_mask(self) -> int:
        return self.registers[0x00] | (self.registers[0x01] & 0x0F) << 8

    def _update_status(self) -> None:
        self.registers[0x00] = self.touched & 0xFF
        self.registers[0x01] = (self.touched >> 8) & 0x0F | (0x80 if self.overcurrent else 0)

    def _release_irq(self) -> None:
        if getattr(self, "irq", None) is not None:
            self.irq.drive_high()

    def threshold(self, electrode: int) -> tuple[int, int]:
        """(touch, release) thresholds of an electrode."""
        return self.registers[0x41 + 2 * electrode], self.registers[0x42 + 2 * electrode]

    # The smbus2 interface.
    def _check(self, address: int) -> None:
        if address != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        self._check(i2c_addr)
        assert 0 <= value <= 255
        if register == 0x80:
            if value == 0x63:
                self._reset()
            return
        if register in STOP_MODE_ONLY and self.running:
            self.ignored_writes.append(register)  # the chip ignores these while running
            return
        if register in (0x00, 0x01):
            return  # status is read-only
        self.registers[register] = value

    def read_byte_data(self, i2c_addr: int, register: int) -> int:
        return self.read_i2c_block_data(i2c_addr, register, 1)[0]

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]:
        self._check(i2c_addr)
        if self.fail_reads:
            self.fail_reads -= 1
            raise OSError(errno.EIO, "Input/output error")
        values = list(self.registers[register : register + length])
        if register == 0x00:
            self._release_irq()
        return values
