"""Club mode's pages: the hub's league in English and Japanese, club profiles from a phone, the
CSV; a seat's club code on a box; nothing of club mode on a box not in a club."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.club.hub import LiveTables
from firmware_host.club.league import League
from firmware_host.club.topics import TableSummary, decode_result
from firmware_host.companion import Companion
from tests.club.test_league import key, payload
from tests.web_panel.served import CSRF, HOST_PIN, data_dir, make_app
from web_panel import create_app
from web_panel.club import ClubPanel
from web_panel.club_messages import CLUB_MESSAGES


@dataclass
class Hub:
    companion: Companion
    league: League
    live: LiveTables
    client: FlaskClient


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        league, live = League(tmp_path / "club"), LiveTables()
        app = club_app(companion, ClubPanel(set_code=companion.set_club_code, league=league,
                                            live=live))
        yield Hub(companion, league, live, app.test_client())
        league.close()


def club_app(companion: Companion, club: ClubPanel) -> Flask:
    """The panel with club mode's pages, with the test settings of ``make_app``."""
    return create_app(companion, club=club, config={"TESTING": True, "SSE_KEEPALIVE": 1.0,
                                                    "MAX_STREAMS_PER_CLIENT": 64})


def add(league: League, box: str, players: tuple[str, ...], winners: tuple[int, ...],
        codes: list[str | None] | None = None, prev: str | None = None,
        bots: list[str | None] | None = None) -> str:
    k = key()
    data = payload(box, k, prev, 1, 1, players, winners, codes=codes, bots=bots)
    league.ingest(decode_result(box, data), data)
    return k


def page(client: FlaskClient, path: str, lang: str = "en") -> str:
    reply = client.get(path, headers={"Accept-Language": lang})
    assert reply.status_code == 200, reply.get_data(as_text=True)[:300]
    return reply.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_league_pages_speak_both_languages(hub: Hub, lang: str) -> None:
    add(hub.league, "table-2", ("Aiko", "Ben"), (1,))
    add(hub.league, "table-3", ("Chie", "Box"), (0,), bots=[None, "easy"])
    hub.live.set_status("table-2", True, "http://table-2.local:8080/", "now")
    hub.live.set_table("table-2", 5, TableSummary("table-2", 5, "ico", "active", ("Chie", "Dai"),
                                                  3, (1,), None, "now"))
    home = page(hub.client, "/club/", lang)
    assert f'<html lang="{lang}">' in home and CLUB_MESSAGES["club_live"][lang] in home
    assert "http://table-2.local:8080/games/5" in home and "Chie" in home
    table = page(hub.client, "/club/games/unlock", lang)
    assert CLUB_MESSAGES["club_rating"][lang] in table
    assert table.index("Ben") < table.index("Aiko")  # the winner first
    assert f'>easy</a> <span class="tag">{CLUB_MESSAGES["club_bot"][lang]}</span>' in table
    assert f'>Ben</a> <span class="tag">{CLUB_MESSAGES["club_guest"][lang]}</span>' in table
    player = page(hub.client, "/club/players/g:Ben", lang)
    assert CLUB_MESSAGES["club_history"][lang] in player and "table-2" in player
    me = page(hub.client, "/club/me", lang)
    assert CLUB_MESSAGES["club_new_profile"][lang] in me


def test_live_tables_show_games_in_play_only(hub: Hub) -> None:
    summary = TableSummary("table-3", 2, "unlock", "active", ("A", "B"), 1, (0,), (0, 0), "now")
    hub.live.set_status("table-3", True, None, "now")
    hub.live.set_table("table-3", 2, summary)
    [box] = hub.client.get("/api/club/live").get_json()["boxes"]
    assert [t["game_id"] for t in box["tables"]] == [2] and box["tables"][0]["watch"] is None
    hub.live.set_table("table-3", 2, None)  # the box cleared it: the game ended
    assert hub.client.get("/api/club/live").get_json()["boxes"][0]["tables"] == []


def test_a_phone_makes_a_profile_sees_its_code_once_and_can_renew_it(hub: Hub) -> None:
    phone = hub.client
    reply = phone.post("/api/club/profiles", json={"name": "Aiko"}, headers=CSRF)
    assert reply.status_code == 200
    made = reply.get_json()
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", made["code"])
    assert "tt_club=" in reply.headers["Set-Cookie"] and "HttpOnly" in reply.headers["Set-Cookie"]
    me = page(phone, "/club/me")
    assert "Aiko" in me and made["code"] not in me  # shown once, at making
    renewed = phone.post("/api/club/profiles/me/code", headers=CSRF).get_json()["code"]
    assert renewed != made["code"]
    other = hub.client.application.test_client()
    assert other.post("/api/club/profiles/me/code", headers=CSRF).status_code == 401
    stale = other.post("/api/club/profiles/claim", json={"code": made["code"]}, headers=CSRF)
    assert stale.status_code == 409 and "no club profile has" in stale.get_json()["message"]
    claimed = other.post("/api/club/profiles/claim", json={"code": renewed}, headers=CSRF)
    assert claimed.status_code == 200 and claimed.get_json()["player"] == made["player"]


def test_claiming_with_codes_is_rate_limited(hub: Hub) -> None:
    statuses = [hub.client.post("/api/club/profiles/claim", json={"code": "K7QM-4XP1"},
                                headers=CSRF).status_code for _ in range(6)]
    assert statuses == [409] * 5 + [429]


def test_profile_requests_need_the_panels_header_and_a_name(hub: Hub) -> None:
    assert hub.client.post("/api/club/profiles", json={"name": "Aiko"}).status_code == 403
    reply = hub.client.post("/api/club/profiles", json={"name": " "}, headers=CSRF)
    assert reply.status_code == 409 and "needs a name" in reply.get_json()["message"]


def test_the_csv_export_downloads(hub: Hub) -> None:
    add(hub.league, "table-1", ("Aiko", "Ben"), (0,))
    reply = hub.client.get("/club/export.csv?game=unlock")
    assert reply.status_code == 200 and reply.mimetype == "text/csv"
    assert 'filename="league-unlock.csv"' in reply.headers["Content-Disposition"]
    assert reply.get_data(as_text=True).count("\n") == 3


def test_unknown_players_and_games_are_404(hub: Hub) -> None:
    assert hub.client.get("/club/players/g:Nobody").status_code == 404
    assert hub.client.get("/club/players/p:0000").status_code == 404
    assert hub.client.get("/club/games/chess").status_code == 404


def test_a_seat_gives_its_club_code_on_the_box(hub: Hub) -> None:
    game = hub.companion.create_game("unlock", ["Aiko", "Ben"])
    phone = hub.client
    assert phone.post(f"/api/games/{game}/club-code", json={"code": "K7QM-4XP1"},
                      headers=CSRF).status_code == 401
    assert phone.post(f"/api/games/{game}/seats/1/claim", headers=CSRF).status_code == 200
    join = page(phone, f"/join/{game}")
    assert 'id="club-seat"' in join
    bad = phone.post(f"/api/games/{game}/club-code", json={"code": "K7QM-4XP"}, headers=CSRF)
    assert bad.status_code == 400 and "not a club code" in bad.get_json()["message"]
    _, code, _ = hub.league.create_profile("Ben")
    good = phone.post(f"/api/games/{game}/club-code", json={"code": code.lower()},
                      headers=CSRF)
    assert good.status_code == 200 and good.get_json()["seat"] == 1
    db = sqlite3.connect(hub.companion.journal.path)
    assert db.execute("SELECT seat, code FROM club_codes").fetchall() == [(1, code)]
    db.close()


def test_a_box_not_in_a_club_has_none_of_it(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=HOST_PIN) as companion:
        app = make_app(companion)
        client = app.test_client()
        assert not [r for r in app.url_map.iter_rules() if r.endpoint.startswith("club.")]
        assert client.get("/club/").status_code == 404
        home = client.get("/").get_data(as_text=True)
        assert f'>{CLUB_MESSAGES["nav_league"]["en"]}</a>' not in home


def test_a_box_in_a_club_that_is_not_the_hub_links_to_the_hubs_league(tmp_path: Path) -> None:
    with Companion.open(tmp_path, host_pin=HOST_PIN) as companion:
        status = {"box": "table-2", "broker": "hub:1883", "connected": True, "waiting": 0,
                  "league": "http://table-1.local:8080/club/"}
        app = club_app(companion, ClubPanel(set_code=companion.set_club_code,
                                            status=lambda: status))  # type: ignore[arg-type,return-value]
        client = app.test_client()
        assert 'href="http://table-1.local:8080/club/"' in client.get("/").get_data(as_text=True)
        assert client.get("/club/").status_code == 404
        status["connected"], status["waiting"] = False, 3
        assert client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF
                           ).status_code == 200
        host = page(client, "/host", "ja")
        assert "クラブ: ボックス table-2、未接続。送信待ち 3 件" in host
