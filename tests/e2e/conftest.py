"""Browser fixtures: Debian's Chromium driven by Playwright (never a downloaded browser) at a phone
viewport, against the panel served by waitress in simulator mode."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings
from firmware_host.device import Device, open_device
from tests.web_panel.served import HOST_PIN, Phone, Served, data_dir, serve
from web_panel import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
WAIT_MS = 8000
# what a page shows is waited for as long as what a page does (expect's own default is 5 s: a
# phone's click answered and drawn can take longer than that beside the other suites on CI)
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@dataclass
class Table:
    """The companion, the served panel (simulator mode), and a way to hand out phones."""

    companion: Companion
    served: Served
    new_phone: Callable[..., Page]
    host_pin: str = HOST_PIN
    #: The simulated box (its smart dice, its pad).
    device: Device | None = None

    @property
    def url(self) -> str:
        return self.served.url

    def host_phone(self, locale: str = "en-GB") -> Page:
        """A phone logged in as the host through the login page."""
        page = self.new_phone(locale=locale)
        page.goto(f"{self.url}/host")
        page.fill("#pin", self.host_pin)
        page.locator("#pin-form button").click()
        page.wait_for_selector("#logout")
        return page

    def host_api(self) -> Phone:
        """An HTTP client logged in as the host (for setting up what a test is not about)."""
        phone = Phone(self.served)
        phone.login_host()
        return phone


@contextmanager
def open_table(browser: Browser, scale: int = 2, *, smart_dice: bool = False) -> Iterator[Table]:
    """A companion on a fresh journal, its panel served in simulator mode, and phones (browser
    contexts at a phone's viewport, ``scale`` device pixels per CSS pixel) closed at the end.
    ``smart_dice``: the host page pairs the simulator's smart dice (docs/dice.md)."""
    contexts: list[BrowserContext] = []
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        device = open_device(DeviceSettings(url="http://127.0.0.1/"), companion, mode="simulator",
                             rng=random.Random(6))
        app = create_app(companion, simulator=device.simulator,
                         dice=device.dice if smart_dice else None,
                         config={"SSE_KEEPALIVE": 5.0, "MAX_STREAMS_PER_CLIENT": 64})
        try:
            with serve(app, threads=24) as served:

                def new_phone(locale: str = "en-GB") -> Page:
                    context = browser.new_context(viewport=PHONE, device_scale_factor=scale,
                                                  is_mobile=True, has_touch=True, locale=locale)
                    context.set_default_timeout(WAIT_MS)
                    contexts.append(context)
                    return context.new_page()

                yield Table(companion, served, new_phone, device=device)
                for context in contexts:
                    context.close()
        finally:
            device.close()


@pytest.fixture
def table(browser: Browser) -> Iterator[Table]:
    with open_table(browser) as opened:
        yield opened


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page screenshot under ``test-artifacts/screenshots/`` (gitignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
