"""The colour TFT the whole table reads: an ILI9341 (320×240) or ST7789 (240×240 or 320×240)
on SPI through ``luma.lcd``, sent only the rows that changed.

A whole 320×240 frame is 225 KiB at the controllers' 18-bit colour (luma sends three bytes a
pixel): 59 ms at 32 MHz. :class:`TftScreen` keeps what the controller's RAM holds and on
:meth:`TftScreen.show` finds the bands of rows that changed (:data:`BAND` rows each), and for each
sends just the changed columns of those rows through the controllers' own commands (``0x2A``
column range, ``0x2B`` row range, ``0x2C`` memory write, then the window's pixels), through the
luma device's ``command()`` / ``data()``. An unchanged frame sends nothing. Any other luma
device (luma's ``dummy`` in the simulator) gets luma's own ``display()``, only when the frame
changed.

A bus error never escapes :meth:`TftScreen.show`: :attr:`TftScreen.problem` says what failed,
the copy of the RAM is forgotten, and the next frame is sent whole.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Literal

from PIL import Image, ImageChops

from hardware.closing import Closing
from hardware.errors import DeviceNotFound, PinMapError

log = logging.getLogger(__name__)

TftDriver = Literal["ili9341", "st7789"]
#: Rows per band: a change sends the changed columns of its band's rows.
BAND = 16
#: The sizes each controller drives (luma.lcd's supported modes).
SIZES: dict[str, tuple[tuple[int, int], ...]] = {
    "ili9341": ((320, 240), (240, 240)),
    "st7789": ((240, 240), (320, 240)),
}


@dataclass(frozen=True)
class TftConfig:
    """The TFT (``[display.tft]``): which controller, its size, its SPI device and pins.
    ``rotation`` is in degrees clockwise; ``backlight_pin`` ``None`` means the backlight is
    wired to 3.3 V."""

    driver: TftDriver = "ili9341"
    width: int = 320
    height: int = 240
    spi_port: int = 0
    spi_device: int = 0
    spi_speed_hz: int = 32_000_000
    dc_pin: int = 24
    reset_pin: int | None = 25
    backlight_pin: int | None = 23
    rotation: int = 0

    def __post_init__(self) -> None:
        if self.driver not in SIZES:
            raise PinMapError(f"display.tft.driver: expected ili9341 or st7789, got "
                              f"{self.driver!r}")
        if (self.width, self.height) not in SIZES[self.driver]:
            sizes = " or ".join(f"{w}x{h}" for w, h in SIZES[self.driver])
            raise PinMapError(f"display.tft: the {self.driver} drives {sizes}, not "
                              f"{self.width}x{self.height}")
        if self.rotation not in (0, 90, 180, 270):
            raise PinMapError(f"display.tft.rotation: expected 0, 90, 180 or 270, got "
                              f"{self.rotation!r}")

    def roles(self) -> list[tuple[int, str]]:
        """(GPIO, role) of the pins the TFT uses besides the SPI bus, for the pin map."""
        roles = [(self.dc_pin, "TFT DC")]
        if self.reset_pin is not None:
            roles.append((self.reset_pin, "TFT reset"))
        if self.backlight_pin is not None:
            roles.append((self.backlight_pin, "TFT backlight"))
        return roles

    def where(self) -> str:
        return f"SPI {self.spi_port}.{self.spi_device}"

    def advice(self) -> str:
        backlight = (f"backlight GPIO{self.backlight_pin}" if self.backlight_pin is not None
                     else "backlight to 3V3")
        return (f"check the wiring (MOSI GPIO10, SCLK GPIO11, CS CE{self.spi_device}, DC "
                f"GPIO{self.dc_pin}, RST {_pin(self.reset_pin)}, {backlight}), that SPI is "
                "enabled (dtparam=spi=on), that spidev and lgpio are installed (pip install "
                "'tabletop-companion[pi,spi]'), and that you are in the 'spi' and 'gpio' groups")


@dataclass(frozen=True)
class FrameStats:
    """One :meth:`TftScreen.show`: the windows written, the pixel bytes sent, how long it
    took (seconds), and whether the whole frame went."""

    windows: int
    data_bytes: int
    seconds: float
    full: bool


class TftScreen(Closing):
    """A luma colour device, updated with only the rows and columns that changed."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.size: tuple[int, int] = tuple(device.size)
        #: What the controller's RAM holds (``None``: unknown, send the whole frame).
        self._ram: Image.Image | None = None
        self.problem: str | None = None
        self._partial = hasattr(device, "command") and hasattr(device, "data") and (
            type(device).__name__ in SIZES)
        self._closed = False

    @classmethod
    def from_config(cls, config: TftConfig, *, spi: Any = None, gpio: Any = None) -> TftScreen:
        """The TFT as ``config`` says; ``spi`` / ``gpio`` replace the real ones (tests).
        `DeviceNotFound` names the SPI device and what to check."""
        import luma.core.error
        from luma.core.interface.serial import spi as spi_interface
        from luma.lcd.device import ili9341, st7789

        name = f"TFT ({config.driver})"
        try:
            serial = spi_interface(spi=spi, gpio=gpio, port=config.spi_port,
                                   device=config.spi_device, bus_speed_hz=config.spi_speed_hz,
                                   gpio_DC=config.dc_pin, gpio_RST=config.reset_pin)
            light: dict[str, Any] = (
                {"gpio": gpio, "gpio_LIGHT": config.backlight_pin}
                if config.backlight_pin is not None else {"backlight": _always_on})
            driver = ili9341 if config.driver == "ili9341" else st7789
            device = driver(serial, width=config.width, height=config.height,
                            rotate=config.rotation // 90, **light)
        except (luma.core.error.Error, OSError, ImportError, RuntimeError) as error:
            raise DeviceNotFound(name, config.where(), f"{error}; {config.advice()}") from error
        return cls(device)

    def show(self, image: Image.Image) -> FrameStats:
        """Sends what changed of ``image`` (RGB, the device's size); never raises on a bus
        error (see the module docstring)."""
        started = time.perf_counter()
        image = image.convert("RGB")
        if image.size != self.size:
            raise ValueError(f"the frame is {image.size[0]}x{image.size[1]}; the TFT is "
                             f"{self.size[0]}x{self.size[1]}")
        try:
            if not self._partial:
                changed = self._ram is None or ImageChops.difference(
                    image, self._ram).getbbox() is not None
                if changed:
                    self.device.display(image)
                stats = FrameStats(int(changed), 0, 0.0, changed)
            else:
                stats = self._send_changes(image)
        except Exception as error:  # a bus error is held, the next frame goes whole
            if self.problem is None:
                log.warning("TFT: %s", error)
            self.problem = str(error) or type(error).__name__
            self._ram = None
            return FrameStats(0, 0, time.perf_counter() - started, False)
        self.problem = None
        self._ram = image.copy()
        return FrameStats(stats.windows, stats.data_bytes, time.perf_counter() - started,
                          stats.full)

    def _send_changes(self, image: Image.Image) -> FrameStats:
        """The changed columns of each band of changed rows, written window by window (the
        window in the controller's own coordinates: the rotation applied as luma applies it)."""
        frame = self.device.preprocess(image)
        before = self.device.preprocess(self._ram) if self._ram is not None else None
        width, height = frame.size
        windows, sent = 0, 0
        for top in range(0, height, BAND):
            bottom = min(height, top + BAND)
            band = frame.crop((0, top, width, bottom))
            if before is not None:
                box = ImageChops.difference(band, before.crop((0, top, width, bottom))).getbbox()
                if box is None:
                    continue
                left, right = box[0], box[2]
            else:
                left, right = 0, width
            pixels = band.crop((left, 0, right, bottom - top)).tobytes()
            self.device.command(0x2A, left >> 8, left & 0xFF, (right - 1) >> 8, (right - 1) & 0xFF)
            self.device.command(0x2B, top >> 8, top & 0xFF, (bottom - 1) >> 8, (bottom - 1) & 0xFF)
            self.device.command(0x2C)
            self.device.data(list(pixels))
            windows += 1
            sent += len(pixels)
        return FrameStats(windows, sent, 0.0, before is None)

    def close(self) -> None:
        """Blanks the screen and lets the bus and pins go; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self.device.cleanup()
        except Exception as error:  # closing must not fail the box's shutdown
            log.debug("TFT: closing: %s", error)


def _always_on(enabled: bool) -> None:
    """A backlight wired to 3.3 V: always on, nothing to switch."""


def _pin(pin: int | None) -> str:
    return f"GPIO{pin}" if pin is not None else "not wired"
