"""Issue 30: any header, path, body or method gets a 2xx, 3xx or 4xx with a readable page or a
JSON error — never a 5xx, never a traceback in the log for a client's mistake.

The routes are read from the app's URL map (club mode's pages included), so a new route is
covered without anyone listing it. The app runs as it does on the box (errors are answered, not
raised into the test).
"""

from __future__ import annotations

import contextlib
import logging
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask, Response
from werkzeug.routing import Rule
from werkzeug.test import EnvironBuilder, run_wsgi_app

from firmware_host.club.hub import LiveTables
from firmware_host.club.league import League
from firmware_host.companion import Companion
from tests.web_panel.served import CSRF, HOST_PIN, TIMEOUT, Served, data_dir, serve
from web_panel import create_app
from web_panel.club import ClubPanel

#: Host headers a client may send: too long for a DNS label, empty labels, bad ports, spaces,
#: non-ASCII, brackets left open, control characters.
BAD_HOSTS = ("a" * 300, "a" * 200, "a" * 64, "a" * 63 + ".local", "..", "a..b", ".", "",
             "x:99999", "x:-1", "x:port", "[::1", "[zz]:80", "bad host", "é.com", "xn--",
             "xn--zz.local", "127.0.0.1:0", "localhost:" + "9" * 40, "\tlocalhost",
             "a" * 5000)
#: Other headers with values no browser sends.
BAD_HEADERS = (
    {"Accept-Language": "x" * 3000}, {"Accept-Language": ";q=;;,,*-*"},
    {"Accept": "text/html;q=abc, */*;q=-1"}, {"Accept": "\x00"},
    {"Cookie": "tt_host=" + "x" * 4000}, {"Cookie": "tt_seat_1=\x00\x01; =; ;;tt_lang=zz"},
    {"Cookie": "tt_seat_99999999999999999999=x"},
    {"If-Modified-Since": "yesterday"}, {"If-None-Match": '"' * 50},
    {"Range": "bytes=9-1,-,x"}, {"Authorization": "Basic !!!"},
    {"X-Forwarded-For": "not an address"}, {"X-Forwarded-Host": "a" * 300},
    {"Origin": "http://" + "a" * 300}, {"Origin": "null"}, {"Referer": "::::"},
    {"Content-Type": "application/json; charset=utf-99"}, {"Content-Type": "multipart/form-data"},
    {"Last-Event-ID": "-1" * 100}, {"User-Agent": "é" * 500},
    {"Transfer-Encoding": "gzip"}, {"Content-Encoding": "br"},
)
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD")
BODY = b'{"action": "guess 1-2-3", "pin": "0000", "players": ["A", "B"]}'


@dataclass
class World:
    app: Flask
    host_cookie: str
    companion: Companion


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        league = League(Path(tmp_path_factory.mktemp("club")) / "club")
        try:
            club = ClubPanel(set_code=companion.set_club_code, league=league, live=LiveTables())
            # as on the box: errors are answered, never raised into the caller
            app = create_app(companion, club=club, config={
                "TESTING": False, "PROPAGATE_EXCEPTIONS": False, "PIN_TRIES": 10_000,
                "MAX_STREAMS_PER_CLIENT": 10_000, "SSE_LIFETIME": 0.05})
            unlock = companion.create_game("unlock", ["Lock", "Aiko", "Ben"])
            companion.act(unlock, 0, "secret 1-5-9-6")
            companion.create_game("dice216", ["Aiko", "Ben"])
            companion.create_tournament("unlock", ["Aiko", "Ben", "Chie"])
            host = app.test_client()
            login = host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
            assert login.status_code == 200
            cookie = host.get_cookie("tt_host")
            assert cookie is not None
            yield World(app, cookie.value, companion)
        finally:
            league.close()


def sample_path(rule: Rule) -> str:
    """The rule's path with each parameter filled by a value that exists (game 1, seat 0…)."""
    values = {"game_id": "1", "tid": "1", "seat": "0", "code": "en", "game": "unlock",
              "filename": "panel.js", "name": "board.js", "player": "Aiko", "box": "table-2"}
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: values.get(m[1], "x"), rule.rule)


def routes(app: Flask) -> list[tuple[str, str]]:
    """(method, path) for every route of the app and every method it takes."""
    found = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        for method in sorted(rule.methods or ()):
            found.append((method, sample_path(rule)))
    return found


def call(app: Flask, method: str, path: str, headers: dict[str, str],
         body: bytes | None) -> Response:
    """The app's answer to one request, called as a WSGI server calls it (werkzeug's test
    client cannot keep cookies for some of these hosts, so none is used)."""
    environ = EnvironBuilder(path=path, method=method, headers=headers, data=body).get_environ()
    chunks, status, response_headers = run_wsgi_app(app, environ, buffered=False)
    response = Response(chunks, status, response_headers)
    return response


def check(app: Flask, method: str, path: str, headers: dict[str, str],
          caplog: pytest.LogCaptureFixture, body: bytes | None = BODY) -> int:
    caplog.clear()
    response = call(app, method, path, headers, body)
    try:
        # the icon is a PNG: read as text with what is not UTF-8 replaced
        text = ("" if response.mimetype == "text/event-stream"
                else response.get_data().decode("utf-8", "replace"))
    finally:
        response.close()
    said = f"{method} {path} {str(headers)[:120]}"
    assert response.status_code < 500, f"{response.status_code} for {said}: {text[:300]}"
    assert "Traceback" not in text, said
    if response.status_code >= 400 and method != "HEAD":
        assert response.mimetype in ("application/json", "text/html"), said
        assert text.strip(), f"an empty {response.status_code} for {said}"
    logged = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not logged, f"{said} logged: {logged[0].getMessage()}"
    return response.status_code


def test_the_route_list_comes_from_the_url_map(world: World) -> None:
    paths = {path for _, path in routes(world.app)}
    assert len(paths) >= 45
    assert "/api/games/1/act" in paths and any(p.startswith("/club/") for p in paths)


@pytest.mark.parametrize("host", BAD_HOSTS, ids=lambda h: repr(h[:24]))
def test_a_host_header_the_panel_cannot_use_gets_a_readable_refusal(
    world: World, host: str, caplog: pytest.LogCaptureFixture
) -> None:
    for cookie in ({}, {"Cookie": f"tt_host={world.host_cookie}"}):
        for method, path in routes(world.app):
            check(world.app, method, path, {"Host": host, **CSRF, **cookie}, caplog)


def test_an_unusable_host_is_refused_by_name(world: World) -> None:
    page = call(world.app, "GET", "/", {"Host": "a" * 300}, None)
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert "Host header" in page.get_data(as_text=True)
    api = call(world.app, "GET", "/api/games", {"Host": "a..b"}, None)
    assert api.status_code in (400, 403) and "error" in (api.get_json() or {})


@pytest.mark.parametrize("headers", BAD_HEADERS, ids=lambda h: repr(h)[:30])
def test_odd_headers_on_every_route_get_no_server_error(
    world: World, headers: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    host = {"Cookie": f"tt_host={world.host_cookie}"}
    for method, path in routes(world.app):
        check(world.app, method, path, {**CSRF, **host, **headers}, caplog)


@pytest.mark.parametrize("method", [*METHODS, "PROPFIND", "BREW"])
def test_any_method_on_every_route_gets_no_server_error(
    world: World, method: str, caplog: pytest.LogCaptureFixture
) -> None:
    for _, path in routes(world.app):
        for body in (None, BODY, b"\xff\xfe" * 40, b"{" * 2000):
            check(world.app, method, path, CSRF, caplog, body)


@pytest.mark.parametrize("path", ["/" + "a" * 5000, "/%00", "/games/1%00", "/api/games/%ff",
                                  "/static/../../pyproject.toml", "/static/%2e%2e/x",
                                  "/boards/unlock/..%2F__init__.py", "/club/players/" + "é" * 300,
                                  "/api/games/99999999999999999999999", "/games/-1",
                                  "//evil.example/", "/host?next=//evil", "/lang/ja?next=%0d%0a"])
def test_odd_paths_get_no_server_error(
    world: World, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    for method in METHODS:
        check(world.app, method, path, CSRF, caplog)


#: Whole requests as bytes on the wire, as no browser sends them.
RAW = (
    b"GET / HTTP/1.1\r\nHost: " + b"a" * 300 + b"\r\n\r\n",
    b"GET /games/1 HTTP/1.1\r\nHost: \xff\xfe.local\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: xn--\r\nAccept-Language: \xe3\x81\x82\xff\r\n\r\n",
    b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nCookie: tt_host=\xff\x00\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\nX: a\r\n folded\r\n\r\n",
    b"GET / HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.0\r\n\r\n",
    b"POST /api/host/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
    b"Content-Length: 7\r\n\r\n12345",
    b"POST /api/host/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: -3\r\n\r\n",
    b"POST /api/host/login HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"zz\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"x" * 300_000 + b"\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 60,  # a TLS hello
    b"GET /\xff\xfe HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"BREW /pot HTTP/1.1\r\nHost: localhost\r\n\r\n",
)


@pytest.fixture(scope="module")
def served(world: World) -> Iterator[Served]:
    with serve(create_app(world.companion, config={"PROPAGATE_EXCEPTIONS": False})) as running:
        yield running


@pytest.mark.parametrize("raw", RAW, ids=lambda r: repr(r[:28]))
def test_the_real_server_answers_odd_bytes_with_no_server_error(
    served: Served, raw: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    with socket.create_connection((served.host, served.port), timeout=TIMEOUT) as conn:
        try:
            conn.sendall(raw)
            conn.shutdown(socket.SHUT_WR)
        except OSError:  # the server may close on a request too large to read: that's fine
            pass
        answer = b""
        with contextlib.suppress(OSError):
            while chunk := conn.recv(65536):
                answer += chunk
    if answer:  # a server may also just close on bytes that are not HTTP
        status = answer.split(b"\r\n", 1)[0]
        assert re.match(rb"HTTP/1\.[01] [1-4]\d\d ", status), status
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
