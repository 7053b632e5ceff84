"""The MPR121 capacitive touch grid: nine electrodes (plus optional OK / Back) over I²C, read
when the chip's IRQ line falls — never polled — producing the same `PadEvent` s as the buttons.

The chip pulls IRQ low whenever its touch status changes and releases it when the status
registers are read; a gpiozero `DigitalInputDevice` with the pull-up on watches the line.

Registers used (MPR121 datasheet): 0x00/0x01 touch status (bit 7 of 0x01: over-current),
0x2B–0x35 baseline filters, 0x41+2e / 0x42+2e touch / release threshold of electrode e,
0x5B debounce, 0x5C/0x5D AFE configuration (0x5D reads 0x24 after reset), 0x5E electrode
configuration (ECR: 0 = stop mode; everything else may only be written in stop mode),
0x80 soft reset (write 0x63).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

from gpiozero import DigitalInputDevice
from gpiozero.exc import BadPinFactory, GPIOZeroError
from gpiozero.pins import Factory

from hardware.buttons import GPIO_ADVICE
from hardware.closing import Closing
from hardware.errors import DeviceNotFound, PinMapError
from hardware.events import PadEmitter, PadInput, PadListener
from hardware.pinmap import DOTS, Key
from hardware.timers import Cancellable, Timers

log = logging.getLogger(__name__)

TOUCH_STATUS = 0x00
OVERCURRENT = 0x80  # bit 7 of register 0x01
THRESHOLDS = 0x41
DEBOUNCE = 0x5B
CONFIG1 = 0x5C
CONFIG2 = 0x5D
ECR = 0x5E
SOFT_RESET = 0x80
RESET_MAGIC = 0x63
CONFIG2_AFTER_RESET = 0x24
ELECTRODES = 12
# Baseline filter settings from the MPR121 quick-start application note (AN3944).
FILTERS = {0x2B: 0x01, 0x2C: 0x01, 0x2D: 0x0E, 0x2E: 0x00, 0x2F: 0x01, 0x30: 0x05,
           0x31: 0x01, 0x32: 0x00, 0x33: 0x00, 0x34: 0x00, 0x35: 0x00}
BASELINE_TRACKING = 0x80  # ECR CL bits = 10: baseline from the first 5 bits of the data

I2C_TOUCH_ADVICE = (
    "check the MPR121 wiring (SDA GPIO2, SCL GPIO3, 3V3, GND, IRQ GPIO{irq}), its address "
    "(ADDR pin: GND 0x5A, 3V3 0x5B, SDA 0x5C, SCL 0x5D), that 'i2cdetect -y {bus}' shows "
    "{address:02x}, that I2C is enabled, and that you are in the 'i2c' group"
)


class SMBusLike(Protocol):
    """The part of ``smbus2.SMBus`` the driver uses."""

    def read_byte_data(self, i2c_addr: int, register: int) -> int: ...
    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...
    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]: ...


@dataclass(frozen=True)
class TouchConfig:
    """Where the MPR121 is and how it is set up. ``electrodes`` gives the electrode of each
    dot 1–9; OK / Back may have electrodes too. Thresholds are in counts (touch > release)."""

    bus: int = 1
    address: int = 0x5A
    irq_pin: int = 22
    electrodes: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8)
    ok_electrode: int | None = 9
    back_electrode: int | None = 10
    touch_threshold: int = 12
    release_threshold: int = 6
    debounce: int = 1

    def __post_init__(self) -> None:
        if self.address not in (0x5A, 0x5B, 0x5C, 0x5D):
            raise PinMapError(f"touch.address: 0x{self.address:02X} is not an MPR121 address "
                              "(0x5A-0x5D)")
        if len(self.electrodes) != len(DOTS):
            raise PinMapError(f"touch.electrodes: need 9 (dots 1-9), got {len(self.electrodes)}")
        used = [e for e in (*self.electrodes, self.ok_electrode, self.back_electrode)
                if e is not None]
        for electrode in used:
            if not 0 <= electrode < ELECTRODES:
                raise PinMapError(f"touch.electrodes: {electrode} is not an electrode 0-11")
        if len(set(used)) != len(used):
            raise PinMapError(f"touch.electrodes: an electrode is used twice in {used}")
        if not 0 < self.release_threshold < self.touch_threshold <= 255:
            raise PinMapError("touch thresholds: need 0 < release < touch <= 255, got "
                              f"{self.release_threshold} and {self.touch_threshold}")
        if not 0 <= self.debounce <= 7:
            raise PinMapError(f"touch.debounce: {self.debounce} is not within 0-7 samples")

    def keys(self) -> dict[int, Key]:
        """Electrode → key."""
        keys: dict[int, Key] = dict(zip(self.electrodes, DOTS, strict=True))
        if self.ok_electrode is not None:
            keys[self.ok_electrode] = "ok"
        if self.back_electrode is not None:
            keys[self.back_electrode] = "back"
        return keys

    @property
    def running_electrodes(self) -> int:
        """ECR's ELE_EN: electrodes 0..n-1 run, so n is one past the highest used."""
        return max(self.keys()) + 1

    def where(self) -> str:
        return f"I2C bus {self.bus} address 0x{self.address:02X}"

    def advice(self) -> str:
        return I2C_TOUCH_ADVICE.format(irq=self.irq_pin, bus=self.bus, address=self.address)


class TouchGrid(PadInput, Closing):
    """The MPR121 as pressed / released / held `PadEvent` s with ``source="touch"``.

    ``bus`` is an open ``smbus2.SMBus`` (or anything with its byte/block methods); use
    `TouchGrid.open` to open the real one from the config. A bus error while reading is logged
    and counted (`read_errors`); the next IRQ reads again.
    """

    source = "touch"

    def __init__(
        self,
        bus: SMBusLike,
        config: TouchConfig | None = None,
        *,
        listener: PadListener | None = None,
        hold_time: float | None = 1.0,
        hold_keys: Collection[Key] | None = None,
        timers: Timers | None = None,
        pin_factory: Factory | None = None,
        owns_bus: bool = False,
        retry_delay: float = 0.05,
    ) -> None:
        self.config = config if config is not None else TouchConfig()
        self.bus = bus
        self._owns_bus = owns_bus
        self._keys = self.config.keys()
        self._events = PadEmitter(self.source, hold_time=hold_time, timers=timers,
                                  hold_keys=hold_keys)
        self._timers = self._events.timers
        self.retry_delay = retry_delay
        self._retry: Cancellable | None = None
        self._lock = threading.RLock()
        self._touched = 0
        self._closed = False
        self._irq: DigitalInputDevice | None = None
        self._running = False
        self.read_errors = 0
        self.overcurrent = False
        self.last_error: BaseException | None = None
        self._init_input(listener)
        try:
            self._configure()
            self._irq = self._open_irq(pin_factory)
            self._irq.when_activated = self._on_irq
            self.read()  # clear a pending IRQ and learn the starting state
        except BaseException:
            self.close()
            raise

    @classmethod
    def open(cls, config: TouchConfig | None = None, **kwargs: Any) -> TouchGrid:
        """Open ``/dev/i2c-<bus>`` with smbus2 and build the grid on it."""
        config = config if config is not None else TouchConfig()
        try:
            import smbus2

            bus = smbus2.SMBus(config.bus)
        except (OSError, ImportError) as exc:
            raise DeviceNotFound("touch grid (MPR121)", config.where(),
                                 f"{exc}; {config.advice()}") from exc
        try:
            return cls(bus, config, owns_bus=True, **kwargs)
        except BaseException:
            bus.close()
            raise

    def _configure(self) -> None:
        config, address = self.config, self.config.address
        try:
            self.bus.write_byte_data(address, SOFT_RESET, RESET_MAGIC)
            found = self.bus.read_byte_data(address, CONFIG2)
            if found != CONFIG2_AFTER_RESET:
                raise DeviceNotFound(
                    "touch grid (MPR121)", config.where(),
                    f"the chip there reads 0x{found:02X} (not 0x24) after reset, so it is not "
                    f"an MPR121; {config.advice()}")
            self.bus.write_byte_data(address, ECR, 0x00)  # stop mode while configuring
            for electrode in range(ELECTRODES):
                self.bus.write_byte_data(address, THRESHOLDS + 2 * electrode,
                                         config.touch_threshold)
                self.bus.write_byte_data(address, THRESHOLDS + 2 * electrode + 1,
                                         config.release_threshold)
            for register, value in FILTERS.items():
                self.bus.write_byte_data(address, register, value)
            self.bus.write_byte_data(address, DEBOUNCE, config.debounce << 4 | config.debounce)
            self.bus.write_byte_data(address, CONFIG1, 0x10)  # 6 samples, 16 µA
            self.bus.write_byte_data(address, CONFIG2, 0x20)  # 0.5 µs charge, 1 ms period
            self.bus.write_byte_data(address, ECR, BASELINE_TRACKING | config.running_electrodes)
            self._running = True
        except OSError as exc:
            raise DeviceNotFound("touch grid (MPR121)", config.where(),
                                 f"{exc}; {config.advice()}") from exc

    def _open_irq(self, pin_factory: Factory | None) -> DigitalInputDevice:
        pin = self.config.irq_pin
        try:
            return DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        except BadPinFactory as exc:
            raise DeviceNotFound("touch grid IRQ", f"GPIO{pin}",
                                 f"no usable GPIO pin factory ({exc}); {GPIO_ADVICE}") from exc
        except (GPIOZeroError, OSError) as exc:
            raise DeviceNotFound("touch grid IRQ", f"GPIO{pin}", f"{exc}; {GPIO_ADVICE}") from exc

    def _on_irq(self) -> None:
        self.read()

    def _retry_read(self) -> None:
        with self._lock:
            self._retry = None
            irq = self._irq
            if self._closed or irq is None or not irq.is_active:
                return
        self.read()

    def read(self) -> frozenset[Key]:
        """Read the touch status now (the IRQ handler does this) and emit what changed."""
        with self._lock:
            if self._closed:
                return frozenset()
            try:
                low, high = self.bus.read_i2c_block_data(self.config.address, TOUCH_STATUS, 2)
            except OSError as exc:
                self.read_errors += 1
                self.last_error = exc
                log.warning("MPR121 read failed on %s: %s", self.config.where(), exc)
                if self._retry is None:
                    self._retry = self._timers.call_later(self.retry_delay, self._retry_read)
                return self.pressed
            overcurrent = bool(high & OVERCURRENT)
            if overcurrent and not self.overcurrent:
                log.error("MPR121 reports over-current on REXT: check its wiring")
            self.overcurrent = overcurrent
            touched = low | (high & 0x0F) << 8
            changed, self._touched = touched ^ self._touched, touched
        for electrode, key in sorted(self._keys.items()):
            if changed >> electrode & 1:
                if touched >> electrode & 1:
                    self._events.press(key)
                else:
                    self._events.release(key)
        return self.pressed

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Stop the chip's scanning, release the IRQ pin (and the bus if we opened it)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            retry, self._retry = self._retry, None
        if retry is not None:
            retry.cancel()
        self._events.close()
        if self._irq is not None:
            self._irq.close()
        if self._running:
            try:
                self.bus.write_byte_data(self.config.address, ECR, 0x00)
            except OSError as exc:
                log.debug("MPR121 stop on close failed: %s", exc)
        if self._owns_bus:
            close = getattr(self.bus, "close", None)
            if close is not None:
                close()

    def __repr__(self) -> str:
        return f"<TouchGrid {self.config.where()} {'closed' if self._closed else 'open'}>"
