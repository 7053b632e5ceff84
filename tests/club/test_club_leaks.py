"""No live secret reaches the club: at every phase of an UNLOCK game and along a Hacktrick game,
everything on the broker's topics (read with the hub's rights: the whole tree, retained and
live) and every club page of the hub, crawled from ``app.url_map``, is searched for the Lock's
code, unrevealed guesses, the hands, the deck's order and the seed. The search is shown able to
find them: the code is in the record once the game is over."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest

from firmware_host.club.broker import HUB_USER
from firmware_host.club.hub import Hub
from firmware_host.club.league import League
from firmware_host.club.publisher import Publisher
from firmware_host.club.topics import decode_table, parse_topic
from firmware_host.companion import Companion
from rules import get_game
from rules.unlock import Code
from tests import waiting
from tests.club.broker import RunningBroker
from tests.club.clients import TestClient
from tests.club.test_club_pages import club_app
from tests.prove.crawl import Role, fetch, requests_for
from tests.prove.leaks import code_found
from tests.prove.test_secrets_crawl import HACKTRICK_SEED, Secrets, hacktrick_secrets, long_codes
from tests.web_panel.served import HOST_PIN, Served, data_dir, serve
from web_panel.club import ClubPanel

WAIT = 10.0


@dataclass
class Club:
    companion: Companion
    hub: Hub
    served: Served
    listener: TestClient

    def topics_text(self) -> str:
        return "\n".join(f"{topic} {payload.decode('utf-8', 'replace')}"
                         for topic, payload, _ in list(self.listener.messages))

    def wait_for_table(self, game_id: int) -> None:
        """Until the broker carries the table as the spectator sees it now."""
        view = self.companion.view(game_id, None)
        want = (view.get("turn"), tuple(view.get("to_act") or []))

        def current() -> bool:
            for topic, payload, _ in reversed(list(self.listener.messages)):
                where = parse_topic(topic) if topic.startswith("club/v1/boxes/") else None
                if where is not None and where.kind == "table" and where.game_id == game_id:
                    table = decode_table(where.box, game_id, payload)
                    return table is not None and (table.turn, table.to_act) == want
            return False

        self.listener.wait(current, WAIT)

    def pages_text(self) -> str:
        app = self.served.app
        spectator = Role("spectator", None, {})
        texts = []
        for endpoint, method, path in requests_for(app, 1, 3, None, "unlock", spectator):
            if not endpoint.startswith("club.") or method != "GET":
                continue
            answer = fetch(self.served, spectator, method, path, None, endpoint)
            assert answer.status < 500, answer.where()
            texts.append(f"{answer.where()}\n{answer.body}")
        assert len(texts) >= 8, texts
        return "\n".join(texts)

    def check(self, secrets: Secrets, phase: str) -> None:
        problems = [f"the broker: {p}" for p in secrets.in_text(self.topics_text(), None, None)]
        problems += [f"the hub's pages: {p}"
                     for p in secrets.in_text(self.pages_text(), None, None)]
        assert not problems, f"{phase}: " + "\n".join(problems)


@pytest.fixture
def club(broker: RunningBroker, tmp_path: Path) -> Iterator[Club]:
    league = League(tmp_path / "hub")
    hub = Hub(league, broker.endpoint(HUB_USER), retry_seconds=1)
    hub.start()
    box = broker.add_box("table-1")
    listener = TestClient(broker.endpoint(HUB_USER), "listener")
    listener.connect()
    listener.subscribe("club/v1/#")
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        publisher = Publisher(companion, companion.journal.path, "table-1", lambda: box,
                              retry_seconds=1, resend_seconds=3)
        publisher.start()
        app = club_app(companion, ClubPanel(set_code=companion.set_club_code, league=league,
                                            live=hub.live))
        with serve(app) as served:
            yield Club(companion, hub, served, listener)
        publisher.close()
    listener.close()
    hub.close()


wait_for = partial(waiting.wait_for, timeout=WAIT)


def test_unlock_secrets_never_reach_the_broker_or_the_hubs_pages(club: Club) -> None:
    box = club.companion
    secret, g1, g2, g3 = long_codes("medium", 4)
    game = box.create_game("unlock", ["Aiko", "Ben", "Chie"], {"difficulty": "medium"})
    lock_only = frozenset({"seat 0"})

    def hidden(*guesses: Code) -> Secrets:
        return Secrets([("the Lock's code", secret, lock_only)] + [
            (f"an unrevealed guess {code}", code, frozenset()) for code in guesses])

    club.wait_for_table(game)
    club.check(hidden(), "no secret yet")
    box.act(game, 0, f"secret {secret}")
    club.wait_for_table(game)
    club.check(hidden(), "the secret set")
    box.act(game, 1, f"guess {g1}")
    club.wait_for_table(game)
    club.check(hidden(g1), "seat 1 guessed")
    box.act(game, 2, f"guess {g2}")
    box.act(game, 1, f"guess {g3}")
    club.wait_for_table(game)
    club.check(hidden(g3), "turn 1 revealed, seat 1 guessed again")
    box.act(game, 2, f"guess {secret}")
    wait_for(lambda: club.hub.league.counts() == {"table-1": 1})
    club.listener.wait(lambda: "secret " in club.topics_text())
    # over: the code is public now, and the search finds it in the record
    assert code_found(club.topics_text(), secret)
    assert not Secrets(seed=box.journal.games()[0].seed).in_text(club.topics_text(), None, None)


def test_hacktrick_hands_deck_and_seed_never_reach_the_broker_or_the_hubs_pages(
    club: Club,
) -> None:
    box = club.companion
    players = ["Aiko", "Ben"]
    game = box.create_game("hacktrick", players, seed=HACKTRICK_SEED)
    rules = get_game("hacktrick")
    state = rules.start(players, None, seed=HACKTRICK_SEED)
    rng = random.Random(11)
    step = 0
    while rules.to_act(state):
        if step % 40 == 0:
            club.wait_for_table(game)
            club.check(hacktrick_secrets(state), f"step {step}")
        seat = rules.to_act(state)[0]
        action = rng.choice(list(rules.legal_actions(state, seat)))
        state = rules.apply(state, seat, action)
        box.act(game, seat, action)
        step += 1
    wait_for(lambda: club.hub.league.counts() == {"table-1": 1})
    final = hacktrick_secrets(state)
    assert not final.in_text(club.topics_text(), None, None)  # not even the seed, ever
    assert not final.in_text(club.pages_text(), None, None)
    record = next(json.loads(p) for t, p, _ in club.listener.messages if t.endswith("/results"))
    assert [a["action"] for a in record["game"]["actions"]] == [
        step["action"] for step in box.replay(game)[1:]]
