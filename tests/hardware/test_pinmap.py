"""Pin maps: the defaults keep off the bus pins, and no pin may be used twice."""

from __future__ import annotations

import pytest

from hardware import PinMapError
from hardware.oled import OledConfig
from hardware.pinmap import I2C_PINS, SPI_PINS, UART_PINS, ButtonPins, PinMap, SpiDisplayPins


def test_defaults_use_no_bus_pin_even_with_everything_enabled() -> None:
    every = PinMap(ButtonPins(), touch_irq=22, oled_spi=SpiDisplayPins(), uart=True)
    used = every.used()
    assert not set(used) & (set(I2C_PINS) | set(SPI_PINS) | set(UART_PINS) | {0, 1})
    assert len(used) == 11 + 1 + 2


def test_default_roles_are_named() -> None:
    used = PinMap().used()
    assert used[5] == "dot 1 button" and used[21] == "dot 9 button"
    assert used[17] == "OK button" and used[27] == "Back button"


def test_a_pin_used_twice_names_both_roles() -> None:
    with pytest.raises(PinMapError, match="MPR121 IRQ: GPIO17 is already used by the OK button"):
        PinMap(ButtonPins(), touch_irq=17)


def test_two_dots_on_one_pin_are_refused() -> None:
    with pytest.raises(PinMapError, match="dot 2 button: GPIO5 is already used by the dot 1"):
        PinMap(ButtonPins(dots=(5, 5, 13, 19, 26, 12, 16, 20, 21)))


def test_back_on_a_dot_pin_is_refused() -> None:
    with pytest.raises(PinMapError, match="Back button: GPIO21 is already used by the dot 9"):
        PinMap(ButtonPins(back=21))


def test_i2c_pins_are_refused_for_buttons() -> None:
    with pytest.raises(PinMapError, match="GPIO2 is reserved for I2C-1 SDA"):
        PinMap(ButtonPins(ok=2))


def test_spi_pins_are_refused_only_when_the_oled_uses_spi() -> None:
    PinMap(ButtonPins(back=10))
    with pytest.raises(PinMapError, match="GPIO10 is reserved for SPI0 MOSI"):
        PinMap(ButtonPins(back=10), oled_spi=SpiDisplayPins())


def test_uart_pins_are_refused_when_the_die_uses_the_header_uart() -> None:
    PinMap(ButtonPins(ok=14))
    with pytest.raises(PinMapError, match="GPIO14 is reserved for UART TXD"):
        PinMap(ButtonPins(ok=14), uart=True)


def test_oled_spi_pins_clash_with_buttons() -> None:
    spi = OledConfig(interface="spi", dc_pin=17).spi_pins
    with pytest.raises(PinMapError, match="GPIO17 is already used by the OK button"):
        PinMap(ButtonPins(), oled_spi=spi)


@pytest.mark.parametrize("dots", [(5, 6, 13), tuple(range(4, 14))])
def test_nine_dots_are_required(dots: tuple[int, ...]) -> None:
    with pytest.raises(PinMapError, match="need 9 pins"):
        ButtonPins(dots=dots)


@pytest.mark.parametrize("bad", [28, -1, True, "5"])
def test_pins_must_be_header_gpios(bad: object) -> None:
    with pytest.raises(PinMapError, match="not a header GPIO"):
        ButtonPins(ok=bad)  # type: ignore[arg-type]


def test_optional_ok_and_back_may_be_left_out() -> None:
    assert list(ButtonPins(ok=None, back=None).keys()) == list(range(1, 10))
