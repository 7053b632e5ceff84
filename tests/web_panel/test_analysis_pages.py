"""The post-game analysis as the pages show it (issue 34, web_panel/analysis_view.py): the
replay page's section — UNLOCK's codes graph and turns, the others' evaluation graph and moves —
in English and Japanese (the Japanese sentences built from the numbers), its "being computed"
state and the section alone that the page asks for again, nothing for a game without one; and
the API's headline and lines for a phone's results."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from firmware_host.games import Registry, builtin_games
from rules.evaluation import GameRecord
from tests.web_panel.served import data_dir, make_app
from web_panel.analysis_graphs import count, signed
from web_panel.analysis_messages import ANALYSIS_MESSAGES
from web_panel.analysis_view import shown, summary

PLAYERS = ["Lock", "Aiko", "Ben"]
ACTIONS = [(0, "secret 1-2-3"), (1, "guess 4-5-6"), (2, "guess 1-2"), (1, "guess 2-3"),
           (2, "guess 1-2-3")]

#: An evaluation as rules/evaluation.py gives it (and the brief's shape: ``forced``, no ``n``
#: on the last step).
EVALUATION: dict[str, Any] = {
    "game": "ico", "kind": "evaluation", "players": ["Aiko", "Ben"], "end": "ended",
    "evaluated": True,
    "steps": [
        {"step": 1, "n": 1, "seat": 0, "action": "place S-L0", "value": 0.1, "best": 0.1,
         "best_action": "place S-L0", "loss": 0.0, "turning_point": False},
        {"step": 2, "n": 2, "seat": 1, "action": "place S-L1", "value": -0.3, "best": 0.2,
         "best_action": "place S-L4", "loss": 0.5, "turning_point": True},
        {"step": 3, "n": 4, "seat": 0, "action": "place L1-L2", "value": 0.6, "best": 0.6,
         "best_action": "place L1-L2", "loss": 0.0, "forced": True, "turning_point": False},
        {"step": 4, "seat": 1, "action": "place U0-U1", "value": -1.0, "best": -0.9,
         "best_action": "place U1-U2", "loss": 0.1, "turning_point": True},
    ],
    "turning_points": [2, 4],
    "summaries": [
        {"seat": 0, "player": "Aiko", "moves": 2, "best_moves": 2, "average_loss": 0.0,
         "worst_step": None, "sentence": "Aiko: 2 of 2 moves as good as the bot's best."},
        {"seat": 1, "player": "Ben", "moves": 2, "best_moves": 0, "average_loss": 0.3,
         "worst_step": 2, "sentence": "Ben: 0 of 2 moves as good as the bot's best."},
    ],
}


def with_analyser(analysis: Callable[..., Mapping[str, Any]] | None,
                  game: str = "ico") -> Registry:
    games = builtin_games()
    return games.with_game(replace(games[game], analysis=analysis))


def handed(record: GameRecord,
           progress: Callable[[float], None] | None = None) -> Mapping[str, Any]:
    return EVALUATION


@pytest.fixture
def unlock() -> Iterator[tuple[Companion, FlaskClient, int]]:
    with data_dir() as path, Companion.open(path) as companion:
        gid = companion.create_game("unlock", PLAYERS, {"difficulty": "easy"})
        for seat, action in ACTIONS:
            companion.act(gid, seat, action)
        companion.settle()
        yield companion, make_app(companion).test_client(), gid


def page(client: FlaskClient, path: str, lang: str = "en") -> str:
    reply = client.get(path, headers={"Accept-Language": lang})
    assert reply.status_code == 200, reply.get_data(as_text=True)[:300]
    return reply.get_data(as_text=True)


def section(html: str) -> str:
    start = html.index('<section class="card analysis"')
    return html[start:html.index("</section>", start)]


def visible(html: str) -> str:
    """The section's words as a reader sees them (tags and the SVG's titles left out)."""
    html = re.sub(r"<title>.*?</title>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def test_unlocks_replay_shows_the_codes_graph_turns_and_lines(
        unlock: tuple[Companion, FlaskClient, int]) -> None:
    _, client, gid = unlock
    html = section(page(client, f"/games/{gid}/replay"))
    assert 'data-kind="codes"' in html and 'role="img"' in html
    assert html.count('<rect class="bar') == 2  # one bar per turn, turn 2 found
    assert '<rect class="bar found"' in html and ">★ 1</text>" in html
    words = visible(html)
    assert "Certain on turn 2: one code left. Found on turn 2." in words
    assert "The secret code: 1-2-3" in words and "3,560 codes in the level." in words
    assert "Turn 1 : 3,560 → 711 codes" in words
    assert "Aiko · 4-5-6: 0 matches, 2 misses; left 2,067, ruled out 1,493" in words
    assert "Ben · 1-2-3: 2 matches, 0 misses; left 1, ruled out 710 · the secret code" in words
    assert "Hint: 7-4-1-2-3-6-5-8-9 would have left 980, ruled out 2,580" in words
    assert ("Aiko's cards left 1,159 codes on average; the hint's cards would have left "
            "505.5.") in words


def test_unlocks_replay_in_japanese_is_built_from_the_numbers(
        unlock: tuple[Companion, FlaskClient, int]) -> None:
    companion, client, gid = unlock
    english = companion.analysis(gid)["analysis"]
    assert english is not None
    html = section(page(client, f"/games/{gid}/replay", "ja"))
    words = visible(html)
    assert "ターン 2 で確定(残り 1 通り)。" in words and "ゲーム後の分析" in words
    assert ("Aiko のカードは平均 1,159 通りを残しました。ヒントのカードなら 505.5 通り"
            "でした。") in words
    assert "Aiko · 4-5-6:一致 0、不一致 2。残り 2,067 通り、除外 1,493 通り" in words
    for line in english["summaries"]:
        assert line["sentence"] not in words  # never the English sentence
    leftover = re.findall(r"\b[a-z]{3,}\b", words)
    assert not leftover, leftover


def test_the_api_gives_the_headline_and_a_line_per_player_in_the_phones_language(
        unlock: tuple[Companion, FlaskClient, int]) -> None:
    _, client, gid = unlock
    for lang, headline in (("en", "Certain on turn 2: one code left. Found on turn 2."),
                           ("ja", "ターン 2 で確定(残り 1 通り)。ターン 2 で推測されました。")):
        body = client.get(f"/api/games/{gid}/analysis",
                          headers={"Accept-Language": lang}).get_json()
        assert body["status"] == "ready" and body["analysis"]["found_turn"] == 2
        assert body["headline"] == headline
        assert [(line["seat"], line["player"]) for line in body["lines"]] == [
            (1, "Aiko"), (2, "Ben")]
    assert body["lines"][1]["text"].startswith("Ben のカードは平均 631.5 通り")


def test_the_evaluation_graph_annotated_moves_and_turning_points() -> None:
    with data_dir() as path, Companion.open(path, games=with_analyser(handed)) as companion:
        gid = companion.create_game("ico", ["Aiko", "Ben"], {})
        companion.abandon(gid)
        companion.settle()
        client = make_app(companion).test_client()
        html = section(page(client, f"/games/{gid}/replay"))
        ja = visible(section(page(client, f"/games/{gid}/replay", "ja")))
    assert 'data-kind="evaluation"' in html
    # a point per move in its mover's colour and shape: Aiko red circles, Ben blue squares
    assert html.count('<circle class="point" data-seat="0" fill="#b71c1c"') == 2
    assert html.count('<rect class="point" data-seat="1" fill="#1a237e"') == 2
    assert html.count('<circle class="turning"') == 2 and html.count('<line class="drop"') == 2
    words = visible(html)
    assert "Turning points: moves 2, 4." in words
    assert "Move 2 · Ben: place S-L1 evaluation −0.30 · the bot's best: Ben: place S-L4 " \
           "(+0.20) · loss 0.50 · turning point" in words
    assert "Move 4 · Aiko: place L1-L2 evaluation +0.60 · the only move" in words
    assert "Ben: 0 of 2 moves as good as the bot's best; average loss 0.30. Largest loss " \
           "at move 2." in words
    assert f'href="/games/{gid}/replay?step=2"' in html  # a move leads to its replay step
    assert "Every move weighed (4)" in words
    assert "転機:2, 4 手目。" in ja and "Ben:2 手中 0 手がボットの最善手と同等、平均損失 0.30。" \
                                      "最大の損失は 2 手目。" in ja
    assert "2 手目 · Ben:place S-L1 評価値 −0.30 · ボットの最善手: Ben:place S-L4 (+0.20)" in ja


def test_being_computed_then_ready_and_nothing_for_a_game_without_one() -> None:
    release = threading.Event()

    def slow(record: GameRecord,
             progress: Callable[[float], None] | None = None) -> Mapping[str, Any]:
        assert release.wait(10)
        return EVALUATION

    with data_dir() as path, Companion.open(path, games=with_analyser(slow)) as companion:
        client = make_app(companion).test_client()
        gid = companion.create_game("ico", ["Aiko", "Ben"], {})
        assert client.get(f"/games/{gid}/replay/analysis").status_code == 409  # never before
        companion.abandon(gid)
        html = page(client, f"/games/{gid}/replay")
        pending = section(html)
        assert 'data-state="pending"' in pending and "being computed" in pending
        assert f'data-url="/games/{gid}/replay/analysis"' in pending
        assert "/static/analysis.js" in html
        reply = client.get(f"/games/{gid}/replay/analysis")
        assert reply.status_code == 202 and reply.headers["Retry-After"] == "2"
        release.set()
        companion.settle()
        reply = client.get(f"/games/{gid}/replay/analysis")
        assert reply.status_code == 200 and 'data-state="ready"' in reply.get_data(as_text=True)
    with data_dir() as path, Companion.open(path, games=with_analyser(None)) as companion:
        client = make_app(companion).test_client()
        gid = companion.create_game("ico", ["Aiko", "Ben"], {})
        companion.abandon(gid)
        assert 'class="card analysis"' not in page(client, f"/games/{gid}/replay")
        assert client.get(f"/games/{gid}/replay/analysis").status_code == 204
        info = next(g for g in companion.catalog() if g["id"] == "ico")
        assert info["analysis"] is False  # the phone's results never ask for one


def test_a_shape_the_page_cannot_show_shows_nothing() -> None:
    assert shown({"kind": "evaluation", "steps": [{"seat": "x"}]}, "en") is None
    assert shown({"kind": "chess"}, "en") is None
    assert shown({"kind": "codes", "turns": "many"}, "en") is None
    assert summary({"kind": "evaluation", "steps": "no"}, "ja") is None
    # an analysis kept before ``kind`` existed is UNLOCK's
    assert summary({"enumerable": False, "end": "turn_limit", "secret": "1-5-9"}, "en") == {
        "headline": "", "lines": []}


def test_numbers() -> None:
    assert (count(3560), count(505.5), count(2.0), count(1159.04)) == (
        "3,560", "505.5", "2", "1,159")
    assert (signed(0.123), signed(-0.35), signed(0.001), signed(-1)) == (
        "+0.12", "−0.35", "0.00", "−1.00")


def test_every_word_has_both_languages_and_the_same_blanks() -> None:
    for key, entry in ANALYSIS_MESSAGES.items():
        assert set(entry) == {"en", "ja"}, key
        blanks = {lang: set(re.findall(r"{(\w+)}", text)) for lang, text in entry.items()}
        assert blanks["en"] == blanks["ja"], key
