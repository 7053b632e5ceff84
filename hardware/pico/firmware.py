# mypy: ignore-errors
"""Tabletop Companion die / keypad firmware: everything the Pico does, given its parts.

Runs unchanged under MicroPython and CPython because it imports no hardware module: `board.py`
(MicroPython only) hands it the Pico's pins, serial links and clock, the host's tests hand it
models. It scans a 4x4 keypad matrix and a roll button / tilt switch, rolls the die itself,
and speaks the line protocol of docs/hardware/protocol.md on every link at once (the USB
console and the header UART):

- a key press sends ``KEY k``; the roll button (or a shake of the tilt switch) sends
  ``DIE faces value`` — on every link;
- ``ROLL n`` rolls an n-sided die and answers ``DIE n value``, ``PING`` answers
  ``HELLO pico-keypad <version>``, anything else answers ``ERR <reason>`` — on the link it
  came from. No input, however malformed, stops the loop.
"""

try:
    from hardware.pico import protocol  # on the host, for tests
except ImportError:
    import protocol  # on the Pico, beside this file

DEVICE = "pico-keypad"
FIRMWARE_VERSION = "1.1"
LAYOUT = ("123A", "456B", "789C", "*0#D")
DEFAULT_FACES = 6
SCAN_MS = 5
STABLE_MS = 20  # an input must read the same for this long before a change counts
TILT_CHANGES = 4  # tilt-switch flips within TILT_WINDOW_MS that make a shake
TILT_WINDOW_MS = 600
READ_BUDGET = 4 * (protocol.MAX_LINE + 2)  # bytes read per link per pass: scanning goes on
INTERNAL = "internal"  # ERR reason if handling a line ever raised (a firmware bug)


def roll(faces, getrandbits):
    """A fair roll 1..faces from a source of random bits (rejection sampling, no modulo bias)."""
    bits = 1
    while (1 << bits) < faces:
        bits += 1
    while True:
        value = getrandbits(bits)
        if value < faces:
            return value + 1


class Keypad:
    """A 4x4 matrix scanned a row at a time.

    Rows are open-drain: the row being scanned is pulled low and every other row is released
    (high impedance), so two keys pressed in one column never join an output driving high to
    one driving low. Columns are inputs with pull-ups; a column reading low has a key down in
    the scanned row. ``settle`` (optional) waits for the lines after a row is pulled low.
    """

    def __init__(self, rows, cols, layout=LAYOUT, settle=None):
        self.rows = rows
        self.cols = cols
        self.layout = layout
        self.settle = settle
        for row in rows:
            row.init(row.OPEN_DRAIN, value=1)
        for col in cols:
            col.init(col.IN, col.PULL_UP)

    def scan(self):
        """The set of keys down right now."""
        down = set()
        for r, row in enumerate(self.rows):
            row.value(0)
            if self.settle is not None:
                self.settle()
            for c, col in enumerate(self.cols):
                if col.value() == 0:
                    down.add(self.layout[r][c])
            row.value(1)
        return down


class Debouncer:
    """Debounces a set of inputs by a stable window: a change (a key going down or up) counts
    once every reading for ``window_ms`` has agreed with it; a reading that goes back restarts
    the window. ``ticks_ms``/``ticks_diff`` are MicroPython's wrap-around clock."""

    def __init__(self, ticks_ms, ticks_diff, window_ms=STABLE_MS):
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.window_ms = window_ms
        self.state = set()
        self._since = {}  # input -> tick when its reading first differed from `state`

    def update(self, seen):
        """Feed one reading; returns (newly down, newly up), each sorted."""
        now = self.ticks_ms()
        for key in list(self._since):
            if (key in seen) == (key in self.state):
                del self._since[key]  # it went back: that was a bounce
        down, up = [], []
        for key in seen ^ self.state:
            since = self._since.get(key)
            if since is None:
                self._since[key] = now
                since = now
            if self.ticks_diff(now, since) < self.window_ms:
                continue
            del self._since[key]
            if key in seen:
                self.state.add(key)
                down.append(key)
            else:
                self.state.discard(key)
                up.append(key)
        down.sort()
        up.sort()
        return down, up


class LineBuffer:
    """Splits received bytes into lines (without the newline). A line longer than the protocol
    allows is dropped up to its newline and given as None, so it never grows the buffer."""

    def __init__(self, limit=protocol.MAX_LINE + 1):  # +1 for a '\r' before the newline
        self.limit = limit
        self.buffer = bytearray()
        self.discarding = False

    def feed(self, data):
        """The lines completed by ``data`` (bytes): each bytes, or None for an overlong one."""
        lines = []
        for code in data:
            if code == 10:
                lines.append(None if self.discarding else bytes(self.buffer))
                self.buffer = bytearray()
                self.discarding = False
            elif not self.discarding:
                self.buffer.append(code)
                if len(self.buffer) > self.limit:
                    self.buffer = bytearray()
                    self.discarding = True
        return lines


class StreamLink:
    """One serial link to the host: ``available()`` says how many bytes can be read without
    blocking, ``read(n)`` reads them, ``write(data)`` sends bytes.

    Reads are taken as bytes; a text-mode stream that refuses non-UTF-8 input (MicroPython's
    ``sys.stdin`` raises UnicodeError) or hands back str is coped with, so no byte from the host
    can raise out of `receive`.
    """

    def __init__(self, name, available, read, write):
        self.name = name
        self._available = available
        self._read = read
        self._write = write
        self.lines = LineBuffer()

    def receive(self):
        """Lines that arrived since the last call (see `LineBuffer.feed`)."""
        lines = []
        budget = READ_BUDGET
        while budget > 0:
            try:
                count = self._available()
                if not count:
                    break
                data = self._read(min(count, budget))
            except UnicodeError:
                data = b"\xff"  # a text-mode stream met a non-UTF-8 byte: keep it as garbage
            except OSError:
                break
            if not data:
                break
            if isinstance(data, str):
                data = data.encode()
            budget -= len(data)
            lines.extend(self.lines.feed(data))
        return lines

    def write(self, line):
        """Send one framed line (str); a link that cannot take it now drops it."""
        try:
            self._write(line.encode())
        except OSError:
            pass


class Firmware:
    """The device's behaviour, given its inputs and outputs.

    ``keypad`` has scan(); ``roll_pin`` / ``tilt_pin`` are pins (closed to GND = 0) or None;
    ``links`` are `StreamLink` s; ``getrandbits`` is the random source; ``ticks_ms`` and
    ``ticks_diff`` are the clock (MicroPython's wrap-around millisecond ticks).
    """

    def __init__(self, keypad, roll_pin, tilt_pin, links, getrandbits, ticks_ms,
                 ticks_diff=None, faces=DEFAULT_FACES):
        self.keypad = keypad
        self.roll_pin = roll_pin
        self.tilt_pin = tilt_pin
        self.links = links
        self.getrandbits = getrandbits
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff or (lambda later, earlier: later - earlier)
        self.faces = faces
        for pin in (roll_pin, tilt_pin):
            if pin is not None:
                pin.init(pin.IN, pin.PULL_UP)
        self.keys = Debouncer(ticks_ms, self.ticks_diff)
        self.button = Debouncer(ticks_ms, self.ticks_diff)
        self.tilt = Debouncer(ticks_ms, self.ticks_diff)
        self.flips = []

    def broadcast(self, line):
        for link in self.links:
            link.write(line)

    def hello_line(self):
        return protocol.encode_hello(DEVICE, FIRMWARE_VERSION)

    def roll_line(self, faces):
        return protocol.encode_die(faces, roll(faces, self.getrandbits))

    def roll_held(self):
        """True while the roll button is pressed (at start-up: keep the REPL, see `serve`)."""
        return self.roll_pin is not None and self.roll_pin.value() == 0

    def step(self):
        """One scan of every input, sending what happened."""
        pressed, _ = self.keys.update(self.keypad.scan())
        for key in pressed:
            self.broadcast(protocol.encode_key(key))
        if self.roll_pin is not None:
            down = {"roll"} if self.roll_pin.value() == 0 else set()
            if self.button.update(down)[0]:
                self.broadcast(self.roll_line(self.faces))
        if self.tilt_pin is not None:
            closed = {"tilt"} if self.tilt_pin.value() == 0 else set()
            on, off = self.tilt.update(closed)
            if on or off:
                self._tilt_flip()

    def _tilt_flip(self):
        now = self.ticks_ms()
        recent = [t for t in self.flips if self.ticks_diff(now, t) <= TILT_WINDOW_MS]
        self.flips = recent + [now]
        if len(self.flips) >= TILT_CHANGES:
            self.flips = []
            self.broadcast(self.roll_line(self.faces))

    def poll(self):
        """Answer every complete line waiting on every link, on the link it came from."""
        for link in self.links:
            for line in link.receive():
                try:
                    reply = self.answer(line)
                except Exception:  # a firmware bug must not kill the die: say so, go on
                    reply = protocol.encode_error(INTERNAL)
                if reply is not None:
                    link.write(reply)

    def answer(self, line):
        """The reply (a framed str) to one received line (bytes, or None for an overlong one),
        or None for a blank line."""
        if line is None:
            return protocol.encode_error(protocol.OVERLONG)
        if line[-1:] == b"\r":
            line = line[:-1]
        if not line:
            return None
        try:
            message = protocol.decode(line)
        except ValueError as exc:  # FrameError, or UnicodeError from a stray byte
            return protocol.encode_error(getattr(exc, "reason", protocol.GARBAGE))
        if message[0] == "ROLL":
            self.faces = message[1]
            return self.roll_line(message[1])
        if message[0] == "PING":
            return self.hello_line()
        return protocol.encode_error("unexpected " + message[0])


def serve(device, sleep_ms, kbd_intr=None, running=None):
    """The main loop: answer the links, scan the inputs, sleep `SCAN_MS`; forever, or while
    ``running()`` is true. Returns False at once, leaving the REPL usable (for ``mpremote``),
    when the roll button is held at start-up; True when ``running()`` ended it.

    ``kbd_intr`` is ``micropython.kbd_intr``: called with -1 so a Ctrl-C byte (0x03) from the
    host is data for the parser rather than a KeyboardInterrupt that would stop the die.
    """
    if device.roll_held():
        return False
    if kbd_intr is not None:
        kbd_intr(-1)
    device.broadcast(device.hello_line())
    while running is None or running():
        device.poll()
        device.step()
        sleep_ms(SCAN_MS)
    return True
