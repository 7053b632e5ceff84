"""The colour TFT's screens: every game's layout at every size in both languages, whose turn in
the player's colour, the results in the winner's, the start screen's join code — and the Lock's
secret never on it before the game ends (two secrets, the same screens)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware_host.companion import Companion
from firmware_host.screens.words import check_words
from firmware_host.tft_screens.frames import game_frame, results_frame, start_frame
from firmware_host.tft_screens.words import WORDS
from rules import CHANCE
from tests.firmware_host.ui.conftest import Box, colour, tft_shows

SIZES = [(320, 240), (240, 240), (240, 320)]


def play(companion: Companion, game: str, players: list[str], options: dict[str, Any],
         actions: int) -> int:
    """A game with ``actions`` legal actions played (the first legal one each time)."""
    gid = companion.create_game(game, players, options)
    for _ in range(actions):
        view = companion.view(gid, None)
        if view["outcome"]:
            break
        seat = view["to_act"][0]
        if seat == CHANCE:
            companion.act(gid, CHANCE, "roll 3")
            continue
        legal = companion.view(gid, seat)["legal_actions"] if game == "hacktrick" else None
        if legal:
            companion.act(gid, seat, legal[0])
        elif game == "ico":
            verb = "roll" if view["phase"] in ("roll", "move") else "place"
            companion.act(gid, seat, f"{verb} {view['legal_edges'][0]}")
        elif game == "dice216":
            free = [(r, c) for r, row in enumerate(view["cells"]) for c, cell in enumerate(row)
                    if cell is None]
            companion.act(gid, seat, f"place {free[0][0] + 1} {free[0][1] + 1}")
    return gid


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    """A companion with the four games (the package's fixture has toy games)."""
    opened = Companion.open(tmp_path / "data")
    yield opened
    opened.close()


@pytest.fixture
def games(companion: Companion) -> dict[str, int]:
    return {
        "unlock": play(companion, "unlock", ["Lock", "Aiko", "Ben"], {"difficulty": "easy"}, 0),
        "hacktrick": play(companion, "hacktrick", ["Aiko", "Ben"], {}, 6),
        "ico": play(companion, "ico", ["Aiko", "Ben", "Chie"], {"start_face": "T0"}, 10),
        "dice216": play(companion, "dice216", ["Aiko", "Ben"], {"size": 6}, 12),
    }


def test_the_words_are_in_both_languages_with_the_same_blanks() -> None:
    assert check_words(WORDS) == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_game_shows_whose_turn_on_a_bar_of_their_colour(
    companion: Companion, games: dict[str, int], size: tuple[int, int], lang: str
) -> None:
    catalog = {entry["id"]: entry for entry in companion.catalog()}
    for game, gid in games.items():
        view = companion.view(gid, None)
        image = game_frame(view, info=catalog[game], title=catalog[game]["name"], size=size,
                           lang=lang)
        assert image.size == size and image.mode == "RGB"
        seats = [s for s in view["to_act"] if s >= 0]
        mover = seats[0] if len(seats) == 1 else view.get("mover")
        if isinstance(mover, int) and mover >= 0:
            bar_y = max(12, size[1] // 16) * 2 + 3
            assert image.getpixel((2, bar_y)) == colour(mover, view), game


def test_the_results_put_the_winner_on_a_bar_of_their_colour() -> None:
    view = {"game": "hacktrick", "seats": ["Aiko", "Ben"], "colours": ["white", "red"],
            "outcome": {"winners": [1], "scores": [2, 5]}, "points": [2, 5]}
    image = results_frame(view, title="Hacktrick", size=(320, 240), lang="ja")
    bar_y = max(12, 240 // 16) * 4 + 6
    assert image.getpixel((2, bar_y)) == colour(1, view)  # Ben's red


def test_the_start_screen_carries_a_join_code_of_the_address() -> None:
    image = start_frame("http://tabletop.local:8080/", size=(320, 240), lang="en")
    square = image.crop((100, 50, 220, 170))
    dark = dict((colour, n) for n, colour in square.getcolors(120 * 120) or []).get((24, 24, 28), 0)
    assert dark > 1000  # the QR code's modules


def secret_screens(box: Box, secret: tuple[int, ...]) -> list[bytes]:
    """A new UNLOCK game whose Lock draws ``secret`` and sends it: the TFT after each key."""
    for game in box.companion.games(status="active"):
        box.companion.abandon(game["id"])
    box.companion.create_game("unlock", ["Kenji", "Aiko", "Ben"], {"difficulty": "easy"})
    screens = []

    def shot() -> None:
        box.settle()
        frame = box.device.pad.tft.frame()
        assert frame is not None
        screens.append(frame.tobytes())

    shot()
    box.sim.ok()
    shot()
    for dot in secret:
        box.sim.tap(dot)
        shot()
    box.sim.ok()
    shot()
    return screens


def test_the_lock_drawing_and_sending_the_secret_shows_the_table_the_same(box: Box) -> None:
    first = secret_screens(box, (1, 2, 3))
    second = secret_screens(box, (7, 5, 3))
    assert first == second
    gid = box.companion.games(status="active")[0]["id"]
    assert box.companion.view(gid, 0)["secret"] == "3-5-7"  # it was sent (canonical)
    assert tft_shows(box, gid)


def test_the_device_page_shows_the_tft(box: Box) -> None:
    box.settle()  # the pad has drawn its first frames
    png = box.sim.tft_png()
    assert png is not None
    import io

    assert Image.open(io.BytesIO(png)).size == (320, 240)
