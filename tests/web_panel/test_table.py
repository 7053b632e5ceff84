"""The table screen (``/table``): the game it shows (the pad's, or the host's choice, followed
into the next game), drawn from the spectator's view only — never a secret, whoever's browser
shows it —, its live stream that tells it to move, and the host's choice over the API."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from firmware_host.companion import Companion
from rules import CHANCE
from tests.web_panel.served import CSRF, EventStream, Phone, Served, serve
from tests.web_panel.test_hardening import host_client
from web_panel.messages import MESSAGES
from web_panel.panel_state import panel

SECRET = "1-5-9-6"
GAMES = {"unlock": ["Aiko", "Ben", "Chie"], "hacktrick": ["Aiko", "Ben"],
         "ico": ["Aiko", "Ben", "Chie"], "dice216": ["Aiko", "Ben"]}


def page_data(html: str, name: str) -> Any:
    """The JSON a page carries for its scripts (``view-data``, ``game-data``)."""
    found = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', html,
                      re.S)
    assert found is not None, name
    return json.loads(found.group(1))


def table_page(client: FlaskClient, **headers: str) -> str:
    reply = client.get("/table", headers=headers)
    assert reply.status_code == 200, reply.get_data(as_text=True)[:300]
    return reply.get_data(as_text=True)


def lock_client(app: Flask, companion: Companion, game_id: int) -> FlaskClient:
    """A browser holding the Lock's seat (the Lock's own tablet showing the table screen)."""
    client = app.test_client()
    client.set_cookie(f"tt_seat_{game_id}", companion.claim_seat(game_id, 0))
    return client


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_page_shows_each_game_as_a_spectator_with_the_game_pages_scripts(
        app: Flask, companion: Companion, game: str) -> None:
    game_id = companion.create_game(game, GAMES[game], seed=3)
    html = table_page(app.test_client())
    view, data = page_data(html, "view-data"), page_data(html, "game-data")
    assert view["game"] == game and view["you"] is None
    assert data["game_id"] == game_id and data["table"] is True and data["is_host"] is False
    assert data["urls"]["events"] == f"/api/table/events?game={game_id}"
    assert data["urls"]["view"] == f"/api/games/{game_id}?as=spectator"
    assert data["urls"]["moves"] == f"/api/games/{game_id}/moves?as=spectator"
    assert data["urls"]["act"] is None and data["urls"]["next"] is None
    assert data["info"]["id"] == game and "options" not in data["info"]  # no form here
    assert f'src="/boards/{game}/page.js?v=' in html  # the game page's one joined script
    assert "/static/table.js?v=" in html and "/static/table.css?v=" in html
    assert f'href="/boards/{game}/board.css?v=' in html
    assert 'class="qr"' in html and f"/join/{game_id}" in html  # seats free: join this game
    assert 'id="standings"' not in html  # the standings wait for the game's end


def test_with_no_game_it_waits_on_its_stream_with_the_qr_code_and_the_standings(
        client: FlaskClient) -> None:
    html = table_page(client)
    assert 'id="table-waiting"' in html and 'id="game"' not in html
    assert 'data-events="/api/table/events?game="' in html
    assert MESSAGES["table_no_game"]["en"] in html and MESSAGES["no_history"]["en"] in html
    assert "/boards/" not in html and "/static/table.js?v=" in html
    japanese = table_page(client, **{"Accept-Language": "ja"})
    assert MESSAGES["table_no_game"]["ja"] in japanese


def test_an_ended_game_shows_its_results_with_the_standings_and_the_panels_qr_code(
        app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben"], {"turn_limit": 1})
    companion.act(game_id, 0, f"secret {SECRET}")
    companion.act(game_id, 1, f"guess {SECRET}")
    html = table_page(app.test_client())
    assert page_data(html, "view-data")["outcome"]["winners"] == [1]
    assert 'id="standings"' in html and "<th scope=\"row\">Ben</th>" in html
    assert "/join/" not in html  # the game is over: the QR code opens the panel


def test_no_secret_reaches_the_table_screen_even_from_the_locks_own_browser(
        app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    lock = lock_client(app, companion, game_id)
    lock.post(f"/api/games/{game_id}/act", json={"action": f"secret {SECRET}"}, headers=CSRF)
    # the search can see the secret where it is allowed: the Lock's own game page and moves
    assert SECRET in lock.get(f"/games/{game_id}").get_data(as_text=True)
    assert SECRET in lock.get(f"/api/games/{game_id}/moves").get_data(as_text=True)
    html = table_page(lock)
    assert SECRET not in html
    data = page_data(html, "game-data")
    for url in (data["urls"]["view"], data["urls"]["moves"] + "&since=0"):
        reply = lock.get(url)
        assert reply.status_code == 200 and SECRET not in reply.get_data(as_text=True), url
    assert lock.get(data["urls"]["view"]).get_json()["secret"] is None
    moves = lock.get(data["urls"]["moves"]).get_json()
    assert [m["action"] for m in moves] == [None]  # the Lock's move, its code hidden
    stream = lock.get(data["urls"]["events"], buffered=False)
    first = next(iter(stream.response))
    stream.close()
    assert b"event: view" in first and SECRET.encode() not in first


@pytest.mark.parametrize("path", ["/api/games/{g}?as=lock", "/api/games/{g}/moves?as=seat"])
def test_reading_as_anything_but_a_spectator_is_refused_by_name(
        client: FlaskClient, companion: Companion, path: str) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    reply = client.get(path.format(g=game_id))
    assert reply.status_code == 400
    assert "as can only be \"spectator\"" in reply.get_json()["message"]


def follows(client: FlaskClient) -> dict[str, Any]:
    reply = client.get("/api/table")
    assert reply.status_code == 200
    answer: dict[str, Any] = reply.get_json()
    return answer


def test_it_follows_the_pads_game_and_the_game_the_host_chose(
        app: Flask, companion: Companion) -> None:
    client, host = app.test_client(), host_client(app)
    assert follows(client) == {"game_id": None, "by": "none", "chosen": None}
    first = companion.create_game("unlock", ["Aiko", "Ben"])
    second = companion.create_game("ico", ["Aiko", "Ben"])
    assert follows(client) == {"game_id": first, "by": "pad", "chosen": None}
    companion.set_pad_game(second)
    assert follows(client)["game_id"] == second
    reply = host.post("/api/host/table", json={"game_id": first}, headers=CSRF)
    assert reply.status_code == 200
    assert reply.get_json() == {"game_id": first, "by": "host", "chosen": first}
    assert page_data(table_page(client), "game-data")["game_id"] == first
    companion.set_pad_game(None)  # the pad's moves change nothing while the host's choice holds
    assert follows(client)["game_id"] == first
    reply = host.post("/api/host/table", json={"game_id": None}, headers=CSRF)
    assert reply.get_json() == {"game_id": second, "by": "newest", "chosen": None}
    companion.set_pad_game(first)
    assert follows(client) == {"game_id": first, "by": "pad", "chosen": None}
    companion.abandon(first)
    companion.abandon(second)
    companion.set_pad_game(None)  # as the pad does once its player put the results away
    assert follows(client) == {"game_id": second, "by": "last", "chosen": None}
    assert page_data(table_page(client), "view-data")["status"] == "abandoned"


def test_a_chosen_game_is_followed_into_play_again_and_the_pads_into_the_next_game(
        app: Flask, companion: Companion) -> None:
    client, host = app.test_client(), host_client(app)
    padded = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4}, seed=2)
    chosen = companion.create_game("unlock", ["Aiko", "Ben"], {"turn_limit": 1})
    host.post("/api/host/table", json={"game_id": chosen}, headers=CSRF)
    companion.act(chosen, 0, f"secret {SECRET}")
    companion.act(chosen, 1, "guess 1-2-3")
    assert follows(client)["game_id"] == chosen  # ended: its results, until a next game
    again = host.post(f"/api/host/games/{chosen}/again", headers=CSRF).get_json()["game_id"]
    assert follows(client) == {"game_id": again, "by": "host", "chosen": chosen}
    host.post("/api/host/table", json={"game_id": None}, headers=CSRF)
    assert follows(client)["game_id"] == padded
    while companion.view(padded, None)["status"] == "active":  # the pad's game ends…
        view = companion.view(padded, None)
        seat = view["to_act"][0]
        companion.act(padded, seat, companion.legal_actions(padded, seat)[0],
                      "test" if seat == CHANCE else None)
    assert follows(client)["game_id"] == padded
    newest = companion.create_game("hacktrick", ["Aiko", "Ben"])  # …and the next one takes it
    assert follows(client) == {"game_id": newest, "by": "pad", "chosen": None}


def test_the_journal_is_asked_for_the_last_game_once_per_change_of_the_box(
        app: Flask, companion: Companion, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    history = companion.history

    def counted(limit: int = 50) -> Any:
        asked.append(limit)
        return history(limit)

    monkeypatch.setattr(companion, "history", counted)
    first = companion.create_game("ico", ["Aiko", "Ben"])
    companion.abandon(first)
    companion.set_pad_game(None)
    with app.app_context():
        state = panel(app)
        for _ in range(5):  # a screen's stream asks every second
            assert state.table.followed(state).game_id == first
        assert asked == [1]
        second = companion.create_game("ico", ["Aiko", "Ben"])
        companion.abandon(second)
        companion.set_pad_game(None)
        assert state.table.followed(state).game_id == second
        assert asked == [1, 1]


@pytest.mark.parametrize(("body", "status", "says"), [
    ({}, 400, "give game_id"),
    ({"game": 1}, 400, "give game_id"),
    ({"game_id": "1"}, 400, "game_id must be a game number or null"),
    ({"game_id": True}, 400, "game_id must be a game number or null"),
    ({"game_id": 1.5}, 400, "game_id must be a game number or null"),
    ({"game_id": [1]}, 400, "game_id must be a game number or null"),
    ({"game_id": 99}, 404, "there is no game 99"),
    ({"game_id": -1}, 404, "there is no game -1"),
    ({"game_id": 10**30}, 404, "there is no game"),
])
def test_a_bad_choice_is_refused_naming_what_was_wrong(
        app: Flask, companion: Companion, body: Any, status: int, says: str) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    reply = host_client(app).post("/api/host/table", json=body, headers=CSRF)
    assert reply.status_code == status and reply.is_json
    assert says in reply.get_json()["message"]
    assert follows(app.test_client()) == {"game_id": game_id, "by": "pad", "chosen": None}


@pytest.mark.parametrize("body", [b"", b"[1]", b"{", b"\xff\xfe", b'"text"'])
def test_a_body_that_is_no_json_object_is_a_400(app: Flask, companion: Companion,
                                                body: bytes) -> None:
    companion.create_game("ico", ["Aiko", "Ben"])
    reply = host_client(app).post("/api/host/table", data=body, headers=CSRF,
                                  content_type="application/json")
    assert reply.status_code == 400 and reply.get_json()["error"] == "malformed"


def test_only_the_host_chooses_and_only_with_the_panels_header(
        app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    player = app.test_client()
    player.set_cookie(f"tt_seat_{game_id}", companion.claim_seat(game_id, 0))
    player.set_cookie("tt_host", "forged-host-session")
    for client in (app.test_client(), player):
        reply = client.post("/api/host/table", json={"game_id": game_id}, headers=CSRF)
        assert reply.status_code == 401 and reply.get_json()["error"] == "host_only"
    reply = host_client(app).post("/api/host/table", json={"game_id": game_id})
    assert reply.status_code == 403 and reply.get_json()["error"] == "csrf"
    assert follows(app.test_client())["chosen"] is None


def test_the_stream_refuses_a_game_it_cannot_show_by_name(client: FlaskClient) -> None:
    reply = client.get("/api/table/events?game=abc")
    assert reply.status_code == 400 and "game must be a game number" in reply.get_json()["message"]
    assert client.get("/api/table/events?game=7").status_code == 404


def test_the_host_page_puts_a_game_on_the_table_screen(app: Flask, companion: Companion) -> None:
    first = companion.create_game("ico", ["Aiko", "Ben"])
    second = companion.create_game("dice216", ["Aiko", "Ben"])
    host = host_client(app)
    html = host.get("/host").get_data(as_text=True)
    assert str(escape(MESSAGES["table_by_pad"]["en"])) in html and "http://localhost/table" in html
    assert f"data-host-body='{{\"game_id\": {second}}}'" in html  # not on the screen: a button
    assert f"data-host-body='{{\"game_id\": {first}}}'" not in html  # on it: a badge
    host.post("/api/host/table", json={"game_id": second}, headers=CSRF)
    html = host.get("/host").get_data(as_text=True)
    assert MESSAGES["table_by_host"]["en"] in html
    assert "data-host-body='{\"game_id\": null}'" in html


# --- the stream over a real server, handed over to the feeding thread and held on its own ------
@pytest.fixture(params=["handed over", "held"])
def served(request: pytest.FixtureRequest, app: Flask) -> Iterator[Served]:
    with serve(app, hand_over=request.param == "handed over") as running:
        yield running


def test_the_stream_sends_the_spectators_view_then_moves_when_the_pad_does(
        companion: Companion, served: Served, streams: list[EventStream]) -> None:
    first = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    second = companion.create_game("ico", ["Aiko", "Ben"])
    lock = Phone(served)
    lock.claim(first, 0)  # the Lock's browser: the screen still gets a spectator's view
    assert lock.post(f"/api/games/{first}/act", {"action": f"secret {SECRET}"})[0] == 200
    stream = EventStream(lock, f"/api/table/events?game={first}")
    streams.append(stream)
    event = stream.next_event()
    assert event["event"] == "view" and event["data"]["view"]["secret"] is None
    companion.act(first, 1, "guess 2-5-8")
    event = stream.next_event()
    assert event["event"] in ("view", "delta") and SECRET not in json.dumps(event["data"])
    companion.set_pad_game(second)
    assert stream.next_event()["event"] == "moved"
    with pytest.raises(EOFError):  # the screen loads itself again: the stream is over
        stream.next_event()


def test_a_screen_with_no_game_moves_as_soon_as_one_starts(
        companion: Companion, served: Served, streams: list[EventStream]) -> None:
    stream = EventStream(Phone(served), "/api/table/events?game=")
    streams.append(stream)
    assert stream.next_comment() == "keep-alive"
    companion.create_game("hacktrick", ["Aiko", "Ben"])
    assert stream.next_event()["event"] == "moved"
