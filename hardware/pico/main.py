# mypy: ignore-errors
"""Tabletop Companion die / keypad for a Raspberry Pi Pico running MicroPython.

The Pico runs ``main.py`` at boot. Copy it with ``protocol.py``, ``firmware.py`` and
``board.py`` (``mpremote cp protocol.py firmware.py board.py main.py :``). The behaviour is in
`firmware` (the same code the host's tests run under CPython and MicroPython), the Pico's pins
and serial links in `board`.
"""

try:
    from hardware.pico import board  # on the host, for tests
except ImportError:
    import board  # on the Pico, beside this file


def main():
    board.run()


if __name__ == "__main__":
    main()
