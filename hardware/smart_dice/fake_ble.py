"""A fake Bluetooth LE world for bleak: dice that advertise, connect and notify with the
vendors' documented frames, behind bleak's own backend interface (``BaseBleakScanner``,
``BaseBleakClient``) — as gpiozero's ``MockFactory`` stands in for pins.

The real ``BleakScanner`` and ``BleakClient`` run over it (``backend=radio.scanner()``,
``backend=radio.client()``), and so does the box's decoding: a fake die only *sends* frames —
a GoDice's ``R``, ``S`` x y z, ``Bat``, ``Col``; a Pixel's ``RollState``, ``BatteryLevel``,
``IAmADie`` (chunked, or the 22-byte legacy one) — and answers the commands written to it. The
simulator uses it for ``/device`` and the host page's pairing; the tests drive it: a roll, a
die picked up or nudged, a flat battery, a die out of range and back, garbage frames.

>>> radio = FakeRadio()
>>> die = radio.add(FakeGoDice("C0:FF:EE:00:00:01", colour="red"))
>>> die.frames_for_roll(4)[-1][:1]
b'S'
"""

from __future__ import annotations

import asyncio
import struct
import threading
from collections.abc import Iterable
from typing import Any, ClassVar

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.descriptor import BleakGATTDescriptor
from bleak.backends.scanner import AdvertisementData, AdvertisementDataCallback, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import (
    BleakBluetoothNotAvailableError,
    BleakBluetoothNotAvailableReason,
    BleakDeviceNotFoundError,
    BleakError,
)

from hardware.smart_dice import godice, pixels
from hardware.smart_dice.readings import Vendor

#: What a die advertises: its service UUIDs, manufacturer data, service data.
Advert = tuple[list[str], dict[int, bytes], dict[str, bytes]]


class FakeDie:
    """A die in the fake air: in range or not, connected to one client at most (a real die
    takes one connection, and stops advertising while it has it)."""

    vendor: ClassVar[Vendor]
    #: The die's service, the characteristic it notifies on and the one it takes writes on.
    service: str
    notify: str
    write: str

    def __init__(self, address: str, name: str, *, battery: int = 80, rssi: int = -55) -> None:
        self.address = address.upper()
        self.name = name
        self.battery = battery
        self.rssi = rssi
        self.in_range = True
        #: Every command written to the die, in order.
        self.received: list[bytes] = []
        self.radio: FakeRadio | None = None
        self._client: _FakeClient | None = None
        self._lock = threading.RLock()

    # --- over the air -------------------------------------------------------------------------
    def advert(self) -> Advert:
        return [self.service], {}, {}

    def advertisement(self) -> Advert | None:
        """What the die advertises now (``None``: nothing — away, or connected)."""
        with self._lock:
            if not self.in_range or self._client is not None:
                return None
        return self.advert()

    def gatt(self) -> BleakGATTServiceCollection:
        """The die's GATT table: its service with the notify and write characteristics."""
        collection = BleakGATTServiceCollection()
        service = BleakGATTService(None, 1, self.service)
        collection.add_service(service)
        for handle, (uuid, props) in enumerate(
                ((self.notify, ["notify"]), (self.write, ["write", "write-without-response"])),
                start=1):
            collection.add_characteristic(
                BleakGATTCharacteristic(None, 1 + 2 * handle, uuid, props,  # type: ignore[arg-type]
                                        lambda: 20, service))
        return collection

    def answer(self, data: bytes) -> list[bytes]:
        """The frames the die notifies in answer to a command written to it."""
        return []

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._client is not None

    def _attach(self, client: _FakeClient) -> None:
        with self._lock:
            if not self.in_range:
                raise BleakDeviceNotFoundError(self.address, f"{self.address} is out of range")
            if self._client is not None and self._client is not client:
                raise BleakError(f"{self.address} is connected to another central")
            self._client = client

    def _detach(self, client: _FakeClient) -> None:
        with self._lock:
            if self._client is client:
                self._client = None
        if self.radio is not None:
            self.radio.advertise(self)

    def _written(self, data: bytes) -> None:
        with self._lock:
            self.received.append(data)
        for frame in self.answer(data):
            self.send(frame)

    # --- at the table -------------------------------------------------------------------------
    def send(self, frame: bytes) -> bool:
        """Notify ``frame`` (any bytes: garbage too) to the connected box; False when none is
        connected."""
        with self._lock:
            client = self._client
        if client is None:
            return False
        client.deliver(self.notify, frame)
        return True

    def play(self, frames: Iterable[bytes]) -> None:
        for frame in frames:
            self.send(frame)

    def go_away(self) -> None:
        """Out of range, or its battery flat: the connection drops, and it advertises no
        more until :meth:`come_back`."""
        with self._lock:
            self.in_range = False
            client, self._client = self._client, None
        if client is not None:
            client.lost()

    def come_back(self) -> None:
        with self._lock:
            self.in_range = True
        if self.radio is not None:
            self.radio.advertise(self)

    def set_battery(self, percent: int) -> None:
        self.battery = percent


class FakeGoDice(FakeDie):
    """A GoDice (GoDicePythonAPI ``dice.py``): notifies ``R`` as it tumbles, ``S`` x y z when
    stable after a roll, ``FS``/``TS``/``MS`` x y z after a fake roll, a tilt or a nudge;
    answers ``3`` with ``Bat`` and its level, ``23`` with ``Col`` and its colour's code.
    ``shell``: the faces of the shell it wears (the die cannot say it)."""

    vendor = "godice"
    service = godice.SERVICE
    notify = godice.NOTIFY
    write = godice.WRITE

    def __init__(self, address: str, name: str | None = None, *, colour: str = "red",
                 shell: int = 6, battery: int = 80, rssi: int = -55) -> None:
        super().__init__(address, name or f"GoDice_{address.replace(':', '')[-6:]}_K_v04",
                         battery=battery, rssi=rssi)
        self.colour = colour
        self.shell = shell

    def answer(self, data: bytes) -> list[bytes]:
        if data == godice.ASK_BATTERY:
            return [b"Bat" + bytes([self.battery])]
        if data == godice.ASK_COLOUR:
            return [b"Col" + bytes([godice.COLOURS.index(self.colour)])]
        return []

    def xyz(self, face: int) -> bytes:
        """The accelerometer at rest with ``face`` up: the SDK's vector for the face (for a
        d24 shell, the first position showing it), a few counts off as a real sensor is."""
        if self.shell == 6:
            x, y, z = godice.D6_VECTORS[face]
        elif self.shell == 20:
            x, y, z = godice.D20_VECTORS[face]
        else:
            position = godice.D24_TO_FACE[self.shell].index(face) + 1
            x, y, z = godice.D24_VECTORS[position]
        return struct.pack(">bbb", *(max(-128, min(127, v + d)) for v, d in
                                     zip((x, y, z), (3, -2, 1), strict=True)))

    def frames_for_roll(self, face: int) -> list[bytes]:
        return [b"R", b"R", b"S" + self.xyz(face)]

    def roll(self, face: int) -> None:
        """Rolled on the table: tumbles, then rests with ``face`` up."""
        self.play(self.frames_for_roll(face))

    def nudge(self, face: int) -> None:
        """Pushed over to ``face`` without a roll."""
        self.send(b"MS" + self.xyz(face))

    def tilt(self, face: int) -> None:
        """Rolled, but rests leaning on something."""
        self.play([b"R", b"TS" + self.xyz(face)])

    def fake_roll(self, face: int) -> None:
        """Moved too little for a roll (turned over by hand)."""
        self.send(b"FS" + self.xyz(face))


#: LEDs per Pixels die type (``DiceUtils.getLEDCount``).
PIXELS_LEDS = {"d4": 6, "d6": 6, "d6fudge": 6, "d6pipped": 21, "d8": 8, "d10": 10, "d00": 10,
               "d12": 12, "d20": 20}


class FakePixel(FakeDie):
    """A Pixels die (pixels-js ``Messages.ts``): notifies ``RollState`` (rolling, then rolled;
    handling when picked up; onFace when nudged; crooked), answers ``WhoAreYou`` with
    ``IAmADie`` (chunked, or the 22-byte legacy layout with ``legacy``), and
    ``RequestBatteryLevel`` with ``BatteryLevel``; advertises its type, colourway and battery
    in its manufacturer data. ``legacy`` dice serve the Nordic UART service."""

    vendor = "pixels"

    def __init__(self, address: str, name: str = "Pixel", *, die_type: str = "d6",
                 colourway: str = "onyx black", battery: int = 80, charging: bool = False,
                 legacy: bool = False, pixel_id: int = 0x1A2B3C4D, rssi: int = -55) -> None:
        super().__init__(address, name, battery=battery, rssi=rssi)
        self.die_type = die_type
        self.colourway = colourway
        self.charging = charging
        self.legacy = legacy
        self.pixel_id = pixel_id
        self.state, self.index = 5, 0  # at rest on its first face
        if legacy:
            self.service, self.notify, self.write = (pixels.LEGACY_SERVICE, pixels.LEGACY_NOTIFY,
                                                     pixels.LEGACY_WRITE)
        else:
            self.service, self.notify, self.write = pixels.SERVICE, pixels.NOTIFY, pixels.WRITE

    def _codes(self) -> tuple[int, int, int]:
        colour = next(k for k, v in pixels.COLOURWAYS.items() if v == self.colourway)
        return PIXELS_LEDS[self.die_type], pixels.DIE_TYPES.index(self.die_type), colour

    def _battery_byte(self) -> int:
        return (self.battery & 0x7F) | (0x80 if self.charging else 0)

    def advert(self) -> Advert:
        leds, die_type, colour = self._codes()
        manufacturer = bytes([leds, (die_type << 4) | (colour & 0xF), self.state, self.index,
                              self._battery_byte()])
        service_data = struct.pack("<II", self.pixel_id, 1_700_000_000)
        return [self.service], {pixels.COMPANY_ID: manufacturer}, {self.service: service_data}

    def identity(self) -> bytes:
        """Its ``IAmADie``."""
        leds, die_type, colour = self._codes()
        state = 2 if self.charging else 0
        if self.legacy:
            return (bytes([pixels.I_AM_A_DIE, leds, colour, die_type])
                    + struct.pack("<IIHI", 0xCAFE, self.pixel_id, 4096, 1_700_000_000)
                    + bytes([self.state, self.index, self.battery, state]))
        version = bytes([15]) + struct.pack("<HIHHHH", 0x0304, 1_700_000_000, 4, 1, 1, 1)
        die = bytes([9]) + struct.pack("<I", self.pixel_id) + bytes([1, die_type, leds, colour])
        design = bytes([2, 0])
        name = self.name.encode() + b"\0"
        named = bytes([1 + len(name)]) + name
        settings = bytes([13]) + struct.pack("<III", 0xCAFE, 8192, 16384)
        status = bytes([5, self.battery, state, self.state, self.index])
        return bytes([pixels.I_AM_A_DIE]) + version + die + design + named + settings + status

    def answer(self, data: bytes) -> list[bytes]:
        if data == pixels.ASK_IDENTITY:
            return [self.identity()]
        if data == pixels.ASK_BATTERY:
            return [bytes([pixels.BATTERY_LEVEL, self.battery, 2 if self.charging else 0])]
        if data == pixels.ASK_ROLL_STATE:
            return [bytes([pixels.ROLL_STATE, self.state, self.index])]
        return []

    def _state(self, state: int, face: int) -> bytes:
        self.state, self.index = state, pixels.index_of_face(face, self.die_type)
        return bytes([pixels.ROLL_STATE, self.state, self.index])

    def frames_for_roll(self, face: int) -> list[bytes]:
        return [self._state(2, 1), self._state(3, 1), self._state(3, face), self._state(1, face)]

    def roll(self, face: int) -> None:
        """Picked up, rolled, and at rest with ``face`` up: ``rolled``."""
        self.play(self.frames_for_roll(face))

    def pick_up(self) -> None:
        self.send(self._state(2, pixels.face_from_index(self.index, self.die_type)))

    def nudge(self, face: int) -> None:
        """Turned to ``face`` without a roll: ``onFace``."""
        self.send(self._state(5, face))

    def land_crooked(self, face: int) -> None:
        self.play([self._state(3, face), self._state(4, face)])

    def set_battery(self, percent: int) -> None:
        """The level changes, and the die says so (the firmware notifies it)."""
        self.battery = percent
        self.send(bytes([pixels.BATTERY_LEVEL, percent, 2 if self.charging else 0]))


class FakeRadio:
    """The air around one or more boxes and the fake dice in it; ``adapter=False`` is a box
    whose Bluetooth is missing (scanning fails as BlueZ's does)."""

    def __init__(self, *, adapter: bool = True) -> None:
        self.adapter = adapter
        self._dice: dict[str, FakeDie] = {}
        self._scanners: set[_FakeScanner] = set()
        self._lock = threading.RLock()

    def add(self, die: FakeDie) -> Any:
        """Put ``die`` on the table (returns it)."""
        with self._lock:
            self._dice[die.address] = die
        die.radio = self
        self.advertise(die)
        return die

    def die(self, address: str) -> FakeDie:
        with self._lock:
            return self._dice[address.upper()]

    @property
    def dice(self) -> list[FakeDie]:
        with self._lock:
            return list(self._dice.values())

    def find(self, address: str) -> FakeDie | None:
        with self._lock:
            return self._dice.get(address.upper())

    def advertise(self, die: FakeDie) -> None:
        """The scanners listening now hear ``die`` (if it advertises)."""
        with self._lock:
            scanners = list(self._scanners)
        for scanner in scanners:
            scanner.hear(die)

    def scanner(self) -> type[BaseBleakScanner]:
        """A bleak scanner backend listening to this air."""
        return type("FakeScanner", (_FakeScanner,), {"radio": self})

    def client(self) -> type[BaseBleakClient]:
        """A bleak client backend reaching the dice of this air."""
        return type("FakeClient", (_FakeClient,), {"radio": self})


class _FakeScanner(BaseBleakScanner):
    radio: ClassVar[FakeRadio]

    def __init__(self, detection_callback: AdvertisementDataCallback | None,
                 service_uuids: list[str] | None, scanning_mode: str = "active",
                 **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        if not self.radio.adapter:
            raise BleakBluetoothNotAvailableError(
                "No Bluetooth adapters found.", BleakBluetoothNotAvailableReason.NO_BLUETOOTH)
        self.seen_devices = {}
        self._loop = asyncio.get_running_loop()
        with self.radio._lock:
            self.radio._scanners.add(self)
        for die in self.radio.dice:
            self.hear(die)

    async def stop(self) -> None:
        with self.radio._lock:
            self.radio._scanners.discard(self)

    def hear(self, die: FakeDie) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._heard, die)

    def _heard(self, die: FakeDie) -> None:
        advert = die.advertisement()
        if advert is None:
            return
        uuids, manufacturer, service_data = advert
        if not self.is_allowed_uuid(uuids):
            return
        data = AdvertisementData(local_name=die.name, manufacturer_data=manufacturer,
                                 service_data=service_data, service_uuids=uuids, tx_power=None,
                                 rssi=die.rssi, platform_data=())
        device = self.create_or_update_device(die.address, die.address, die.name, None, data)
        self.call_detection_callbacks(device, data)


class _FakeClient(BaseBleakClient):
    radio: ClassVar[FakeRadio]

    def __init__(self, address_or_ble_device: Any, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device,
                         disconnected_callback=kwargs.get("disconnected_callback"),
                         timeout=kwargs.get("timeout", 10.0))
        self._die: FakeDie | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._callbacks: dict[str, NotifyCallback] = {}

    @property
    def name(self) -> str:
        die = self.radio.find(self.address)
        return die.name if die is not None else self.address

    @property
    def mtu_size(self) -> int:
        return 23

    async def connect(self, pair: bool, **kwargs: Any) -> None:
        die = self.radio.find(self.address)
        if not self.radio.adapter:
            raise BleakBluetoothNotAvailableError(
                "No Bluetooth adapters found.", BleakBluetoothNotAvailableReason.NO_BLUETOOTH)
        if die is None or not die.in_range:
            raise BleakDeviceNotFoundError(self.address,
                                           f"Device with address {self.address} was not found.")
        await asyncio.sleep(0)  # a connection takes a moment
        self._loop = asyncio.get_running_loop()
        die._attach(self)
        self._die = die
        self.services = die.gatt()

    async def disconnect(self) -> None:
        die, self._die = self._die, None
        if die is not None:
            die._detach(self)

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def unpair(self) -> None:
        return None

    @property
    def is_connected(self) -> bool:
        return self._die is not None

    async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, *,
                             use_cached: bool = False, **kwargs: Any) -> bytearray:
        raise BleakError(f"{characteristic.uuid} cannot be read on this die")

    async def read_gatt_descriptor(self, descriptor: BleakGATTDescriptor, *,
                                   use_cached: bool = False, **kwargs: Any) -> bytearray:
        raise BleakError("this die has no readable descriptor")

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data: Any,
                              response: bool) -> None:
        die = self._die
        if die is None:
            raise BleakError("Not connected")
        if characteristic.uuid != die.write:
            raise BleakError(f"{characteristic.uuid} is not writable on this die")
        die._written(bytes(data))

    async def write_gatt_descriptor(self, descriptor: BleakGATTDescriptor, data: Any) -> None:
        raise BleakError("this die has no writable descriptor")

    async def start_notify(self, characteristic: BleakGATTCharacteristic,
                           callback: NotifyCallback, **kwargs: Any) -> None:
        self._callbacks[characteristic.uuid] = callback

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        self._callbacks.pop(characteristic.uuid, None)

    def deliver(self, uuid: str, frame: bytes) -> None:
        """A notification from the die (any thread): handed to bleak on the client's loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._deliver, uuid, frame)

    def _deliver(self, uuid: str, frame: bytes) -> None:
        callback = self._callbacks.get(uuid)
        if callback is not None and self._die is not None:
            callback(bytearray(frame))

    def lost(self) -> None:
        """The die went away (any thread): bleak hears the disconnection."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._lost)

    def _lost(self) -> None:
        self._die = None
        if self._disconnected_callback is not None:
            self._disconnected_callback()


def table_of_dice() -> FakeRadio:
    """The simulator's table: four GoDice (two d6, one in a d8 shell, one in a d4 shell) and
    four Pixels (d6, d8 on legacy firmware, d4, d20), none paired yet."""
    radio = FakeRadio()
    for n, (colour, shell) in enumerate((("red", 6), ("blue", 6), ("green", 8), ("yellow", 4)),
                                        start=1):
        radio.add(FakeGoDice(f"C0:FF:EE:00:00:0{n}", colour=colour, shell=shell,
                             battery=90 - 10 * n, rssi=-50 - n))
    for n, (name, die_type, colourway, legacy) in enumerate((
            ("Pixel Ada", "d6", "onyx black", False), ("Pixel Ben", "d8", "aurora sky", True),
            ("Pixel Chi", "d4", "midnight galaxy", False), ("Pixel Dee", "d20", "clear", False)),
            start=1):
        radio.add(FakePixel(f"C0:FF:EE:00:01:0{n}", name, die_type=die_type,
                            colourway=colourway, legacy=legacy, battery=95 - 10 * n,
                            pixel_id=0x1000 + n, rssi=-55 - n))
    return radio


__all__ = ["FakeDie", "FakeGoDice", "FakePixel", "FakeRadio", "table_of_dice"]
