"""Boots the firmware as the Pico does — ``main.main()`` — under MicroPython, with the modelled
board (`pico_models`) in place of ``machine``, ``time`` and ``random``; the USB console is the
interpreter's real ``sys.stdin`` / ``sys.stdout``. Runs in the guest (MicroPython) only.

Prints the frames the firmware sends on USB as they come, then one ``RESULT boot {...}`` line:
``crash`` (the exception that escaped main, or None), ``kbd_intr`` (each call as
[argument, scans so far]), ``shorts``, ``uart_out`` (what the firmware sent on UART0),
``uarts`` (how UART0 was set up) and ``scans``.
"""

import json
import sys

import pico_models as models


class Recorder:
    """``micropython`` with ``kbd_intr`` recorded, then passed to the real one."""

    def __init__(self, real, scans):
        self.real = real
        self.scans = scans
        self.calls = []

    def kbd_intr(self, char):
        self.calls.append([char, self.scans[0]])
        if self.real is not None:
            self.real.kbd_intr(char)


def boot(scans, events=None, uart_in=b"", seed=1, roll_held=False):
    """Run ``main.main()`` for ``scans`` scans; ``events`` maps a scan number to a list of
    ("press" | "release", key label) done after that scan."""
    import micropython as real_micropython

    board = models.PicoBoard()
    board.uart_in.extend(uart_in)
    if roll_held:
        board.set_switch(models.ROLL, True)
    clock = models.Clock(start=(1 << 30) - 50)  # wraps during the run

    def on_scan(count):
        for action, label in (events or {}).get(count, ()):
            if action == "press":
                board.press(label)
            else:
                board.release(label)

    time_model = models.time_module(clock, scans, on_scan)
    recorder = Recorder(real_micropython, time_model.scans)
    sys.modules["machine"] = models.machine_module(board)
    sys.modules["time"] = time_model
    sys.modules["random"] = models.random_module(seed)
    sys.modules["micropython"] = recorder
    crash = None
    try:
        import main

        main.main()
    except models.StopRun:
        pass
    except Exception as exc:  # what would kill the die: report it
        crash = f"{type(exc).__name__}: {exc}"
    result = {
        "crash": crash,
        "kbd_intr": recorder.calls,
        "shorts": len(board.shorts),
        "uart_out": bytes(board.uart_out).decode(),
        "uarts": [[u.uart_id, u.baudrate, u.tx.number if u.tx else None,
                   u.rx.number if u.rx else None] for u in board.uarts],
        "rx_pull": board.pin(1).pull if 1 in board.pins else None,
        "scans": time_model.scans[0],
    }
    sys.stdout.write("\nRESULT boot " + json.dumps(result) + "\n")
