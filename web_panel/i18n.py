"""English and Japanese: the language of a request and the lookup of a text.

The language comes from the ``tt_lang`` cookie (the toggle) or else the browser's
``Accept-Language``; English is the fallback. The panel's own texts live in
:mod:`web_panel.messages`, each game's with the game (``web_panel/games/<game>/``); every text is
in both languages (a test checks it).
"""

from __future__ import annotations

from flask import g, request

from web_panel.games import PanelGame
from web_panel.messages import MESSAGES

#: The cookie that keeps the language a phone chose with the toggle.
LANG_COOKIE = "tt_lang"
LANGUAGES: tuple[str, ...] = ("en", "ja")
DEFAULT_LANGUAGE = "en"


def current_language() -> str:
    """The language of this request: the toggle's cookie, else the browser's preference."""
    cached: str | None = g.get("tt_lang")
    if cached is not None:
        return cached
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen not in LANGUAGES:
        chosen = request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE
    g.tt_lang = chosen
    return chosen


def translate(key: str, lang: str | None = None, default: str | None = None,
              **values: object) -> str:
    """The panel's text ``key`` in ``lang`` (default: the request's), ``{name}`` filled in.

    ``default`` is returned for a key the catalogue lacks.
    """
    entry = MESSAGES.get(key)
    if entry is None:
        if default is not None:
            return default
        raise KeyError(f"no message {key!r}")
    text = entry[lang or current_language()]
    return text.format(**values) if values else text


def game_text(game: PanelGame | None, key: str, default: str = "",
              lang: str | None = None) -> str:
    """The game's text ``key`` in ``lang`` (default: the request's), or ``default``."""
    if game is None:
        return default
    text = game.text(key, lang or current_language())
    return text if text is not None else default


def game_messages(lang: str, game: PanelGame | None) -> dict[str, str]:
    """The texts a game page's scripts may show beyond the panel's own, in ``lang``: the
    game's. (The panel's come in a script of their own:
    :func:`web_panel.page_bundles.panel_texts`.)"""
    if game is None:
        return {}
    return {key: entry[lang] for key, entry in game.texts.items()}
