"""The pad's lights through the real drivers: luma.led_matrix's ``ws2812`` on a recording DMA
interface (what the chain would show at each render), gpiozero's ``PWMLED`` on mock PWM pins,
luma's ``dummy``; the config's ``[lights]`` and the pin map's refusals."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.device import dummy
from luma.led_matrix.device import ws2812

from firmware_host.config import parse_config
from firmware_host.errors import ConfigError
from hardware import PinMapError
from hardware.errors import DeviceNotFound
from hardware.pad_lights import (
    KEYS,
    ChainLights,
    LightsConfig,
    PwmLights,
    open_lights,
    scaled,
)
from hardware.pinmap import ButtonPins, PinMap
from tests.hardware.ws2812_dma import RecordingDma

RED, BLUE, GREEN = (200, 10, 0), (0, 20, 250), (0, 255, 0)


def chain(order: tuple[object, ...] = KEYS, brightness: int = 255,
          dma: RecordingDma | None = None) -> tuple[ChainLights, RecordingDma]:
    dma = dma or RecordingDma()
    device = ws2812(dma_interface=dma, cascaded=len(order))
    return ChainLights(device, order, brightness), dma  # type: ignore[arg-type]


def rgb(value: int) -> tuple[int, int, int]:
    return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)


def test_a_frame_reaches_each_led_of_the_chain_in_the_chains_order() -> None:
    order = ("back", "ok", 9, 8, 7, 6, 5, 4, 3, 2, 1)  # wired from Back round to dot 1
    lights, dma = chain(order)
    lights.show({1: RED, "ok": BLUE, 5: GREEN})
    shown, brightness = dma.renders[-1]
    assert brightness == 255  # luma's own dimming is off: the frame is scaled already
    assert [rgb(v) for v in shown] == [
        (0, 0, 0), BLUE, (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), GREEN, (0, 0, 0),
        (0, 0, 0), (0, 0, 0), RED]
    assert dma.controller is not None and dma.controller.channels[0].gpionum == 18


def test_brightness_scales_every_colour_and_an_unchanged_frame_sends_nothing() -> None:
    lights, dma = chain(brightness=64)
    lights.show({2: (255, 128, 0)})
    assert rgb(dma.shown()[1]) == scaled((255, 128, 0), 64) == (64, 32, 0)
    renders = len(dma.renders)
    lights.show({2: (255, 128, 0)})
    assert len(dma.renders) == renders


def test_a_dma_error_is_held_as_the_problem_and_the_next_frame_is_sent_whole() -> None:
    lights, dma = chain()
    lights.show({1: RED})
    dma.fail_renders = 1
    lights.show({1: BLUE})  # never raises to the pad
    assert lights.problem is not None and "ws2811_render failed" in lights.problem
    lights.show({1: BLUE})  # the same frame again: sent, since the last one did not arrive
    assert lights.problem is None and rgb(dma.shown()[0]) == BLUE


def test_closing_darkens_the_chain_and_releases_the_dma_channel() -> None:
    lights, dma = chain()
    lights.show({k: RED for k in KEYS})
    lights.close()
    lights.close()  # twice is fine
    assert all(v == 0 for v in dma.shown())
    assert dma.controller is not None and not dma.controller.running


def test_the_simulators_chain_on_lumas_dummy_holds_the_frame_as_an_image() -> None:
    lights = ChainLights(dummy(width=11, height=1, mode="RGB"), brightness=255)
    lights.show({3: GREEN, "back": RED})
    assert lights.image.getpixel((2, 0)) == GREEN and lights.image.getpixel((10, 0)) == RED
    with pytest.raises(ValueError, match="11 LEDs"):
        ChainLights(dummy(width=8, height=1, mode="RGB"))


def test_pwm_leds_show_each_keys_brightest_channel_on_its_pin() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    config = LightsConfig(kind="pwm", pins={1: 4, "ok": 23}, brightness=255)
    lights = open_lights(config, pin_factory=factory)
    assert isinstance(lights, PwmLights)
    lights.show({1: (0, 51, 255), "ok": (102, 0, 0), 2: RED})  # dot 2 has no LED
    assert factory.pin(4).state == pytest.approx(1.0)
    assert factory.pin(23).state == pytest.approx(0.4)
    lights.show({})
    assert factory.pin(4).state == 0 and factory.pin(23).state == 0
    lights.close()
    lights.close()


def test_pwm_leds_on_pins_that_cannot_pwm_are_missing_with_what_to_check() -> None:
    factory = MockFactory()  # plain mock pins: no PWM
    with pytest.raises(DeviceNotFound, match=r"pad lights .PWM LEDs. not found on GPIO4"):
        open_lights(LightsConfig(kind="pwm", pins={1: 4}), pin_factory=factory)


def test_a_ws2812_chain_without_its_driver_is_missing_with_what_to_check() -> None:
    def no_driver(**_: object) -> object:
        raise ImportError("No module named '_rpi_ws281x'")

    with pytest.raises(DeviceNotFound, match=r"_rpi_ws281x.*GPIO18 through a 3\.3 V"):
        open_lights(LightsConfig(kind="ws2812"), ws2812=no_driver)
    assert open_lights(LightsConfig()) is None  # kind = "none"


def test_the_config_reads_the_lights_table() -> None:
    config = parse_config({"lights": {"kind": "ws2812", "brightness": 40,
                                      "order": ["ok", "back", 1, 2, 3, 4, 5, 6, 7, 8, 9]}})
    assert config.lights.kind == "ws2812" and config.lights.brightness == 40
    assert config.lights.order[:3] == ("ok", "back", 1)
    assert config.pin_map().used()[18] == "pad lights (WS2812 data)"
    pwm = parse_config({"input": "touch", "lights": {"kind": "pwm",
                                                     "pins": {"1": 5, "ok": 17, "back": 27}}})
    assert pwm.lights.pins == {1: 5, "ok": 17, "back": 27}
    assert pwm.pin_map().used()[17] == "OK light"


@pytest.mark.parametrize(("table", "message"), [
    ({"kind": "neon"}, "lights.kind: expected one of"),
    ({"brightness": 300}, "lights.brightness"),
    ({"order": [1, 2, "start"]}, "lights.order.*'start'"),
    ({"kind": "pwm", "pins": {"10": 4}}, "lights.pins.*'10'"),
    ({"kind": "pwm", "pins": {"1": 40}}, "lights.pins.*GPIO number 0–27"),
    ({"kind": "pwm"}, "pwm lights need a GPIO"),
    ({"order": [1, 1]}, "a key appears twice"),
])
def test_a_bad_lights_table_names_what_is_wrong(table: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"lights": table})


def test_the_pin_map_refuses_a_light_on_a_buttons_pin_naming_both() -> None:
    with pytest.raises(ConfigError, match="OK light: GPIO5 is already used by the dot 1 button"):
        parse_config({"lights": {"kind": "pwm", "pins": {"ok": 5}}})
    with pytest.raises(PinMapError, match=r"pad lights .WS2812 data.: GPIO18 is already used"):
        PinMap(ButtonPins(ok=18), lights=tuple(LightsConfig(kind="ws2812").roles()))
