"""English and Japanese: the language of a request and the lookup of a message.

The language comes from the ``tt_lang`` cookie (the toggle) or else the browser's
``Accept-Language``; English is the fallback. Messages live in :mod:`web_panel.messages`, every
key in both languages (a test checks it).
"""

from __future__ import annotations

from typing import Any

from flask import g, request

from web_panel.messages import MESSAGES
from web_panel.security import LANG_COOKIE

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


def translate(key: str, lang: str | None = None, default: str | None = None, **values: Any) -> str:
    """The message ``key`` in ``lang`` (default: the request's), with ``{name}`` filled in.

    ``default`` is returned for a key the catalogue lacks (e.g. a rules text shown as is).
    """
    entry = MESSAGES.get(key)
    if entry is None:
        if default is not None:
            return default
        raise KeyError(f"no message {key!r}")
    text = entry[lang or current_language()]
    return text.format(**values) if values else text


def client_messages(lang: str) -> dict[str, str]:
    """The messages the page scripts need (keys starting ``js_``), in ``lang``."""
    return {key[3:]: entry[lang] for key, entry in MESSAGES.items() if key.startswith("js_")}
