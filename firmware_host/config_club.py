"""The config's ``[club]`` table (docs/club.md): :class:`ClubConfig` and its parser."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_host.config_checks import (
    BadValue,
    Section,
    dns_label,
    existing_file,
    no_unknown,
    non_empty_text,
    path_from,
    true_or_false,
    whole_number,
)
from firmware_host.errors import ConfigError


@dataclass(frozen=True)
class ClubConfig:
    """Club mode (docs/club.md). ``box``: this box's name in the club; it publishes its live
    tables and finished games to the club's broker with its own ``password``. ``hub``: this box
    also runs the league (ingest, ratings, pages) and, with ``broker = "local"``, its own
    Mosquitto. Neither set: club mode is off and nothing of it is loaded."""

    box: str | None = None
    hub: bool = False
    #: A box: ``auto`` (the hub found by mDNS) or ``host[:port]``. A hub: ``local`` (run
    #: Mosquitto here) or the ``host[:port]`` of a broker the club already has.
    broker: str = "auto"
    password: str | None = None
    #: The local broker's port and listening address (a hub with ``broker = "local"``).
    broker_port: int = 1883
    listen: str = "0.0.0.0"
    #: How the hub logs in to a broker the club already has.
    hub_user: str = "hub"
    hub_password: str | None = None
    #: TLS: a box (and the hub) verifies the broker with ``tls_ca``; a local broker serves TLS
    #: with ``tls_cert`` and ``tls_key``.
    tls_ca: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    #: Longest wait between two connection attempts, and before unacknowledged results are
    #: sent again.
    retry_seconds: int = 10
    resend_seconds: int = 30

    @property
    def enabled(self) -> bool:
        """Whether club mode is on."""
        return self.hub or self.box is not None


_KEYS = ("box", "hub", "broker", "password", "password_file", "broker_port", "listen",
         "hub_user", "hub_password", "hub_password_file", "tls_ca", "tls_cert", "tls_key",
         "retry_seconds", "resend_seconds")


def parse_club(section: object, base: Path | None = None) -> ClubConfig:
    """The ``[club]`` table (also the file ``tabletop run --join-club`` saves)."""
    if not isinstance(section, Mapping):
        raise ConfigError("club", f"expected a [club] table, got {section!r}")
    no_unknown(section, "club", _KEYS)
    club = Section(section, "club")
    default = ClubConfig()
    hub = club.get("hub", true_or_false, False)
    box = club.get("box", dns_label, None)
    broker = club.get("broker", _broker, "local" if hub else "auto")
    if broker == "local" and not hub:
        raise ConfigError("club.broker", "'local' runs a broker for the hub: set hub = true, or "
                                         "give the hub's host[:port] (or 'auto')")
    if broker == "auto" and hub:
        raise ConfigError("club.broker", "a hub runs its own broker ('local') or uses the "
                                         "club's (host[:port]); 'auto' is for boxes")
    password = _secret(club, "password", base)
    if box is not None and password is None and not (hub and broker == "local"):
        raise ConfigError("club.password", f"box {box!r} needs its club password (password or "
                                           "password_file; 'tabletop club add-box' on the hub "
                                           "prints it)")
    hub_password = _secret(club, "hub_password", base)
    if hub and broker != "local" and hub_password is None:
        raise ConfigError("club.hub_password", "a hub on the club's own broker needs its "
                                               "password (hub_password or hub_password_file)")
    tls = {key: club.get(key, existing_file(base), None)
           for key in ("tls_ca", "tls_cert", "tls_key")}
    if (tls["tls_cert"] is None) != (tls["tls_key"] is None):
        raise ConfigError("club.tls_cert", "give both tls_cert and tls_key, or neither")
    return ClubConfig(
        box=box, hub=hub, broker=broker, password=password,
        broker_port=club.get("broker_port", whole_number(1, 65535), default.broker_port),
        listen=club.get("listen", non_empty_text, default.listen),
        hub_user=club.get("hub_user", dns_label, default.hub_user), hub_password=hub_password,
        tls_ca=tls["tls_ca"], tls_cert=tls["tls_cert"], tls_key=tls["tls_key"],
        retry_seconds=club.get("retry_seconds", whole_number(1, 3600), default.retry_seconds),
        resend_seconds=club.get("resend_seconds", whole_number(1, 86400),
                                default.resend_seconds),
    )


def broker_address(text: str, tls: bool = False) -> tuple[str, int]:
    """``host[:port]`` (``[v6]:port`` too) as a host and a port (1883, or 8883 with TLS).

    >>> broker_address("hub.local:1884"), broker_address("[::1]"), broker_address("h", True)
    (('hub.local', 1884), ('::1', 1883), ('h', 8883))
    """
    port = 8883 if tls else 1883
    host = text
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest.startswith(":"):
            port = int(rest[1:])
    elif text.count(":") == 1:
        host, _, number = text.partition(":")
        port = int(number)
    return host, port


def _broker(value: object) -> str:
    text = non_empty_text(value)
    if text in ("auto", "local"):
        return text
    try:
        host, port = broker_address(text)
    except ValueError:
        raise BadValue(f"expected host[:port], 'auto' or 'local', got {value!r}") from None
    if not host or not 1 <= port <= 65535 or any(c in host for c in "/@ "):
        raise BadValue(f"expected host[:port], 'auto' or 'local', got {value!r}")
    return text


def _secret(section: Section, key: str, base: Path | None) -> str | None:
    """A password given inline (``key``) or in a file (``key_file``), never both."""
    inline: str | None = section.get(key, non_empty_text, None)
    path: Path | None = section.get(f"{key}_file", path_from(base), None)
    if inline is not None and path is not None:
        raise ConfigError(section.key(key), f"give {key} or {key}_file, not both")
    if path is None:
        return inline
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(section.key(f"{key}_file"), f"cannot read {path}: {error}") from None
    if not text:
        raise ConfigError(section.key(f"{key}_file"), f"{path} is empty")
    return text
