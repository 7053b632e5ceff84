"""A plain paho client for tests (a box, an intruder, a listener on the whole tree), with
waits bounded in time: connect and read the CONNACK, publish and read the PUBACK."""

from __future__ import annotations

import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.club.connection import Endpoint

TIMEOUT = 10.0


class TestClient:
    """One MQTT 5 connection; ``messages`` keeps everything it receives."""

    __test__ = False  # not a test class

    def __init__(self, endpoint: Endpoint, client_id: str, *, anonymous: bool = False) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  protocol=mqtt.MQTTv5)
        if not anonymous:
            self.client.username_pw_set(endpoint.user, endpoint.password)
        if endpoint.tls_ca is not None:  # the name is checked too, unlike a box on loopback
            self.client.tls_set(ca_certs=str(endpoint.tls_ca))
        self.endpoint = endpoint
        self.connack: Any = None
        self.disconnected: Any = None
        self.acks: dict[int, Any] = {}
        self.subacks: dict[int, list[Any]] = {}
        self.messages: list[tuple[str, bytes, bool]] = []
        self._changed = threading.Condition()
        self.client.on_connect = self._on_connect
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect

    def _notify(self) -> None:
        with self._changed:
            self._changed.notify_all()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        self.connack = reason
        self._notify()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.disconnected = reason
        self._notify()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:
        self.acks[mid] = reason
        self._notify()

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, reasons: list[Any],
                      properties: Any) -> None:
        self.subacks[mid] = reasons
        self._notify()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))
        self._notify()

    def wait(self, test: Any, timeout: float = TIMEOUT) -> Any:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = test()
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("timed out waiting for the broker")
                self._changed.wait(left)

    def connect(self) -> Any:
        """Connect; returns the CONNACK's reason code."""
        self.client.connect(self.endpoint.host, self.endpoint.port)
        self.client.loop_start()
        return self.wait(lambda: self.connack)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> Any:
        """Publish at QoS 1; returns the PUBACK's reason code."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        return self.wait(lambda: self.acks.get(info.mid))

    def subscribe(self, topic: str) -> list[Any]:
        result, mid = self.client.subscribe(topic, qos=1)
        assert result == mqtt.MQTT_ERR_SUCCESS and mid is not None
        reasons: list[Any] = self.wait(lambda: self.subacks.get(mid))
        return reasons

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
