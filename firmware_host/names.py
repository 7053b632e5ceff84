"""Found by name: the panel advertised by mDNS/DNS-SD (python-zeroconf).

The box answers to ``<host>.local`` (``tabletop.local`` by default) and offers an
``_http._tcp`` service named after the box; a club hub also offers ``_tabletop-club._tcp``
(its broker), which boxes browse for (:func:`find_service`). The address phones are given (the
join QR, the OLED's start screen) is the name while it is advertised, else the box's address.

The box's addresses are looked at again every ``check_seconds``: when they change (another
Wi-Fi, a new lease, a cable) the advertisement starts again on the new addresses and, when the
address phones are given changes, ``on_change`` is told — the join QR and the OLED follow.
Everything here runs on its own thread, after the panel is up: start-up never waits for it.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zeroconf import Zeroconf

log = logging.getLogger(__name__)

HTTP_SERVICE = "_http._tcp.local."
CLUB_SERVICE = "_tabletop-club._tcp.local."
EVERY_INTERFACE = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class Service:
    """One DNS-SD service to offer: its type, instance name, port and TXT properties."""

    type: str
    name: str
    port: int
    properties: dict[str, str] = field(default_factory=dict)


def lan_addresses(listen: str) -> list[str]:
    """The IPv4 addresses phones can reach a server listening on ``listen`` at: that address,
    or every address of the machine but loopback when it listens on every interface."""
    if listen not in EVERY_INTERFACE:
        return [listen]
    import ifaddr

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127.") and \
                    not ip.ip.startswith("169.254."):
                found.append(ip.ip)
    return sorted(set(found))


def url_for(host: str, port: int) -> str:
    """``http://host[:port]/`` (no port for 80)."""
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"


class Names:
    """The box's name on the network (see the module docstring)."""

    def __init__(self, host: str, port: int, services: Sequence[Service], *,
                 addresses: Callable[[], list[str]], fallback: str,
                 check_seconds: float = 10.0,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.host = host
        self.port = port
        self.services = list(services)
        self.check_seconds = check_seconds
        self._addresses = addresses
        self._fallback = fallback
        self._on_change = on_change
        self._zeroconf: Zeroconf | None = None
        self._current: list[str] = []
        self._url = fallback
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mdns", daemon=True)
        self.registered = threading.Event()

    @property
    def name(self) -> str:
        """The host name advertised, e.g. ``tabletop.local``."""
        return f"{self.host}.local"

    def url(self) -> str:
        """The address phones should use now."""
        return self._url

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        """Withdraw the advertisement and stop (idempotent)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)
        self._withdraw()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                addresses = self._addresses()
            except OSError as error:
                log.warning("mdns: cannot list the addresses: %s", error)
                addresses = []
            if addresses != self._current or (addresses and self._zeroconf is None):
                self._advertise(addresses)
            self._stop.wait(self.check_seconds)

    def _advertise(self, addresses: list[str]) -> None:
        """Advertise on ``addresses`` (anew: the interfaces may be new too)."""
        self._withdraw()
        self._current = addresses
        url = url_for(addresses[0], self.port) if addresses else self._fallback
        if addresses:
            try:
                self._zeroconf = self._register(addresses)
                url = url_for(self.name, self.port)
                self.registered.set()
                log.info("mdns: %s advertised on %s", self.name, ", ".join(addresses))
            except (OSError, RuntimeError, ValueError) as error:
                log.warning("mdns: cannot advertise %s (%s); phones get the address %s",
                            self.name, error, url)
                self._withdraw()
        self._set_url(url)

    def _register(self, addresses: list[str]) -> Zeroconf:
        from zeroconf import ServiceInfo

        zc = open_zeroconf(addresses)
        try:
            packed = [socket.inet_aton(a) for a in addresses]
            for service in self.services:
                info = ServiceInfo(service.type, f"{service.name}.{service.type}",
                                   addresses=packed, port=service.port,
                                   properties=service.properties, server=f"{self.name}.")
                zc.register_service(info, allow_name_change=True)
        except BaseException:
            zc.close()
            raise
        return zc

    def _withdraw(self) -> None:
        zc, self._zeroconf = self._zeroconf, None
        self.registered.clear()
        if zc is not None:
            try:
                zc.unregister_all_services()
            finally:
                zc.close()

    def _set_url(self, url: str) -> None:
        if url == self._url:
            return
        self._url = url
        log.info("mdns: phones are given %s", url)
        if self._on_change is not None:
            try:
                self._on_change(url)
            except Exception:
                log.exception("mdns: telling the new address failed")


def open_zeroconf(interfaces: list[str] | None = None) -> Zeroconf:
    """A zeroconf instance (IPv4, on ``interfaces`` or all) running on its own event-loop
    thread, whoever calls: built in a thread of its own, because zeroconf attaches to an asyncio
    loop the calling thread runs, and its blocking calls would then wait on that loop."""
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf

    made: list[Zeroconf] = []
    failed: list[BaseException] = []

    def build() -> None:
        try:
            made.append(Zeroconf(interfaces=interfaces if interfaces else InterfaceChoice.All,
                                 ip_version=IPVersion.V4Only))
        except BaseException as error:  # raised again in the caller's thread
            failed.append(error)

    thread = threading.Thread(target=build, name="zeroconf-open", daemon=True)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return made[0]


def find_service(service_type: str, timeout: float, interfaces: list[str] | None = None
                 ) -> tuple[str, int, dict[str, str]] | None:
    """The first instance of ``service_type`` found within ``timeout`` seconds: its IPv4
    address, port and TXT properties; ``None`` when there is none."""
    from zeroconf import ServiceBrowser, ServiceStateChange

    found: list[str] = []
    seen = threading.Event()

    def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Added:
            found.append(name)
            seen.set()

    zc = open_zeroconf(interfaces)
    try:
        browser = ServiceBrowser(zc, service_type, handlers=[on_change])
        try:
            if not seen.wait(timeout):
                return None
            info = zc.get_service_info(service_type, found[0], timeout=int(timeout * 1000))
        finally:
            browser.cancel()
        if info is None or not info.parsed_addresses():
            return None
        properties = {k.decode(errors="replace"): (v or b"").decode(errors="replace")
                      for k, v in info.properties.items()}
        return info.parsed_addresses()[0], int(info.port or 0), properties
    finally:
        zc.close()
