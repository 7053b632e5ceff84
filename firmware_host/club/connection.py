"""One MQTT 5 connection to the club's broker, as boxes and the hub make it (paho-mqtt).

A persistent session (``clean_start`` off, a week's session expiry) so that QoS 1 messages
queued for a client while it is away reach it when it returns; paho reconnects by itself with
a back-off up to ``retry_seconds``; TLS when a CA file is given.

With TLS the broker's certificate is always checked against the CA, and its name against the
host name too — except on loopback (``127.0.0.1``, ``::1``), where the hub reaches its own
Mosquitto: a club's certificate names the hub as the boxes know it (``table-1.local``), not
``127.0.0.1``, and nobody can stand between two ends of one machine.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)

#: How long the broker keeps a client's session (and queued messages) while it is away.
SESSION_EXPIRY = 7 * 24 * 3600
KEEPALIVE = 30


@dataclass(frozen=True)
class Endpoint:
    """Where the broker is and who we are there."""

    host: str
    port: int
    user: str
    password: str
    tls_ca: Path | None = None


def make_client(client_id: str, endpoint: Endpoint, *, retry_seconds: int,
                will: tuple[str, bytes] | None = None) -> mqtt.Client:
    """A paho client for ``endpoint`` (not connected yet); ``will``: a retained Last Will
    (topic, payload) the broker publishes if the connection dies."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5, reconnect_on_failure=True)
    client.username_pw_set(endpoint.user, endpoint.password)
    if endpoint.tls_ca is not None:
        client.tls_set(ca_certs=str(endpoint.tls_ca))
        if is_loopback(endpoint.host):
            client.tls_insecure_set(True)  # the name only; the certificate is still checked
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(min_delay=1, max_delay=max(1, retry_seconds))
    client.max_queued_messages_set(0)
    client.on_socket_open = _no_delay
    return client


def _no_delay(client: mqtt.Client, userdata: object, sock: object) -> None:
    """Send each small packet at once (an acknowledgement, a PUBACK): Nagle's algorithm would
    hold it until the broker's delayed ACK, about 40 ms on Linux."""
    import socket

    if isinstance(sock, socket.socket):  # ssl.SSLSocket is one too
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address written as one (a name is never trusted to be).

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost")
    (True, True, False)
    """
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def connect(client: mqtt.Client, endpoint: Endpoint) -> None:
    """Start connecting in the background (paho's own thread), with a persistent session."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    properties.SessionExpiryInterval = SESSION_EXPIRY
    client.connect_async(endpoint.host, endpoint.port, keepalive=KEEPALIVE, clean_start=False,
                         properties=properties)
    client.loop_start()


def refused(reason: object) -> str | None:
    """Why a CONNACK or PUBACK reason code refused, or ``None`` for success."""
    failure = getattr(reason, "is_failure", False)
    return str(reason) if failure else None
