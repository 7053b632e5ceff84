"""What the pages draw, from real games played through the companion."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from rules import CHANCE
from tests.web_panel.served import CSRF, HOST_PIN, make_app

SECRET = "1-5-9-6"


def phone(app: Flask, game_id: int | None = None, seat: int | None = None) -> FlaskClient:
    client = app.test_client()
    if game_id is not None and seat is not None:
        reply = client.post(f"/api/games/{game_id}/seats/{seat}/claim", headers=CSRF)
        assert reply.status_code == 200
    return client


def act(client: FlaskClient, game_id: int, action: str) -> None:
    reply = client.post(f"/api/games/{game_id}/act", json={"action": action}, headers=CSRF)
    assert reply.status_code == 200, reply.get_json()


def html(client: FlaskClient, path: str) -> str:
    reply = client.get(path)
    assert reply.status_code == 200, reply.get_data(as_text=True)
    return reply.get_data(as_text=True)


def section(page: str, start: str, end: str) -> str:
    return page.split(start, 1)[1].split(end, 1)[0]


# --- UNLOCK -------------------------------------------------------------------------------

@pytest.fixture
def unlock(app: Flask, companion: Companion) -> tuple[int, FlaskClient, FlaskClient, FlaskClient]:
    """Aiko is the Lock (secret 1-5-9-6); Ben and Chie have played one turn."""
    game_id = companion.create_game("unlock", ["Aiko", "Ben", "Chie"])
    lock, ben, chie = phone(app, game_id, 0), phone(app, game_id, 1), phone(app, game_id, 2)
    act(lock, game_id, f"secret {SECRET}")
    act(ben, game_id, "guess 1-5-9")
    act(chie, game_id, "guess 4-5-6")
    return game_id, lock, ben, chie








def test_only_the_lock_sees_the_secret_while_the_game_goes_on(
    app: Flask, unlock: tuple[int, FlaskClient, FlaskClient, FlaskClient]
) -> None:
    game_id, lock, ben, chie = unlock
    assert SECRET in html(lock, f"/games/{game_id}")
    for viewer in (ben, chie, phone(app)):
        assert SECRET not in html(viewer, f"/games/{game_id}")



def test_a_die_roll_needs_a_seat_or_the_host(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    stranger = phone(app)
    reply = stranger.post(f"/api/games/{game_id}/chance", json={"roll": "random"}, headers=CSRF)
    assert reply.status_code == 401
    assert companion.view(game_id, None)["to_act"] == [CHANCE]


def test_random_roll_is_a_face_of_the_games_die(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    aiko = phone(app, game_id, 0)
    view = aiko.post(f"/api/games/{game_id}/chance", json={"roll": "random"},
                     headers=CSRF).get_json()
    assert 1 <= view["pending_roll"] <= 4





def test_new_game_form_shows_each_option_with_its_label_help_and_default(
    app: Flask, companion: Companion
) -> None:
    from markupsafe import escape

    from web_panel.games import builtin_panel_games

    host = phone(app)
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    panels = builtin_panel_games()
    for game in companion.catalog():
        registration = panels.get(game["id"])
        for lang in ("en", "ja"):
            host.set_cookie("tt_lang", lang)
            page = html(host, f"/host/new/{game['id']}")
            for option in game["options"]:
                name = option["name"]
                assert f'data-option="{name}"' in page
                if registration is None:
                    assert str(escape(option["help"])) in page
                    continue
                # a registered game names and explains each option in the page's language
                label = registration.text(f"option.{name}", lang)
                help_text = registration.text(f"help.{name}", lang)
                assert label and help_text, (game["id"], name, lang)
                assert f"<b>{escape(label)}</b>" in page
                assert str(escape(help_text)) in page


def test_host_starts_a_game_and_players_find_it_on_the_home_page(
    app: Flask, companion: Companion
) -> None:
    host = phone(app)
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    reply = host.post("/api/host/games", json={"game": "unlock", "players": ["Aiko", "Ben"],
                                               "options": {"difficulty": "hard", "size": "4"}},
                      headers=CSRF)
    game_id = reply.get_json()["game_id"]
    assert companion.view(game_id, None)["options"]["difficulty"] == "hard"
    home = html(phone(app), "/")
    assert f'href="/join/{game_id}"' in home and f'href="/games/{game_id}"' in home
    join = html(phone(app), f"/join/{game_id}")
    assert join.count("data-claim=") == 2


def test_home_shows_the_join_qr_for_the_panel_address(companion: Companion) -> None:
    app = make_app(companion, PUBLIC_URL="http://192.168.1.23:8080")
    page = html(app.test_client(), "/")
    assert '<svg class="qr"' in page and "<path" in section(page, '<svg class="qr"', "</svg>")
    assert "http://192.168.1.23:8080/" in page


def test_replay_steps_through_an_ended_game(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    companion.act(game_id, CHANCE, "roll 2")
    companion.act(game_id, 0, "place 1 1")
    companion.abandon(game_id)
    viewer = phone(app)
    first = html(viewer, f"/games/{game_id}/replay?step=0")
    assert "Step 0 of 2" in first
    second = html(viewer, f"/games/{game_id}/replay?step=2")
    assert "place 1 1" in second and "Aiko" in second
    # the board is drawn from the step's view, carried by the page
    step = section(second, '<script type="application/json" id="view-data">', "</script>")
    assert '"value": 2, "owner": 0' in step
    history = html(viewer, "/history")
    assert f"/games/{game_id}/replay" in history


def test_tournament_page_lists_the_standings(app: Flask, companion: Companion) -> None:
    tid = companion.create_tournament("unlock", ["Aiko", "Ben", "Chie"])
    page = html(phone(app), f"/tournaments/{tid}")
    standings = section(page, 'class="standings"', "</table>")
    for row in companion.tournament(tid)["standings"]:
        assert row["name"] in standings
    assert all(f"/games/{g}" in page for g in companion.tournament(tid)["games"])




