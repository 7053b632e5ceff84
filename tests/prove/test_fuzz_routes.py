"""Bad requests against every route of the panel: random methods, paths and parameters,
bodies, headers and cookies, as a spectator, a player, the host and a forger.

The panel never answers 5xx (nor shows a traceback), and a refused request (4xx) changes no game:
every view of every game, for every seat and the spectator, and the change counter are the same
after it as before.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from firmware_host.companion import Companion
from tests.web_panel.served import CSRF, HOST_PIN, data_dir, make_app
from web_panel import create_app

METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
CONTENT_TYPES = ("application/json", "text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", "application/json; charset=latin-1",
                 "image/png", "", "\x7f;;")
BODY_KEYS = ("action", "pin", "players", "options", "game", "seed", "roll", "kind", "dot",
             "value", "order")
#: Values that are right for some key of some route (so bodies reach deep into the routes).
PLAUSIBLE = ("guess 2-5-8", "secret 1-2-3", "guess 1-5-9-6", "play 3", "lead 0", "ask", "draw",
             "roll 4", "place 1 1", "random", "unlock", "dice216", "hacktrick", "ico", HOST_PIN,
             ["Aiko", "Ben"], ["Aiko", "Aiko"], {"difficulty": "hard"}, {"nope": 1}, 4, "tap",
             "ok", [0, 1], "٢٤٦٨١٣", 10**40, -(10**40), {"turn_limit": 10**30},
             ["x" * 5000, "B"], [f"P{n}" for n in range(300)], {"locked": True}, "ABCDEF")
URL_TEXT = string.ascii_letters + string.digits + "-._~%/?&=+:;@!$'()*,[]#é"


@dataclass
class World:
    """A companion with an UNLOCK game (secret set), a Hacktrick game, a 2 1 6 game waiting for
    a roll, an abandoned game and a tournament; and the cookies of each kind of requester."""

    app: Flask
    companion: Companion
    cookies: dict[str, dict[str, str]]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        app = make_app(companion, PIN_TRIES=1000)
        unlock = companion.create_game("unlock", ["Lock", "Aiko", "Ben"])
        lock, aiko = companion.claim_seat(unlock, 0), companion.claim_seat(unlock, 1)
        companion.act(unlock, 0, "secret 1-5-9-6")
        hack = companion.create_game("hacktrick", ["Aiko", "Ben"], seed=4)
        hack_token = companion.claim_seat(hack, 0)
        dice = companion.create_game("dice216", ["Aiko", "Ben"])
        dice_token = companion.claim_seat(dice, 1)
        gone = companion.create_game("ico", ["Aiko", "Ben"])
        companion.abandon(gone)
        companion.create_tournament("unlock", ["Aiko", "Ben", "Chie"])
        host = app.test_client()
        assert host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF).status_code \
            == 200
        cookies = {
            "spectator": {},
            "lock": {f"tt_seat_{unlock}": lock},
            "player": {f"tt_seat_{unlock}": aiko, f"tt_seat_{hack}": hack_token,
                       f"tt_seat_{dice}": dice_token},
            "host": {"tt_host": host.get_cookie("tt_host").value},  # type: ignore[union-attr]
            "forger": {f"tt_seat_{unlock}": "x" * 32, "tt_host": "forged", "tt_lang": "zz"},
        }
        yield World(app, companion, cookies)


def snapshot(companion: Companion) -> str:
    """Every game's every view and the change counter, as one comparable text."""
    views: dict[str, Any] = {"version": companion.version(), "games": companion.games()}
    for game in companion.games():
        for seat in [None, *range(len(game["seats"]))]:
            views[f"{game['id']}/{seat}"] = companion.view(game["id"], seat)
    return json.dumps(views, sort_keys=True)


def ids() -> st.SearchStrategy[Any]:
    real = st.integers(1, 6)
    return st.one_of(real, real, real, st.integers(-3, 2**63), st.text(URL_TEXT, max_size=8))


def filled(rule: Any) -> st.SearchStrategy[str]:
    """A path for ``rule`` with each parameter drawn from near-valid and odd values."""
    parts = {"game_id": ids(), "tid": ids(), "seat": st.one_of(st.integers(-2, 5), ids()),
             "code": st.one_of(st.sampled_from(["en", "ja", "xx"]), st.text(URL_TEXT, max_size=20)),
             "lang": st.one_of(st.sampled_from(["en", "ja", "xx"]), st.text(URL_TEXT, max_size=8)),
             "game": st.one_of(st.sampled_from(["unlock", "hacktrick", "ico", "dice216"]),
                               st.text(URL_TEXT, max_size=12)),
             "filename": st.one_of(st.sampled_from(["panel.js", "../pyproject.toml", "nope"]),
                                   st.text(URL_TEXT, max_size=12)),
             "name": st.one_of(st.sampled_from(["board.js", "board.css", "../__init__.py",
                                                "..%2F__init__.py", "nope"]),
                               st.text(URL_TEXT, max_size=12))}
    template = rule.rule
    strategies = {arg: parts[arg] for arg in rule.arguments}

    def build(values: dict[str, Any]) -> str:
        path = template
        for arg, value in values.items():
            path = path.replace(f"<int:{arg}>", str(value)).replace(f"<path:{arg}>", str(value))
            path = path.replace(f"<{arg}>", str(value))
        return path

    return st.fixed_dictionaries(strategies).map(build)


def json_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=False), st.text(max_size=50))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)),
        max_leaves=12)


def bodies() -> st.SearchStrategy[bytes | None]:
    plausible = st.one_of(json_values(), st.sampled_from(PLAUSIBLE))
    near = st.dictionaries(st.sampled_from(BODY_KEYS), plausible, max_size=4)
    return st.one_of(
        st.none(),
        near.map(lambda d: json.dumps(d).encode()),
        json_values().map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=300),
        st.just(b"{" * 5000),
        st.just(b"[" * 30000 + b"]" * 30000),
        st.just(b'{"pin": "\xff\xfe\x00"}'),
        st.just(json.dumps({"action": "guess 1-2-3", "pad": "x" * 70000}).encode()),
    )


def requests(app: Flask) -> st.SearchStrategy[dict[str, Any]]:
    """A request: method, path (a route's, or any text) and query, headers, body, role."""
    rules = sorted(app.url_map.iter_rules(), key=lambda r: r.rule)
    # A route's own method with its path (mostly), or any method on any path.
    targets = st.one_of(
        *[st.tuples(st.one_of(st.sampled_from(sorted(rule.methods - {"HEAD", "OPTIONS"})),
                              st.sampled_from(METHODS)), filled(rule)) for rule in rules],
        st.tuples(st.sampled_from(METHODS), st.text(URL_TEXT, max_size=30).map(lambda t: "/" + t)))
    queries = st.one_of(st.just(""), st.builds(
        lambda k, v: f"?{k}={v}", st.sampled_from(["step", "since", "html", "next", "x"]),
        st.text(URL_TEXT.replace("#", ""), max_size=12)))
    printable = string.printable.strip()
    # Mostly what the panel's own scripts send (so requests get past the CSRF guard to the
    # routes themselves), sometimes anything.
    csrf = st.one_of(*[st.just(CSRF)] * 6, st.just({}),
                     st.fixed_dictionaries({"X-Requested-With": st.text(printable, max_size=10)}))
    content = st.one_of(st.just({"Content-Type": "application/json"}),
                        st.just({"Content-Type": "application/json"}), st.just({}),
                        st.fixed_dictionaries({"Content-Type": st.sampled_from(CONTENT_TYPES)}))
    others = st.one_of(st.just({}), st.just({}), st.fixed_dictionaries({}, optional={
        "Origin": st.sampled_from(["http://localhost", "http://evil.example", "null", "::"]),
        "Sec-Fetch-Site": st.sampled_from(["same-origin", "cross-site", "?"]),
        "Last-Event-ID": st.text(printable, max_size=12),
        "Accept-Language": st.text(printable, max_size=20),
    }))
    headers = st.builds(lambda *parts: {k: v for p in parts for k, v in p.items()},
                        csrf, content, others)
    return st.builds(lambda target, query, rest: {"method": target[0],
                                                  "path": target[1] + query, **rest},
                     targets, queries, st.fixed_dictionaries({
        "headers": headers,
        "body": bodies(),
        "role": st.sampled_from(["spectator", "lock", "player", "host", "forger"]),
        "junk_cookie": st.one_of(st.none(), st.text(string.ascii_letters, max_size=300)),
    }))


def send(client: FlaskClient, request: dict[str, Any]) -> tuple[int, str]:
    response = client.open(request["path"], method=request["method"],
                           headers=request["headers"], data=request["body"], buffered=False)
    try:
        if response.mimetype == "text/event-stream":
            return response.status_code, ""
        return response.status_code, response.get_data().decode("utf-8", "replace")  # a PNG too
    finally:
        response.close()


#: The panel's routes (they do not depend on the companion behind the app).
ROUTES_APP = create_app(None)


def check(world: World, request: dict[str, Any]) -> None:
    """One request: never a 5xx or a traceback, and a refused one changes no game."""
    client = world.app.test_client()
    for name, value in world.cookies[request["role"]].items():
        client.set_cookie(name, value)
    if request["junk_cookie"] is not None:
        client.set_cookie("tt_seat_1", request["junk_cookie"])
    before = snapshot(world.companion)
    status, body = send(client, request)
    event(f"{request['method']} {status}")
    assert status < 500, f"{status} for {request}: {body[:300]}"
    assert "Traceback" not in body
    if status >= 400:
        assert snapshot(world.companion) == before, f"refused ({status}) but changed: " \
                                                     f"{request}"


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(request=requests(ROUTES_APP))
def test_no_request_gets_a_server_error_or_changes_a_game_when_refused(
    world: World, request: dict[str, Any]
) -> None:
    check(world, request)


@pytest.mark.slow
@settings(max_examples=20000, suppress_health_check=[HealthCheck.too_slow])
@given(request=requests(ROUTES_APP))
def test_the_long_fuzz_run(world: World, request: dict[str, Any]) -> None:
    """The same, 20,000 requests (``--runslow``; figures in docs/prove.md)."""
    check(world, request)
