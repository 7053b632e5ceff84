"""Post-game analyses: computed once a game has ended (never before), off the session thread,
kept in the journal (computed once, there after a restart), and served by
``GET /api/games/<id>/analysis``."""

from __future__ import annotations

import json
import sqlite3
import threading
import zlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware_host.companion import JOURNAL_FILE, Companion
from firmware_host.games import Registry, builtin_games
from rules.evaluation import GameRecord, analyse_record
from rules.unlock.analysis import analyse_actions
from tests.rules.test_evaluation import play
from tests.web_panel.served import make_app

ACTIONS = [(0, "secret 1-2-3"), (1, "guess 4-5-6"), (2, "guess 1-2"), (1, "guess 2-3"),
           (2, "guess 1-2-3")]
OPTIONS = {"difficulty": "easy"}
PLAYERS = ["Lock", "Aiko", "Ben"]


def played(companion: Companion, actions: list[tuple[int, str]] = ACTIONS) -> int:
    gid = companion.create_game("unlock", PLAYERS, OPTIONS)
    for seat, action in actions:
        companion.act(gid, seat, action)
    return gid


def test_an_ended_games_analysis_is_computed_and_kept_in_the_journal(tmp_path: Path) -> None:
    with Companion.open(tmp_path) as companion:
        gid = played(companion)
        assert companion.view(gid, None)["outcome"]["winners"] == [2]
        companion.settle()
        answer = companion.analysis(gid)
        assert answer["status"] == "ready" and answer["analysis"] is not None
        full = companion.view(gid, None)["options"]
        assert answer["analysis"] == analyse_actions(PLAYERS, full, ACTIONS).as_dict()
        assert answer["analysis"]["found_turn"] == 2
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:
        [(body,)] = db.execute("SELECT body FROM analyses WHERE game_id = ?", (gid,)).fetchall()
    # kept compressed (an SD card's writes, issue 32): a fraction of its text's size
    text = zlib.decompress(body).decode("utf-8")
    assert '"found_turn":2' in text and len(body) < len(text) / 2
    with Companion.open(tmp_path) as again:  # kept: ready at once after a restart
        assert again.analysis(gid)["status"] == "ready"


def test_an_analysis_kept_as_text_by_an_earlier_box_is_read_as_it_is(tmp_path: Path) -> None:
    with Companion.open(tmp_path) as companion:
        gid = played(companion)
        companion.settle()
        answer = companion.analysis(gid)["analysis"]
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:  # as schema 9 kept it at first
        db.execute("UPDATE analyses SET body = ? WHERE game_id = ?",
                   (json.dumps(answer, separators=(",", ":")), gid))
    with Companion.open(tmp_path) as again:
        assert again.analysis(gid) == {"status": "ready", "analysis": answer}


def without_ico_analysis() -> Registry:
    games = builtin_games()
    return games.with_game(replace(games["ico"], analysis=None))


def test_never_before_the_end_and_none_for_a_game_without_one(tmp_path: Path) -> None:
    with Companion.open(tmp_path, games=without_ico_analysis()) as companion:
        gid = played(companion, ACTIONS[:2])
        assert companion.analysis(gid) == {"status": "not_over", "analysis": None}
        ico = companion.create_game("ico", ["Aiko", "Ben"], {})
        companion.abandon(ico)
        companion.settle()
        assert companion.analysis(ico) == {"status": "unavailable", "analysis": None}
        companion.abandon(gid)  # an abandoned UNLOCK game: its revealed turns
        companion.settle()
        answer = companion.analysis(gid)
        assert answer["status"] == "ready" and answer["analysis"] is not None
        assert answer["analysis"]["found_turn"] is None


def test_a_game_that_ended_before_analyses_is_analysed_when_first_asked(tmp_path: Path) -> None:
    with Companion.open(tmp_path) as companion:
        gid = played(companion)
        companion.settle()
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:
        db.execute("DELETE FROM analyses")  # as a journal from before analyses has none
    with Companion.open(tmp_path) as companion:
        assert companion.analysis(gid)["status"] == "pending"
        companion.settle()
        assert companion.analysis(gid)["status"] == "ready"


def test_the_api_serves_it_once_the_game_has_ended_and_says_why_not_before(
    tmp_path: Path
) -> None:
    with Companion.open(tmp_path, games=without_ico_analysis()) as companion:
        client = make_app(companion).test_client()
        gid = played(companion, ACTIONS[:2])
        reply = client.get(f"/api/games/{gid}/analysis")
        assert reply.status_code == 409 and reply.get_json()["error"] == "game_not_over"
        assert "1-2-3" not in reply.get_data(as_text=True)  # the secret stays secret
        for seat, action in ACTIONS[2:]:
            companion.act(gid, seat, action)
        companion.settle()
        reply = client.get(f"/api/games/{gid}/analysis")
        assert reply.status_code == 200
        body = reply.get_json()
        assert body["status"] == "ready" and body["analysis"]["secret"] == "1-2-3"
        assert client.get("/api/games/999/analysis").status_code == 404
        ico = companion.create_game("ico", ["Aiko", "Ben"], {})
        companion.abandon(ico)
        reply = client.get(f"/api/games/{ico}/analysis")
        assert reply.status_code == 404 and reply.get_json()["error"] == "no_analysis"


def bots_game(game_id: str, players: list[str], options: dict[str, object],
              seed: int) -> list[tuple[int, str]]:
    """A whole game's actions, the first seat a ``hard`` bot, the others ``easy``, chance
    drawn from ``seed``."""
    levels = ("hard", "easy", "easy", "easy")
    return list(play(game_id, options, len(players), seed, levels).actions)


@pytest.mark.parametrize("game_id", ["hacktrick", "ico", "dice216"])
def test_the_other_games_are_weighed_by_their_hard_bot_once_they_end(
    tmp_path: Path, game_id: str
) -> None:
    players = ["Aiko", "Ben"]
    with Companion.open(tmp_path) as companion:
        gid = companion.create_game(game_id, players, {})
        options = companion.view(gid, None)["options"]
        game_seed = _seed_of(tmp_path, gid)
        actions = bots_game(game_id, players, options, game_seed)
        for seat, action in actions[:-1]:
            companion.act(gid, seat, action)
        assert companion.analysis(gid) == {"status": "not_over", "analysis": None}
        companion.act(gid, *actions[-1])
        companion.settle()
        answer = companion.analysis(gid)
        assert answer["status"] == "ready" and answer["analysis"] is not None
        expected = analyse_record(game_id, GameRecord(tuple(players), options, game_seed,
                                                      tuple(actions)))
        assert answer["analysis"] == expected.as_dict()
        assert answer["analysis"]["kind"] == "evaluation" and answer["analysis"]["end"] == "ended"
        assert answer["analysis"]["steps"], "a whole game has moves to weigh"
        client = make_app(companion).test_client()
        reply = client.get(f"/api/games/{gid}/analysis")
        assert reply.status_code == 200 and reply.get_json()["analysis"]["game"] == game_id


def _seed_of(data_dir: Path, game_id: int) -> int:
    with sqlite3.connect(data_dir / JOURNAL_FILE) as db:
        (seed,) = db.execute("SELECT seed FROM games WHERE id = ?", (game_id,)).fetchone()
    return int(seed)


def test_a_long_analysis_says_how_far_it_has_gone(tmp_path: Path) -> None:
    """While an analysis is computed, the answer gives the share done, as the analyser tells."""
    halfway, release = threading.Event(), threading.Event()

    def slow(record: GameRecord, progress: Callable[[float], None] | None = None) -> dict[str, Any]:
        assert progress is not None
        progress(0.5)
        halfway.set()
        assert release.wait(10)
        progress(1.0)
        return {"game": "ico", "kind": "evaluation", "moves": len(record.actions)}

    games = builtin_games()
    with Companion.open(tmp_path, games=games.with_game(replace(games["ico"], analysis=slow))) \
            as companion:
        client = make_app(companion).test_client()
        gid = companion.create_game("ico", ["Aiko", "Ben"], {})
        companion.abandon(gid)
        assert halfway.wait(10)
        assert companion.analysis(gid) == {"status": "pending", "analysis": None, "progress": 0.5}
        reply = client.get(f"/api/games/{gid}/analysis")
        assert reply.status_code == 202 and reply.get_json()["progress"] == 0.5
        release.set()
        companion.settle()
        assert companion.analysis(gid) == {
            "status": "ready", "analysis": {"game": "ico", "kind": "evaluation", "moves": 0}}


def test_when_games_end_faster_than_they_are_analysed_the_longest_waiting_make_room(
        tmp_path: Path) -> None:
    """At most ``WAITING`` games wait: the ones that waited longest are dropped (the newest come
    first) and computed when their analysis is next asked for."""
    from firmware_host.game_analyses import WAITING

    started, release = threading.Event(), threading.Event()
    computed: list[int] = []

    def slow(record: GameRecord, progress: Callable[[float], None] | None = None) -> dict[str, Any]:
        started.set()
        assert release.wait(20)
        computed.append(len(record.players))
        return {"game": "ico", "kind": "evaluation", "moves": len(record.actions)}

    games = builtin_games()
    with Companion.open(tmp_path, games=games.with_game(replace(games["ico"], analysis=slow))) \
            as companion:
        first = companion.create_game("ico", ["Aiko", "Ben"], {})
        companion.abandon(first)
        assert started.wait(10)  # the first is being computed; the others wait behind it
        ended = []
        for _ in range(WAITING + 4):
            gid = companion.create_game("ico", ["Aiko", "Ben"], {})
            companion.abandon(gid)
            ended.append(gid)
        dropped, kept = ended[:4], ended[4:]
        # asked for, a dropped game waits again (and the longest waiting then makes room)
        assert companion.analysis(dropped[0])["status"] == "pending"
        release.set()
        companion.settle(timeout=30)
        assert len(computed) == 1 + WAITING
        for gid in [first, dropped[0], *kept[1:]]:
            assert companion.analysis(gid)["status"] == "ready", gid
        assert companion.analysis(kept[0])["status"] == "pending"  # made room for dropped[0]
        for gid in dropped[1:]:
            assert companion.analysis(gid)["status"] == "pending"  # queued now they are asked
        companion.settle(timeout=30)
        assert all(companion.analysis(gid)["status"] == "ready" for gid in [first, *ended])
