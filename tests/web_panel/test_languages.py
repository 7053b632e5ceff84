"""English and Japanese: every message in both, chosen from the browser or the toggle."""

from __future__ import annotations

import re
import string

import pytest
from flask.testing import FlaskClient

from firmware_host.companion import Companion
from web_panel.games import builtin_panel_games
from web_panel.i18n import LANGUAGES
from web_panel.messages import MESSAGES

#: Every text: the panel's, and each game's (``game:key``).
TEXTS = {**MESSAGES, **{f"{game.id}:{key}": words for game in builtin_panel_games().values()
                        for key, words in game.texts.items()}}


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_every_text_is_in_both_languages_with_the_same_blanks(key: str) -> None:
    entry = TEXTS[key]
    assert set(entry) == set(LANGUAGES)
    assert all(text.strip() for text in entry.values())
    blanks = {lang: {f for _, f, _, _ in string.Formatter().parse(text) if f}
              for lang, text in entry.items()}
    assert blanks["en"] == blanks["ja"]


def test_browser_language_japanese_gives_japanese_pages(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "ja,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="ja">' in page
    assert MESSAGES["current_games"]["ja"] in page


def test_browser_language_english_or_unknown_gives_english(client: FlaskClient) -> None:
    for header in ("en-GB,en;q=0.9", "fr-FR", ""):
        page = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
        assert '<html lang="en">' in page
        assert MESSAGES["current_games"]["en"] in page


def test_the_toggle_overrides_the_browser_and_returns_to_the_page(client: FlaskClient) -> None:
    reply = client.get("/lang/ja?next=/history", headers={"Accept-Language": "en"})
    assert reply.status_code == 303 and reply.headers["Location"] == "/history"
    page = client.get("/history", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="ja">' in page and MESSAGES["nav_history"]["ja"] in page
    toggle = re.search(r'id="lang-toggle" href="([^"]+)"', page)
    assert toggle is not None and toggle.group(1).startswith("/lang/en")


def test_page_scripts_get_their_messages_in_the_pages_language(
    client: FlaskClient, companion: Companion
) -> None:
    game_id = companion.create_game("unlock", ["Aiko", "Ben"])
    page = client.get(f"/games/{game_id}", headers={"Accept-Language": "ja"}).get_data(
        as_text=True)
    unlock = builtin_panel_games()["unlock"]
    assert unlock.texts["hint_ok"]["ja"] in page  # the game's texts, for its board script
    assert unlock.texts["hint_ok"]["en"] not in page
    assert MESSAGES["game_over"]["ja"] in page  # and the panel's
