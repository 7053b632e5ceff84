"""A recording stand-in for ``_rpi_ws281x``, the C module behind luma.led_matrix's ``ws2812``
device (its ``dma_interface``): luma's real driver code runs on top, and each ``ws2811_render``
is kept as the chain would show it — one 24-bit ``0xRRGGBB`` value per LED, and the channel's
brightness. ``fail_renders`` makes the next renders fail as the C library reports a DMA error
(a non-zero code, which luma raises as ``RuntimeError``).

luma's device also cleans up at the interpreter's exit (``atexit``) and when collected, after a
``cleanup`` already let the channel go; those late calls arrive with no channel and are
ignored, as they change nothing the chain shows."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Channel:
    count: int = 0
    gpionum: int = 0
    invert: int = 0
    brightness: int = 0
    strip_type: int = 0
    leds: list[int] = field(default_factory=list)


@dataclass
class Controller:
    channels: list[Channel] = field(default_factory=lambda: [Channel(), Channel()])
    freq: int = 0
    dmanum: int = 0
    running: bool = False


class RecordingDma:
    """The functions of ``_rpi_ws281x`` that luma's ``ws2812`` calls."""

    WS2811_STRIP_GRB = 0x00081000

    def __init__(self) -> None:
        #: Every render: (the LEDs' 0xRRGGBB values in chain order, the channel's brightness).
        self.renders: list[tuple[list[int], int]] = []
        self.fail_renders = 0
        self.controller: Controller | None = None

    # the controller
    def new_ws2811_t(self) -> Controller:
        self.controller = Controller()
        return self.controller

    def ws2811_channel_get(self, leds: Controller, number: int) -> Channel:
        return leds.channels[number]

    def ws2811_t_freq_set(self, leds: Controller, hz: int) -> None:
        leds.freq = hz

    def ws2811_t_dmanum_set(self, leds: Controller, dma: int) -> None:
        leds.dmanum = dma

    def ws2811_init(self, leds: Controller) -> int:
        leds.running = True
        for channel in leds.channels:
            channel.leds = [0] * channel.count
        return 0

    def ws2811_fini(self, leds: Controller) -> None:
        leds.running = False

    def delete_ws2811_t(self, leds: Controller) -> None:
        pass

    # a channel
    def ws2811_channel_t_count_set(self, channel: Channel, count: int) -> None:
        channel.count = count

    def ws2811_channel_t_gpionum_set(self, channel: Channel, pin: int) -> None:
        channel.gpionum = pin

    def ws2811_channel_t_invert_set(self, channel: Channel, invert: int) -> None:
        channel.invert = invert

    def ws2811_channel_t_brightness_set(self, channel: Channel | None, value: int) -> None:
        if channel is not None:
            channel.brightness = value

    def ws2811_channel_t_strip_type_set(self, channel: Channel, kind: int) -> None:
        channel.strip_type = kind

    def ws2811_led_set(self, channel: Channel | None, index: int, colour: int) -> None:
        if channel is not None:
            channel.leds[index] = colour

    def ws2811_render(self, leds: Controller | None) -> int:
        if leds is None or not leds.running:
            return 0
        if self.fail_renders:
            self.fail_renders -= 1
            return -11  # WS2811_ERROR_DMA
        channel = leds.channels[0]
        self.renders.append((list(channel.leds), channel.brightness))
        return 0

    # what the chain shows
    def shown(self) -> list[int]:
        """The LEDs' values at the last render."""
        return self.renders[-1][0]
