"""Club mode's and mDNS's settings: defaults, the example file, join lines."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from firmware_host.club.joining import JoinLine, joined, parse_join, save_join, saved_club
from firmware_host.config import ClubConfig, NamesConfig, parse_config
from firmware_host.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def test_club_mode_is_off_and_names_are_auto_by_default() -> None:
    config = parse_config({})
    assert config.club == ClubConfig() and not config.club.enabled
    assert config.names == NamesConfig(advertise="auto", host="tabletop")


def test_the_example_file_keeps_the_defaults() -> None:
    with (ROOT / "deploy" / "config.example.toml").open("rb") as file:
        example = parse_config(tomllib.load(file))
    assert example.club == ClubConfig() and example.names == NamesConfig()


def test_a_hub_runs_its_own_broker_unless_given_the_clubs() -> None:
    assert parse_config({"club": {"hub": True}}).club.broker == "local"
    club = parse_config({"club": {"hub": True, "broker": "mqtt.example:1884",
                                  "hub_password": "s"}}).club
    assert (club.broker, club.hub_user, club.hub_password) == ("mqtt.example:1884", "hub", "s")


def test_a_join_line_is_kept_for_later_starts_and_private(tmp_path: Path) -> None:
    join = parse_join("table-2:pa:ss@[::1]:1884")
    assert join == JoinLine("table-2", "pa:ss", "[::1]:1884")
    path = save_join(tmp_path, join)
    assert path.stat().st_mode & 0o777 == 0o600
    assert saved_club(tmp_path) == join
    assert parse_join("table-3:x").broker == "auto"


@pytest.mark.parametrize(("line", "named"), [
    ("Table:x", "club.box"), ("table-2:", "club.password"), ("t2:x@", "club.broker"),
    ("t2:x@h:99999", "club.broker"),
])
def test_a_bad_join_line_names_what_is_wrong(line: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        parse_join(line)


def test_a_joined_box_keeps_the_configs_tls_and_timings(tmp_path: Path) -> None:
    ca = tmp_path / "club-ca.pem"
    ca.write_text("a CA\n")
    config = parse_config({"club": {"tls_ca": str(ca), "resend_seconds": 5}})
    assert not config.club.enabled
    club = joined(config.club, parse_join("table-2:secret@hub.local:8883"))
    assert (club.box, club.password, club.broker, club.hub) == (
        "table-2", "secret", "hub.local:8883", False)
    assert (club.tls_ca, club.resend_seconds) == (ca, 5)


def test_a_saved_join_without_a_password_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "club.toml").write_text('[club]\nbox = "table-2"\nbroker = "auto"\n')
    with pytest.raises(ConfigError, match=r"club\.password"):
        saved_club(tmp_path)
    (tmp_path / "club.toml").write_text('[club]\nbroker = "auto"\n')
    with pytest.raises(ConfigError, match="name no box or password"):
        saved_club(tmp_path)
