# mypy: ignore-errors
"""Tabletop Companion die / keypad firmware for a Raspberry Pi Pico (MicroPython).

Copy this file and protocol.py to the Pico (e.g. ``mpremote cp main.py protocol.py :``).
It scans a 4x4 keypad matrix and a roll button / tilt switch, rolls the die itself, and
speaks the line protocol of docs/hardware/protocol.md over the USB serial port:

- a key press sends ``KEY k``; the roll button (or a shake of the tilt switch) sends
  ``DIE faces value``;
- ``ROLL n`` from the host rolls an n-sided die and answers ``DIE n value``; ``PING``
  answers ``HELLO pico-keypad 1.0``; anything else answers ``ERR ...``.

Everything but `main` takes its pins, clock and randomness as arguments, so the host's test
suite runs the same logic with models of the keypad wiring.
"""

try:
    from hardware.pico import protocol  # on the host, for tests
except ImportError:
    import protocol  # on the Pico, beside this file

DEVICE = "pico-keypad"
ROW_PINS = (2, 3, 4, 5)  # GP2-GP5 drive the rows (low = scanning)
COL_PINS = (6, 7, 8, 9)  # GP6-GP9 read the columns (pull-ups; low = key down)
ROLL_PIN = 14  # roll button to GND
TILT_PIN = 15  # tilt (ball) switch to GND: a shake rolls too
LAYOUT = ("123A", "456B", "789C", "*0#D")
DEFAULT_FACES = 6
SCAN_MS = 5
STABLE_SCANS = 4  # a change must hold for 4 scans (20 ms) to count
TILT_CHANGES = 4  # tilt-switch flips within TILT_WINDOW_MS that make a shake
TILT_WINDOW_MS = 600


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
    """A 4x4 matrix: each row pin driven low in turn, column pins read with pull-ups."""

    def __init__(self, rows, cols, layout=LAYOUT):
        self.rows = rows
        self.cols = cols
        self.layout = layout
        for row in rows:
            row.value(1)

    def scan(self):
        """The set of keys down right now."""
        down = set()
        for r, row in enumerate(self.rows):
            row.value(0)
            for c, col in enumerate(self.cols):
                if col.value() == 0:
                    down.add(self.layout[r][c])
            row.value(1)
        return down


class Stable:
    """Debounces a set-valued input: a member counts once seen in `scans` scans in a row."""

    def __init__(self, scans=STABLE_SCANS):
        self.scans = scans
        self.state = set()
        self._counts = {}

    def update(self, seen):
        """Feed one scan; returns (newly pressed, newly released)."""
        pressed, released = [], []
        for key in seen | self.state | set(self._counts):
            changed = (key in seen) != (key in self.state)
            if not changed:
                self._counts.pop(key, None)
                continue
            count = self._counts.get(key, 0) + 1
            if count < self.scans:
                self._counts[key] = count
                continue
            self._counts.pop(key, None)
            if key in seen:
                self.state.add(key)
                pressed.append(key)
            else:
                self.state.discard(key)
                released.append(key)
        pressed.sort()
        released.sort()
        return pressed, released


class Firmware:
    """The device's behaviour, given its inputs and outputs.

    ``keypad`` has scan(); ``roll_pin`` / ``tilt_pin`` have value() (0 when closed, or None);
    ``write`` sends a framed line; ``getrandbits`` is the random source; ``ticks_ms`` and
    ``ticks_diff`` are the clock (MicroPython's wrap-around millisecond ticks).
    """

    def __init__(self, keypad, roll_pin, tilt_pin, write, getrandbits, ticks_ms,
                 ticks_diff=None, faces=DEFAULT_FACES):
        self.keypad = keypad
        self.roll_pin = roll_pin
        self.tilt_pin = tilt_pin
        self.write = write
        self.getrandbits = getrandbits
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff or (lambda later, earlier: later - earlier)
        self.faces = faces
        self.keys = Stable()
        self.button = Stable()
        self.tilt = Stable()
        self.flips = []
        self.buffer = ""

    def hello(self):
        self.write(protocol.encode_hello(DEVICE, protocol.VERSION))

    def send_roll(self, faces):
        self.write(protocol.encode_die(faces, roll(faces, self.getrandbits)))

    def step(self):
        """One scan of every input, sending what happened."""
        pressed, _ = self.keys.update(self.keypad.scan())
        for key in pressed:
            self.write(protocol.encode_key(key))
        if self.roll_pin is not None:
            down = {"roll"} if self.roll_pin.value() == 0 else set()
            if self.button.update(down)[0]:
                self.send_roll(self.faces)
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
            self.send_roll(self.faces)

    def receive(self, text):
        """Feed characters from the host; complete lines are answered."""
        for char in text:
            if char == "\n":
                line, self.buffer = self.buffer, ""
                self.handle_line(line)
            elif len(self.buffer) <= protocol.MAX_LINE:
                self.buffer += char

    def handle_line(self, line):
        line = line.strip("\r")
        if not line:
            return
        try:
            message = protocol.decode(line)
        except ValueError as exc:
            self.write(protocol.encode_error(getattr(exc, "reason", "error")))
            return
        if message[0] == "ROLL":
            self.faces = message[1]
            self.send_roll(message[1])
        elif message[0] == "PING":
            self.hello()
        else:
            self.write(protocol.encode_error("unexpected " + message[0]))


def main():  # pragma: no cover - runs on the Pico only
    import random
    import select
    import sys
    import time

    from machine import Pin

    rows = [Pin(n, Pin.OUT) for n in ROW_PINS]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in COL_PINS]
    roll_pin = Pin(ROLL_PIN, Pin.IN, Pin.PULL_UP)
    tilt_pin = Pin(TILT_PIN, Pin.IN, Pin.PULL_UP)

    def write(line):
        sys.stdout.write(line)

    firmware = Firmware(Keypad(rows, cols), roll_pin, tilt_pin, write, random.getrandbits,
                        time.ticks_ms, time.ticks_diff)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    firmware.hello()
    while True:
        while poller.poll(0):
            firmware.receive(sys.stdin.read(1))
        firmware.step()
        time.sleep_ms(SCAN_MS)


if __name__ == "__main__":
    main()
