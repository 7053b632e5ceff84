"""Drivers that turn the physical world into events and images into light; no games here.

Nothing here touches hardware at import time: every driver is given its pin factory, luma
device / bus, or port when it is built. API summary (all importable from ``hardware``):

Errors (``hardware.errors``)
    ``HardwareError`` ← ``DeviceNotFound`` (also ``OSError``; ``.device``, ``.where``,
    ``.advice``), ``ProtocolError`` (also ``ValueError``; ``.reason``), ``PinMapError``
    (also ``ValueError``).

Pins (``hardware.pinmap``)
    ``ButtonPins(dots=(5, 6, 13, 19, 26, 12, 16, 20, 21), ok=17, back=27)``, BCM numbers;
    ``PinMap(buttons, touch_irq=22, oled_spi=None, uart=False, lights=()).used()`` validates
    the whole box (no pin twice, none of the I²C/SPI/UART pins). ``Key`` is ``int`` 1–9 |
    "ok" | "back".

Pad events (``hardware.events``)
    ``PadEvent(kind: PadEventKind.PRESSED|RELEASED|HELD, key: Key, source: "buttons"|"touch")``;
    listeners are ``Callable[[PadEvent], None]``, called on driver threads — put events on a
    queue, do not touch game state there.

Button grid (``hardware.buttons``)
    ``ButtonGrid(pins=None, *, listener=None, debounce=0.02, hold_time=1.0, clock=…,
    timers=None, pin_factory=None)``: ``add_listener``, ``remove_listener``, ``pressed``,
    ``when_pressed`` / ``when_released`` / ``when_held`` (called with the key),
    ``is_pressed(key)``, ``close()`` (idempotent), context manager.

Touch grid (``hardware.touch``)
    ``TouchGrid(bus, config=TouchConfig(), *, listener=None, hold_time=1.0, timers=None,
    pin_factory=None)``: MPR121 on ``bus`` (an ``smbus2.SMBus``), read when IRQ falls;
    same events and methods as ``ButtonGrid``; ``TouchGrid.open(config)`` opens the real bus.

OLED (``hardware.oled``)
    ``Display(luma_device)`` or ``Display.from_config(OledConfig(driver="ssd1306",
    interface="i2c", port=1, address=0x3C, rotation=0, contrast=0xCF), bus=None)``;
    (SPI: ``interface="spi", spi_port=0, spi_device=0, dc_pin=24, reset_pin=25``);
    ``show(image) -> UpdateStats`` (sends only changed bytes; never raises on bus errors),
    ``state`` (``DisplayState.OK`` / ``ERROR`` / ``CLOSED``), ``last_error``, ``retry()``,
    ``invalidate()``, ``size``, ``image``, ``set_contrast``, ``sleep``/``wake``, ``close()``.

Die / keypad (``hardware.serial_die``, ``hardware.protocol``)
    ``SerialDie(port_or_SerialConfig, *, listener=None, on_state=None, baudrate=115200,
    backoff_initial=0.25, backoff_max=5.0, opener=None, wait=None, ping_on_connect=True)``:
    ``start(require=False)``,
    ``state`` (``LinkState``), ``wait_connected(timeout)``, ``roll(faces)``, ``ping()``,
    ``counters`` (``frames_ok``, ``dropped()``, ``snapshot()``), ``firmware`` (the ``Hello``
    answering the ``PING`` sent on connecting; None until then and after a disconnect),
    ``close()``; the listener runs on the reader thread (queue, do not block). Messages:
    ``DieRoll(faces, value)``, ``KeyPress(key)``,
    ``Hello(device, version)``, ``DeviceError(text)``.

Smart dice (``hardware.smart_dice``: ``readings``, ``godice``, ``pixels``, ``link``,
``fake_ble``; docs/dice.md)
    ``godice.decode(frame, faces)`` / ``pixels.decode(frame, die_type)`` → ``Settled(face)``
    (the only roll), ``Unsettled(why, face)``, ``Battery(percent, charging)``,
    ``Colour(name)``, ``Identity(...)``; a bad frame raises ``ProtocolError`` (``reason``).
    ``DiceLink(*, listener, on_state=None, scanner=None, client=None, adapter="hci0",
    backoff_initial=0.5, backoff_max=15.0, ...)``: ``scan(seconds) -> list[FoundDie]``,
    ``follow(targets)`` (only these dice are connected, reconnected with back-off),
    ``status()``, ``dropped()``, ``wait_state(address, state, timeout)``, ``close()``; bleak
    is imported by ``start`` (the first scan or follow), never before; ``DiceConfig``.
    ``fake_ble.FakeRadio`` with ``FakeGoDice`` / ``FakePixel``: bleak backends for tests.

Pad lights (``hardware.pad_lights``)
    ``LightsConfig(kind="none"|"ws2812"|"pwm", order=KEYS, pins={}, brightness=96)``;
    ``open_lights(config, *, pin_factory=None, ws2812=None) -> PadLights | None``:
    ``ChainLights(luma_device, order, brightness)`` (a WS2812 chain through luma.led_matrix's
    ``ws2812``, or luma's ``dummy``) or ``PwmLights({key: PWMLED})``; ``show(frame)`` (a colour
    per key; only a changed frame is sent; never raises: ``problem``), ``close()``.

Probing (``hardware.probe``)
    ``probe_all() -> list[Finding]`` for ``tabletop check-hardware``.
"""

from __future__ import annotations

import importlib
from typing import Any

from hardware.errors import DeviceNotFound, HardwareError, PinMapError, ProtocolError
from hardware.events import PadEvent, PadEventKind, PadListener
from hardware.pinmap import ButtonPins, Key, PinMap

_LAZY = {
    "ButtonGrid": "hardware.buttons",
    "TouchGrid": "hardware.touch",
    "TouchConfig": "hardware.touch",
    "Display": "hardware.oled",
    "DisplayState": "hardware.oled",
    "OledConfig": "hardware.oled",
    "UpdateStats": "hardware.oled",
    "SerialDie": "hardware.serial_die",
    "SerialConfig": "hardware.serial_die",
    "LinkState": "hardware.serial_die",
    "DieRoll": "hardware.protocol",
    "KeyPress": "hardware.protocol",
    "Hello": "hardware.protocol",
    "DeviceError": "hardware.protocol",
    "LightsConfig": "hardware.pad_lights",
    "ChainLights": "hardware.pad_lights",
    "PwmLights": "hardware.pad_lights",
    "open_lights": "hardware.pad_lights",
    "Finding": "hardware.probe",
    "probe_all": "hardware.probe",
}


def __getattr__(name: str) -> Any:
    """Import driver modules on first use (keeps ``import hardware`` light)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hardware' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "ButtonPins",
    "DeviceNotFound",
    "HardwareError",
    "Key",
    "PadEvent",
    "PadEventKind",
    "PadListener",
    "PinMap",
    "PinMapError",
    "ProtocolError",
    *_LAZY,
]
