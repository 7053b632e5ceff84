"""Models of what the Pico's firmware is wired to, written in the Python that both MicroPython
and CPython run (no annotations), so one model serves both interpreters.

`PicoBoard` is the build guide's wiring as the Pico's pins see it: a 4x4 key matrix on GP2-GP9,
a roll button on GP14 and a tilt switch on GP15 (both to GND), UART0 on GP0/GP1. Its pins follow
``machine.Pin``'s API (``init(mode, pull, value=)``, ``value()``); the matrix is modelled
electrically, so a pressed key joins its row and column into one net, and a net in which one
output drives high while another drives low is recorded in `PicoBoard.shorts`.
`machine_module`, `time_module` and `random_module` stand in for MicroPython's modules of those
names when the firmware's board code runs off the Pico.
"""

ROWS = (2, 3, 4, 5)
COLS = (6, 7, 8, 9)
ROLL = 14
TILT = 15
LAYOUT = ("123A", "456B", "789C", "*0#D")


class StopRun(BaseException):
    """Raised by the model clock when a run has had its scans (not an Exception, so nothing
    in the firmware can swallow it)."""


class ModelPin:
    """One GPIO as ``machine.Pin`` presents it; its level comes from `PicoBoard`."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, board, number):
        self.board = board
        self.number = number
        self.mode = None  # not configured: high impedance
        self.pull = None
        self.latch = 0

    def init(self, mode=-1, pull=-1, value=None, alt=-1):
        if value is not None:
            self.latch = 1 if value else 0
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        self.board.changed()

    def value(self, level=None):
        if level is None:
            return self.board.level(self)
        self.latch = 1 if level else 0
        self.board.changed()
        return None

    def drive(self):
        """0 or 1 when the pin drives its line, None when it is high impedance."""
        if self.mode == self.OUT:
            return self.latch
        if self.mode == self.OPEN_DRAIN and self.latch == 0:
            return 0
        return None

    def __repr__(self):
        return f"Pin(GP{self.number})"


class ModelUart:
    """UART0 as ``machine.UART`` presents it: ``any``/``read``/``write`` over two byte queues
    that the test (the Pi's end of the wire) fills and empties."""

    def __init__(self, board, uart_id, baudrate=115200, tx=None, rx=None, timeout=0, **kwargs):
        self.board = board
        self.uart_id = uart_id
        self.baudrate = baudrate
        self.tx = tx
        self.rx = rx
        self.timeout = timeout
        board.uarts.append(self)

    def any(self):
        return len(self.board.uart_in)

    def read(self, count=-1):
        data = self.board.uart_in
        if not data:
            return None
        if count < 0 or count > len(data):
            count = len(data)
        chunk = bytes(data[:count])
        self.board.uart_in = data[count:]
        return chunk

    def write(self, data):
        self.board.uart_out.extend(data)
        return len(data)


class PicoBoard:
    """The Pico's pins and what the build guide wires to them."""

    def __init__(self, rows=ROWS, cols=COLS, roll=ROLL, tilt=TILT):
        self.rows = rows
        self.cols = cols
        self.roll = roll
        self.tilt = tilt
        self.pins = {}
        self.pressed = set()  # (row index, column index) of the keys held down
        self.closed = set()  # pin numbers whose switch to GND is closed
        self.shorts = []  # nets where an output driving high met one driving low
        self.uarts = []
        self.uart_in = bytearray()
        self.uart_out = bytearray()

    def pin(self, number):
        """The one pin object for GP``number`` (as ``machine.Pin(number)`` returns)."""
        if number not in self.pins:
            self.pins[number] = ModelPin(self, number)
        return self.pins[number]

    def key(self, label):
        for r, row in enumerate(LAYOUT):
            if label in row:
                return (r, row.index(label))
        raise KeyError(label)

    def press(self, label):
        self.pressed.add(self.key(label))
        self.changed()

    def release(self, label):
        self.pressed.discard(self.key(label))
        self.changed()

    def set_switch(self, number, closed):
        if closed:
            self.closed.add(number)
        else:
            self.closed.discard(number)
        self.changed()

    def _net(self, node):
        """Every row/column node joined to ``node`` through pressed keys."""
        net = {node}
        frontier = [node]
        while frontier:
            kind, index = frontier.pop()
            for r, c in self.pressed:
                other = None
                if kind == "r" and r == index:
                    other = ("c", c)
                elif kind == "c" and c == index:
                    other = ("r", r)
                if other is not None and other not in net:
                    net.add(other)
                    frontier.append(other)
        return net

    def _net_pins(self, net):
        found = []
        for kind, index in net:
            number = self.rows[index] if kind == "r" else self.cols[index]
            if number in self.pins:
                found.append(self.pins[number])
        return found

    def changed(self):
        """Record a short if any net now has outputs driving against each other."""
        seen = []
        for r, _ in self.pressed:
            net = self._net(("r", r))
            if net in seen:
                continue
            seen.append(net)
            drives = [pin.drive() for pin in self._net_pins(net)]
            if 0 in drives and 1 in drives:
                self.shorts.append(sorted([pin.number for pin in self._net_pins(net)]))

    def level(self, pin):
        """What ``pin`` reads: a driven net wins, then the switch to GND, then pulls."""
        number = pin.number
        pins = [pin]
        if number in self.rows:
            pins = self._net_pins(self._net(("r", self.rows.index(number))))
        elif number in self.cols:
            pins = self._net_pins(self._net(("c", self.cols.index(number))))
        elif number in self.closed:
            return 0
        drives = [p.drive() for p in pins if p.drive() is not None]
        if 0 in drives:
            return 0
        if 1 in drives:
            return 1
        for p in pins:
            if p.pull == ModelPin.PULL_UP:
                return 1
        for p in pins:
            if p.pull == ModelPin.PULL_DOWN:
                return 0
        return 1  # floating: reads whatever; the firmware must not rely on it


class Clock:
    """MicroPython's wrap-around millisecond ticks, moved by the run (``sleep_ms``)."""

    PERIOD = 1 << 30  # MicroPython's ticks wrap at 2**30 on 32-bit ports

    def __init__(self, start=0):
        self.now = start % self.PERIOD

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, later, earlier):
        half = self.PERIOD // 2
        return ((later - earlier + half) % self.PERIOD) - half

    def advance(self, ms):
        self.now = (self.now + ms) % self.PERIOD


class XorShift:
    """A small seeded generator, the same bytes under both interpreters."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF or 1

    def next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def getrandbits(self, bits):
        return self.next() & ((1 << bits) - 1)

    def bytes(self, count):
        return bytes([self.next() & 0xFF for _ in range(count)])


class Namespace:
    """A module-like object (``sys.modules`` accepts any object)."""

    def __init__(self, **attrs):
        for name in attrs:
            setattr(self, name, attrs[name])


def machine_module(board):
    """``machine`` for code running off the Pico: ``Pin`` and ``UART`` bound to ``board``."""

    class Pin(ModelPin):
        def __new__(cls, number, mode=-1, pull=-1, value=None, alt=-1):
            pin = board.pin(number)
            if mode != -1 or pull != -1 or value is not None:
                pin.init(mode, pull, value=value)
            return pin

    def uart(uart_id, baudrate=115200, tx=None, rx=None, timeout=0, **kwargs):
        return ModelUart(board, uart_id, baudrate=baudrate, tx=tx, rx=rx, timeout=timeout)

    return Namespace(Pin=Pin, UART=uart)


def time_module(clock, scans, on_scan=None):
    """``time`` whose ``sleep_ms`` moves ``clock``, calls ``on_scan(n)`` and ends the run with
    `StopRun` after ``scans`` sleeps."""
    count = [0]

    def sleep_ms(ms):
        count[0] += 1
        clock.advance(ms)
        if on_scan is not None:
            on_scan(count[0])
        if count[0] >= scans:
            raise StopRun()

    def sleep_us(us):
        return None

    return Namespace(ticks_ms=clock.ticks_ms, ticks_diff=clock.ticks_diff,
                     sleep_ms=sleep_ms, sleep_us=sleep_us, scans=count)


def random_module(seed):
    return Namespace(getrandbits=XorShift(seed).getrandbits)
