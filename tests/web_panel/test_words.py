"""Words a player should never see: refusals in the page's language without internal reason
codes, option identifiers or 0-based seats; times relative to now; a new-game form that asks
only what a game takes and keeps the rules' defaults."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from tests.web_panel.served import CSRF, HOST_PIN
from web_panel.refusals import phrase
from web_panel.times import ago


def seated(app: Flask, game_id: int, seat: int, lang: str = "en") -> FlaskClient:
    client = app.test_client()
    client.set_cookie("tt_lang", lang)
    reply = client.post(f"/api/games/{game_id}/seats/{seat}/claim", headers=CSRF)
    assert reply.status_code == 200
    return client


def host(app: Flask, lang: str = "en") -> FlaskClient:
    client = app.test_client()
    client.set_cookie("tt_lang", lang)
    assert client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF).status_code == 200
    return client


def refusal(client: FlaskClient, game_id: int, action: str) -> dict[str, str]:
    reply = client.post(f"/api/games/{game_id}/act", json={"action": action}, headers=CSRF)
    assert reply.status_code == 409
    body: dict[str, str] = reply.get_json()
    return body


def repeated_guess(app: Flask, companion: Companion, lang: str) -> dict[str, str]:
    game_id = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    companion.act(game_id, 0, "secret 1-5-9-6")
    companion.act(game_id, 1, "guess 1-2-3")
    companion.act(game_id, 2, "guess 4-5-6")
    return refusal(seated(app, game_id, 1, lang), game_id, "guess 3-2-1")


def test_a_repeated_code_is_refused_without_the_options_identifier(
    app: Flask, companion: Companion
) -> None:
    said = repeated_guess(app, companion, "en")
    assert "already" in said["message"]
    assert "repeats=reject" not in said["message"] and "option" not in said["message"]


def test_a_repeated_code_is_refused_in_japanese_on_a_japanese_phone(
    app: Flask, companion: Companion
) -> None:
    said = repeated_guess(app, companion, "ja")
    assert said["message"].startswith("1-2-3はターン1にすでに描かれたコードです")
    assert "detail" not in said  # said once, in the phone's language


def test_an_english_refusal_counts_seats_from_one() -> None:
    said = phrase("illegal_action", "it is seat 0's turn to place, not seat 1's", "en")
    assert said.message == "it is seat 1's turn to place, not seat 2's"
    japanese = phrase("illegal_action", "it is seat 0's turn to place, not seat 1's", "ja")
    assert japanese.message == "プレイヤー1の番です。"


def test_a_rule_without_a_translation_says_so_in_japanese_and_keeps_the_rules_words_apart(
) -> None:
    said = phrase("illegal_action", "some rule nobody translated (option x2_marker is off)", "ja")
    assert said.message == "ルールによりその操作はできません。"
    assert said.detail == "some rule nobody translated"


def test_the_panels_own_refusals_are_in_japanese(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Hana", "Ian"])
    ian = seated(app, game_id, 1, "ja")
    reply = ian.post(f"/api/games/{game_id}/chance", json={"roll": "random"}, headers=CSRF)
    assert reply.status_code == 403
    assert reply.get_json()["message"].startswith("このサイコロはあなたが振る番ではありません")


def test_the_panels_own_refusals_are_never_said_as_the_rules_refusing(
        app: Flask, companion: Companion) -> None:
    """A refusal of the panel's own in Japanese: its own words where it has them, else that the
    box cannot answer, with its English kept apart; never "the rules do not allow it"."""
    game_id = companion.create_game("unlock", ["Hana", "Ian"])
    client = app.test_client()
    client.set_cookie("tt_lang", "ja")
    analysis = client.get(f"/api/games/{game_id}/analysis").get_json()
    assert analysis == {"error": "game_not_over",
                        "message": "このゲームはまだ進行中です。分析はゲームの終了後に出ます。"}
    wordless = client.post("/api/games", json={}).get_json()  # no CSRF header
    assert wordless["error"] == "csrf"
    assert wordless["message"] == "本体はこのリクエストに応えられません。"
    assert wordless["detail"].startswith("State-changing requests must send the header")
    said = phrase("no_such_language", "Unknown language 'fr'.", "ja", own=True)
    assert (said.message, said.detail) == ("本体はこのリクエストに応えられません。",
                                           "Unknown language 'fr'.")


def test_a_bad_option_is_named_by_its_label(app: Flask) -> None:
    client = host(app, "ja")
    reply = client.post("/api/host/games", headers=CSRF, json={
        "game": "dice216", "players": ["Hana", "Ian"],
        "options": {"size": "4", "diagonals": "on"}})
    assert reply.status_code == 400
    message = reply.get_json()["message"]
    assert "6マス" in message and "diagonal_cells" not in message


@pytest.mark.parametrize(("seconds", "en", "ja"), [
    (20, "just now", "たった今"), (60, "1 min ago", "1 分前"),
    (3 * 3600, "3 hours ago", "3 時間前"), (86400, "1 day ago", "1 日前")])
def test_times_are_said_relative_to_now(seconds: int, en: str, ja: str) -> None:
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    stamp = (now - timedelta(seconds=seconds)).isoformat()
    assert ago(stamp, "en", now) == en
    assert ago(stamp, "ja", now) == ja


def test_history_shows_when_a_game_ended_relative_to_now(app: Flask,
                                                        companion: Companion) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben"])
    companion.abandon(game_id)
    client = app.test_client()
    client.set_cookie("tt_lang", "ja")
    page = client.get("/history").get_data(as_text=True)
    stamp = companion.summary(game_id)["ended"]
    assert f'<time datetime="{stamp}" data-ago>たった今</time>' in page
    assert page.count(str(stamp)) == 1  # only in the attribute, never as text


def test_a_two_player_game_asks_for_exactly_two_players(app: Flask) -> None:
    page = host(app).get("/host/new/hacktrick").get_data(as_text=True)
    assert "Players: 2" in page and "2–2" not in page
    assert 'id="add-player"' not in page


def test_seat_options_name_players_from_one_and_no_option_shows_an_identifier(
    app: Flask
) -> None:
    page = host(app).get("/host/new/ico").get_data(as_text=True)
    first = page.split('data-option="first_player"', 1)[1].split('class="help"', 1)[0]
    assert ">Player 1<" in first and ">Chosen at random<" in first
    assert ">0<" not in first
    choices = [text.strip() for text in re.findall(r"<option[^>]*>([^<]*)<", page)]
    assert not {"none", "random", "0", "1"} & set(choices), choices


def create(client: FlaskClient, players: list[str], options: dict[str, str]) -> int:
    reply = client.post("/api/host/games", headers=CSRF, json={
        "game": "dice216", "players": players, "options": options})
    assert reply.status_code == 200, reply.get_json()
    game_id: int = reply.get_json()["game_id"]
    return game_id


def test_the_2_1_6_form_leaves_size_and_handicap_to_the_rules(app: Flask,
                                                              companion: Companion) -> None:
    page = host(app).get("/host/new/dice216").get_data(as_text=True)
    for name in ("size", "handicap"):
        field = page.split(f'id="opt-{name}"', 1)[1].split("</select>", 1)[0]
        assert re.search(r'<option value="" selected>', field), name
    # what the form sends with its defaults (empty fields are left out): the rules decide
    client = host(app)
    three = create(client, ["Hana", "Ian", "Jun"], {"line_total": "all", "diagonals": "off"})
    assert companion.view(three, None)["size"] == 12
    diagonals = create(client, ["Hana", "Ian"], {"diagonals": "on"})
    assert companion.view(diagonals, None)["options"]["handicap"] is True


def test_the_boxs_health_is_said_in_words_its_status_codes_kept_as_a_detail(
        app: Flask) -> None:
    client = app.test_client()
    assert client.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF).status_code == 200
    client.set_cookie("tt_lang", "ja")
    host = client.get("/host").get_data(as_text=True)
    assert "ハードウェア: シミュレーター · OLED: 見つかりません" in host
    shown = host.split('<details class="detail')[0]
    assert "missing" not in shown and ": simulator" not in shown
    home = client.get("/").get_data(as_text=True).split('id="messages"')[0]  # the page, not
    assert "画面: 見つかりません" in home and "missing" not in home         # its scripts' words
