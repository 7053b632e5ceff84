"""What the pages draw, from real games played through the companion."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from rules import CHANCE
from tests.web_panel.served import CSRF, HOST_PIN, make_app
from web_panel.rendering import clue_columns, score_track
from web_panel.score_chart import chart_for_replay, chart_for_view

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


def test_clue_cards_lie_in_the_column_of_their_matches(
    app: Flask, unlock: tuple[int, FlaskClient, FlaskClient, FlaskClient]
) -> None:
    game_id = unlock[0]
    page = html(phone(app), f"/games/{game_id}")
    board = section(page, 'class="clue-board"', "</figure>")
    columns = {m.group(1): m.group(2) for m in re.finditer(
        r'data-matches="(\d+)">(.*?)(?=<div class="clue-column"|$)', board, re.S)}
    # 1-5-9 shares lines 1-5 and 5-9 with the secret: 2 matches, 0 misses, +2.
    assert "Ben" in columns["2"] and "+2" in columns["2"]
    # 4-5-6 shares none: 0 matches, 2 misses, −2.
    assert "Chie" in columns["0"] and "-2" in columns["0"]
    assert set(columns) >= {"0", "1", "2", "3", "4", "5"}


def test_clue_board_grows_a_column_for_more_than_five_matches() -> None:
    board = [{"turn": 1, "seat": 1, "code": "1-2-3-6-9-8-7-4-5", "matches": 8, "misses": 0,
              "points": 8}]
    assert [c["matches"] for c in clue_columns({"clue_board": board})] == list(range(9))


def test_score_track_runs_from_minus_ten_to_a_hundred() -> None:
    track = score_track({"seats": ["A", "B", "C"], "lock": 0, "scores": [0, 3, -2]})
    values = [cell["value"] for row in track["rows"] for cell in row]
    assert values == list(range(-10, 101))
    assert not track["extended"]
    placed = {s for row in track["rows"] for cell in row for s in cell["seats"]
              if cell["value"] in (3, -2)}
    assert placed == {1, 2}


def test_score_track_extends_when_a_score_leaves_it() -> None:
    track = score_track({"seats": ["A", "B", "C"], "lock": 0, "scores": [0, -13, 104]})
    values = [cell["value"] for row in track["rows"] for cell in row]
    assert values[0] <= -13 and values[-1] >= 104
    assert values == list(range(values[0], values[-1] + 1))
    assert track["extended"]
    assert all(len(row) <= 10 for row in track["rows"])


def test_the_lock_does_not_stand_on_the_score_track() -> None:
    track = score_track({"seats": ["A", "B"], "lock": 0, "scores": [0, 5]})
    assert [s for row in track["rows"] for cell in row for s in cell["seats"]] == [1]


def test_score_chart_draws_each_guesser(
    app: Flask, unlock: tuple[int, FlaskClient, FlaskClient, FlaskClient]
) -> None:
    page = html(phone(app), f"/games/{unlock[0]}")
    chart = section(page, '<figure class="chart">', "</figure>")
    assert chart.count("<polyline") == 2
    assert "Ben 2" in chart and "Chie -2" in chart


def test_only_the_lock_sees_the_secret_while_the_game_goes_on(
    app: Flask, unlock: tuple[int, FlaskClient, FlaskClient, FlaskClient]
) -> None:
    game_id, lock, ben, chie = unlock
    assert SECRET in html(lock, f"/games/{game_id}")
    for viewer in (ben, chie, phone(app)):
        assert SECRET not in html(viewer, f"/games/{game_id}")


def test_the_pattern_pad_is_on_every_unlock_page_with_the_game_settings(
    app: Flask, unlock: tuple[int, FlaskClient, FlaskClient, FlaskClient]
) -> None:
    game_id, _, ben, _ = unlock
    page = html(ben, f"/games/{game_id}")
    assert 'id="pad"' in page and "pattern.js" in page
    view = section(page, '<script type="application/json" id="view-data">', "</script>")
    assert '"difficulty": "medium"' in view and '"you": 1' in view


# --- the other games ------------------------------------------------------------------------

def test_ico_net_marks_the_active_face_and_the_movers_legal_edges(
    app: Flask, companion: Companion
) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"], {"start_face": "T0"})
    mover, other = phone(app, game_id, 0), phone(app, game_id, 1)
    view = companion.view(game_id, 0)
    page = html(mover, f"/games/{game_id}")
    assert re.search(r'class="face active" d="[^"]+" fill="[^"]+" data-face="T0"', page)
    assert len(re.findall(r'class="face( active)?"', page)) == 20
    assert len(re.findall(r'class="edge( legal)?"', page)) == 30
    offered = set(re.findall(r'<button type="button" data-action="place ([^"]+)"', page))
    assert offered == set(view["legal_edges"])
    assert "data-action" not in html(other, f"/games/{game_id}")
    edge = view["legal_edges"][0]
    act(mover, game_id, f"place {edge}")
    after = html(other, f"/games/{game_id}")
    assert after.count('class="marker"') == 1


def test_ico_opposite_faces_share_a_colour(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"])
    page = html(phone(app), f"/games/{game_id}")
    fill_of = {face: fill for fill, face in re.findall(r'fill="([^"]+)" data-face="([^"]+)"', page)}
    assert len(fill_of) == 20 and len(set(fill_of.values())) == 10
    for face in companion.view(game_id, None)["faces"]:
        assert fill_of[face["id"]] == fill_of[face["opposite"]]


def test_dice216_grid_offers_every_empty_cell_to_the_mover_only(
    app: Flask, companion: Companion
) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    aiko, ben = phone(app, game_id, 0), phone(app, game_id, 1)
    page = html(aiko, f"/games/{game_id}")
    assert page.count("data-chance=") == 4 and "data-chance-random" in page
    reply = aiko.post(f"/api/games/{game_id}/chance", json={"action": "roll 3"}, headers=CSRF)
    assert reply.status_code == 200
    page = html(aiko, f"/games/{game_id}")
    assert len(re.findall(r'data-action="place \d+ \d+"', page)) == 16
    assert "data-action" not in html(ben, f"/games/{game_id}")
    act(aiko, game_id, "place 2 3")
    page = html(ben, f"/games/{game_id}")
    tally = section(page, 'class="lines-table"', "</table>")
    assert re.search(r"Row 2</td><td><span[^>]*>Aiko</span></td><td>3</td>", tally)
    assert re.search(r"Column 3</td><td><span[^>]*>Aiko</span></td><td>3</td>", tally)


def test_a_die_roll_needs_a_seat_or_the_host(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"])
    stranger = phone(app)
    reply = stranger.post(f"/api/games/{game_id}/chance", json={"roll": "random"}, headers=CSRF)
    assert reply.status_code == 401
    assert 'data-chance="' not in html(stranger, f"/games/{game_id}")
    assert companion.view(game_id, None)["to_act"] == [CHANCE]


def test_random_roll_is_a_face_of_the_games_die(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("dice216", ["Aiko", "Ben"], {"size": 4})
    aiko = phone(app, game_id, 0)
    view = aiko.post(f"/api/games/{game_id}/chance", json={"roll": "random"},
                     headers=CSRF).get_json()
    assert 1 <= view["pending_roll"] <= 4


def test_hacktrick_hand_shows_only_on_its_holders_phone(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("hacktrick", ["Aiko", "Ben"], seed=7)
    aiko, ben = phone(app, game_id, 0), phone(app, game_id, 1)
    mover = companion.view(game_id, None)["to_act"][0]
    mover_phone, other_phone = (aiko, ben) if mover == 0 else (ben, aiko)
    hand = companion.view(game_id, mover)["hands"][mover]["cards"]
    page = html(mover_phone, f"/games/{game_id}")
    assert sorted(int(v) for v in re.findall(r'data-pick="(\d)"', page)) == sorted(set(hand))
    other = 1 - mover
    other_hand = companion.view(game_id, other)["hands"][other]["cards"]
    other_page = html(other_phone, f"/games/{game_id}")
    shown = [int(v) for v in re.findall(r'data-card big-card">(\d)<', other_page)]
    assert shown == other_hand
    assert "data-pick" not in other_page
    assert "big-card" not in html(phone(app), f"/games/{game_id}")


def test_hacktrick_lead_from_the_phone(app: Flask, companion: Companion) -> None:
    game_id = companion.create_game("hacktrick", ["Aiko", "Ben"], seed=7)
    mover = companion.view(game_id, None)["to_act"][0]
    client = phone(app, game_id, mover)
    page = html(client, f"/games/{game_id}")
    lead = re.search(r'data-action="(lead \d)"', page)
    assert lead is not None
    act(client, game_id, lead.group(1))
    assert companion.view(game_id, None)["row"] == [int(lead.group(1).split()[1])]


def play_until_the_deck_is_rebuilt(companion: Companion, game_id: int) -> int:
    """Draw whenever allowed, else play the first card allowed; the step (1-based) whose draw
    emptied the deck."""
    for step in range(1, 300):
        seat = companion.view(game_id, None)["to_act"][0]
        legal = [a for a in companion.view(game_id, seat)["legal_actions"] if "declare" not in a]
        companion.act(game_id, seat, "draw" if "draw" in legal else legal[0])
        if companion.view(game_id, None)["reshuffled"] is not None:
            return step
    raise AssertionError("the deck was never rebuilt")


def test_hacktrick_deck_rebuild_shows_on_the_board_and_in_the_replay(
    app: Flask, companion: Companion
) -> None:
    # Seed 001: "もし山札が尽きてしまったら…残りのカードを全てシャッフルし新たな山札とします".
    game_id = companion.create_game("hacktrick", ["Aiko", "Ben"],
                                    {"out_of_markers": "empty_supply", "target": 9}, seed=3)
    step = play_until_the_deck_is_rebuilt(companion, game_id)
    rebuilt = companion.view(game_id, None)["reshuffled"]
    drawer = ["Aiko", "Ben"][rebuilt["seat"]]
    text = (f"{drawer}&#39;s draw emptied the deck: the row&#39;s {rebuilt['cards']} cards (all "
            "but the rightmost) were shuffled into a new deck.")
    assert text in html(phone(app), f"/games/{game_id}")
    companion.abandon(game_id)
    viewer = phone(app)
    assert text in html(viewer, f"/games/{game_id}/replay?step={step}")
    assert "emptied the deck" not in html(viewer, f"/games/{game_id}/replay?step={step - 1}")


# --- host, history, tournaments, home --------------------------------------------------------

def test_new_game_form_shows_each_option_with_help_and_default(app: Flask,
                                                               companion: Companion) -> None:
    host = phone(app)
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    for game in companion.catalog():
        page = html(host, f"/host/new/{game['id']}")
        for option in game["options"]:
            assert f'data-option="{option["name"]}"' in page
            assert str(option["help"]).replace("'", "&#39;").replace('"', "&#34;") in page


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
    assert re.search(r'class="cell owned"[^>]*>2<', second)
    assert not re.search(r'class="cell owned"', first)
    history = html(viewer, "/history")
    assert f"/games/{game_id}/replay" in history


def test_tournament_page_lists_the_standings(app: Flask, companion: Companion) -> None:
    tid = companion.create_tournament("unlock", ["Aiko", "Ben", "Chie"])
    page = html(phone(app), f"/tournaments/{tid}")
    standings = section(page, 'class="standings"', "</table>")
    for row in companion.tournament(tid)["standings"]:
        assert row["name"] in standings
    assert all(f"/games/{g}" in page for g in companion.tournament(tid)["games"])


def test_a_finished_tournament_game_links_to_the_standings(app: Flask,
                                                           companion: Companion) -> None:
    tid = companion.create_tournament("unlock", ["Aiko", "Ben"])
    game_id = companion.tournament(tid)["games"][0]
    lock = companion.view(game_id, None)["lock"]
    companion.act(game_id, lock, "secret 1-2-3")
    companion.act(game_id, 1 - lock, "guess 1-2-3")
    page = html(phone(app), f"/games/{game_id}")
    outcome = section(page, 'class="outcome card"', "</div>")
    assert f'href="/tournaments/{tid}"' in outcome


def test_hacktrick_chart_adds_each_rounds_points_to_its_winner() -> None:
    view = {"game": "hacktrick", "seats": ["Aiko", "Ben"],
            "rounds": [{"round": 1, "winner": 1, "points": 2},
                       {"round": 2, "winner": 0, "points": 1},
                       {"round": 3, "winner": 1, "points": 1}]}
    drawn = chart_for_view(view)
    assert drawn is not None
    assert [(line["name"], line["last"]) for line in drawn["lines"]] == [("Aiko", 1), ("Ben", 3)]
    assert [tick["label"] for tick in drawn["x_ticks"]] == ["0", "1", "2", "3"]


def test_replay_chart_follows_the_scores_step_by_step() -> None:
    steps = [{"view": {"seats": ["A", "B"], "totals": [0, 0]}},
             {"view": {"seats": ["A", "B"], "totals": [4, 0]}},
             {"view": {"seats": ["A", "B"], "totals": [4, 9]}}]
    drawn = chart_for_replay(steps)
    assert drawn is not None
    assert [line["last"] for line in drawn["lines"]] == [4, 9]
    assert chart_for_replay(steps[:1]) is None


def test_host_undo_is_offered_only_when_the_last_action_can_be_taken_back(
    app: Flask, companion: Companion
) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben"])
    host = phone(app)
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    undo = re.compile(r'<button class="secondary" data-host-post="[^"]+/undo"( disabled)?>')
    found = undo.search(html(host, f"/games/{game_id}"))
    assert found is not None and found.group(1) == " disabled"
    companion.act(game_id, 0, "secret 1-2-3")
    found = undo.search(html(host, f"/games/{game_id}"))
    assert found is not None and found.group(1) is None
    assert host.post(f"/api/host/games/{game_id}/undo", headers=CSRF).status_code == 200
    assert companion.view(game_id, 0)["secret"] is None
    assert "data-host-post" not in html(phone(app), f"/games/{game_id}")


def test_unlock_page_says_how_many_codes_still_fit_the_clue_board(
    app: Flask, companion: Companion, unlock: tuple[int, FlaskClient, FlaskClient, FlaskClient]
) -> None:
    game_id = unlock[0]
    count = companion.view(game_id, None)["codes_remaining"]
    page = html(phone(app), f"/games/{game_id}")
    assert f"{count} codes still fit the clue board." in page
