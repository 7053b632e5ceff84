"""Refusals in the players' words and language, on the panel.

The panel's own refusals are said by their error name (``error.<name>`` in
:mod:`web_panel.messages`); the rules' and the session's through the one phrasebook the OLED
uses too (:mod:`firmware_host.refusals`: each game's, then the box's), with anything it does
not know said as one plain sentence in the page's language and the rules' wording kept apart
as a detail (``detail`` in the JSON), so nothing shows twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from firmware_host.refusals import Phrasebook
from firmware_host.refusals import phrase as phrase_refusal
from firmware_host.screens.words import Words
from web_panel.messages import MESSAGES


@dataclass(frozen=True)
class Refusal:
    """A refusal as a page shows it: its sentence and the rules' own wording, if different."""

    message: str
    detail: str | None = None


#: The panel's own errors whose message is the panel's, by error name (``error.<name>``).
OWN_ERRORS = frozenset(key.removeprefix("error.") for key in MESSAGES if key.startswith("error."))


@cache
def builtin_books() -> tuple[tuple[Phrasebook, Words], ...]:
    """The built-in games' phrasebooks (each game's refusals and their words)."""
    from firmware_host.games import builtin_games

    return tuple((box.refusals, box.words or {}) for box in builtin_games().values())


def phrase(error: str, message: str, lang: str, *, own: bool = False,
           option_label: Mapping[str, str] | None = None,
           books: Sequence[tuple[Phrasebook, Words]] | None = None) -> Refusal:
    """The refusal ``message`` (error name ``error``) as a page in ``lang`` shows it: in
    English the message itself, without internals; in another language its translation.

    ``own`` marks the panel's own refusals: their English is already the players' (a seat it
    names is counted as the request counted it), so it is not rewritten. ``option_label``
    names options in the page's words (an option error names the option by its label, never
    by its identifier). ``books``: the games' phrasebooks (default: the built-in games').
    """
    if lang == "en" and own:
        return Refusal(message)
    if lang != "en" and error in OWN_ERRORS:
        return Refusal(MESSAGES["error." + error][lang])
    if lang != "en" and own:  # never the rules' words for the panel's: its English kept apart
        return Refusal(MESSAGES["error.http"][lang], message)
    said = phrase_refusal(message, lang, builtin_books() if books is None else books,
                          option_label=option_label)
    return Refusal(sentence(said.sentence, lang), said.detail)


def sentence(text: str, lang: str) -> str:
    """A phrase as a page's sentence: the OLED leaves out a Japanese sentence's last 。 to save
    room, a page does not."""
    return text + "。" if lang == "ja" and not text.endswith("。") else text
