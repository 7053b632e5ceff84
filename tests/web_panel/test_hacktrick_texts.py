"""Hacktrick's words on the panel: every option, choice, game-end reason and round end in both
languages; help that says where a value departs from the seed; a new-game form that shows no
identifier."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask

from rules.hacktrick import GAME
from rules.hacktrick.endings import Reason, RoundEnd
from tests.web_panel.served import CSRF, HOST_PIN
from web_panel.games.hacktrick import PANEL
from web_panel.i18n import LANGUAGES

#: Options whose non-default value departs from seed 001 (docs/rules-notes.md).
DEPARTURES = ("target", "x2_marker", "declare_after_draw", "ask_under_play")
#: How each language says "departs from the rules".
DEPARTS = {"en": "departs from the rules", "ja": "ルールと異なる"}
IDENTIFIER = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


def keys_the_rules_name() -> list[str]:
    keys = []
    for option in GAME.options:
        keys += [f"option.{option.name}", f"help.{option.name}"]
        keys += [f"choice.{option.name}.{choice}" for choice in option.choices or ()]
    keys += [f"reason.{reason}" for reason in Reason]
    keys += [f"round_end.{end}" for end in RoundEnd]
    return keys


@pytest.mark.parametrize("key", keys_the_rules_name())
def test_each_option_choice_and_ending_has_words_in_both_languages(key: str) -> None:
    for lang in LANGUAGES:
        text = PANEL.text(key, lang)
        assert text and text.strip(), (key, lang)
        assert not IDENTIFIER.search(text), (key, lang, text)


@pytest.mark.parametrize("name", DEPARTURES)
def test_help_says_where_an_option_departs_from_the_seed(name: str) -> None:
    assert name in {option.name for option in GAME.options}
    for lang, words in DEPARTS.items():
        assert words in (PANEL.text(f"help.{name}", lang) or ""), (name, lang)


class ShownText(HTMLParser):
    """The text a reader sees: text nodes outside scripts and styles, and option labels."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_new_game_form_names_every_choice_and_default_in_words(app: Flask,
                                                                   lang: str) -> None:
    host = app.test_client()
    host.post("/api/host/login", json={"pin": HOST_PIN}, headers=CSRF)
    host.set_cookie("tt_lang", lang)
    reply = host.get("/host/new/hacktrick")
    assert reply.status_code == 200
    page = reply.get_data(as_text=True)
    reader = ShownText()
    reader.feed(page)
    shown = " ".join(reader.parts)
    assert not IDENTIFIER.search(shown), IDENTIFIER.findall(shown)
    for option in GAME.options:
        for choice in option.choices or ():
            assert f">{PANEL.text(f'choice.{option.name}.{choice}', lang)}<" in page
    default = PANEL.text("choice.out_of_markers.own_colour", lang)
    assert re.search(r'data-option="out_of_markers".*?<span class="muted">[^<]*'
                     + re.escape(str(default)), page, re.S)
