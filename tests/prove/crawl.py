"""A crawler over every route of the panel (enumerated from ``app.url_map``), as every role.

Route parameters are filled from the game being crawled (its id, every seat and one past the
last, its tournament); requests go over real sockets to the panel served by waitress. GETs are
made as they are; POSTs are made with an empty body, except those that would change the game
or the host's session when the host makes them (those are exercised by the scripted games
themselves), so that a crawl never changes what it crawls.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from flask import Flask

from tests.web_panel.served import CSRF, Served

TIMEOUT = 10.0
#: POSTs the host never makes while crawling: they would change the game or the session.
HOST_MUTATIONS = frozenset({
    "host.undo", "host.abandon", "host.reissue", "host.create_game", "host.create_tournament",
    "host.logout",
})
#: POSTs nobody makes while crawling: a PIN attempt counts against the rate limit.
NEVER = frozenset({"host.login"})
STREAMS = frozenset({"events.stream"})


@dataclass(frozen=True)
class Role:
    """Who asks: a name for messages, the seat their view is for, and their cookies."""

    name: str
    seat: int | None
    cookies: dict[str, str]
    host: bool = False


@dataclass(frozen=True)
class Fetched:
    """One answer: who asked what, and everything that came back as text."""

    role: Role
    endpoint: str
    method: str
    path: str
    status: int
    content_type: str
    headers: str
    body: str

    def json(self) -> Any:
        return json.loads(self.body) if self.content_type.startswith("application/json") \
            else None

    def where(self) -> str:
        return f"{self.method} {self.path} as {self.role.name} ({self.status})"


def fetch(served: Served, role: Role, method: str, path: str, body: Any = None,
          endpoint: str = "") -> Fetched:
    """One request over a fresh connection, with the role's cookies (and the CSRF header on
    POSTs, as the panel's own scripts send it)."""
    conn = http.client.HTTPConnection(served.host, served.port, timeout=TIMEOUT)
    headers = dict(CSRF) if method == "POST" else {}
    if role.cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in role.cookies.items())
    data = None
    if method == "POST":
        data = json.dumps(body if body is not None else {}).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        head = "\n".join(f"{k}: {v}" for k, v in response.getheaders())
        return Fetched(role, endpoint, method, path, response.status,
                       response.getheader("Content-Type", ""), head,
                       payload.decode("utf-8", "replace"))
    finally:
        conn.close()


def first_event(served: Served, role: Role, path: str, endpoint: str) -> Fetched:
    """The live stream's status, headers and its first event (the text up to its blank line)."""
    conn = http.client.HTTPConnection(served.host, served.port, timeout=TIMEOUT)
    headers = {}
    if role.cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in role.cookies.items())
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        head = "\n".join(f"{k}: {v}" for k, v in response.getheaders())
        lines: list[str] = []
        if response.status == 200:
            while True:
                line = response.readline().decode("utf-8", "replace")
                if line == "":
                    break
                lines.append(line)
                if line == "\n" and any(x.startswith("data:") for x in lines):
                    break
        else:
            lines.append(response.read().decode("utf-8", "replace"))
        return Fetched(role, endpoint, "GET", path, response.status,
                       response.getheader("Content-Type", ""), head, "".join(lines))
    finally:
        conn.close()


def event_data(fetched: Fetched) -> dict[str, Any]:
    """The JSON data of a fetched stream's first event."""
    for line in fetched.body.splitlines():
        if line.startswith("data:"):
            data: dict[str, Any] = json.loads(line[5:])
            return data
    raise AssertionError(f"no event in {fetched.where()}: {fetched.body[:200]!r}")


def requests_for(app: Flask, game_id: int, seats: int, tid: int | None, game: str,
                 role: Role) -> Iterator[tuple[str, str, str]]:
    """(endpoint, method, path) for every route of ``app`` with its parameters filled in."""
    adapter = app.url_map.bind("127.0.0.1")
    for rule in app.url_map.iter_rules():
        choices: list[dict[str, Any]] = [{}]
        for arg in sorted(rule.arguments):
            values: list[Any]
            if arg == "game_id":
                values = [game_id]
            elif arg == "seat":
                values = list(range(seats + 1))
            elif arg == "tid":
                values = [tid if tid is not None else 1]
            elif arg == "code":
                values = ["en", "ja"] if rule.endpoint == "pages.language" else ["no-such-code"]
            elif arg == "lang":
                values = ["en", "ja", "xx"]
            elif arg == "game":
                values = [game]
            elif arg == "filename":
                values = ["panel.js", "panel.css"]
            elif arg == "name":
                values = ["board.js", "board.css", "pattern.js"]
            elif arg == "player":  # club mode's players: guests by name, profiles by id
                values = ["g:Aiko", "g:Ben", "p:00000000"]
            elif arg == "result":  # club mode's games, by the league's id
                values = [1, 2]
            else:
                raise AssertionError(f"the crawler does not know how to fill <{arg}> of "
                                     f"{rule.rule}: teach it")
            choices = [{**c, arg: v} for c in choices for v in values]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if rule.endpoint in NEVER or (role.host and rule.endpoint in HOST_MUTATIONS):
                continue
            for values in choices:
                yield rule.endpoint, method, adapter.build(rule.endpoint, values, method=method)


def crawl(app: Flask, served: Served, roles: list[Role], game_id: int, seats: int,
          tid: int | None, game: str) -> list[Fetched]:
    """Every route as every role (several at once, as a table of phones would)."""
    jobs = [(role, endpoint, method, path) for role in roles
            for endpoint, method, path in requests_for(app, game_id, seats, tid, game, role)]

    def run(job: tuple[Role, str, str, str]) -> Fetched:
        role, endpoint, method, path = job
        if endpoint in STREAMS:
            return first_event(served, role, path, endpoint)
        return fetch(served, role, method, path, {} if method == "POST" else None, endpoint)

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(run, jobs))
