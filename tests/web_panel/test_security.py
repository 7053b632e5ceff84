"""Seat tokens, the host PIN and its rate limit, the CSRF guard, and errors for bad input."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from firmware_host.companion import Companion
from tests.web_panel.served import CSRF, HOST_PIN, make_app
from web_panel.messages import MESSAGES


class Clock:
    """A clock the test moves by hand (the rate limit's window without sleeping)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(companion: Companion, clock: Clock) -> Flask:
    return make_app(companion, CLOCK=clock)


@pytest.fixture
def unlock(companion: Companion) -> int:
    game_id: int = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    return game_id


def joined(app: Flask, game_id: int, seat: int) -> FlaskClient:
    phone = app.test_client()
    assert phone.post(f"/api/games/{game_id}/seats/{seat}/claim", headers=CSRF).status_code == 200
    return phone


def test_seat_cookie_is_httponly_and_samesite_strict(client: FlaskClient, unlock: int) -> None:
    response = client.post(f"/api/games/{unlock}/seats/0/claim", headers=CSRF)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"tt_seat_{unlock}=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie


def test_host_cookie_is_httponly_and_samesite_strict(client: FlaskClient) -> None:
    response = client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("tt_host=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert HOST_PIN not in cookie


def test_seat_comes_from_the_token_not_the_body(app: Flask, companion: Companion,
                                                unlock: int) -> None:
    lock = joined(app, unlock, 0)
    assert lock.post(f"/api/games/{unlock}/act", json={"action": "secret 1-5-9"},
                     headers=CSRF).status_code == 200
    ben = joined(app, unlock, 1)
    reply = ben.post(f"/api/games/{unlock}/act",
                     json={"action": "guess 2-5-8", "seat": 2}, headers=CSRF)
    assert reply.status_code == 200
    assert companion.view(unlock, 1)["my_guess"] is not None
    assert companion.view(unlock, 2)["my_guess"] is None


def test_a_phone_holds_one_seat_per_game(app: Flask, unlock: int) -> None:
    phone = joined(app, unlock, 0)
    reply = phone.post(f"/api/games/{unlock}/seats/1/claim", headers=CSRF)
    assert reply.status_code == 409
    assert reply.get_json()["error"] == "already_seated"
    assert reply.get_json()["message"] == "This phone already holds seat 1."  # counted from 1


def test_a_taken_seat_cannot_be_claimed_again(app: Flask, unlock: int) -> None:
    joined(app, unlock, 0)
    reply = app.test_client().post(f"/api/games/{unlock}/seats/0/claim", headers=CSRF)
    assert reply.status_code == 409
    assert reply.get_json()["error"] == "seat_taken"


def test_reissued_seat_stops_the_old_token_and_hands_over_once(
    app: Flask, companion: Companion, unlock: int
) -> None:
    old_phone = joined(app, unlock, 0)
    host = app.test_client()
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    reply = host.post(f"/api/host/games/{unlock}/seats/0/reissue", headers=CSRF).get_json()
    code = reply["handover"].rsplit("/", 1)[1]
    refused = old_phone.post(f"/api/games/{unlock}/act", json={"action": "secret 1-5-9"},
                             headers=CSRF)
    assert refused.status_code == 403
    assert refused.get_json()["error"] == "bad_seat_token"
    new_phone = app.test_client()
    assert new_phone.get(f"/handover/{code}").status_code == 200
    assert new_phone.post(f"/api/handover/{code}", headers=CSRF).status_code == 200
    assert new_phone.post(f"/api/games/{unlock}/act", json={"action": "secret 1-5-9"},
                          headers=CSRF).status_code == 200
    again = app.test_client().post(f"/api/handover/{code}", headers=CSRF)
    assert again.status_code == 404


def test_handover_expires(app: Flask, clock: Clock, unlock: int) -> None:
    host = app.test_client()
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    reply = host.post(f"/api/host/games/{unlock}/seats/1/reissue", headers=CSRF).get_json()
    code = reply["handover"].rsplit("/", 1)[1]
    clock.now += 601
    assert app.test_client().post(f"/api/handover/{code}", headers=CSRF).status_code == 404


def test_wrong_pin_is_refused(client: FlaskClient) -> None:
    reply = client.post("/api/host/login", json={"pin": "000000"}, headers=CSRF)
    assert reply.status_code == 403
    assert reply.get_json()["error"] == "wrong_pin"
    assert client.post("/api/host/games", json={"game": "ico", "players": ["A", "B"]},
                       headers=CSRF).status_code == 401


def test_sixth_pin_try_within_a_minute_gets_429(client: FlaskClient, clock: Clock) -> None:
    for _ in range(5):
        reply = client.post("/api/host/login", json={"pin": "111111"}, headers=CSRF)
        assert reply.status_code == 403
        clock.now += 1
    reply = client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    assert reply.status_code == 429
    assert int(reply.headers["Retry-After"]) > 0
    assert reply.get_json()["error"] == "too_many_tries"
    clock.now += 60
    assert client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF).status_code == 200


def test_pin_limit_is_per_client(app: Flask, clock: Clock) -> None:
    first = app.test_client()
    for _ in range(5):
        first.post("/api/host/login", json={"pin": "111111"}, headers=CSRF,
                   environ_base={"REMOTE_ADDR": "192.168.1.50"})
    assert first.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF,
                      environ_base={"REMOTE_ADDR": "192.168.1.50"}).status_code == 429
    other = app.test_client()
    assert other.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF,
                      environ_base={"REMOTE_ADDR": "192.168.1.51"}).status_code == 200


def test_logout_ends_the_host_session(client: FlaskClient) -> None:
    client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    assert client.post("/api/host/logout", headers=CSRF).status_code == 200
    assert client.post("/api/host/games", json={"game": "ico", "players": ["A", "B"]},
                       headers=CSRF).status_code == 401


def test_post_without_the_custom_header_is_refused(app: Flask, unlock: int) -> None:
    phone = app.test_client()
    reply = phone.post(f"/api/games/{unlock}/seats/0/claim")
    assert reply.status_code == 403
    assert reply.get_json()["error"] == "csrf"


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://localhost.evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
])
def test_cross_site_post_is_refused(app: Flask, unlock: int, headers: dict[str, str]) -> None:
    reply = app.test_client().post(f"/api/games/{unlock}/seats/0/claim",
                                   headers={**CSRF, **headers})
    assert reply.status_code == 403
    assert reply.get_json()["error"] == "cross_origin"


def test_same_origin_post_is_accepted(app: Flask, unlock: int) -> None:
    reply = app.test_client().post(
        f"/api/games/{unlock}/seats/0/claim",
        headers={**CSRF, "Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
    )
    assert reply.status_code == 200


@pytest.mark.parametrize(("body", "content_type"), [
    (b"{not json", "application/json"),
    (b"[1, 2]", "application/json"),
    (b'"text"', "application/json"),
    (b"\xff\xfe", "application/json"),
    (b"action=guess", "application/x-www-form-urlencoded"),
])
def test_malformed_body_is_400(app: Flask, unlock: int, body: bytes, content_type: str) -> None:
    phone = joined(app, unlock, 0)
    reply = phone.post(f"/api/games/{unlock}/act", data=body,
                       headers={**CSRF, "Content-Type": content_type})
    assert reply.status_code == 400
    assert reply.get_json()["error"] == "malformed"


@pytest.mark.parametrize("action", [None, "", "   ", 7, ["guess"], "x" * 201])
def test_bad_action_value_is_400(app: Flask, unlock: int, action: object) -> None:
    phone = joined(app, unlock, 0)
    reply = phone.post(f"/api/games/{unlock}/act", json={"action": action}, headers=CSRF)
    assert reply.status_code == 400
    assert reply.get_json()["message"]


def test_illegal_action_is_409_with_the_rules_message(app: Flask, companion: Companion,
                                                      unlock: int) -> None:
    phone = joined(app, unlock, 0)
    reply = phone.post(f"/api/games/{unlock}/act", json={"action": "secret 2-4-1-5"},
                       headers=CSRF)
    assert reply.status_code == 409
    error = reply.get_json()
    assert error["error"] == "illegal_action"
    assert "cross" in error["message"]
    assert companion.view(unlock, 0)["secret"] is None


@pytest.mark.parametrize(("body", "status", "error"), [
    ({"game": "chess", "players": ["A", "B"]}, 400, "unknown_game"),
    ({"game": "unlock", "players": ["A", "B"], "options": {"difficulty": "nightmare"}}, 400,
     "bad_option"),
    ({"game": "unlock", "players": ["A", "B"], "options": {"colour": "red"}}, 400, "bad_option"),
    ({"game": "unlock", "players": "A,B"}, 400, "malformed"),
    ({"game": "unlock", "players": ["A", ""]}, 400, "malformed"),
    ({"game": "unlock", "players": ["A", "B"], "options": ["difficulty"]}, 400, "malformed"),
    ({"game": "unlock", "players": ["A", "B"], "seed": "abc"}, 400, "malformed"),
    ({"game": 5, "players": ["A", "B"]}, 400, "malformed"),
    ({"game": "hacktrick", "players": ["A"]}, 409, "not_allowed"),
])
def test_bad_new_game_is_refused_by_name(app: Flask, companion: Companion, body: dict[str, object],
                                         status: int, error: str) -> None:
    host = app.test_client()
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    reply = host.post("/api/host/games", json=body, headers=CSRF)
    assert (reply.status_code, reply.get_json()["error"]) == (status, error), reply.get_json()
    assert companion.games() == []


@pytest.mark.parametrize("path", [
    "/games/999", "/api/games/999", "/join/999", "/api/games/999/events", "/games/999/board",
    "/tournaments/99", "/api/tournaments/99", "/handover/nope", "/lang/fr", "/no/such/page",
])
def test_unknown_things_are_404(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_wrong_method_is_405_json(client: FlaskClient) -> None:
    reply = client.delete("/api/games", headers=CSRF)
    assert reply.status_code == 405
    assert reply.get_json()["error"] == "method_not_allowed"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_servers_own_refusals_are_said_as_the_panel_says_them(client: FlaskClient,
                                                                    lang: str) -> None:
    """A wrong method, a body too large, one not JSON, an address with nothing: each in the
    panel's words in the page's language, never as a refusal of the rules."""
    headers = {**CSRF, "Accept-Language": lang, "Content-Type": "application/json"}
    replies = {
        "method_not_allowed": client.delete("/api/games", headers=headers),
        "request_entity_too_large": client.post("/api/host/login", headers=headers,
                                                data=b"{" + b" " * 70000 + b"}"),
        "malformed": client.post("/api/host/login", headers=headers, data=b"{nope"),
        "not_found": client.get("/api/no/such/thing", headers=headers),
    }
    said = {name: MESSAGES[f"error.{name}"][lang] for name in replies}
    if lang == "en":
        said["malformed"] = "The request body is not valid JSON."  # the panel's own, closer
    for name, reply in replies.items():
        assert reply.get_json() == {"error": name, "message": said[name]}
    assert [r.status_code for r in replies.values()] == [405, 413, 400, 404]


def test_replay_of_a_game_in_play_is_409(client: FlaskClient, unlock: int) -> None:
    reply = client.get(f"/api/games/{unlock}/replay")
    assert reply.status_code == 409


@pytest.mark.parametrize("step", ["x", "1.5", "--1"])
def test_bad_replay_step_is_400(client: FlaskClient, companion: Companion, step: str) -> None:
    game_id = companion.create_game("dice216", ["A", "B"])
    companion.abandon(game_id)
    assert client.get(f"/games/{game_id}/replay?step={step}").status_code == 400


def test_oversized_body_is_413(app: Flask, unlock: int) -> None:
    phone = joined(app, unlock, 0)
    reply = phone.post(f"/api/games/{unlock}/act", data=b"{" + b" " * 70000 + b"}",
                       headers={**CSRF, "Content-Type": "application/json"})
    assert reply.status_code == 413
    assert reply.get_json()["error"]


def test_language_redirect_stays_on_this_site(client: FlaskClient) -> None:
    for target in ("//evil.example/x", "http://evil.example/", "\\\\evil.example"):
        reply = client.get(f"/lang/ja?next={target}")
        assert reply.status_code == 303
        assert reply.headers["Location"] == "/"


def test_pages_carry_security_headers(client: FlaskClient) -> None:
    reply = client.get("/")
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in reply.headers["Content-Security-Policy"]
    assert "script-src" not in reply.headers["Content-Security-Policy"]  # default-src 'self'
    assert reply.headers["Cache-Control"] == "no-store"


def test_a_page_error_is_json_when_json_is_asked_for(client: FlaskClient) -> None:
    page = client.get("/games/999", headers={"Accept": "text/html"})
    assert page.status_code == 404 and page.mimetype == "text/html"
    data = client.get("/games/999", headers={"Accept": "application/json"})
    assert data.status_code == 404 and data.get_json()["error"] == "no_such_game"
    assert escape(data.get_json()["message"]) in page.get_data(as_text=True)


@pytest.mark.parametrize(("host", "status"), [
    ("192.168.1.23:8080", 200), ("10.0.0.5", 200), ("[fe80::1]:8080", 200),
    ("localhost:8080", 200), ("tabletop", 200), ("tabletop.local", 200),
    ("tabletop.home.arpa:8080", 200), ("evil.example", 403), ("attacker.com:8080", 403),
    ("192.168.1.23.evil.example", 403),
])
def test_the_panel_answers_only_to_its_own_names(client: FlaskClient, host: str,
                                                 status: int) -> None:
    """A page that re-binds its own domain to the box's address (DNS rebinding) is refused."""
    reply = client.get("/api/games", headers={"Host": host})
    assert reply.status_code == status
    if status == 403:
        assert reply.get_json()["error"] == "foreign_host"


def test_configured_names_are_the_panels_own(companion: Companion) -> None:
    app = make_app(companion, ALLOWED_HOSTS=["tabletop.fritz.box"],
                   PUBLIC_URL="http://companion.example.org:8080/")
    client = app.test_client()
    for host in ("tabletop.fritz.box", "companion.example.org:8080"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200
    assert client.get("/api/games", headers={"Host": "other.example.org"}).status_code == 403
