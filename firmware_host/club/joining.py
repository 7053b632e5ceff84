"""What ``tabletop run --join-club BOX:PASSWORD[@HOST[:PORT]]`` says, and where the box keeps
it (``club.toml`` in its data directory) so that every later start joins the club. Light on
purpose: the daemon reads it at every start, club mode or not."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from firmware_host.config import ClubConfig, parse_club
from firmware_host.errors import ConfigError

JOIN_FILE = "club.toml"


@dataclass(frozen=True)
class JoinLine:
    """What ``--join-club NAME:PASSWORD[@HOST[:PORT]]`` says."""

    box: str
    password: str
    broker: str


def parse_join(text: str) -> JoinLine:
    """``--join-club``'s value; ``ConfigError`` naming the option when it is not one.

    >>> parse_join("table-2:s3cret@hub.local:1883")
    JoinLine(box='table-2', password='s3cret', broker='hub.local:1883')
    >>> parse_join("table-2:s3cret").broker
    'auto'
    """
    credential, _, broker = text.rpartition("@") if "@" in text else (text, "", "auto")
    box, _, password = credential.partition(":")
    club = parse_club({"box": box, "password": password or "", "broker": broker})
    assert club.box is not None and club.password is not None
    return JoinLine(club.box, club.password, club.broker)


def save_join(data_dir: Path, join: JoinLine) -> Path:
    """Keep the box's club settings (0600) so that every later start joins the club."""
    Path(data_dir).mkdir(parents=True, exist_ok=True, mode=0o700)
    path = Path(data_dir) / JOIN_FILE
    text = ("# Written by 'tabletop run --join-club'; the [club] table of the config wins.\n"
            f'[club]\nbox = "{join.box}"\nbroker = "{join.broker}"\n'
            f'password = "{join.password}"\n')
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
    return path


def saved_club(data_dir: Path) -> JoinLine | None:
    """The join line ``--join-club`` saved in ``data_dir``, if any."""
    path = Path(data_dir) / JOIN_FILE
    if not path.is_file():
        return None
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(str(path), f"cannot read the saved club settings: {error}") from None
    club = parse_club(data.get("club", {}), path.parent)
    if club.box is None or club.password is None:
        raise ConfigError(str(path), "the saved club settings name no box or password: join "
                                     "again with --join-club")
    return JoinLine(club.box, club.password, club.broker)


def joined(club: ClubConfig, join: JoinLine) -> ClubConfig:
    """The config's ``[club]`` settings for a box that joined with ``join``: its name, password
    and broker from the join line, everything else (TLS, timings) from the config."""
    return replace(club, box=join.box, password=join.password, broker=join.broker, hub=False)
