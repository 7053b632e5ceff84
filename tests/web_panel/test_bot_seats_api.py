"""The host seats bots over the JSON API; phones see which seats the box plays."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from firmware_host.companion import Companion
from tests.web_panel.served import CSRF
from tests.web_panel.test_hardening import host_client, joined


def test_the_host_creates_a_game_with_a_bot_seat(app: Flask, companion: Companion) -> None:
    host = host_client(app)
    reply = host.post("/api/host/games", json={"game": "hacktrick", "players": ["Aiko", "Box"],
                                               "bots": {"1": "hard"}}, headers=CSRF)
    assert reply.status_code == 200, reply.get_json()
    game_id = reply.get_json()["game_id"]
    assert companion.summary(game_id)["bots"] == [None, "hard"]
    assert companion.view(game_id, None)["claimed"] == [False, True]
    phone = joined(app, game_id, 0)
    assert phone.get(f"/api/games/{game_id}").get_json()["bots"] == [None, "hard"]
    refused = app.test_client().post(f"/api/games/{game_id}/seats/1/claim", json={},
                                     headers=CSRF)
    assert refused.status_code == 409
    assert refused.get_json()["message"] == "seat 2 (Box) is played by the box"  # from 1


def test_the_catalogue_names_each_games_bot_levels(app: Flask) -> None:
    catalogue = {g["id"]: g for g in app.test_client().get("/api/catalog").get_json()}
    assert catalogue["ico"]["bots"] == ["random", "easy", "hard"]
    assert catalogue["ico"]["hints"] is False


@pytest.mark.parametrize(("bots", "status", "names"), [
    ({"one": "hard"}, 400, "'one' is not a seat number"),
    ({"1": 3}, 400, "seat 1's level must be text"),
    (["hard"], 400, "bots must be an object"),
    ({"5": "hard"}, 409, "a number from 0 to 1, got 5"),
    ({"1": "expert"}, 409, "unknown bot level 'expert'"),
])
def test_a_bad_bot_seat_is_refused_naming_it(app: Flask, companion: Companion, bots: Any,
                                              status: int, names: str) -> None:
    reply = host_client(app).post("/api/host/games", json={
        "game": "ico", "players": ["Aiko", "Ben"], "bots": bots}, headers=CSRF)
    assert reply.status_code == status
    assert names in reply.get_json()["message"]
    assert companion.games() == []


def test_the_new_game_page_lets_the_host_give_any_seat_to_the_box(app: Flask) -> None:
    page = host_client(app).get("/host/new/unlock").get_data(as_text=True)
    assert page.count('<select class="player-bot" name="bot">') == 2  # one per player row
    for level in ("random", "easy"):
        assert f'<option value="{level}">the box: ' in page
    assert "Let the box play the Lock" in page  # UNLOCK's own help
    japanese = host_client(app).get("/host/new/unlock", headers={"Accept-Language": "ja"})
    assert "本体:やさしい" in japanese.get_data(as_text=True)


def test_play_again_keeps_the_boxs_seats(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Box", "Aiko"], {"difficulty": "easy"},
                                    bots={0: "easy"})
    companion.abandon(game_id)
    reply = host_client(app).post(f"/api/host/games/{game_id}/again", json={}, headers=CSRF)
    assert reply.status_code == 200, reply.get_json()
    again = reply.get_json()["game_id"]
    assert companion.summary(again)["bots"] == ["easy", None]
    assert companion.view(again, None)["options"]["difficulty"] == "easy"


def test_the_host_page_names_the_boxs_seats_and_switches_hints(app: Flask,
                                                               companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Box", "Aiko"], bots={0: "easy"})
    ico = companion.create_game("ico", ["Aiko", "Ben"])
    host = host_client(app)
    page = host.get("/host").get_data(as_text=True)
    assert "played by the box (easy)" in page
    assert f'data-hints-for="{game_id}"' in page and f'data-hints-for="{ico}"' not in page
    assert "Turn hints off" in page
    reply = host.post(f"/api/host/games/{game_id}/hints", json={"allowed": False},
                      headers=CSRF)
    assert reply.get_json() == {"game_id": game_id, "hints": False}
    assert "Turn hints on" in host.get("/host").get_data(as_text=True)
    joined_page = app.test_client().get(f"/join/{game_id}").get_data(as_text=True)
    assert "played by the box (easy)" in joined_page


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "the host has turned hints off for this game"),
    ("ja", "ホストがこのゲームのヒントをオフにしています。"),
])
def test_a_hint_refused_is_said_in_the_phones_language(app: Flask, companion: Companion,
                                                       lang: str, said: str) -> None:
    game_id = companion.create_game("unlock", ["Kenji", "Aiko"], {"difficulty": "easy"})
    companion.act(game_id, 0, "secret 1-2-3")
    companion.allow_hints(game_id, False)
    phone = joined(app, game_id, 1)
    reply = phone.post(f"/api/games/{game_id}/hint", json={},
                       headers={**CSRF, "Accept-Language": lang})
    assert reply.status_code == 409
    assert reply.get_json() == {"error": "not_allowed", "message": said}


@pytest.mark.parametrize(("message", "said"), [
    ("the Lock knows the code: hints are for the guessers",
     "ロックは秘密のコードを知っています。ヒントは推測者用です。"),
    ("you have already entered your code for this turn",
     "このターンのコードはすでに入力しました。"),
    ("hints are given while the guessers are guessing",
     "ヒントは推測者がコードを描く間だけ使えます。"),
    ("hints need the 3×3 card: the 4×4 codes of easy are too many to list",
     "ヒントは3×3のカードだけです(4×4はコードが多すぎます)。"),
    ("no code of the level fits every card on the clue board",
     "手がかりボードのすべてのカードに合うコードがありません。"),
    ("ICO has no hints", "ICOにはヒントがありません。"),
])
def test_the_hint_engines_refusals_are_said_in_japanese(message: str, said: str) -> None:
    from web_panel.refusals import phrase

    assert phrase("bad_request", message, "ja").message == said


def test_the_host_hands_a_seat_to_the_box_during_the_game(app: Flask,
                                                         companion: Companion) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    host = host_client(app)
    page = host.get("/host").get_data(as_text=True)
    url = f"/api/host/games/{game_id}/bots"
    assert page.count(f'data-seat-bot="{url}"') == 2  # who plays each seat, chosen here
    assert '<option value="hard">the box: hard</option>' in page
    reply = host.post(url, json={"seat": 1, "level": "hard"}, headers=CSRF)
    assert reply.get_json() == {"game_id": game_id, "seat": 1, "level": "hard"}
    assert companion.summary(game_id)["bots"] == [None, "hard"]
    page = host.get("/host").get_data(as_text=True)
    assert '<option value="hard" selected>the box: hard</option>' in page
    assert host.post(url, json={"seat": 1, "level": None}, headers=CSRF).status_code == 200
    assert companion.summary(game_id)["bots"] == [None, None]


@pytest.mark.parametrize(("body", "status", "names"), [
    ({"seat": "1", "level": "hard"}, 400, "seat must be a seat number"),
    ({"seat": True, "level": "hard"}, 400, "seat must be a seat number"),
    ({"seat": 1, "level": 2}, 400, "level must be a bot level"),
    ({"seat": 2, "level": "hard"}, 409, "has no seat 3"),  # seats named from 1
    ({"seat": 1, "level": "expert"}, 409, "unknown bot level 'expert'"),
])
def test_a_bad_seat_hand_over_is_refused_naming_it(app: Flask, companion: Companion,
                                                   body: Any, status: int, names: str) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    reply = host_client(app).post(f"/api/host/games/{game_id}/bots", json=body, headers=CSRF)
    assert reply.status_code == status
    answer = reply.get_json()
    assert names in answer["message"] + (answer.get("detail") or "")
    assert companion.summary(game_id)["bots"] == [None, None]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Ben's phone holds that seat: the box cannot take it over"),
    ("ja", "Benのスマホがこの席を使っています。本体は引き継げません。"),
])
def test_a_seat_a_phone_holds_stays_the_phones(app: Flask, companion: Companion, lang: str,
                                               said: str) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    joined(app, game_id, 1)
    host = host_client(app)
    assert 'data-seat="1"' not in host.get("/host").get_data(as_text=True)
    reply = host.post(f"/api/host/games/{game_id}/bots", json={"seat": 1, "level": "easy"},
                      headers={**CSRF, "Accept-Language": lang})
    assert reply.status_code == 409
    assert reply.get_json()["message"] == said
    assert companion.summary(game_id)["bots"] == [None, None]
    assert host.post("/api/host/games/999/bots", json={"seat": 0, "level": "easy"},
                     headers=CSRF).status_code == 404
