"""The history page shows a game that ended before NTP set the box's clock as ended "before the
clock was set" (in the page's language), never as 1970; other games keep their time."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from tests.firmware_host.box_clock import BoxClock
from tests.web_panel.served import HOST_PIN, data_dir, make_app
from web_panel.messages import MESSAGES

SET_AT = datetime(2027, 3, 1, 19, 30, tzinfo=UTC)


@pytest.fixture
def client() -> Iterator[FlaskClient]:
    """The panel of a box that played one game before NTP set its clock and one after."""
    clock = BoxClock()
    with data_dir() as path, Companion(clock.journal(path / "journal.sqlite3"),
                                       host_pin=HOST_PIN) as box:
        box.abandon(box.create_game("ico", ["Aiko", "Ben"]))
        clock.ntp_sets(SET_AT)
        box.abandon(box.create_game("ico", ["Chie", "Dan"]))
        yield make_app(box).test_client()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_history_says_a_game_ended_before_the_clock_was_set(client: FlaskClient,
                                                            lang: str) -> None:
    page = client.get("/history", headers={"Accept-Language": lang}).get_data(as_text=True)
    shown = f'>{MESSAGES["before_clock_set"][lang]}<'  # as an element's text (not the page's
    assert page.count(shown) == 1                      # messages for its script)
    assert "1970" not in page
    assert "2027-03-01T19:30:00+00:00" in page  # the game after NTP keeps its time
    # the marked game is the first one (listed last, newest first)
    assert page.index("2027-03-01T19:30") < page.index(shown)


def test_the_history_api_flags_the_time_instead_of_hiding_it(client: FlaskClient) -> None:
    games = client.get("/api/history").get_json()
    assert [(g["seats"][0], g["ended_clock_set"]) for g in games] == [("Chie", True),
                                                                      ("Aiko", False)]
