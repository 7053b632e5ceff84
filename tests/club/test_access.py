"""Access to the club's broker (a real Mosquitto with the hub's files): no anonymous or unknown
client; a box writes only under its own topics and reads only its own acknowledgements; a
forged, foreign or broken message changes nothing at the hub, which goes on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.club.broker import HUB_USER
from firmware_host.club.hub import Hub
from firmware_host.club.league import League
from firmware_host.club.topics import encode, results_topic, status_topic
from tests.club.broker import RunningBroker
from tests.club.clients import TestClient
from tests.club.test_league import key, payload
from tests.waiting import wait_for

NOT_AUTHORIZED = 135


@pytest.fixture
def hub(broker: RunningBroker, tmp_path: Path) -> Iterator[Hub]:
    running = Hub(League(tmp_path / "hub"), broker.endpoint(HUB_USER), retry_seconds=1)
    running.start()
    assert running.connected.wait(10)
    yield running
    running.close()


def test_a_wrong_password_and_an_anonymous_client_are_refused(broker: RunningBroker) -> None:
    box = broker.add_box("table-1")
    wrong = TestClient(replace(box, password="not-the-password"), "intruder")
    anonymous = TestClient(box, "anonymous", anonymous=True)
    try:
        assert wrong.connect().value == NOT_AUTHORIZED
        assert anonymous.connect().value == NOT_AUTHORIZED
    finally:
        wrong.close()
        anonymous.close()


def test_a_box_cannot_write_another_boxs_topics_nor_the_hubs(
    broker: RunningBroker, hub: Hub
) -> None:
    first = TestClient(broker.add_box("table-1"), "table-1")
    other = TestClient(broker.add_box("table-2"), "table-2")
    try:
        assert first.connect().value == 0 and other.connect().value == 0
        genuine = payload("table-1", key(), None, 1, 1)
        assert first.publish(results_topic("table-1"), genuine).value == 0
        wait_for(lambda: hub.league.counts() == {"table-1": 1})
        forged = payload("table-1", key(), None, 2, 2)
        for topic in (results_topic("table-1"), status_topic("table-1"),
                      "club/v1/acks/table-1", "club/v1/hub/info"):
            assert other.publish(topic, forged).value == NOT_AUTHORIZED, topic
        # nor read another box's acknowledgements (Mosquitto grants the subscription and
        # delivers nothing of it): only its own arrives
        other.subscribe("club/v1/acks/#")
        own = payload("table-2", key(), None, 1, 1)
        assert other.publish(results_topic("table-2"), own).value == 0
        wait_for(lambda: hub.league.counts() == {"table-1": 1, "table-2": 1})
        other.wait(lambda: other.messages)
        assert [topic for topic, _, _ in other.messages] == ["club/v1/acks/table-2"]
        assert [box.box for box in hub.live.snapshot()] == []  # no status of table-1's either
    finally:
        first.close()
        other.close()


def test_a_payload_naming_another_box_and_garbage_are_dropped_and_the_hub_goes_on(
    broker: RunningBroker, hub: Hub, caplog: pytest.LogCaptureFixture
) -> None:
    box = TestClient(broker.add_box("table-2"), "table-2")
    try:
        box.connect()
        mine = results_topic("table-2")
        assert box.publish(mine, payload("table-1", key(), None, 1, 1)).value == 0
        assert box.publish(mine, b"\x00garbage").value == 0
        assert box.publish(mine, encode({"v": 9, "kind": "result"})).value == 0
        assert box.publish("club/v1/boxes/table-2/tables/x", b"{}").value == 0
        assert box.publish(status_topic("table-2"), b"[]").value == 0
        good = payload("table-2", key(), None, 1, 1)
        assert box.publish(mine, good).value == 0
        wait_for(lambda: hub.league.counts() == {"table-2": 1})
    finally:
        box.close()
    assert hub.counts.dropped == 5 and hub.counts.ingested == 1
    assert "came from box 'table-2'" in caplog.text
    assert caplog.text.count("hub: dropped a message") == 5
