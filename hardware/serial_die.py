"""The die / keypad on a serial line: framing, counters, and reconnection when unplugged.

The port is opened with ``serial.serial_for_url`` (so ``loop://``, ``/dev/ttyACM0``,
``/dev/serial/by-id/...`` or a pty all work); framing runs in pyserial's threaded
``ReaderThread`` with a ``Packetizer`` subclass. Bad lines (garbage, wrong checksum,
overlong, unknown) are dropped and counted — never fatal. When the port fails (device
unplugged) the link closes it and reopens with exponential back-off until `SerialDie.close`.

>>> import serial
>>> ports = []
>>> def opener(url):
...     ports.append(serial.serial_for_url(url))
...     return ports[-1]
>>> import queue; got = queue.Queue()
>>> with SerialDie("loop://", listener=got.put, opener=opener) as die:
...     die.wait_connected(2.0)
...     _ = ports[0].write(b"KEY 5*42\\n")      # loop:// echoes writes back to the reader
...     got.get(timeout=2.0)
True
KeyPress(key='5')
"""

from __future__ import annotations

import contextlib
import enum
import logging
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self, cast

import serial
from serial.threaded import Packetizer, ReaderThread

from hardware.closing import Closing
from hardware.errors import DeviceNotFound, ProtocolError
from hardware.protocol import (
    MAX_LINE,
    REASONS,
    DeviceMessage,
    Hello,
    HostCommand,
    Ping,
    Roll,
    decode_line,
    encode,
)

log = logging.getLogger(__name__)

SERIAL_ADVICE = (
    "check the USB cable, that the device shows in 'python -m serial.tools.list_ports', the "
    "port name (a /dev/serial/by-id/ path survives re-plugging), and that you are in the "
    "'dialout' group"
)

Opener = Callable[[str], Any]
MessageListener = Callable[[DeviceMessage], None]


class LinkState(enum.Enum):
    """Where the serial link is."""

    STOPPED = "stopped"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    CLOSED = "closed"


@dataclass(frozen=True)
class SerialConfig:
    """Port (path or pyserial URL), speed, and the reconnect back-off in seconds."""

    port: str = "/dev/ttyACM0"
    baudrate: int = 115200
    backoff_initial: float = 0.25
    backoff_max: float = 5.0

    def __post_init__(self) -> None:
        if not self.port:
            raise ValueError("serial.port: must name a device path or URL")
        if self.baudrate <= 0:
            raise ValueError(f"serial.baudrate: {self.baudrate!r} must be positive")
        if not 0 < self.backoff_initial <= self.backoff_max:
            raise ValueError(
                "serial back-off: need 0 < backoff_initial <= backoff_max, got "
                f"{self.backoff_initial!r} and {self.backoff_max!r}"
            )


class LinkCounters:
    """Frames accepted and dropped (by reason), and connection events; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Condition(threading.RLock())
        self._counts: Counter[str] = Counter()

    def add(self, name: str, amount: int = 1) -> None:
        with self._lock:
            self._counts[name] += amount
            self._lock.notify_all()

    def wait_until(self, predicate: Callable[[LinkCounters], bool], timeout: float) -> bool:
        """Block until ``predicate(self)`` holds (True) or ``timeout`` seconds pass (False)."""
        with self._lock:
            return self._lock.wait_for(lambda: predicate(self), timeout)

    def __getitem__(self, name: str) -> int:
        with self._lock:
            return self._counts[name]

    @property
    def frames_ok(self) -> int:
        return self["frames_ok"]

    def dropped(self) -> dict[str, int]:
        """Dropped lines by reason (every reason present, zero if none)."""
        with self._lock:
            return {reason: self._counts[f"dropped_{reason}"] for reason in REASONS}

    def snapshot(self) -> dict[str, int]:
        """All counters as plain data (for logs and the daemon's status page)."""
        with self._lock:
            counts = dict(self._counts)
        names = ("frames_ok", "connects", "disconnects", "open_failures")
        snap = {name: counts.get(name, 0) for name in names}
        snap.update({f"dropped_{r}": counts.get(f"dropped_{r}", 0) for r in REASONS})
        return snap


class FrameReader(Packetizer):
    """pyserial line framing (``serial.threaded.Packetizer``, the base of its ``LineReader``,
    kept at bytes so the checksum sees exactly what came) with a length limit: lines longer
    than the protocol allows are discarded up to their newline (counted once as ``overlong``)
    instead of growing forever."""

    TERMINATOR = b"\n"

    def __init__(self, link: SerialDie) -> None:
        super().__init__()
        self.link = link
        self._discarding = False

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.link._connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._discarding:
            end = data.find(self.TERMINATOR)
            if end < 0:
                return
            data = data[end + 1 :]
            self._discarding = False
        super().data_received(data)
        if len(self.buffer) > MAX_LINE + 1:  # +1 for a '\r' before the newline
            self.buffer.clear()
            self._discarding = True
            self.link._dropped(ProtocolError("overlong", "line exceeds the protocol's limit"))

    def handle_packet(self, packet: bytes | bytearray) -> None:
        line = bytes(packet).rstrip(b"\r")
        if not line:
            return  # blank lines (a device's first flush) are not frames
        self.link._line(line)

    def connection_lost(self, exc: BaseException | None) -> None:
        # pyserial's Protocol re-raises ``exc`` here; an unplug is expected, so don't.
        self.buffer.clear()
        self.transport = None
        self.link._connection_lost(exc)


class PortErrors:
    """A serial port whose ``OSError`` s are ``SerialException`` s: ``in_waiting`` and ``read``
    on a vanished USB or pty device raise EIO, which pyserial's ``ReaderThread`` would not catch
    (its thread would die instead of ending the connection through ``connection_lost``). Every
    other attribute is the port's own."""

    def __init__(self, port: Any) -> None:
        self._port = port

    @property
    def in_waiting(self) -> int:
        try:
            return int(self._port.in_waiting)
        except OSError as error:
            raise serial.SerialException(str(error)) from error

    def read(self, size: int = 1) -> bytes:
        try:
            return bytes(self._port.read(size))
        except OSError as error:
            raise serial.SerialException(str(error)) from error

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "_port":
            object.__setattr__(self, name, value)
        else:
            setattr(self._port, name, value)


class SerialDie(Closing):
    """A die / keypad microcontroller on ``port``: messages to ``listener``, commands back.

    `start` opens the port and keeps it open: after an unplug it retries every
    ``backoff_initial`` seconds, doubling up to ``backoff_max``. ``opener`` replaces
    ``serial.serial_for_url`` (tests use it to reach the ``loop://`` instance); ``wait(delay)``
    replaces the back-off pause (by default an interruptible wait that `close` cuts short).
    With ``ping_on_connect`` (the default) every (re)connection starts with a ``PING``, so
    `firmware` is known even when the device's start-up ``HELLO`` was sent before the port was
    opened.
    """

    def __init__(
        self,
        port: str | SerialConfig = "/dev/ttyACM0",
        *,
        listener: MessageListener | None = None,
        on_state: Callable[[LinkState], None] | None = None,
        baudrate: int = 115200,
        backoff_initial: float = 0.25,
        backoff_max: float = 5.0,
        opener: Opener | None = None,
        wait: Callable[[float], object] | None = None,
        ping_on_connect: bool = True,
    ) -> None:
        if isinstance(port, SerialConfig):
            self.config = port
        else:
            self.config = SerialConfig(port, baudrate, backoff_initial, backoff_max)
        self.counters = LinkCounters()
        self._firmware: Hello | None = None
        self.last_error: BaseException | None = None
        self._listener = listener
        self._on_state = on_state
        self._opener = opener if opener is not None else self._open_url
        self._wait = wait
        self.ping_on_connect = ping_on_connect
        self._state = LinkState.STOPPED
        self._state_changed = threading.Condition()
        self._stop = threading.Event()
        self._lost = threading.Event()
        self._reader: ReaderThread[FrameReader] | None = None
        self._transport: Any = None
        self._supervisor: threading.Thread | None = None
        self._healthy = False

    @property
    def port(self) -> str:
        return self.config.port

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def connected(self) -> bool:
        return self._state is LinkState.CONNECTED

    @property
    def firmware(self) -> Hello | None:
        """The device's name and firmware version from its last ``HELLO`` on this connection
        (the answer to the ``PING`` sent on connecting); None until it has said hello, and
        again once the port is lost."""
        return self._firmware

    def _open_url(self, url: str) -> Any:
        return serial.serial_for_url(url, baudrate=self.config.baudrate)

    def start(self, *, require: bool = False) -> None:
        """Open the port and start reading in the background.

        With ``require=True`` the first open happens here and a failure raises
        `DeviceNotFound`; otherwise a missing device is retried with back-off.
        """
        if self._supervisor is not None:
            raise RuntimeError("serial link already started")
        first: Any = None
        if require:
            try:
                first = self._opener(self.port)
            except (serial.SerialException, OSError, ValueError) as exc:
                self.counters.add("open_failures")
                raise DeviceNotFound(
                    "die/keypad", f"serial port {self.port}", f"{exc}; {SERIAL_ADVICE}"
                ) from exc
        self._set_state(LinkState.CONNECTING)
        self._supervisor = threading.Thread(
            target=self._supervise, args=(first,), name=f"serial-die {self.port}", daemon=True
        )
        self._supervisor.start()

    def _supervise(self, first: Any) -> None:
        delay = self.config.backoff_initial
        port = first
        while not self._stop.is_set():
            if port is None:
                try:
                    port = self._opener(self.port)
                except (serial.SerialException, OSError, ValueError) as exc:
                    self.counters.add("open_failures")
                    self.last_error = exc
                    log.debug("cannot open %s: %s (retry in %.2fs)", self.port, exc, delay)
                    if self._pause(delay):
                        break
                    delay = min(delay * 2, self.config.backoff_max)
                    continue
            self._lost.clear()
            self._healthy = False
            # The reader uses the port's read/in_waiting/is_open/cancel_read/close/write only.
            wrapped = cast("serial.Serial", PortErrors(port))
            reader = ReaderThread(wrapped, lambda: FrameReader(self))
            self._reader = reader
            reader.start()
            self._lost.wait()
            reader.join(2.0)
            with contextlib.suppress(Exception):
                port.close()
            self._reader, self._transport, port = None, None, None
            if self._stop.is_set():
                break
            self.counters.add("disconnects")
            log.warning("die/keypad on %s disconnected: %s", self.port, self.last_error)
            self._set_state(LinkState.DISCONNECTED)
            if self._healthy:
                delay = self.config.backoff_initial
            if self._pause(delay):
                break
            delay = min(delay * 2, self.config.backoff_max)
        self._set_state(LinkState.CLOSED)

    def _pause(self, delay: float) -> bool:
        """Wait out a back-off delay; True if the link is closing."""
        if self._wait is None:
            return self._stop.wait(delay)
        self._wait(delay)
        return self._stop.is_set()

    # Called from the reader thread.
    def _connection_made(self, transport: Any) -> None:
        self._transport = transport
        self._firmware = None
        self.counters.add("connects")
        log.info("die/keypad connected on %s", self.port)
        if self.ping_on_connect:  # before CONNECTED is announced: a waiter sees it sent
            try:
                transport.write(encode(Ping()))
            except (serial.SerialException, OSError) as exc:
                log.warning("PING to %s failed: %s", self.port, exc)
        self._set_state(LinkState.CONNECTED)

    def _connection_lost(self, exc: BaseException | None) -> None:
        if exc is not None:
            self.last_error = exc
        self._transport = None
        self._firmware = None
        self._lost.set()

    def _line(self, line: bytes) -> None:
        try:
            message = decode_line(line)
        except ProtocolError as exc:
            self._dropped(exc)
            return
        self.counters.add("frames_ok")
        self._healthy = True
        if isinstance(message, Hello):
            if message != self._firmware:
                log.info("die/keypad on %s is %s firmware %s", self.port, message.device,
                         message.version)
            self._firmware = message
        if self._listener is not None:
            try:
                self._listener(message)
            except Exception:
                log.exception("die/keypad listener failed on %r", message)

    def _dropped(self, exc: ProtocolError) -> None:
        self.counters.add(f"dropped_{exc.reason}")
        log.debug("dropped a line from %s (%s): %s", self.port, exc.reason, exc)

    def _set_state(self, state: LinkState) -> None:
        with self._state_changed:
            if self._state is state:
                return
            self._state = state
            self._state_changed.notify_all()
        if self._on_state is not None:
            try:
                self._on_state(state)
            except Exception:
                log.exception("die/keypad state listener failed on %s", state)

    def wait_state(self, state: LinkState, timeout: float) -> bool:
        """Block until the link is in ``state`` (True) or ``timeout`` seconds pass (False)."""
        with self._state_changed:
            return self._state_changed.wait_for(lambda: self._state is state, timeout)

    def wait_connected(self, timeout: float) -> bool:
        return self.wait_state(LinkState.CONNECTED, timeout)

    def send(self, command: HostCommand) -> None:
        """Write a command to the device; `DeviceNotFound` if it is not connected."""
        transport = self._transport
        if transport is None:
            raise DeviceNotFound("die/keypad", f"serial port {self.port}",
                                 f"not connected ({self._state.value}); {SERIAL_ADVICE}")
        try:
            transport.write(encode(command))
        except (serial.SerialException, OSError) as exc:
            self.last_error = exc
            with contextlib.suppress(Exception):
                transport.serial.close()
            raise DeviceNotFound("die/keypad", f"serial port {self.port}",
                                 f"write failed ({exc}); {SERIAL_ADVICE}") from exc

    def roll(self, faces: int = 6) -> None:
        """Ask the device to roll a die of ``faces`` itself; it answers with a `DieRoll`."""
        self.send(Roll(faces))

    def ping(self) -> None:
        """Ask the device to say `Hello`."""
        self.send(Ping())

    def close(self) -> None:
        """Stop reading and close the port; safe to call more than once."""
        self._stop.set()
        reader = self._reader
        if reader is not None:
            with contextlib.suppress(Exception):
                reader.stop()
        self._lost.set()
        supervisor = self._supervisor
        if supervisor is not None and supervisor is not threading.current_thread():
            supervisor.join(5.0)
        self._set_state(LinkState.CLOSED)

    def __enter__(self) -> Self:
        if self._supervisor is None:
            self.start()
        return super().__enter__()

    def __repr__(self) -> str:
        return f"<SerialDie {self.port} {self._state.value}>"


__all__ = [
    "FrameReader",
    "LinkCounters",
    "LinkState",
    "PortErrors",
    "SerialConfig",
    "SerialDie",
]
