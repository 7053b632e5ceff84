"""The post-game analysis on the club's hub (issue 34): a box sends each ended game's analysis
with its record (an optional field of version 1), holding the record while the analysis is
being computed, for a bounded time; the hub keeps it (league schema 2, a schema-1 league file
upgraded as it opens) and shows it on the club's page of that game, in English and Japanese."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club import publisher as publisher_module
from firmware_host.club.broker import HUB_USER
from firmware_host.club.hub import Hub
from firmware_host.club.league import LEAGUE_FILE, League
from firmware_host.club.publisher import Publisher
from firmware_host.club.topics import BadMessage, decode_result, encode
from firmware_host.companion import Companion
from firmware_host.games import builtin_games
from rules.evaluation import GameRecord
from rules.unlock.analysis import analyse_actions
from tests import waiting
from tests.club.broker import RunningBroker
from tests.club.test_club_pages import club_app
from tests.club.test_league import key, payload
from tests.web_panel.served import HOST_PIN, data_dir
from web_panel.club import ClubPanel

WAIT = 10.0
PLAYERS = ["Lock", "Aiko", "Ben"]
ACTIONS = [(0, "secret 1-2-3"), (1, "guess 4-5-6"), (2, "guess 1-2"), (1, "guess 2-3"),
           (2, "guess 1-2-3")]
EVALUATION: dict[str, Any] = {
    "game": "ico", "kind": "evaluation", "players": ["Aiko", "Ben"], "end": "ended",
    "evaluated": True,
    "steps": [{"step": 1, "n": 1, "seat": 0, "action": "place S-L0", "value": 0.1,
               "best": 0.3, "best_action": "place S-L4", "loss": 0.2, "turning_point": True}],
    "turning_points": [1],
    "summaries": [{"seat": 0, "player": "Aiko", "moves": 1, "best_moves": 0,
                   "average_loss": 0.2, "worst_step": 1, "sentence": "…"},
                  {"seat": 1, "player": "Ben", "moves": 0, "best_moves": 0,
                   "average_loss": None, "worst_step": None, "sentence": "…"}]}


def with_analysis(data: bytes, analysis: object) -> bytes:
    document = json.loads(data)
    document["game"]["analysis"] = analysis
    return encode(document)


def test_a_record_may_carry_its_games_analysis() -> None:
    plain = payload("t1", key(), None, 1, 1)
    assert decode_result("t1", plain).game.analysis is None  # older boxes send none
    sent = decode_result("t1", with_analysis(plain, EVALUATION))
    assert sent.game.analysis == EVALUATION
    for wrong in ("a sentence", [1, 2], {"kind": 3}):
        with pytest.raises(BadMessage, match=r"game\.analysis"):
            decode_result("t1", with_analysis(plain, wrong))


def test_the_league_keeps_it_and_a_schema_1_file_is_upgraded(tmp_path: Path) -> None:
    league = League(tmp_path / "hub")
    data = with_analysis(payload("t1", key(), None, 1, 1), EVALUATION)
    league.ingest(decode_result("t1", data), data)
    [line] = league.recent()
    found = league.result(line.id)
    assert found is not None and found.analysis == EVALUATION and found.line.box == "t1"
    assert league.result(line.id + 1) is None
    league.close()
    with sqlite3.connect(tmp_path / "hub" / LEAGUE_FILE) as db:  # as a version 1 file was
        db.execute("DROP TABLE analyses")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    again = League(tmp_path / "hub")
    assert again.result(line.id) is not None and again.result(line.id).analysis is None
    data = with_analysis(payload("t1", key(), None, 1, 2), {"kind": "codes"})
    again.ingest(decode_result("t1", data), data)
    assert again.result(line.id + 1).analysis == {"kind": "codes"}
    again.close()
    with sqlite3.connect(tmp_path / "hub" / LEAGUE_FILE) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
            "2",)


def test_the_clubs_game_page_shows_it_in_both_languages(tmp_path: Path) -> None:
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN) as companion:
        league = League(tmp_path / "club")
        client = club_app(companion, ClubPanel(league=league)).test_client()
        data = with_analysis(payload("table-2", key(), None, 1, 4, players=("Aiko", "Ben")),
                             EVALUATION)
        league.ingest(decode_result("table-2", data), data)
        bare = payload("table-2", key(), None, 1, 5, players=("Chie", "Dai"))
        league.ingest(decode_result("table-2", bare), bare)
        first, second = sorted(line.id for line in league.recent())
        pages = {lang: client.get(f"/club/results/{first}", headers={"Accept-Language": lang})
                 for lang in ("en", "ja")}
        assert all(page.status_code == 200 for page in pages.values())
        en, ja = (pages[lang].get_data(as_text=True) for lang in ("en", "ja"))
        assert 'data-kind="evaluation"' in en and "Turning points: moves 1." in en
        assert "Aiko: 0 of 1 moves as good as the bot&#39;s best" in en
        assert "転機:1 手目。" in ja and "Aiko:1 手中 0 手がボットの最善手と同等" in ja
        without = client.get(f"/club/results/{second}").get_data(as_text=True)
        assert 'class="card analysis"' not in without and "sent no analysis" in without
        assert client.get("/club/results/999").status_code == 404
        home = client.get("/club/").get_data(as_text=True)
        assert f'href="/club/results/{first}"' in home
        player = client.get("/club/players/g:Aiko").get_data(as_text=True)
        assert f'href="/club/results/{first}"' in player
        league.close()


@dataclass
class Club:
    companion: Companion
    hub: Hub
    release: threading.Event


@pytest.fixture
def club(broker: RunningBroker, tmp_path: Path) -> Iterator[Club]:
    """A box whose UNLOCK analysis waits for the test's word, its publisher, and the hub."""
    release = threading.Event()

    def slow(record: GameRecord,
             progress: Callable[[float], None] | None = None) -> Mapping[str, Any]:
        assert release.wait(20)
        return analyse_actions(record.players, record.options, record.actions,
                               abandoned=record.abandoned).as_dict()

    games = builtin_games()
    games = games.with_game(replace(games["unlock"], analysis=slow))
    league = League(tmp_path / "hub")
    hub = Hub(league, broker.endpoint(HUB_USER), retry_seconds=1)
    hub.start()
    box = broker.add_box("table-1")
    with data_dir() as path, Companion.open(path, host_pin=HOST_PIN, games=games) as companion:
        publisher = Publisher(companion, companion.journal.path, "table-1", lambda: box,
                              retry_seconds=1, resend_seconds=3)
        publisher.start()
        try:
            yield Club(companion, hub, release)
        finally:
            release.set()
            publisher.close()
    hub.close()


def play(companion: Companion) -> int:
    gid = companion.create_game("unlock", PLAYERS, {"difficulty": "easy"})
    for seat, action in ACTIONS:
        companion.act(gid, seat, action)
    return gid


def test_a_box_holds_the_record_until_its_analysis_is_kept_then_sends_both(club: Club) -> None:
    gid = play(club.companion)
    time.sleep(1.5)  # the publisher has looked at the outbox: the record waits
    assert club.hub.league.counts() == {}
    assert club.companion.analysis(gid)["status"] == "pending"
    club.release.set()
    waiting.wait_for(lambda: club.hub.league.counts() == {"table-1": 1}, timeout=WAIT)
    [line] = club.hub.league.recent()
    found = club.hub.league.result(line.id)
    assert found is not None and found.analysis == club.companion.analysis(gid)["analysis"]
    assert found.analysis is not None and found.analysis["certain_turn"] == 2


def test_a_record_goes_without_an_analysis_that_takes_too_long(
        club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(publisher_module, "ANALYSIS_WAIT", 1.0)
    play(club.companion)
    waiting.wait_for(lambda: club.hub.league.counts() == {"table-1": 1}, timeout=WAIT)
    [line] = club.hub.league.recent()
    found = club.hub.league.result(line.id)
    assert found is not None and found.analysis is None
