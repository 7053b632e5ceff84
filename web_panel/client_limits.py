"""What one device may hold of the panel's server, and how long it may take to send a request.

A device is one client address (IPv4 or IPv6; an IPv4-mapped IPv6 address counts as its IPv4
one). Waitress stops accepting anyone once it holds ``connection_limit`` connections, and
keeps a connection that trickles a request in for as long as bytes keep coming: one device
opening a hundred connections and never finishing a request locked every other phone out. Here
(``web_panel.serving`` applies both, ``docs/decisions.md``, "Web panel"):

- a device holds at most :data:`CONNECTIONS_PER_CLIENT` connections at once — its requests being
  sent, served or kept alive, and its live streams (which the panel caps at six per device on
  top, ``MAX_STREAMS_PER_CLIENT``); one more is answered a short 429 and closed at once, before
  waitress builds anything for it, so the others' connections never wait behind it;
- a connection that owes a request (just opened, or part of a request received) and has not
  delivered the whole of it within :data:`REQUEST_TIMEOUT` is closed. A connection whose request
  is being answered owes nothing: a live stream is a response in progress for minutes.

>>> table = ClientTable(per_client=2)
>>> table.full("10.0.0.9"), table.add("10.0.0.9"), table.add("10.0.0.9"), table.full("10.0.0.9")
(False, None, None, True)
>>> table.release("10.0.0.9"); table.full("10.0.0.9")
False
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from contextlib import suppress
from typing import Any

#: Connections one device may hold at once. A browser opens at most six to one host (Chrome,
#: Firefox and Safari alike, tabs together), a live page holds one of them for its stream: 16
#: leaves a phone room to spare, and takes seven devices to reach waitress's 100.
CONNECTIONS_PER_CLIENT = 16
#: Seconds a connection has to deliver a whole request, from its opening (its first request)
#: or from the request's first byte (the next ones on a kept-alive connection). A phone's
#: request is one or two TCP segments (a body is at most 64 KiB): five seconds cover four
#: retransmissions of a lost segment in a row (0.2 + 0.4 + 0.8 + 1.6 s) and a round trip on a
#: poor Wi-Fi, and a request that took longer would have timed out on the phone anyway.
REQUEST_TIMEOUT = 5.0

#: What a device over its share is told before its connection is closed.
REFUSAL = (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\n"
           b"Retry-After: 2\r\nConnection: close\r\nContent-Length: 38\r\n\r\n"
           b"too many connections from this device\n")

log = logging.getLogger("web_panel.client_limits")


def client_of(addr: Any) -> str:
    """The device a connection comes from: its address's host part, in one spelling."""
    host = str(addr[0] if isinstance(addr, tuple) else addr)
    try:
        ip = ipaddress.ip_address(host.partition("%")[0])  # without a link-local scope
    except ValueError:
        return host  # a Unix socket's peer
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


class ClientTable:
    """Open connections per device. A device has an entry only while it holds a connection,
    so the table never holds more entries than the server holds connections."""

    def __init__(self, per_client: int) -> None:
        if per_client < 1:
            raise ValueError("a device must be allowed a connection")
        self.per_client = per_client
        self._held: dict[str, int] = {}
        self._told: set[str] = set()  # devices whose refusal is logged (once while they hold)
        self._lock = threading.Lock()

    def full(self, client: str) -> bool:
        """Whether ``client`` holds its share (logged once while it holds any)."""
        with self._lock:
            if self._held.get(client, 0) < self.per_client:
                return False
            if client not in self._told:
                self._told.add(client)
                log.warning("%s holds %d connections: refusing more until it closes some",
                            client, self.per_client)
            return True

    def add(self, client: str) -> None:
        """Count one connection of ``client``."""
        with self._lock:
            self._held[client] = self._held.get(client, 0) + 1

    def release(self, client: str) -> None:
        """Count one connection of ``client`` closed."""
        with self._lock:
            left = self._held.pop(client, 0) - 1
            if left > 0:
                self._held[client] = left
            else:
                self._told.discard(client)

    def held(self, client: str) -> int:
        """The connections ``client`` holds."""
        with self._lock:
            return self._held.get(client, 0)

    def __len__(self) -> int:
        """The devices holding a connection."""
        with self._lock:
            return len(self._held)


def refuse(sock: socket.socket) -> None:
    """Tell a device over its share so (one send that never waits) and close the connection.
    What it sent already is read first: closing over unread bytes would reset the connection,
    and the phone might lose the answer."""
    with suppress(OSError):
        sock.setblocking(False)
        sock.send(REFUSAL)
        sock.shutdown(socket.SHUT_WR)
        with suppress(BlockingIOError):
            sock.recv(65536)
    sock.close()
