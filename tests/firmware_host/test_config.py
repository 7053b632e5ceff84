"""The TOML config: defaults, the example file, and one clear line per bad key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from firmware_host.config import Config, load_config, parse_config
from firmware_host.errors import ConfigError
from firmware_host.hardware_check import check_display

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_without_a_file() -> None:
    config = parse_config({})
    assert config == Config(data_dir=config.data_dir)
    assert config.oled.address == 0x3C and config.web.threads == 16


def test_the_example_file_sets_every_default() -> None:
    with (ROOT / "deploy" / "config.example.toml").open("rb") as file:
        example = parse_config(tomllib.load(file))
    defaults = Config()
    for name in ("input", "buttons", "touch", "oled", "serial", "lights", "tft", "web", "debounce",
                 "retry_interval", "log_level", "host_pin", "language", "menu_hold",
                 "bot_delay"):
        assert getattr(example, name) == getattr(defaults, name), name


def test_values_are_read_into_the_hardware_settings() -> None:
    config = parse_config({
        "display": {"driver": "sh1106", "address": "0x3D", "rotation": 180, "contrast": 80},
        "serial": {"device": "/dev/serial0", "baudrate": 9600},
        "web": {"port": 9000, "threads": 60},
        "buttons": {"ok": False},
        "host_pin": "042000",
    })
    assert (config.oled.driver, config.oled.address, config.oled.rotation) == ("sh1106", 0x3D, 180)
    assert (config.serial.port, config.serial.baudrate) == ("/dev/serial0", 9600)
    assert (config.web.port, config.web.threads) == (9000, 60)
    assert config.buttons.ok is None and config.host_pin == "042000"


def test_the_oled_language_and_the_menu_hold_reach_the_device() -> None:
    config = parse_config({"language": "ja", "pad": {"menu_hold_ms": 1500}})
    settings = config.device_settings()
    assert (settings.language, settings.menu_hold) == ("ja", 1.5)
    assert (Config().language, Config().menu_hold) == ("en", 1.0)


def test_the_bots_visible_delay_is_read_in_milliseconds() -> None:
    assert parse_config({"bots": {"delay_ms": 0}}).bot_delay == 0.0
    assert parse_config({"bots": {"delay_ms": 250}}).bot_delay == 0.25
    assert Config().bot_delay == 1.0


def test_an_spi_display_names_its_own_spi_bus() -> None:
    config = parse_config({"display": {"interface": "spi", "spi_port": 1, "spi_device": 1}})
    assert (config.oled.interface, config.oled.spi_port, config.oled.spi_device) == ("spi", 1, 1)
    [finding] = check_display(config)
    assert "/dev/spidev1.1" in finding.detail


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"display": {"address": "abc"}},
         "config error: display.address: expected an I2C address like 0x3C, got 'abc'"),
        ({"display": {"rotation": 45}}, "config error: display.rotation: expected 0, 90"),
        ({"display": {"driver": "st7735"}}, "config error: display.driver: expected one of"),
        ({"display": {"contrast": 300}}, "config error: display.contrast: 300 is outside"),
        ({"web": {"port": 0}}, "config error: web.port: 0 is outside 1–65535"),
        ({"web": {"threads": "many"}}, "config error: web.threads: expected a whole number"),
        ({"buttons": {"dots": [1, 2, 3]}}, "config error: buttons.dots: expected a list of 9"),
        ({"buttons": {"ok": 40}}, "config error: buttons.ok: expected a BCM GPIO number"),
        ({"buttons": {"ok": 5}}, "config error: pins: "),
        ({"buttons": {"ok": 2}}, "config error: pins: OK button: GPIO2 is reserved"),
        ({"serial": {"baudrate": -1}}, "config error: serial.baudrate:"),
        ({"host_pin": "12ab"}, "config error: host_pin: expected 6–12 digits"),
        ({"host_pin": "2468"}, "config error: host_pin: expected 6–12 digits"),
        # Arabic-Indic digits are digits to str.isdigit, not to a PIN typed on a phone
        ({"host_pin": "٢٤٦٨١٣"}, "config error: host_pin: expected 6–12 digits"),
        ({"input": "joystick"}, "config error: input: expected one of buttons, touch"),
        ({"language": "fr"}, "config error: language: expected one of en, ja, got 'fr'"),
        ({"pad": {"menu_hold_ms": 50}}, "config error: pad.menu_hold_ms: 50 is outside"),
        ({"bots": {"delay_ms": -1}}, "config error: bots.delay_ms: -1 is outside 0–10000"),
        ({"bots": {"delay": 1}}, "config error: bots.delay: unknown key"),
        ({"dispaly": {}}, "config error: dispaly: unknown key"),
        ({"display": {"adress": 60}}, "config error: display.adress: unknown key"),
        ({"display": 3}, "config error: display: expected a [display] table"),
        ({"touch": {"address": 0x3C}},
         "config error: touch: touch.address: 0x3C is not an MPR121"),
        ({"touch": {"electrodes": [0, 1, 2, 3, 4, 5, 6, 7, 12]}},
         "config error: touch.electrodes: expected an MPR121 electrode 0–11, got 12"),
        ({"input": "touch", "touch": {"irq_pin": 3}},
         "config error: pins: MPR121 IRQ: GPIO3 is reserved"),
    ],
)
def test_a_bad_value_names_its_key(document: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as refusal:
        parse_config(document)
    assert str(refusal.value).startswith(message)
    assert "\n" not in str(refusal.value)


def test_a_relative_data_dir_is_relative_to_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('data_dir = "state"\n')
    config = load_config(path)
    assert config.data_dir == tmp_path / "state" and config.source == path


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[display\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_a_config_that_is_not_utf8_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"host_pin = \"1234\"\n\x80\n")
    with pytest.raises(ConfigError) as refusal:
        load_config(path)
    assert str(refusal.value).startswith(f"config error: {path}: not valid TOML: not UTF-8")


def test_check_hardware_names_what_the_pad_lights_need() -> None:
    from firmware_host.hardware_check import check_lights

    [none] = check_lights(parse_config({}))
    assert none.ok is None and "none configured" in none.detail
    [pwm] = check_lights(parse_config({"input": "touch",
                                       "lights": {"kind": "pwm", "pins": {"ok": 23}}}))
    assert "ok: GPIO23" in pwm.detail
    [chain] = check_lights(parse_config({"lights": {"kind": "ws2812"}}))
    # no rpi_ws281x here (it is the Pi's "lights" extra): a failure that says what to do
    assert chain.ok is False and "rpi_ws281x is not installed" in chain.detail
    assert "tabletop-companion[lights]" in chain.advice


def test_the_colour_tft_is_read_from_display_tft_and_its_pins_join_the_pin_map() -> None:
    from firmware_host.hardware_check import check_tft

    assert parse_config({}).tft is None and check_tft(parse_config({})) == []
    config = parse_config({"display": {"tft": {"driver": "st7789", "width": 240,
                                               "height": 240, "spi_device": 1,
                                               "backlight_pin": False}}})
    assert config.tft is not None and config.tft.driver == "st7789"
    assert config.tft.backlight_pin is None
    used = config.pin_map().used()
    assert used[24] == "TFT DC" and used[25] == "TFT reset" and 10 not in used
    [finding] = check_tft(config)
    assert "/dev/spidev0.1" in finding.detail and "CS CE1" in finding.advice


@pytest.mark.parametrize(("document", "message"), [
    ({"display": {"tft": {"driver": "st7735"}}}, "display.tft.driver: expected one of"),
    ({"display": {"tft": {"driver": "st7789", "width": 320, "height": 320}}},
     "display.tft: the st7789 drives 240x240 or 320x240"),
    ({"display": {"tft": {"colour": "yes"}}}, "display.tft.colour: unknown key"),
    ({"display": {"tft": "ili9341"}}, "display.tft: expected a"),
    ({"display": {"interface": "spi", "tft": {}}}, "SPI 0.0 is the OLED's"),
    ({"display": {"tft": {"backlight_pin": 17}}}, "TFT backlight: GPIO17 is already used by "
                                                  "the OK button"),
    ({"display": {"tft": {"dc_pin": 9}}}, "TFT DC: GPIO9 is reserved for SPI0 MISO"),
])
def test_a_bad_tft_table_names_what_is_wrong(document: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(document)
