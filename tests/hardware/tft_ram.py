"""An independent model of the ILI9341's and ST7789's memory writes, for decoding what a driver
put on the SPI bus back into pixels (from the datasheets' CASET 2Ah, RASET 2Bh and RAMWR 2Ch;
written from them, not from our driver or luma's): a window is set by a column and a row
range, then RAMWR's data fills it row after row, three bytes (R, G, B) a pixel. Every other
command's data bytes are its parameters and change no pixel."""

from __future__ import annotations

from PIL import Image

from tests.hardware.controller_ram import COMMAND, Write

CASET, RASET, RAMWR = 0x2A, 0x2B, 0x2C


class TftRam:
    """The controller's frame memory, ``width`` × ``height`` in its own addressing."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(width * height * 3)
        self.command: int | None = None
        self.params: list[int] = []
        self.columns = (0, width - 1)
        self.rows = (0, height - 1)
        self._x = self._y = 0
        self._pending: list[int] = []
        #: Pixel bytes written by RAMWR since the last :meth:`take_written`.
        self.written = 0

    def feed(self, writes: list[Write]) -> None:
        for write in writes:
            if write.control == COMMAND:
                for byte in write.payload:
                    self._start(byte)
            else:
                for byte in write.payload:
                    self._data(byte)

    def _start(self, command: int) -> None:
        self.command, self.params, self._pending = command, [], []
        if command == RAMWR:
            self._x, self._y = self.columns[0], self.rows[0]

    def _data(self, byte: int) -> None:
        if self.command in (CASET, RASET):
            self.params.append(byte)
            if len(self.params) == 4:
                start = self.params[0] << 8 | self.params[1]
                end = self.params[2] << 8 | self.params[3]
                assert start <= end, f"a window from {start} back to {end}"
                if self.command == CASET:
                    assert end < self.width, f"column {end} is off the {self.width}-wide RAM"
                    self.columns = (start, end)
                else:
                    assert end < self.height, f"row {end} is off the {self.height}-high RAM"
                    self.rows = (start, end)
        elif self.command == RAMWR:
            self._pending.append(byte)
            self.written += 1
            if len(self._pending) == 3:
                assert self._y <= self.rows[1], "RAMWR wrote past its window"
                at = (self._y * self.width + self._x) * 3
                self.pixels[at:at + 3] = bytes(self._pending)
                self._pending = []
                self._x += 1
                if self._x > self.columns[1]:
                    self._x = self.columns[0]
                    self._y += 1

    def screen(self) -> Image.Image:
        return Image.frombytes("RGB", (self.width, self.height), bytes(self.pixels))

    def take_written(self) -> int:
        written, self.written = self.written, 0
        return written
