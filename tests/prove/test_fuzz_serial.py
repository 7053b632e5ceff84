"""A MiB of random bytes on the die/keypad line, with valid frames between the garbage: the
serial reader (pyserial's ``loop://`` under the hardware layer's ``SerialDie``) survives it and
delivers every valid frame, in order, and nothing else."""

from __future__ import annotations

import queue
import random
from typing import Any

import serial

from hardware.protocol import DeviceError, DeviceMessage, DieRoll, Hello, KeyPress, encode
from hardware.serial_die import LinkState, SerialDie

GARBAGE = 1 << 20
WAIT = 60.0


def valid_frame(rng: random.Random) -> DeviceMessage:
    kind = rng.randrange(4)
    if kind == 0:
        faces = rng.choice((4, 6, 8, 12, 20))
        return DieRoll(faces, rng.randint(1, faces))
    if kind == 1:
        return KeyPress(rng.choice("0123456789ABCD*#"))
    if kind == 2:
        return Hello("pico-die", f"1.{rng.randrange(10)}")
    return DeviceError(rng.choice(("busy", "no die", "bad roll")))


def test_a_mebibyte_of_garbage_drops_no_valid_frame() -> None:
    rng = random.Random(2160)
    ports: list[Any] = []

    def opener(url: str) -> Any:
        ports.append(serial.serial_for_url(url, timeout=0.5))
        return ports[-1]

    got: queue.Queue[DeviceMessage] = queue.Queue()
    sent: list[DeviceMessage] = []
    with SerialDie("loop://", listener=got.put, opener=opener) as die:
        assert die.wait_connected(5.0)
        written = 0
        while written < GARBAGE:
            chunk = rng.randbytes(rng.choice((1, 7, 40, 300, 2000, 9000)))
            message = valid_frame(rng)
            # Garbage, then a newline that ends whatever the garbage left open, then a frame.
            ports[0].write(chunk + b"\n" + encode(message))
            sent.append(message)
            written += len(chunk)
        received = [got.get(timeout=WAIT) for _ in sent]
        assert received == sent
        assert die.counters.frames_ok == len(sent)
        assert sum(die.counters.dropped().values()) > 0
        assert die.state is LinkState.CONNECTED
        # Still reading after all that: one more frame comes through.
        ports[0].write(encode(KeyPress("#")))
        assert got.get(timeout=WAIT) == KeyPress("#")
        assert got.empty()
