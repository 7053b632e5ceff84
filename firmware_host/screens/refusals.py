"""Refusals of the rules and the session in the OLED's language.

The rules and the session refuse in English, naming the rule (and sometimes internals: a 0-based
seat, an option's identifier). The OLED shows a refusal once, in its language: in English the
message without internals, seats counted from 1; in Japanese the sentence of the first pattern
that matches — the game's own phrasebook (``BoxGame.refusals``, keys in ``BoxGame.words``) before
the box's (:data:`REFUSALS`) — and otherwise a plain Japanese sentence saying the rules refused
it, with the rules' English kept as its reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from firmware_host.screens.words import Words, say

#: (pattern of a rules' or session's refusal, words key). Named groups fill the text's blanks;
#: a group named ``seat`` is a 0-based seat, shown from 1.
Phrasebook = Sequence[tuple[re.Pattern[str], str]]


def phrasebook(*pairs: tuple[str, str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """A phrasebook from (regular expression, words key) pairs."""
    return tuple((re.compile(pattern), key) for pattern, key in pairs)


#: The box's and the session's refusals, for every game.
REFUSALS = phrasebook(
    (r"^the game is (over|finished|abandoned)", "refusal.game_over"),
    (r"^game \d+ is (finished|abandoned)", "refusal.game_over"),
    (r"^the game is already", "refusal.game_over"),
    (r"^it is (?P<name>.+)'s turn, not seat \d+'s", "refusal.not_your_turn"),
    (r"^it is not seat \d+'s turn: (?P<name>.+?) \(seat", "refusal.not_your_turn"),
    (r"^the pad is on game", "refusal.not_pad_game"),
    (r"^the box's storage is full", "refusal.storage_full"),
    (r"^the box's storage has become read-only", "refusal.storage"),
    (r"^the journal could not be written", "refusal.storage"),
    (r"^the session is busy|did not take the command", "refusal.busy"),
    (r"^the box plays (?P<name>.+) itself", "refusal.box_plays"),
)

#: The box's words for :data:`REFUSALS` and the fallback.
REFUSAL_WORDS: Words = {
    "refusal.game_over": {"en": "the game is over", "ja": "ゲームは終了しています"},
    "refusal.not_your_turn": {"en": "it is {name}'s turn", "ja": "{name}の番です"},
    "refusal.not_pad_game": {"en": "the pad was moved to another game: nothing was entered",
                             "ja": "パッドは別のゲームに切り替わりました。入力されていません"},
    "refusal.storage_full": {"en": "the box's storage is full: nothing was saved",
                             "ja": "本体の記憶領域がいっぱいです。保存されていません"},
    "refusal.storage": {"en": "the box could not save it: nothing was changed",
                        "ja": "本体に保存できませんでした。何も変わっていません"},
    "refusal.busy": {"en": "the box is busy: press again",
                     "ja": "処理中です。もう一度押してください"},
    "refusal.box_plays": {"en": "the box plays {name} itself: nothing was entered",
                          "ja": "{name}は本体が操作します。入力されていません"},
    "refusal.other": {"en": "the rules do not allow it: {detail}",
                      "ja": "ルール上できません: {detail}"},
}

_INTERNALS = (
    re.compile(r"\s*\(option [a-z_0-9]+(=[a-z_0-9]+)? is (on|off)\)"),
    re.compile(r"\s*\(option [a-z_0-9]+=[a-z_0-9]+\)"),
    re.compile(r"\s*\(seats? [0-9][^)]*\)"),
    re.compile(r"\s*\(seed \d+: [^)]*\)"),
)
_SEAT = re.compile(r"\bseat (\d+)")


def without_internals(text: str) -> str:
    """The rules' wording without option identifiers, and seats counted from 1."""
    for pattern in _INTERNALS:
        text = pattern.sub("", text)
    return _SEAT.sub(lambda found: f"seat {int(found.group(1)) + 1}", text)


def phrase(message: str, lang: str, game: Phrasebook = (), words: Words | None = None) -> str:
    """``message`` (a refusal in the rules' English) as the OLED shows it in ``lang``."""
    if lang != "ja":
        return without_internals(message)
    table = {**REFUSAL_WORDS, **(words or {})}
    for pattern, key in [*game, *REFUSALS]:
        found = pattern.search(message)
        if found is None or key not in table:
            continue
        values = {k: v for k, v in found.groupdict().items() if v is not None}
        if "seat" in values:
            values["seat"] = str(int(values["seat"]) + 1)
        return say(table, key, lang, **values)
    return say(REFUSAL_WORDS, "refusal.other", lang, detail=without_internals(message))


__all__ = ["REFUSALS", "REFUSAL_WORDS", "Phrasebook", "phrase", "phrasebook",
           "without_internals"]
