"""The OLED: any luma device, updated with only the bytes that changed.

luma's ``display()`` resends the whole frame (~1 KiB for 128×64, ~23 ms of I²C at 400 kHz)
every time. For the SSD1306 and SH1106 this module keeps a copy of what the controller's RAM
holds, and on `Display.show` addresses just the changed columns of the changed pages with the
controller's own commands, sent through the luma serial interface's ``command()`` / ``data()``:

- SSD1306 (horizontal addressing, set up by luma): ``0x21 c0 c1`` column range, ``0x22 p0 p1``
  page range, then the window's bytes page after page;
- SH1106 (page addressing, 132-column RAM with the panel at column 2): ``0xB0+p`` page,
  ``0x0n`` / ``0x1n`` column low / high nibble, then the span's bytes.

An unchanged frame sends nothing. Any other luma device (``luma.core.device.dummy`` in the
simulator, a colour OLED...) gets luma's own ``display()``, and only when the frame changed.

A bus error (``OSError``, or luma's ``DeviceNotFoundError`` for EIO) never escapes `show`: the
display goes to `DisplayState.ERROR`, forgets what the controller holds, and the next `show`
(or `retry`) resends the full frame.
"""

from __future__ import annotations

import enum
import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from PIL import Image

from hardware.closing import Closing
from hardware.errors import DeviceNotFound, PinMapError
from hardware.pinmap import SpiDisplayPins

log = logging.getLogger(__name__)

SPI_SPEEDS_HZ = frozenset(
    int(mhz * 1_000_000)
    for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)
)  # the rates luma's spi interface accepts
Driver = Literal["ssd1306", "sh1106"]
Interface = Literal["i2c", "spi"]

I2C_ADVICE = (
    "check the wiring (SDA GPIO2, SCL GPIO3, 3V3, GND), that I2C is enabled "
    "(dtparam=i2c_arm=on in /boot/firmware/config.txt), that 'i2cdetect -y {port}' shows "
    "{address:02x}, and that you are in the 'i2c' group"
)
SPI_ADVICE = (
    "check the wiring (MOSI GPIO10, SCLK GPIO11, CE0 GPIO8, DC GPIO{dc}, RST GPIO{rst}), that "
    "SPI is enabled (dtparam=spi=on), that spidev and lgpio are installed (sudo apt install "
    "python3-lgpio python3-spidev, then pip install 'tabletop-companion[pi,spi]'), and that "
    "you are in the 'spi' and 'gpio' groups"
)


@dataclass(frozen=True)
class OledConfig:
    """How the OLED is attached. ``rotation`` is in degrees clockwise (0, 90, 180, 270);
    ``port`` and ``address`` are the I²C bus number and address; ``spi_port`` /
    ``spi_device`` pick ``/dev/spidev<port>.<device>`` for an SPI display."""

    driver: Driver = "ssd1306"
    interface: Interface = "i2c"
    port: int = 1
    address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    spi_speed_hz: int = 8_000_000
    dc_pin: int = 24
    reset_pin: int | None = 25
    rotation: int = 0
    contrast: int = 0xCF
    width: int = 128
    height: int = 64

    def __post_init__(self) -> None:
        if self.driver not in ("ssd1306", "sh1106"):
            raise PinMapError(f"oled.driver: {self.driver!r} is not 'ssd1306' or 'sh1106'")
        if self.interface not in ("i2c", "spi"):
            raise PinMapError(f"oled.interface: {self.interface!r} is not 'i2c' or 'spi'")
        if self.rotation not in (0, 90, 180, 270):
            raise PinMapError(f"oled.rotation: {self.rotation!r} is not 0, 90, 180 or 270")
        if not 0 <= self.contrast <= 255:
            raise PinMapError(f"oled.contrast: {self.contrast!r} is not within 0-255")
        if not 0x03 <= self.address <= 0x77:
            raise PinMapError(f"oled.address: {self.address!r} is not a 7-bit I2C address")
        if self.spi_speed_hz not in SPI_SPEEDS_HZ:
            raise PinMapError(f"oled.spi_speed_hz: {self.spi_speed_hz!r} is not one of "
                              f"{sorted(SPI_SPEEDS_HZ)}")
        if self.width <= 0 or self.height <= 0 or self.height % 8:
            raise PinMapError(
                f"oled size {self.width}x{self.height}: height must be a multiple of 8"
            )

    @property
    def spi_pins(self) -> SpiDisplayPins | None:
        """The GPIOs an SPI display takes (for `hardware.pinmap.PinMap`), else None."""
        if self.interface != "spi":
            return None
        return SpiDisplayPins(dc=self.dc_pin, reset=self.reset_pin)

    def where(self) -> str:
        if self.interface == "i2c":
            return f"I2C bus {self.port} address 0x{self.address:02X}"
        node = f"{self.spi_port}.{self.spi_device}"
        return f"SPI {node} (/dev/spidev{node})"

    def advice(self) -> str:
        if self.interface == "i2c":
            return I2C_ADVICE.format(port=self.port, address=self.address)
        return SPI_ADVICE.format(dc=self.dc_pin, rst=self.reset_pin)


class DisplayState(enum.Enum):
    """``ok``: the last update reached the bus; ``error``: it failed and will be resent."""

    OK = "ok"
    ERROR = "error"
    CLOSED = "closed"


@dataclass(frozen=True)
class UpdateStats:
    """What one `Display.show` handed to the serial interface (excluding bus framing)."""

    windows: int = 0
    command_bytes: int = 0
    data_bytes: int = 0
    full: bool = False
    ok: bool = True

    @property
    def total_bytes(self) -> int:
        return self.command_bytes + self.data_bytes


@dataclass(frozen=True)
class Window:
    """A rectangle of controller RAM: columns c0..c1 (inclusive) on pages p0..p1."""

    p0: int
    p1: int
    c0: int
    c1: int

    @property
    def size(self) -> int:
        return (self.p1 - self.p0 + 1) * (self.c1 - self.c0 + 1)


class LumaDevice(Protocol):
    """The part of a luma device we use."""

    size: tuple[int, int]
    mode: str

    def display(self, image: Image.Image) -> None: ...
    def preprocess(self, image: Image.Image) -> Image.Image: ...
    def command(self, *cmd: int) -> None: ...
    def data(self, data: Sequence[int]) -> None: ...
    def contrast(self, level: int) -> None: ...
    def show(self) -> None: ...
    def hide(self) -> None: ...
    def cleanup(self) -> None: ...


def pages_of(image: Image.Image) -> list[bytes]:
    """Controller RAM bytes of a native-orientation 1-bit image, one `bytes` per page.

    Byte ``x`` of page ``p`` holds pixels (x, 8p..8p+7), least significant bit at the top.
    """
    height = image.size[1]
    count = height // 8
    # Rotating 270° puts each column in a row; packing its pixels MSB-first from the bottom
    # gives page bytes LSB-at-top, in reversed page order.
    packed = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [packed[count - 1 - page :: count] for page in range(count)]


def dirty_spans(old: bytes, new: bytes, merge_gap: int) -> list[tuple[int, int]]:
    """Column runs (inclusive) where ``old`` and ``new`` differ, joining runs closer than
    ``merge_gap`` columns (re-sending a few equal bytes is cheaper than a new window)."""
    spans: list[tuple[int, int]] = []
    for column, (a, b) in enumerate(zip(old, new, strict=True)):
        if a == b:
            continue
        if spans and column - spans[-1][1] - 1 <= merge_gap:
            spans[-1] = (spans[-1][0], column)
        else:
            spans.append((column, column))
    return spans


class _PartialWriter(ABC):
    """Writes windows of RAM with a controller's addressing commands."""

    window_cost = 8  # bytes a new window costs on top of its data (commands, framing)
    multi_page = False

    def __init__(self, device: Any) -> None:
        self.device = device

    @abstractmethod
    def address(self, window: Window) -> tuple[int, ...]:
        """The commands that point the controller's RAM pointer at ``window``."""

    def full_window(self, pages: int, width: int) -> Window:
        return Window(0, pages - 1, 0, width - 1)


class _Ssd1306Writer(_PartialWriter):
    window_cost = 10  # 6 command bytes + two control bytes + two I2C address bytes
    multi_page = True

    def address(self, window: Window) -> tuple[int, ...]:
        start = int(self.device._colstart)
        return (0x21, start + window.c0, start + window.c1, 0x22, window.p0, window.p1)


class _Sh1106Writer(_PartialWriter):
    window_cost = 7  # 3 command bytes + two control bytes + two I2C address bytes

    def address(self, window: Window) -> tuple[int, ...]:
        column = int(self.device._page_address_offset) + window.c0
        return (0xB0 + window.p0, column & 0x0F, 0x10 | (column >> 4))


def _writer_for(device: Any) -> _PartialWriter | None:
    from luma.oled.device import sh1106, ssd1306

    if type(device) is ssd1306:
        return _Ssd1306Writer(device)
    if type(device) is sh1106:
        return _Sh1106Writer(device)
    return None


def plan_windows(
    old: list[bytes], new: list[bytes], *, window_cost: int, multi_page: bool
) -> list[Window]:
    """The cheapest windows (by bytes) covering every changed byte of ``new``.

    Each page alone is covered by its dirty spans; with ``multi_page`` (SSD1306) a run of
    consecutive pages may instead share one rectangle, chosen by dynamic programming over
    the pages when that costs fewer bytes.
    """
    pages = len(new)
    spans = [
        [] if a == b else [Window(p, p, c0, c1) for c0, c1 in dirty_spans(a, b, window_cost)]
        for p, (a, b) in enumerate(zip(old, new, strict=True))
    ]
    if not multi_page:
        return [w for page in spans for w in page]
    # best[i]: cheapest cover of pages 0..i-1, with the windows used.
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for end in range(1, pages + 1):
        single = spans[end - 1]
        cost, windows = best[end - 1]
        choice = (cost + sum(w.size + window_cost for w in single), windows + single)
        c0, c1 = 10**9, -1
        for start in range(end - 1, -1, -1):
            for w in spans[start]:
                c0, c1 = min(c0, w.c0), max(c1, w.c1)
            if c1 < 0 or start == end - 1 or not spans[start] or not spans[end - 1]:
                continue
            box = Window(start, end - 1, c0, c1)
            cost, windows = best[start]
            if cost + box.size + window_cost < choice[0]:
                choice = (cost + box.size + window_cost, [*windows, box])
        best.append(choice)
    return best[pages][1]


class Display(Closing):
    """An OLED fed PIL images; see the module docstring for what it sends.

    Build it from an existing luma device (``Display(device)``) or from an `OledConfig`
    (`Display.from_config`). ``size`` is the logical size after rotation, as luma's.
    """

    def __init__(self, device: LumaDevice, *, contrast: int | None = None) -> None:
        self.device = device
        self._writer = _writer_for(device)
        self._lock = threading.RLock()
        self._shown: list[bytes] | None = None  # what controller RAM holds; None: unknown
        self._image: Image.Image | None = None  # last image asked for (logical orientation)
        self._state = DisplayState.OK
        self.last_error: BaseException | None = None
        self.errors = 0
        self.updates = 0
        self.bytes_sent = 0
        if contrast is not None:
            self.set_contrast(contrast)

    @classmethod
    def from_config(
        cls,
        config: OledConfig,
        *,
        bus: Any = None,
        spi: Any = None,
        gpio: Any = None,
    ) -> Display:
        """Build the luma serial interface and device from ``config``.

        ``bus`` (an smbus2-like object) or ``spi`` / ``gpio`` replace the real ones, for tests.
        Raises `DeviceNotFound` naming the bus and what to check when the display is absent.
        """
        import luma.core.error
        from luma.core.interface.serial import i2c
        from luma.core.interface.serial import spi as spi_interface
        from luma.oled.device import sh1106, ssd1306

        name = f"OLED ({config.driver})"
        try:
            serial: Any
            if config.interface == "i2c":
                serial = i2c(bus=bus, port=config.port, address=config.address)
            else:
                serial = spi_interface(
                    spi=spi,
                    gpio=gpio,
                    port=config.spi_port,
                    device=config.spi_device,
                    bus_speed_hz=config.spi_speed_hz,
                    gpio_DC=config.dc_pin,
                    gpio_RST=config.reset_pin,
                )
            driver = ssd1306 if config.driver == "ssd1306" else sh1106
            device = driver(
                serial, width=config.width, height=config.height, rotate=config.rotation // 90
            )
        except (luma.core.error.Error, OSError, ImportError, RuntimeError) as exc:
            raise DeviceNotFound(name, config.where(), f"{exc}; {config.advice()}") from exc
        return cls(device, contrast=config.contrast)

    @property
    def size(self) -> tuple[int, int]:
        return tuple(self.device.size)  # type: ignore[return-value]

    @property
    def state(self) -> DisplayState:
        return self._state

    @property
    def problem(self) -> str | None:
        """Why the last update failed (it will be resent), or ``None`` when it reached the bus."""
        return str(self.last_error) if self._state is DisplayState.ERROR else None

    @property
    def partial(self) -> bool:
        """True when this device gets partial updates (SSD1306 / SH1106)."""
        return self._writer is not None

    @property
    def image(self) -> Image.Image | None:
        """A copy of the last image passed to `show`."""
        with self._lock:
            return None if self._image is None else self._image.copy()

    def show(self, image: Image.Image) -> UpdateStats:
        """Put ``image`` (the device's logical size; 1-bit, other modes are thresholded) on
        screen, sending only what changed. Never raises for a bus error: see `state`."""
        if image.size != self.size:
            raise ValueError(
                f"image is {image.size[0]}x{image.size[1]}, the display is "
                f"{self.size[0]}x{self.size[1]}"
            )
        with self._lock:
            if self._state is DisplayState.CLOSED:
                raise ValueError("display is closed")
            self._image = image.copy()
            return self._update()

    def retry(self) -> UpdateStats:
        """Resend the last image in full (e.g. after an error); no-op without one."""
        with self._lock:
            if self._image is None or self._state is DisplayState.CLOSED:
                return UpdateStats()
            self._shown = None
            return self._update()

    def invalidate(self) -> None:
        """Forget what the controller holds: the next `show` sends the full frame."""
        with self._lock:
            self._shown = None

    def _update(self) -> UpdateStats:
        assert self._image is not None
        try:
            stats = self._send(self._image)
        except Exception as exc:
            self._bus_failed(exc, "update failed; the full frame will be resent")
            return UpdateStats(ok=False, full=True)
        if self._state is DisplayState.ERROR:
            log.info("OLED recovered")
        self._state = DisplayState.OK
        self.last_error = None
        if stats.total_bytes:
            self.updates += 1
            self.bytes_sent += stats.total_bytes
        return stats

    def _send(self, image: Image.Image) -> UpdateStats:
        if self._writer is None:
            return self._send_whole(image)
        native = self.device.preprocess(_one_bit(image))
        pages = pages_of(native)
        full = self._shown is None
        if self._shown is None:
            windows = [self._writer.full_window(len(pages), native.size[0])]
        else:
            windows = plan_windows(
                self._shown,
                pages,
                window_cost=self._writer.window_cost,
                multi_page=self._writer.multi_page,
            )
        command_bytes = data_bytes = 0
        for window in windows:
            commands = self._writer.address(window)
            if window.p0 == window.p1 or self._writer.multi_page:
                self.device.command(*commands)
                payload = b"".join(
                    pages[p][window.c0 : window.c1 + 1] for p in range(window.p0, window.p1 + 1)
                )
                self.device.data(list(payload))
                command_bytes += len(commands)
                data_bytes += len(payload)
            else:  # a page-addressing controller needs one window per page
                for page in range(window.p0, window.p1 + 1):
                    single = Window(page, page, window.c0, window.c1)
                    commands = self._writer.address(single)
                    self.device.command(*commands)
                    self.device.data(list(pages[page][window.c0 : window.c1 + 1]))
                    command_bytes += len(commands)
                    data_bytes += window.c1 - window.c0 + 1
        self._shown = pages
        return UpdateStats(len(windows), command_bytes, data_bytes, full)

    def _send_whole(self, image: Image.Image) -> UpdateStats:
        frame = image if image.mode == self.device.mode else image.convert(self.device.mode)
        key = [frame.tobytes()]
        if self._shown == key:
            return UpdateStats()
        self.device.display(frame)
        self._shown = key
        return UpdateStats(1, 0, len(key[0]), True)

    def set_contrast(self, level: int) -> None:
        """Brightness 0–255 (not linear; not for fades)."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast {level!r} is not within 0-255")
        self._guarded(lambda: self.device.contrast(level))

    def sleep(self) -> None:
        """Switch the panel off (RAM is kept)."""
        self._guarded(self.device.hide)

    def wake(self) -> None:
        self._guarded(self.device.show)

    def _guarded(self, action: Callable[[], None]) -> None:
        with self._lock:
            if self._state is DisplayState.CLOSED:
                return
            try:
                action()
            except Exception as exc:
                self._bus_failed(exc, "command failed")

    def _bus_failed(self, exc: Exception, what: str) -> None:
        """Record a bus error (anything else is re-raised): the controller's RAM is unknown."""
        if not _is_bus_error(exc):
            raise exc
        self._shown = None
        self._state = DisplayState.ERROR
        self.last_error = exc
        self.errors += 1
        log.warning("OLED %s: %s", what, exc)

    def close(self) -> None:
        """Blank and release the display (luma's ``cleanup``); safe to call twice."""
        with self._lock:
            if self._state is DisplayState.CLOSED:
                return
            self._state = DisplayState.CLOSED
            try:
                self.device.cleanup()
            except Exception as exc:
                if not _is_bus_error(exc):
                    raise
                log.warning("OLED cleanup failed: %s", exc)

    def __repr__(self) -> str:
        kind = type(self.device).__name__
        return f"<Display {kind} {self.size[0]}x{self.size[1]} {self._state.value}>"


def _one_bit(image: Image.Image) -> Image.Image:
    if image.mode == "1":
        return image
    return image.convert("L").point(lambda value: 255 if value >= 128 else 0, mode="1")


def _is_bus_error(exc: BaseException) -> bool:
    import luma.core.error

    return isinstance(exc, OSError | luma.core.error.Error)
