"""Fixtures: a real companion on a journal file, the panel app, its Flask test client, and the
panel served by a real waitress server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from tests.web_panel.served import (
    HOST_PIN,
    EventStream,
    Phone,
    Served,
    data_dir,
    make_app,
    serve,
)


@pytest.fixture
def companion() -> Iterator[Companion]:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as opened:
        yield opened


@pytest.fixture
def app(companion: Companion) -> Flask:
    return make_app(companion)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def served(app: Flask) -> Iterator[Served]:
    with serve(app) as running:
        yield running


@pytest.fixture
def host(served: Served) -> Phone:
    phone = Phone(served)
    phone.login_host()
    return phone


@pytest.fixture
def streams() -> Iterator[list[EventStream]]:
    """Live streams a test opens, closed after it."""
    opened: list[EventStream] = []
    yield opened
    for stream in opened:
        stream.close()
