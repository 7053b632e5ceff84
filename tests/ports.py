"""A free loopback port for a server a test starts."""

from __future__ import annotations

import random
import socket
from pathlib import Path

#: Where the ports a test picks come from: below Linux's ephemeral range (32768–60999 by
#: default), where the kernel hands out ports to every ``bind(0)`` and outgoing connection of
#: the other test processes running beside this one. A port picked there can be taken by one of
#: them while its server is down (a broker restarted, a daemon started again).
PICKED = range(20000, 32768)
TRIES = 64


def _ephemeral() -> range:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return range(int(low), int(high) + 1)
    except (OSError, ValueError):
        return range(32768, 61000)


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now, outside the ephemeral range if it can."""
    ephemeral = _ephemeral()
    candidates = [p for p in PICKED if p not in ephemeral]
    for port in random.sample(candidates, min(TRIES, len(candidates))):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
