# mypy: ignore-errors
"""The Pico's side of the firmware: its pins, its two serial links and its clock, handed to
`firmware.py`. MicroPython only (``machine``, ``micropython``); nothing runs on import.

Pins (the build guide's, docs/hardware.md):

- keypad rows GP2-GP5 (open-drain), columns GP6-GP9 (pull-ups);
- roll button GP14 and tilt switch GP15, each to GND (pull-ups);
- UART0 for the Pi's header UART: TX GP0 (Pico pin 1) to the Pi's GPIO15 RXD (header pin 10),
  RX GP1 (Pico pin 2) from the Pi's GPIO14 TXD (header pin 8), 115200 8N1;
- the USB console (``/dev/ttyACM0`` on the Pi).

Hold the roll button while plugging the Pico in to skip the loop and keep the REPL (to update
the files with ``mpremote``: the running firmware ignores Ctrl-C).
"""

import sys

try:
    from hardware.pico import firmware  # on the host, for tests
except ImportError:
    import firmware  # on the Pico, beside this file

ROW_PINS = (2, 3, 4, 5)
COL_PINS = (6, 7, 8, 9)
ROLL_PIN = 14
TILT_PIN = 15
UART_ID = 0
UART_TX_PIN = 0
UART_RX_PIN = 1
BAUDRATE = 115200
SETTLE_US = 10  # after pulling a row low, before reading the columns


def usb_link():
    """The USB console (CDC), read as bytes: ``sys.stdin.buffer`` where the port has it."""
    import select

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = getattr(sys.stdout, "buffer", sys.stdout)

    def available():
        return 1 if poller.poll(0) else 0

    return firmware.StreamLink("usb", available, stdin.read, stdout.write)


def uart_link():
    """UART0 on GP0/GP1 at `BAUDRATE`; reads never wait (timeout 0)."""
    from machine import UART, Pin

    # A pull-up first (the UART leaves pulls alone): with nothing wired, RX idles high instead
    # of floating or sitting low, which would read as noise or a break.
    rx = Pin(UART_RX_PIN, Pin.IN, Pin.PULL_UP)
    uart = UART(UART_ID, baudrate=BAUDRATE, tx=Pin(UART_TX_PIN), rx=rx, timeout=0)
    return firmware.StreamLink("uart", uart.any, uart.read, uart.write)


def run():
    """Build the device from the Pico's parts and serve until power-off."""
    import micropython
    import random
    import time

    from machine import Pin

    def settle():
        time.sleep_us(SETTLE_US)

    keypad = firmware.Keypad([Pin(n) for n in ROW_PINS], [Pin(n) for n in COL_PINS],
                             settle=settle)
    device = firmware.Firmware(keypad, Pin(ROLL_PIN), Pin(TILT_PIN), [usb_link(), uart_link()],
                               random.getrandbits, time.ticks_ms, time.ticks_diff)
    if not firmware.serve(device, time.sleep_ms, micropython.kbd_intr):
        print("roll button held at start-up: firmware not started, REPL left free")
