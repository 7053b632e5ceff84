"""An I²C bus for luma's real ``i2c`` interface and ``ssd1306`` driver that records what
reaches the controller, and can be unplugged; plus the controller's RAM rebuilt from it."""

from __future__ import annotations

import errno
import threading

from PIL import Image

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8


class RecordingBus:
    """``write_i2c_block_data`` as smbus2 has it: commands (control byte 0x00) and data (0x40)
    are applied to a model of the SSD1306's RAM in horizontal addressing mode; while
    ``unplugged`` every write fails with EIO, as a loose cable does."""

    def __init__(self) -> None:
        self.unplugged = False
        self.failures = 0
        self.data_bytes = 0
        self.ram = [bytearray(WIDTH) for _ in range(PAGES)]
        self._window = (0, WIDTH - 1, 0, PAGES - 1)
        self._col, self._page = 0, 0
        self.lock = threading.Lock()

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        with self.lock:
            if self.unplugged:
                self.failures += 1
                raise OSError(errno.EIO, "Input/output error")
            if control == 0x00:
                self._command(list(data))
            elif control == 0x40:
                self.data_bytes += len(data)
                for byte in data:
                    self._write(byte)

    def _command(self, cmd: list[int]) -> None:
        c0, c1, p0, p1 = self._window
        i = 0
        while i < len(cmd):
            # the datasheet's ranges: columns A[6:0], B[6:0]; pages A[2:0], B[2:0], inclusive
            if cmd[i] == 0x21 and i + 2 < len(cmd):
                c0, c1 = cmd[i + 1] & 0x7F, cmd[i + 2] & 0x7F
                i += 3
            elif cmd[i] == 0x22 and i + 2 < len(cmd):
                p0, p1 = cmd[i + 1] & 0x07, cmd[i + 2] & 0x07
                i += 3
            else:
                return  # another command (set-up, contrast, display on/off): no RAM change
        self._window = (c0, c1, p0, p1)
        self._col, self._page = c0, p0

    def _write(self, byte: int) -> None:
        c0, c1, p0, p1 = self._window
        self.ram[self._page][self._col] = byte
        self._col += 1
        if self._col > c1 or self._col >= WIDTH:
            self._col = c0
            self._page = p0 if self._page >= p1 else self._page + 1

    def image(self) -> Image.Image:
        """What the panel shows: RAM bytes hold 8 vertical pixels, least significant on top."""
        with self.lock:
            out = Image.new("1", (WIDTH, HEIGHT), 0)
            for page, row in enumerate(self.ram):
                for x, byte in enumerate(row):
                    for bit in range(8):
                        if byte >> bit & 1:
                            out.putpixel((x, page * 8 + bit), 1)
            return out
