"""The box's Bluetooth LE link to its smart dice, through bleak on BlueZ: scanning for dice,
keeping the paired ones connected, and handing on what they report.

``bleak`` is imported when the link starts, never before: a box without Bluetooth, or with no
smart die, loads nothing of it. The link runs its own asyncio loop on one thread
(``smart-dice``); callers use plain blocking methods. Only the dice it is told to
:meth:`DiceLink.follow` are ever connected — a die paired with another box nearby is never
taken. Each followed die has a task that connects, subscribes to its notifications, asks who
it is and its battery, and when the die goes away (out of range, battery flat) reconnects with
back-off (``backoff_initial`` doubling up to ``backoff_max``) until it is unfollowed or the
link closes. Every notification goes through its vendor's decoder
(:mod:`~hardware.smart_dice.godice`, :mod:`~hardware.smart_dice.pixels`); a frame the vendor
does not describe is dropped and counted by reason, never fatal.

Tests and the simulator give bleak a backend of their own (``scanner`` and ``client``: bleak's
``backend=`` classes; :mod:`hardware.smart_dice.fake_ble` plays the vendors' frames), so the
real ``BleakScanner`` and ``BleakClient`` run over it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from hardware.closing import Closing
from hardware.errors import DeviceNotFound, ProtocolError
from hardware.smart_dice import godice, pixels
from hardware.smart_dice.link_state import (
    BLUETOOTH_ADVICE,
    DiceConfig,
    DieState,
    DieStatus,
    LinkClosed,
    Listener,
    adapter_problem,
)
from hardware.smart_dice.readings import (
    Battery,
    Colour,
    DieTarget,
    FoundDie,
    Identity,
    Reading,
    Vendor,
)

if TYPE_CHECKING:
    from bleak import BleakClient
    from bleak.backends.client import BaseBleakClient
    from bleak.backends.device import BLEDevice
    from bleak.backends.scanner import AdvertisementData, BaseBleakScanner

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Why a frame was dropped (the decoders' ``ProtocolError.reason`` s).
REASONS = ("empty", "short", "bad_value", "unknown")
#: A paired die's faces → the Pixels die type to read its face indexes with until it says.
PIXELS_TYPE_BY_FACES = {4: "d4", 6: "d6", 8: "d8", 12: "d12", 20: "d20"}


@dataclass
class _Speaker:
    """How to talk to one vendor's die on one connection: its characteristics, what to ask
    when connected, and the decoder (a Pixel's die type is learnt from its ``IAmADie``)."""

    vendor: Vendor
    notify: str
    write: str
    faces: int
    die_type: str = "d6"

    def hello(self) -> tuple[bytes, ...]:
        if self.vendor == "godice":
            return godice.ASK_COLOUR, godice.ASK_BATTERY
        return (pixels.ASK_IDENTITY,)

    def ask_battery(self) -> bytes:
        return godice.ASK_BATTERY if self.vendor == "godice" else pixels.ASK_BATTERY

    def decode(self, frame: bytes) -> Reading | None:
        if self.vendor == "godice":
            return godice.decode(frame, self.faces)
        reading = pixels.decode(frame, self.die_type)
        if isinstance(reading, Identity):
            self.die_type = reading.die_type
        return reading


def _speaker(target: DieTarget, client: BleakClient) -> _Speaker:
    if target.vendor == "godice":
        return _Speaker("godice", godice.NOTIFY, godice.WRITE, target.faces)
    die_type = PIXELS_TYPE_BY_FACES.get(target.faces, "d6")
    if client.services.get_service(pixels.SERVICE) is not None:
        return _Speaker("pixels", pixels.NOTIFY, pixels.WRITE, target.faces, die_type)
    return _Speaker("pixels", pixels.LEGACY_NOTIFY, pixels.LEGACY_WRITE, target.faces, die_type)


class DiceLink(Closing):
    """Scans for smart dice and keeps the followed ones connected (see the module docstring).

    ``listener(address, reading)`` and ``on_state(address, state)`` are called on the link's
    thread: they must only queue. ``scanner`` and ``client`` are bleak backend classes (``None``:
    the platform's, BlueZ on a Pi, on ``adapter``).
    """

    def __init__(
        self,
        *,
        listener: Listener,
        on_state: Callable[[str, DieState], None] | None = None,
        scanner: type[BaseBleakScanner] | None = None,
        client: type[BaseBleakClient] | None = None,
        adapter: str = "hci0",
        backoff_initial: float = 0.5,
        backoff_max: float = 15.0,
        connect_timeout: float = 15.0,
        battery_every: float = 120.0,
        identify_timeout: float = 4.0,
    ) -> None:
        if not 0 < backoff_initial <= backoff_max:
            raise ValueError(f"need 0 < backoff_initial <= backoff_max, got {backoff_initial!r} "
                             f"and {backoff_max!r}")
        self._listener = listener
        self._on_state = on_state
        self._scanner = scanner
        self._client = client
        self.adapter = adapter
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.connect_timeout = connect_timeout
        self.battery_every = battery_every
        self.identify_timeout = identify_timeout
        #: Frames taken and dropped (``dropped_<reason>``), connections and losses, all dice.
        self.counters: Counter[str] = Counter()
        self._status: dict[str, DieStatus] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._targets: dict[str, DieTarget] = {}
        self._changed = threading.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    # --- the loop ------------------------------------------------------------------------------
    def start(self) -> None:
        """Import bleak and start the link's loop; `DeviceNotFound` when the platform's
        Bluetooth adapter is missing (checked only for the platform's own backend)."""
        if self._thread is not None:
            return
        if self._scanner is None or self._client is None:
            problem = adapter_problem(self.adapter)
            if problem is not None:
                raise DeviceNotFound("Bluetooth adapter", self.adapter,
                                     f"{problem}; {BLUETOOTH_ADVICE}")
        import bleak  # noqa: F401  (the one place the link brings bleak in)

        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            loop.call_soon(ready.set)
            loop.run_forever()
            loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="smart-dice", daemon=True)
        self._thread.start()
        ready.wait(5.0)

    @property
    def started(self) -> bool:
        return self._thread is not None and not self._closed

    def _run(self, coroutine: Coroutine[Any, Any, T], timeout: float) -> T:
        """Run ``coroutine`` on the link's loop and wait for it; `LinkClosed` when the link
        closes meanwhile (or was closed)."""
        if self._loop is None or self._closed:
            coroutine.close()
            raise LinkClosed("the dice link is closed")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout)
        except concurrent.futures.CancelledError:
            raise LinkClosed("the dice link closed meanwhile") from None
        except TimeoutError:
            future.cancel()
            raise

    # --- scanning -----------------------------------------------------------------------------
    def scan(self, seconds: float = 5.0) -> list[FoundDie]:
        """The dice heard advertising for ``seconds`` (a GoDice's colour and battery asked in a
        short connection), strongest signal first. Dice already connected here are not among
        them (a connected die stops advertising). `DeviceNotFound` when Bluetooth cannot
        scan."""
        self.start()
        return self._run(self._scan(seconds), seconds + 4 * self.identify_timeout + 10.0)

    async def _scan(self, seconds: float) -> list[FoundDie]:
        from bleak import BleakScanner

        heard: dict[str, tuple[BLEDevice, AdvertisementData]] = {}

        def seen(device: BLEDevice, advert: AdvertisementData) -> None:
            heard[device.address] = (device, advert)

        scanner = BleakScanner(seen, backend=self._scanner, bluez={"adapter": self.adapter})
        try:
            await scanner.start()
        except Exception as error:
            raise DeviceNotFound("Bluetooth adapter", self.adapter,
                                 f"scanning failed ({error}); {BLUETOOTH_ADVICE}") from error
        try:
            await asyncio.sleep(seconds)
        finally:
            with contextlib.suppress(Exception):
                await scanner.stop()
        found = [die for device, advert in heard.values()
                 if (die := self._classify(device, advert)) is not None]
        found = await asyncio.gather(*(self._identify(die) if die.vendor == "godice" else
                                       _ready(die) for die in found))
        return sorted(found, key=lambda die: -(die.rssi if die.rssi is not None else -999))

    def _classify(self, device: BLEDevice, advert: AdvertisementData) -> FoundDie | None:
        name = advert.local_name or device.name or ""
        if device.address in self._targets and self._state_of(device.address) in (
                DieState.CONNECTED, DieState.CONNECTING):
            return None
        if godice.is_godice(name):
            return FoundDie(device.address, "godice", name, rssi=advert.rssi)
        if pixels.is_pixel(advert.service_uuids, advert.manufacturer_data, name):
            said = pixels.advertised(advert.manufacturer_data, advert.service_data)
            return FoundDie(device.address, "pixels", name or device.address,
                            colour=said.colour if said else None,
                            battery=said.battery.percent if said and said.battery else None,
                            faces=said.faces if said else None,
                            die_type=said.die_type if said else None, rssi=advert.rssi)
        return None

    async def _identify(self, die: FoundDie) -> FoundDie:
        """A GoDice's colour and battery, asked in a short connection (left unknown if it
        does not answer in time)."""
        from bleak import BleakClient

        said: dict[str, Any] = {}
        answered = asyncio.Event()

        def frame(_sender: Any, data: bytearray) -> None:
            try:
                reading = godice.decode(data, 6)
            except ProtocolError as error:
                self._count(None, f"dropped_{error.reason}")
                return
            if isinstance(reading, Colour):
                said["colour"] = reading.name
            elif isinstance(reading, Battery):
                said["battery"] = reading.percent
            if len(said) == 2:
                answered.set()

        client = BleakClient(die.address, timeout=self.identify_timeout,
                             backend=self._client, bluez={"adapter": self.adapter})
        try:
            await asyncio.wait_for(client.connect(), self.identify_timeout)
            await client.start_notify(godice.NOTIFY, frame)
            for ask in (godice.ASK_COLOUR, godice.ASK_BATTERY):
                await client.write_gatt_char(godice.WRITE, ask, response=True)
            await asyncio.wait_for(answered.wait(), self.identify_timeout)
        except Exception as error:
            log.info("GoDice %s did not say its colour and battery: %s", die.address, error)
        finally:
            with contextlib.suppress(Exception):
                await client.disconnect()
        return replace(die, colour=said.get("colour"), battery=said.get("battery"))

    # --- following paired dice ----------------------------------------------------------------
    def follow(self, targets: Iterable[DieTarget]) -> None:
        """Keep exactly these dice connected (and no other): new ones are connected, dropped
        ones disconnected."""
        wanted = {t.address: t for t in targets}
        if not wanted and not self.started:
            return
        self.start()
        self._run(self._follow(wanted), 10.0)

    async def _follow(self, wanted: dict[str, DieTarget]) -> None:
        for address in list(self._tasks):
            if address not in wanted or wanted[address] != self._targets.get(address):
                task = self._tasks.pop(address)
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
                self._targets.pop(address, None)
                self._set_state(address, DieState.CLOSED)
                with self._changed:
                    self._status.pop(address, None)
        for address, target in wanted.items():
            if address not in self._tasks:
                self._targets[address] = target
                with self._changed:
                    self._status[address] = DieStatus()
                self._tasks[address] = asyncio.get_running_loop().create_task(
                    self._keep(target), name=f"die {address}")

    async def _keep(self, target: DieTarget) -> None:
        """Connect ``target``, listen to it until it goes, and connect it again, with
        back-off, until cancelled."""
        from bleak import BleakClient

        address = target.address
        delay = self.backoff_initial
        while True:
            lost = asyncio.Event()
            client = BleakClient(address, disconnected_callback=_setter(lost),
                                 timeout=self.connect_timeout, backend=self._client,
                                 bluez={"adapter": self.adapter})
            self._set_state(address, DieState.CONNECTING)
            connected = False
            try:
                await asyncio.wait_for(client.connect(), self.connect_timeout)
                speaker = _speaker(target, client)
                await client.start_notify(speaker.notify, self._frames_of(address, speaker))
                for ask in speaker.hello():
                    await client.write_gatt_char(speaker.write, ask, response=True)
                connected = True
                self._count(address, "connects")
                self._set_state(address, DieState.CONNECTED)
                delay = self.backoff_initial
                while not lost.is_set():
                    try:
                        await asyncio.wait_for(lost.wait(), self.battery_every)
                    except TimeoutError:
                        await client.write_gatt_char(speaker.write, speaker.ask_battery(),
                                                     response=True)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await client.disconnect()
                raise
            except Exception as error:  # a die away, a radio busy: tried again later
                self._note_error(address, error)
            with contextlib.suppress(Exception):
                await client.disconnect()
            if connected:
                self._count(address, "disconnects")
                log.warning("smart die %s disconnected; reconnecting", address)
            else:
                self._count(address, "connect_failures")
            self._set_state(address, DieState.LOST)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff_max)

    def _frames_of(self, address: str,
                   speaker: _Speaker) -> Callable[[Any, bytearray], None]:
        """The notification callback of one connection to the die at ``address``."""
        return lambda _sender, data: self._frame(address, speaker, data)

    def _frame(self, address: str, speaker: _Speaker, data: bytearray) -> None:
        """One notification (on the loop): decoded, counted, handed on."""
        try:
            reading = speaker.decode(bytes(data))
        except ProtocolError as error:
            self._count(address, f"dropped_{error.reason}")
            log.debug("dropped a frame from %s (%s): %s", address, error.reason, error)
            return
        except Exception:  # a decoder bug must not cut the die off
            self._count(address, "dropped_unknown")
            log.exception("decoding a frame from %s failed: %s", address, bytes(data).hex())
            return
        self._count(address, "frames_ok")
        if reading is None:
            return
        self._remember(address, reading)
        try:
            self._listener(address, reading)
        except Exception:
            log.exception("smart dice listener failed on %r from %s", reading, address)

    def _remember(self, address: str, reading: Reading) -> None:
        with self._changed:
            status = self._status.get(address)
            if status is None:
                return
            if isinstance(reading, Battery):
                status.battery, status.charging = reading.percent, reading.charging
            elif isinstance(reading, Colour):
                status.colour = reading.name
            elif isinstance(reading, Identity):
                status.die_type, status.colour = reading.die_type, reading.colour
                status.name = reading.name
                if reading.battery is not None:
                    status.battery = reading.battery.percent
                    status.charging = reading.battery.charging
            self._changed.notify_all()

    # --- state and counters -------------------------------------------------------------------
    def _count(self, address: str | None, name: str) -> None:
        with self._changed:
            self.counters[name] += 1
            status = self._status.get(address) if address is not None else None
            if status is not None:
                status.counts[name] += 1
            self._changed.notify_all()

    def _note_error(self, address: str, error: BaseException) -> None:
        text = str(error) or type(error).__name__
        log.info("smart die %s: %s", address, text)
        with self._changed:
            status = self._status.get(address)
            if status is not None:
                status.last_error = text

    def _state_of(self, address: str) -> DieState | None:
        with self._changed:
            status = self._status.get(address)
            return status.state if status is not None else None

    def _set_state(self, address: str, state: DieState) -> None:
        with self._changed:
            status = self._status.get(address)
            if status is not None:
                if status.state is state:
                    return
                status.state = state
            self._changed.notify_all()
        if self._on_state is not None:
            try:
                self._on_state(address, state)
            except Exception:
                log.exception("smart dice state listener failed on %s %s", address, state)

    def status(self) -> dict[str, DieStatus]:
        """Each followed die's status (copies)."""
        with self._changed:
            return {address: status.snapshot() for address, status in self._status.items()}

    def dropped(self) -> dict[str, int]:
        """Frames dropped, by reason, every die together (every reason present)."""
        with self._changed:
            return {reason: self.counters[f"dropped_{reason}"] for reason in REASONS}

    def wait_until(self, predicate: Callable[[DiceLink], bool], timeout: float) -> bool:
        """Block until ``predicate(self)`` holds (True) or ``timeout`` seconds pass (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self), timeout)

    def wait_state(self, address: str, state: DieState, timeout: float) -> bool:
        return self.wait_until(lambda link: link._state_of(address) is state, timeout)

    # --- closing ------------------------------------------------------------------------------
    async def _cancel_the_rest(self) -> None:
        await _cancel_the_rest_of(asyncio.current_task())

    def close(self) -> None:
        """Disconnect every die and stop the loop; safe to call twice."""
        if self._closed or self._loop is None:
            self._closed = True
            return
        with contextlib.suppress(Exception):
            self._run(self._follow({}), 10.0)
        with contextlib.suppress(Exception):
            self._run(self._cancel_the_rest(), 5.0)  # a scan under way ends too
        self._closed = True
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5.0)


async def _cancel_the_rest_of(loop_task: asyncio.Task[Any] | None) -> None:
    """Cancel every task of the running loop but ``loop_task``, and wait for them."""
    tasks = [t for t in asyncio.all_tasks() if t is not loop_task]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _setter(event: asyncio.Event) -> Callable[[Any], None]:
    """A disconnection callback that sets ``event``."""
    return lambda _client: event.set()


async def _ready(die: FoundDie) -> FoundDie:
    return die


__all__ = ["BLUETOOTH_ADVICE", "REASONS", "DiceConfig", "DiceLink", "DieState", "DieStatus",
           "LinkClosed",
           "adapter_problem"]
