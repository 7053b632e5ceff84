"""Post-game analyses: computed once a game has ended (never before), off the session thread,
kept in the journal (computed once, there after a restart), and served by
``GET /api/games/<id>/analysis``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from firmware_host.companion import JOURNAL_FILE, Companion
from rules.unlock.analysis import analyse_actions
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
    assert '"found_turn":2' in body
    with Companion.open(tmp_path) as again:  # kept: ready at once after a restart
        assert again.analysis(gid)["status"] == "ready"


def test_never_before_the_end_and_none_for_a_game_without_one(tmp_path: Path) -> None:
    with Companion.open(tmp_path) as companion:
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
    with Companion.open(tmp_path) as companion:
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
