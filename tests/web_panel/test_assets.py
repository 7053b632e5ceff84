"""The panel's own files as a browser gets them: no template, script or style sheet carries a
merge conflict's markers (a page would show them, a style sheet would lose its rules)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from web_panel.games import builtin_panel_games
from web_panel.messages import MESSAGES

PANEL = Path(__file__).resolve().parents[2] / "web_panel"
MARKER = re.compile(r"^(<{7}|={7}|>{7})(\s|$)", re.MULTILINE)
FILES = sorted(p for p in PANEL.rglob("*") if p.suffix in (".html", ".js", ".css", ".py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PANEL)))
def test_no_panel_file_holds_a_merge_conflicts_markers(path: Path) -> None:
    found = [m.group(0).strip() for m in MARKER.finditer(path.read_text(encoding="utf-8"))]
    assert not found, f"{path.relative_to(PANEL)} holds conflict markers {found}"


def test_a_game_page_loads_one_script_after_panel_js_holding_the_core_and_the_games_own(
    client: FlaskClient, companion: Companion
) -> None:
    game_id = companion.create_game("unlock", ["Lock", "Aiko", "Ben"], {})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert len(scripts) == 3 and scripts[0].startswith("/texts/en.js?v="), scripts
    assert scripts[1].startswith("/static/panel.js"), scripts
    assert scripts[2].startswith("/boards/unlock/page.js?v="), scripts
    # each in the head, run in order once the page is parsed, nothing drawn before they ran
    assert all(page.index(f'<script src="{src}" defer blocking="render">') < page.index("</head>")
               for src in scripts)
    reply = client.get(scripts[2])
    assert reply.status_code == 200 and reply.mimetype == "text/javascript"
    assert reply.cache_control.max_age == 86400
    body = reply.get_data(as_text=True)
    # V8 compiles every function as the script loads, off the main thread, only when told so
    # on the script's very first line (read nowhere else)
    assert body.split("\n", 1)[0] == "//# allFunctionsCalledOnLoad"
    parts = [PANEL / "static" / name for name in ("kit.js", "generic.js", "game.js")] + [
        PANEL / "games" / "unlock" / name for name in ("board.js", "pattern.js")]
    places = [body.index(part.read_text(encoding="utf-8").rstrip()) for part in parts]
    assert places == sorted(places), "the scripts in their page order"
    # the version in the URL is the joined text's: another text, another URL
    assert scripts[2].endswith("v=" + hashlib.sha256(reply.get_data()).hexdigest()[:12])


def texts_of(script: str) -> dict[str, str]:
    """The texts a ``/texts/<lang>.js`` script gives the page (``window.TabletopTexts``)."""
    found = re.fullmatch(r"window\.TabletopTexts = JSON\.parse\((.*)\);\n", script, re.DOTALL)
    assert found, script[:200]
    texts = json.loads(json.loads(found.group(1)))
    assert isinstance(texts, dict)
    return texts


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_page_has_the_panels_texts_from_a_script_it_may_keep_and_carries_only_the_games(
    client: FlaskClient, companion: Companion, lang: str
) -> None:
    client.set_cookie("tt_lang", lang)
    game_id = companion.create_game("ico", ["Aiko", "Ben"], {})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    url = re.search(r'<script src="(/texts/[^"]+)"', page)
    assert url and url.group(1).startswith(f"/texts/{lang}.js?v="), page[:2000]
    reply = client.get(url.group(1))
    assert reply.status_code == 200 and reply.mimetype == "text/javascript"
    assert reply.cache_control.max_age == 86400 and reply.cache_control.public
    assert url.group(1).endswith("v=" + hashlib.sha256(reply.get_data()).hexdigest()[:12])
    assert texts_of(reply.get_data(as_text=True)) == {
        key: entry[lang] for key, entry in MESSAGES.items()}
    inline = json.loads(re.search(r'id="messages">(.*?)</script>', page, re.DOTALL).group(1))
    ico = builtin_panel_games(["ico"])["ico"]
    assert inline == {key: entry[lang] for key, entry in ico.texts.items()}
    # and no page without a game carries any
    home = client.get("/").get_data(as_text=True)
    assert re.search(r'id="messages">(.*?)</script>', home, re.DOTALL).group(1) == "{}"
    assert f'<script src="{url.group(1)}"' in home  # the same script: kept from page to page


def test_the_texts_of_a_language_the_panel_does_not_speak_are_a_404(client: FlaskClient) -> None:
    reply = client.get("/texts/fr.js")
    assert reply.status_code == 404
    assert "There are no texts in &#39;fr&#39;." in reply.get_data(as_text=True)


def test_a_game_page_carries_its_games_description_without_the_hosts_form(
    client: FlaskClient, companion: Companion
) -> None:
    game_id = companion.create_game("ico", ["Aiko", "Ben"], {})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    data = json.loads(re.search(r'id="game-data">(.*?)</script>', page, re.DOTALL).group(1))
    assert data["info"]["id"] == "ico" and data["info"]["board"]  # the net the board draws
    assert "options" not in data["info"] and "notes" not in data["info"]


def test_the_joined_script_of_a_game_the_catalogue_does_not_know_is_a_404(
    client: FlaskClient
) -> None:
    reply = client.get("/boards/nosuchgame/page.js")
    assert reply.status_code == 404 and "nosuchgame" in reply.get_data(as_text=True)


def test_the_pages_draw_seats_in_the_boxs_own_palette() -> None:
    from firmware_host.seat_colours import NAMED, SEAT_COLOURS

    kit = (PANEL / "static" / "kit.js").read_text(encoding="utf-8")
    palette = re.search(r"const SEAT_COLOURS = \[([^\]]*)\]", kit)
    named = re.search(r"const NAMED = \{([^}]*)\}", kit)
    assert palette is not None and named is not None
    assert tuple(re.findall(r'"(#[0-9a-f]{6})"', palette.group(1))) == SEAT_COLOURS
    assert dict(re.findall(r'(\w+): "(#[0-9a-f]{6})"', named.group(1))) == NAMED


def test_pages_name_a_png_icon_and_the_icon_browsers_ask_for_is_the_same(
    client: FlaskClient
) -> None:
    """An SVG icon is a whole SVG document for the page's own process to build on a first visit
    (scripts/favicon.py); the icon is a small PNG, named by every page and at /favicon.ico."""
    page = client.get("/").get_data(as_text=True)
    links = re.findall(r'<link rel="icon" href="([^"]+)" type="([^"]+)"', page)
    assert len(links) == 1 and links[0][1] == "image/png", links
    named = client.get(links[0][0])
    asked = client.get("/favicon.ico")
    assert named.status_code == asked.status_code == 200
    assert named.mimetype == asked.mimetype == "image/png"
    assert named.get_data() == asked.get_data()
    assert "svg" not in page.split("<body")[0].lower()  # no other icon of the head is an SVG


def test_the_icon_is_what_scripts_favicon_draws() -> None:
    from PIL import Image, ImageChops

    from tests.project_scripts import load

    script = load("favicon")
    with Image.open(PANEL / "static" / "favicon.png") as committed:
        assert committed.format == "PNG" and committed.size == (32, 32)
        drawn = script.draw()
        # a Pillow of another version may round a pixel differently, never draw another icon
        difference = ImageChops.difference(committed.convert("RGBA"), drawn)
        assert max(high for _, high in difference.getextrema()) <= 8, (
            "web_panel/static/favicon.png is not what scripts/favicon.py draws; run "
            ".venv/bin/python scripts/favicon.py")


STYLE_SHEETS = sorted(PANEL.rglob("*.css"))


@pytest.mark.parametrize("path", STYLE_SHEETS, ids=lambda p: str(p.relative_to(PANEL)))
def test_the_panels_type_has_two_weights(path: Path) -> None:
    """Each weight is a font strike of its own for a page's first visit (panel.css)."""
    weights = set(re.findall(r"font-weight:\s*([^;}\s]+)", path.read_text(encoding="utf-8")))
    assert weights <= {"400", "700"}, f"{path.relative_to(PANEL)} uses weights {sorted(weights)}"
