"""Independent models of the SSD1306 and SH1106 display RAM and addressing, for decoding the
bytes a driver put on the I²C bus back into pixels (written from the datasheets, not from our
driver or luma's)."""

from __future__ import annotations

import errno
from dataclasses import dataclass, field

from PIL import Image

COMMAND, DATA = 0x00, 0x40  # I²C control bytes: Co=0, D/C# = 0 (command) or 1 (data)


@dataclass
class Write:
    address: int
    control: int
    payload: bytes


@dataclass
class RecordingBus:
    """An smbus2-shaped bus that records block writes and can be told to fail."""

    writes: list[Write] = field(default_factory=list)
    fail_after: int | None = None  # fail the write after this many more succeed
    fail_errno: int = errno.EREMOTEIO

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if self.fail_after is not None:
            if self.fail_after == 0:
                self.fail_after = None
                raise OSError(self.fail_errno, "Remote I/O error")
            self.fail_after -= 1
        assert len(data) <= 32, "SMBus block writes carry at most 32 bytes"
        assert all(0 <= b <= 255 for b in data)
        self.writes.append(Write(address, register, bytes(data)))

    def take(self) -> list[Write]:
        taken, self.writes = self.writes, []
        return taken

    @staticmethod
    def bus_bytes(writes: list[Write]) -> int:
        """Bytes on the wire: address + control + payload per transaction."""
        return sum(2 + len(w.payload) for w in writes)


# Command lengths (opcode included) for opcodes taking arguments.
SSD1306_ARGS = {0x20: 2, 0x21: 3, 0x22: 3, 0x81: 2, 0x8D: 2, 0xA8: 2, 0xD3: 2, 0xD5: 2,
                0xD9: 2, 0xDA: 2, 0xDB: 2}
SSD1306_SINGLE = {0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3}


class Ssd1306Ram:
    """128 columns × 8 pages, with the SSD1306's page / horizontal / vertical addressing."""

    columns = 128
    first_visible = 0

    def __init__(self, pages: int = 8) -> None:
        self.pages = pages
        self.ram = [bytearray(self.columns) for _ in range(pages)]
        self.mode = 2  # page addressing after reset
        self.col = self.col_start = 0
        self.col_end = self.columns - 1
        self.page = self.page_start = 0
        self.page_end = pages - 1
        self._pending: list[int] = []

    def feed(self, writes: list[Write]) -> None:
        for write in writes:
            if write.control == COMMAND:
                for byte in write.payload:
                    self._command_byte(byte)
            elif write.control == DATA:
                assert not self._pending, f"data while command {self._pending} incomplete"
                for byte in write.payload:
                    self._data(byte)
            else:
                raise AssertionError(f"unexpected control byte 0x{write.control:02X}")

    def _command_byte(self, byte: int) -> None:
        self._pending.append(byte)
        opcode = self._pending[0]
        need = self._length(opcode)
        if len(self._pending) == need:
            self._execute(self._pending)
            self._pending = []

    def _length(self, opcode: int) -> int:
        if opcode in SSD1306_ARGS:
            return SSD1306_ARGS[opcode]
        if opcode <= 0x1F or 0x40 <= opcode <= 0x7F or 0xB0 <= opcode <= 0xB7:
            return 1
        if opcode in SSD1306_SINGLE:
            return 1
        raise AssertionError(f"SSD1306 has no command 0x{opcode:02X}")

    def _execute(self, cmd: list[int]) -> None:
        op = cmd[0]
        if op == 0x20:
            assert cmd[1] in (0, 1, 2)
            self.mode = cmd[1]
        elif op == 0x21:
            self.col_start, self.col_end = cmd[1] & 0x7F, cmd[2] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = cmd[1] & 7, cmd[2] & 7
            self.page = self.page_start
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7

    def _data(self, byte: int) -> None:
        self.ram[self.page][self.col] = byte
        if self.mode == 0:  # horizontal: across the column window, then the next page
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        elif self.mode == 1:  # vertical: down the page window, then the next column
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1
        else:  # page addressing: along the page, wrapping to the column start
            self.col = self.col_start if self.col >= self.col_end else self.col + 1

    def screen(self, width: int = 128) -> Image.Image:
        """The panel's pixels (native orientation) as a 1-bit image."""
        image = Image.new("1", (width, self.pages * 8))
        pixels = image.load()
        for page in range(self.pages):
            for x in range(width):
                byte = self.ram[page][x + self.first_visible]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return image


SH1106_ARGS = {0x81: 2, 0xA8: 2, 0xAD: 2, 0xD3: 2, 0xD5: 2, 0xD9: 2, 0xDA: 2,
               0xDB: 2, 0x8D: 2}


class Sh1106Ram(Ssd1306Ram):
    """132 columns × 8 pages, page addressing only; a 128-pixel panel shows columns 2–129."""

    columns = 132
    first_visible = 2

    def _length(self, opcode: int) -> int:
        if opcode in SH1106_ARGS:
            return SH1106_ARGS[opcode]
        if opcode <= 0x1F or 0x30 <= opcode <= 0x33 or 0x40 <= opcode <= 0x7F:
            return 1
        if 0xB0 <= opcode <= 0xB7 or 0xC0 <= opcode <= 0xCF:
            return 1
        if opcode in {0x20, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xE0, 0xE3, 0xEE}:
            # 0x20 is not an SH1106 command; luma's sh1106 init sends it and the chip ignores it.
            return 1
        raise AssertionError(f"SH1106 has no command 0x{opcode:02X}")

    def _execute(self, cmd: list[int]) -> None:
        op = cmd[0]
        if op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7

    def _data(self, byte: int) -> None:
        assert self.col < self.columns, "SH1106 write past column 131"
        self.ram[self.page][self.col] = byte
        self.col += 1  # read-modify-write aside, the column simply counts up


class RecordingSpi:
    """A spidev-shaped SPI device; with `RecordingGpio` it turns writes into `Write` records
    (the DC line tells command from data, as the controller sees it)."""

    def __init__(self, gpio: RecordingGpio, dc_pin: int) -> None:
        self.gpio = gpio
        self.dc_pin = dc_pin
        self.writes: list[Write] = []
        self.opened: tuple[int, int] | None = None
        self.max_speed_hz = 0
        self.closed = False

    def open(self, port: int, device: int) -> None:
        self.opened = (port, device)

    def writebytes(self, data: list[int]) -> None:
        control = DATA if self.gpio.levels.get(self.dc_pin) else COMMAND
        self.writes.append(Write(0, control, bytes(data)))

    def take(self) -> list[Write]:
        taken, self.writes = self.writes, []
        return taken

    def close(self) -> None:
        self.closed = True


class RecordingGpio:
    """An RPi.GPIO-shaped module that remembers output levels."""

    BCM, OUT, LOW, HIGH = 11, 0, 0, 1

    def __init__(self) -> None:
        self.levels: dict[int, int] = {}
        self.set_up: set[int] = set()

    def setmode(self, mode: int) -> None:
        pass

    def setwarnings(self, enabled: bool) -> None:
        pass

    def setup(self, pin: int, direction: int) -> None:
        self.set_up.add(pin)

    def output(self, pin: int, level: int) -> None:
        assert pin in self.set_up, f"GPIO{pin} written before setup"
        self.levels[pin] = 1 if level else 0

    def cleanup(self, pins: list[int] | None = None) -> None:
        pass
