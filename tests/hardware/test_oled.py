"""The OLED sends nothing for an unchanged frame and only changed bytes otherwise, and what
reaches the controller RAM always equals the intended image (decoded independently)."""

from __future__ import annotations

import errno

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from hardware import DeviceNotFound, PinMapError
from hardware.oled import Display, DisplayState, OledConfig, pages_of
from tests.hardware.controller_ram import (
    RecordingBus,
    RecordingGpio,
    RecordingSpi,
    Sh1106Ram,
    Ssd1306Ram,
)

pytestmark = [
    pytest.mark.timeout(60),
    # luma.oled itself calls Image.getdata, deprecated in Pillow 13.
    pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning"),
]

DRIVERS = {"ssd1306": (ssd1306, Ssd1306Ram), "sh1106": (sh1106, Sh1106Ram)}
NATIVE = {  # the panel's view of a logical image, per luma rotation (clockwise quarter turns)
    0: None,
    1: Image.Transpose.ROTATE_270,
    2: Image.Transpose.ROTATE_180,
    3: Image.Transpose.ROTATE_90,
}


class Rig:
    """A real luma driver over a recording bus, our Display on it, and a RAM model fed the
    recorded bytes."""

    def __init__(self, driver: str, rotate: int = 0) -> None:
        luma_class, ram_class = DRIVERS[driver]
        self.bus = RecordingBus()
        self.device = luma_class(i2c(bus=self.bus, address=0x3C), rotate=rotate)
        self.device.persist = True  # no clear-on-exit traffic from luma's atexit hook
        self.ram = ram_class()
        self.rotate = rotate
        self.display = Display(self.device)
        self.sync()

    def sync(self) -> int:
        writes = self.bus.take()
        assert all(w.address == 0x3C for w in writes)
        self.ram.feed(writes)
        return RecordingBus.bus_bytes(writes)

    def show(self, image: Image.Image) -> int:
        self.display.show(image)
        return self.sync()

    def screen_matches(self, image: Image.Image) -> bool:
        transpose = NATIVE[self.rotate]
        expected = image if transpose is None else image.transpose(transpose)
        return self.ram.screen().tobytes() == expected.convert("1").tobytes()


def blank(size: tuple[int, int] = (128, 64)) -> Image.Image:
    return Image.new("1", size)


def drawing(size: tuple[int, int] = (128, 64)) -> Image.Image:
    image = blank(size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((3, 5, 40, 30), outline=1)
    draw.line((0, 63 if size[1] == 64 else 127, size[0] - 1, 0), fill=1)
    draw.text((50, 10), "Dot 5", fill=1)
    return image


@pytest.mark.parametrize("driver", DRIVERS)
def test_first_frame_is_sent_whole_and_lands_on_screen(driver: str) -> None:
    rig = Rig(driver)
    image = drawing()
    sent = rig.show(image)
    assert rig.screen_matches(image)
    assert sent >= 1024


@pytest.mark.parametrize("driver", DRIVERS)
def test_unchanged_frame_sends_nothing(driver: str) -> None:
    rig = Rig(driver)
    rig.show(drawing())
    assert rig.show(drawing()) == 0
    assert rig.display.show(drawing()).total_bytes == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_one_changed_pixel_sends_a_few_bytes(driver: str) -> None:
    rig = Rig(driver)
    image = drawing()
    rig.show(image)
    image.putpixel((100, 50), 1)
    sent = rig.show(image)
    assert rig.screen_matches(image)
    assert 0 < sent <= 16


@pytest.mark.parametrize("driver", DRIVERS)
def test_changes_on_distant_pages_are_sent_as_separate_spans(driver: str) -> None:
    rig = Rig(driver)
    image = blank()
    rig.show(image)
    image.putpixel((0, 0), 1)
    image.putpixel((127, 63), 1)
    sent = rig.show(image)
    assert rig.screen_matches(image)
    assert sent <= 40  # not the 8×128 box between them


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_rotation_is_applied_like_luma(driver: str, rotate: int) -> None:
    rig = Rig(driver, rotate)
    size = rig.display.size
    assert size == ((128, 64) if rotate % 2 == 0 else (64, 128))
    image = drawing(size)
    rig.show(image)
    assert rig.screen_matches(image)
    image.putpixel((1, 2), 1)
    rig.show(image)
    assert rig.screen_matches(image)


@pytest.mark.parametrize("driver", DRIVERS)
def test_our_frame_equals_what_luma_itself_would_show(driver: str) -> None:
    rig = Rig(driver)
    image = drawing()
    rig.show(image)
    baseline = Rig(driver)
    baseline.device.display(image)
    baseline.sync()
    assert rig.ram.screen().tobytes() == baseline.ram.screen().tobytes()


pixels = st.tuples(st.integers(0, 127), st.integers(0, 127))
steps = st.one_of(
    st.tuples(st.just("pixel"), pixels, st.integers(0, 1)),
    st.tuples(st.just("line"), pixels, pixels),
    st.tuples(st.just("box"), pixels, pixels),
    st.tuples(st.just("text"), pixels, st.text("ABC123 ", max_size=6)),
    st.tuples(st.just("noise"), st.binary(min_size=1024, max_size=1024), st.none()),
    st.tuples(st.just("same"), st.none(), st.none()),
)


def apply(image: Image.Image, step: tuple[object, ...]) -> Image.Image:
    """One random drawing step on ``image`` (coordinates folded into its size)."""
    kind, a, b = step
    width, height = image.size

    def fold(point: object) -> tuple[int, int]:
        x, y = point  # type: ignore[misc]
        return x % width, y % height

    draw = ImageDraw.Draw(image)
    if kind == "pixel":
        image.putpixel(fold(a), b)  # type: ignore[arg-type]
    elif kind == "line":
        draw.line((fold(a), fold(b)), fill=1)
    elif kind == "box":
        (x0, y0), (x1, y1) = fold(a), fold(b)
        draw.rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=0)
    elif kind == "text":
        draw.text(fold(a), b, fill=1)  # type: ignore[arg-type]
    elif kind == "noise":
        image = Image.frombytes("1", image.size, a)  # type: ignore[arg-type]
    return image


@pytest.mark.parametrize(("driver", "rotate"), [("ssd1306", 0), ("sh1106", 0), ("ssd1306", 1),
                                                ("sh1106", 2)])
@settings(max_examples=25)
@given(sequence=st.lists(steps, min_size=1, max_size=12))
def test_screen_equals_image_after_any_sequence(driver: str, rotate: int, sequence) -> None:
    rig = Rig(driver, rotate)
    image = blank(rig.display.size)
    rig.show(image)
    for step in sequence:
        image = apply(image.copy(), step)
        before = rig.display.image
        sent = rig.show(image)
        assert rig.screen_matches(image)
        if before is not None and before.tobytes() == image.tobytes():
            assert sent == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_bus_error_marks_error_then_next_show_resends_in_full(driver: str) -> None:
    rig = Rig(driver)
    rig.show(drawing())
    image = drawing()
    image.putpixel((70, 40), 1)
    rig.bus.fail_after = 1  # the data write after the addressing command fails
    stats = rig.display.show(image)
    rig.sync()
    assert not stats.ok
    assert rig.display.state is DisplayState.ERROR
    assert rig.display.last_error is not None
    sent = rig.show(image)
    assert rig.display.state is DisplayState.OK
    assert rig.screen_matches(image)
    assert sent >= 1024


def test_bus_error_of_any_errno_is_caught() -> None:
    rig = Rig("ssd1306")
    rig.show(drawing())
    rig.bus.fail_after, rig.bus.fail_errno = 0, errno.ETIMEDOUT
    assert not rig.display.show(blank()).ok
    assert rig.display.state is DisplayState.ERROR
    rig.sync()


def test_retry_resends_the_last_image_after_an_error() -> None:
    rig = Rig("ssd1306")
    rig.bus.fail_after = 0
    rig.display.show(drawing())
    rig.sync()
    assert rig.display.state is DisplayState.ERROR
    rig.display.retry()
    rig.sync()
    assert rig.display.state is DisplayState.OK
    assert rig.screen_matches(drawing())


def test_wrong_image_size_is_refused_with_both_sizes() -> None:
    rig = Rig("ssd1306")
    with pytest.raises(ValueError, match=r"64x32.*128x64"):
        rig.display.show(blank((64, 32)))
    assert rig.sync() == 0


def test_greyscale_image_is_thresholded() -> None:
    rig = Rig("ssd1306")
    image = Image.new("L", (128, 64), 0)
    ImageDraw.Draw(image).rectangle((10, 10, 20, 20), fill=200)
    ImageDraw.Draw(image).rectangle((30, 10, 40, 20), fill=60)
    rig.show(image)
    assert rig.screen_matches(image.point(lambda v: 255 if v >= 128 else 0).convert("1"))


def test_dummy_device_gets_frames_only_when_changed() -> None:
    device = dummy(width=128, height=64, mode="1")
    display = Display(device)
    image = drawing()
    assert display.show(image).total_bytes > 0
    first = device.image
    assert first is not None and first.tobytes() == image.tobytes()
    assert display.show(image.copy()).total_bytes == 0
    assert device.image is first
    assert not display.partial


def test_pages_of_puts_the_top_pixel_in_bit_zero() -> None:
    image = blank()
    image.putpixel((3, 0), 1)
    image.putpixel((3, 9), 1)
    image.putpixel((127, 63), 1)
    pages = pages_of(image)
    assert pages[0][3] == 0x01 and pages[1][3] == 0x02 and pages[7][127] == 0x80
    assert sum(map(sum, pages)) == 0x01 + 0x02 + 0x80


@pytest.mark.parametrize("driver", DRIVERS)
def test_from_config_builds_the_driver_at_its_address(driver: str) -> None:
    bus = RecordingBus()
    display = Display.from_config(
        OledConfig(driver=driver, address=0x3D, rotation=180, contrast=0x40), bus=bus
    )
    display.device.persist = True
    assert type(display.device) is DRIVERS[driver][0]
    assert display.device.rotate == 2
    assert {w.address for w in bus.writes} == {0x3D}
    assert any(w.payload == bytes([0x81, 0x40]) for w in bus.writes)  # contrast


def test_missing_i2c_bus_names_bus_address_and_what_to_check() -> None:
    with pytest.raises(DeviceNotFound) as info:
        Display.from_config(OledConfig(port=97))
    message = str(info.value)
    assert "OLED (ssd1306)" in message and "I2C bus 97 address 0x3C" in message
    assert "i2cdetect -y 97" in message and "'i2c' group" in message


def test_no_answer_at_the_address_is_device_not_found() -> None:
    bus = RecordingBus(fail_after=0)
    with pytest.raises(DeviceNotFound, match="address 0x3C"):
        Display.from_config(OledConfig(), bus=bus)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("driver", "ssd1351", "oled.driver"),
        ("interface", "usb", "oled.interface"),
        ("rotation", 45, "oled.rotation"),
        ("contrast", 300, "oled.contrast"),
        ("address", 0x90, "oled.address"),
    ],
)
def test_bad_config_names_the_key(field: str, value: object, words: str) -> None:
    with pytest.raises(PinMapError, match=words):
        OledConfig(**{field: value})  # type: ignore[arg-type]


def test_close_is_idempotent_and_blanks_the_panel() -> None:
    rig = Rig("ssd1306")
    rig.show(drawing())
    rig.device.persist = False
    rig.display.close()
    rig.display.close()
    rig.sync()
    assert rig.display.state is DisplayState.CLOSED
    assert rig.ram.screen().getbbox() is None


@pytest.mark.parametrize("driver", DRIVERS)
def test_spi_display_sends_only_changes_through_dc_and_spi(driver: str) -> None:
    gpio = RecordingGpio()
    spi = RecordingSpi(gpio, dc_pin=24)
    config = OledConfig(driver=driver, interface="spi", spi_port=0, spi_device=1)
    display = Display.from_config(config, spi=spi, gpio=gpio)
    display.device.persist = True
    ram = DRIVERS[driver][1]()
    assert spi.opened == (0, 1) and spi.max_speed_hz == 8_000_000
    assert gpio.levels[25] == 1  # reset released
    image = drawing()
    display.show(image)
    ram.feed(spi.take())
    assert ram.screen().tobytes() == image.tobytes()
    image.putpixel((90, 3), 1)
    display.show(image)
    step = spi.take()
    ram.feed(step)
    assert ram.screen().tobytes() == image.tobytes()
    assert sum(len(w.payload) for w in step) <= 8


def test_spi_without_spidev_or_gpio_names_the_port_and_what_to_enable() -> None:
    with pytest.raises(DeviceNotFound) as info:
        Display.from_config(OledConfig(interface="spi"))
    message = str(info.value)
    assert "SPI 0.0" in message and "dtparam=spi=on" in message and "'spi'" in message


def test_unsupported_spi_speed_is_refused() -> None:
    with pytest.raises(PinMapError, match=r"oled\.spi_speed_hz"):
        OledConfig(interface="spi", spi_speed_hz=3_000_000)


@pytest.mark.parametrize("action", ["set_contrast", "sleep", "wake"])
def test_bus_error_in_a_panel_command_marks_error_and_forces_a_full_frame(action: str) -> None:
    rig = Rig("ssd1306")
    rig.show(drawing())
    rig.bus.fail_after = 0
    method = getattr(rig.display, action)
    method(0x10) if action == "set_contrast" else method()
    assert rig.display.state is DisplayState.ERROR
    assert rig.show(drawing()) >= 1024
    assert rig.display.state is DisplayState.OK


def test_shows_from_several_threads_leave_the_last_image_on_screen() -> None:
    import threading

    rig = Rig("ssd1306")
    images = []
    for i in range(8):
        image = blank()
        ImageDraw.Draw(image).text((i * 10, i * 6), str(i), fill=1)
        images.append(image)
    threads = [threading.Thread(target=rig.display.show, args=(im,)) for im in images]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    rig.sync()
    last = rig.display.image
    assert last is not None and rig.screen_matches(last)


@pytest.mark.parametrize("driver", DRIVERS)
def test_pattern_entry_steps_stay_within_the_traffic_budget(driver: str) -> None:
    # DESIGN: ≤ 40% of a full frame per pattern-entry step, zero for an unchanged frame.
    rig = Rig(driver)
    full = Rig(driver)
    full.device.display(blank())
    frame_bytes = full.sync()
    centre = {d: (12 + 20 * ((d - 1) % 3), 14 + 20 * ((d - 1) // 3)) for d in range(1, 10)}
    image = blank()
    draw = ImageDraw.Draw(image)
    draw.text((0, 0), "UNLOCK  turn 3", fill=1)
    for x, y in centre.values():
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), outline=1)
    rig.show(image)
    code = [1, 5, 9, 6, 2, 4, 8]
    for n, dot in enumerate(code):
        x, y = centre[dot]
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), outline=1, fill=1)
        if n:
            draw.line((centre[code[n - 1]], centre[dot]), fill=1)
        draw.rectangle((72, 32, 127, 44), fill=0)
        draw.text((72, 32), "-".join(map(str, code[: n + 1])), fill=1)
        sent = rig.show(image)
        assert rig.screen_matches(image)
        assert 0 < sent <= 0.4 * frame_bytes, f"step {n + 1} sent {sent} of {frame_bytes}"
        assert rig.show(image) == 0
