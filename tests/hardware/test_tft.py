"""The colour TFT through luma.lcd's real ILI9341 and ST7789 drivers over a recording SPI bus,
decoded by an independent model of the controllers' memory writes: the screen holds the frame,
a change sends only its rows' changed columns, an unchanged frame sends nothing, a bus error is
held and the next frame goes whole."""

from __future__ import annotations

import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw

from hardware.errors import DeviceNotFound, PinMapError
from hardware.tft import BAND, TftConfig, TftScreen
from tests.hardware.controller_ram import RecordingGpio, RecordingSpi
from tests.hardware.tft_ram import TftRam

SIZES = [("ili9341", 320, 240), ("ili9341", 240, 240), ("st7789", 240, 240),
         ("st7789", 320, 240)]


def open_tft(driver: str, width: int, height: int, rotation: int = 0
             ) -> tuple[TftScreen, RecordingSpi, RecordingGpio]:
    gpio = RecordingGpio()
    spi = RecordingSpi(gpio, dc_pin=24)
    config = TftConfig(driver=driver, width=width, height=height,  # type: ignore[arg-type]
                       spi_device=1, rotation=rotation)
    screen = TftScreen.from_config(config, spi=spi, gpio=gpio)
    screen.device.persist = True
    return screen, spi, gpio


def picture(width: int, height: int) -> Image.Image:
    image = Image.new("RGB", (width, height), (250, 248, 240))
    pen = ImageDraw.Draw(image)
    pen.rectangle((10, 10, width // 2, height // 3), fill=(183, 28, 28))
    pen.ellipse((width // 2, height // 2, width - 5, height - 5), fill=(26, 35, 126))
    pen.line((0, height - 1, width - 1, 0), fill=(253, 216, 53), width=3)
    return image


@pytest.mark.parametrize(("driver", "width", "height"), SIZES)
def test_the_screen_holds_the_frame_and_a_change_sends_only_its_rows_changed_columns(
    driver: str, width: int, height: int
) -> None:
    screen, spi, gpio = open_tft(driver, width, height)
    assert spi.opened == (0, 1) and spi.max_speed_hz == 32_000_000
    assert gpio.levels[25] == 1 and gpio.levels[23] == 1  # reset released, backlight on
    ram = TftRam(width, height)
    ram.feed(spi.take())  # luma's set-up (its own clear screen included)
    image = picture(width, height)
    stats = screen.show(image)
    ram.feed(spi.take())
    assert ram.screen().tobytes() == image.tobytes()
    assert stats.full and stats.data_bytes == width * height * 3
    ram.take_written()
    # one player's score changes: a 30×12 patch
    ImageDraw.Draw(image).rectangle((200, 100, 229, 111), fill=(102, 187, 106))
    stats = screen.show(image)
    ram.feed(spi.take())
    assert ram.screen().tobytes() == image.tobytes()
    bands = len({row // BAND for row in range(100, 112)})
    assert ram.take_written() == stats.data_bytes == 30 * BAND * bands * 3
    assert stats.windows == bands and not stats.full
    assert screen.show(image).windows == 0 and spi.take() == []  # nothing changed: nothing sent


def test_a_rotated_tft_shows_the_frame_turned_as_luma_turns_it() -> None:
    screen, spi, _ = open_tft("ili9341", 320, 240, rotation=90)
    assert screen.size == (240, 320)  # portrait: the frame is drawn 240 wide
    ram = TftRam(320, 240)
    ram.feed(spi.take())
    image = picture(240, 320)
    screen.show(image)
    ram.feed(spi.take())
    assert ram.screen().tobytes() == image.rotate(-90, expand=True).tobytes()
    image.putpixel((3, 300), (0, 0, 0))
    screen.show(image)
    ram.feed(spi.take())
    assert ram.screen().tobytes() == image.rotate(-90, expand=True).tobytes()


class FailingSpi(RecordingSpi):
    fail = False

    def writebytes(self, data: list[int]) -> None:
        if self.fail:
            raise OSError(121, "Remote I/O error")
        super().writebytes(data)


def test_a_bus_error_is_held_and_the_next_frame_is_sent_whole() -> None:
    gpio = RecordingGpio()
    spi = FailingSpi(gpio, dc_pin=24)
    screen = TftScreen.from_config(TftConfig(), spi=spi, gpio=gpio)
    ram = TftRam(320, 240)
    ram.feed(spi.take())
    image = picture(320, 240)
    screen.show(image)
    ram.feed(spi.take())
    image.putpixel((5, 5), (0, 0, 0))
    spi.fail = True
    assert screen.show(image).windows == 0  # never raises
    assert screen.problem is not None and "Remote I/O" in screen.problem
    spi.fail = False
    stats = screen.show(image)
    ram.feed(spi.take())
    assert stats.full and screen.problem is None
    assert ram.screen().tobytes() == image.tobytes()


def test_the_simulators_dummy_gets_lumas_own_display_only_on_a_change() -> None:
    screen = TftScreen(dummy(width=320, height=240, mode="RGB"))
    image = picture(320, 240)
    assert screen.show(image).windows == 1
    assert screen.device.image.tobytes() == image.tobytes()
    assert screen.show(image).windows == 0
    with pytest.raises(ValueError, match="the TFT is 320x240"):
        screen.show(Image.new("RGB", (128, 64)))


def test_a_tft_without_spidev_names_the_spi_device_and_what_to_enable() -> None:
    with pytest.raises(DeviceNotFound) as info:
        TftScreen.from_config(TftConfig(spi_device=1))
    message = str(info.value)
    assert "TFT (ili9341) not found on SPI 0.1" in message and "dtparam=spi=on" in message


@pytest.mark.parametrize(("config", "message"), [
    ({"driver": "ssd1351"}, "expected ili9341 or st7789"),
    ({"driver": "st7789", "width": 320, "height": 480}, "drives 240x240 or 320x240"),
    ({"rotation": 45}, "rotation: expected 0, 90"),
])
def test_a_tft_it_cannot_drive_is_refused_by_name(config: dict[str, object],
                                                  message: str) -> None:
    with pytest.raises(PinMapError, match=message):
        TftConfig(**config)  # type: ignore[arg-type]
