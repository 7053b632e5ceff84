"""Refusals in the players' words: one phrasebook for the OLED and the panel, in both languages.

The rules and the session refuse in English, naming the rule and sometimes internals (a 0-based
seat, an option's identifier such as ``repeats=reject``). Shown to people, a refusal is:

- in English, the rules' own words without internals, seats counted from 1;
- in another language, the sentence of the first pattern that matches — each game's phrasebook
  (``BoxGame.refusals``, its words in ``BoxGame.words``) before the box's (:data:`REFUSALS`,
  :data:`REFUSAL_WORDS`) — and otherwise a plain sentence saying the rules refused it, with the
  rules' English kept apart as the detail.

The OLED (``firmware_host.pad``) and the panel (``web_panel.refusals``) both phrase refusals
here; a refusal the panel raises itself is the panel's own (``error.<name>``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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
    (r"^it is seat (?P<seat>\d+)'s turn to place, not seat \d+'s", "refusal.not_your_turn_seat"),
    (r"^the pad is on game", "refusal.not_pad_game"),
    (r"^the journal is damaged", "refusal.journal_damaged"),
    (r"^the box's storage is full", "refusal.storage_full"),
    (r"^the box's storage has become read-only", "refusal.storage"),
    (r"^the journal could not be (written|read)", "refusal.storage"),
    (r"^the session is busy|did not take the command", "refusal.busy"),
    (r"^the box plays (?P<name>.+) itself", "refusal.box_plays"),
    (r"^(?P<name>.+)'s phone holds that seat: the box cannot take it over",
     "refusal.seat_on_phone"),
    (r"^(?P<game>.+) has no hints", "refusal.no_hints"),
    (r"^two players are called '(?P<name>.+)'", "refusal.same_name"),
    (r"^every player needs a name", "refusal.name_needed"),
    (r"^(?P<game>.+) takes (?P<low>\d+)–(?P<high>\d+) players, got (?P<n>\d+)",
     "refusal.player_count"),
    (r"^seat (?P<seat>\d+) \((?P<name>.+)\) is already taken", "refusal.seat_taken"),
    (r"^the host has locked the seats", "refusal.join_code"),
    (r"^cannot undo: ", "refusal.cannot_undo"),
    (r"^game \d+ has no action to take back", "refusal.nothing_to_undo"),
    (r"^option '(?P<option>\w+)': ", "refusal.bad_option"),
)

#: The words of :data:`REFUSALS`, and of a refusal no phrasebook knows.
REFUSAL_WORDS: Words = {
    "refusal.game_over": {"en": "the game is over", "ja": "ゲームは終了しています"},
    "refusal.not_your_turn": {"en": "it is {name}'s turn", "ja": "{name}の番です"},
    "refusal.not_your_turn_seat": {"en": "it is player {seat}'s turn",
                                   "ja": "プレイヤー{seat}の番です"},
    "refusal.not_pad_game": {"en": "the pad was moved to another game: nothing was entered",
                             "ja": "パッドは別のゲームに切り替わりました。入力されていません"},
    "refusal.journal_damaged": {"en": "the journal is damaged: the host restores a backup",
                                "ja": "記録ファイルが破損しています。"
                                      "ホストがバックアップを復元します"},
    "refusal.storage_full": {"en": "the box's storage is full: nothing was saved",
                             "ja": "本体の記憶領域がいっぱいです。保存されていません"},
    "refusal.storage": {"en": "the box could not save it: nothing was changed",
                        "ja": "本体に保存できませんでした。何も変わっていません"},
    "refusal.busy": {"en": "the box is busy: press again",
                     "ja": "処理中です。もう一度押してください"},
    "refusal.box_plays": {"en": "the box plays {name} itself: nothing was entered",
                          "ja": "{name}は本体が操作します。入力されていません"},
    "refusal.seat_on_phone": {"en": "{name}'s phone holds that seat",
                              "ja": "{name}のスマホがこの席を使っています。本体は引き継げません"},
    "refusal.no_hints": {"en": "{game} has no hints", "ja": "{game}にはヒントがありません"},
    "refusal.same_name": {"en": "two players are called {name}",
                          "ja": "{name}という名前が2人います。別々の名前にしてください"},
    "refusal.name_needed": {"en": "every player needs a name",
                            "ja": "全員に名前が必要です"},
    "refusal.player_count": {"en": "{game} takes {low}–{high} players, not {n}",
                             "ja": "{game}は{low}〜{high}人で遊びます({n}人ではできません)"},
    "refusal.seat_taken": {"en": "{name}'s seat is already taken",
                           "ja": "{name}の席はすでに使われています。ホストが再発行できます"},
    "refusal.join_code": {"en": "the seats are locked: enter the join code",
                          "ja": "席はロックされています。ホストから参加コードをもらってください"},
    "refusal.cannot_undo": {"en": "this move cannot be taken back",
                            "ja": "この手は取り消せません"},
    "refusal.nothing_to_undo": {"en": "there is nothing to take back",
                                "ja": "取り消せる手がありません"},
    "refusal.bad_option": {"en": "the option {option} cannot take that value",
                           "ja": "オプション「{option}」にはその値を使えません"},
    "refusal.other": {"en": "the rules do not allow it",
                      "ja": "ルールによりその操作はできません"},
}

#: Refusals whose rules' wording adds a reason the sentence does not give (kept as the detail).
DETAILED = frozenset({"refusal.forbids", "refusal.bad_option", "refusal.cannot_undo"})

OPTION_PREFIX = re.compile(r"^option '\w+': ")
_INTERNALS = (
    re.compile(r"\s*\(option [a-z_0-9]+(=[a-z_0-9]+)? is (on|off)\)"),
    re.compile(r"\s*\(option [a-z_0-9]+=[a-z_0-9]+\)"),
    re.compile(r"\s*\(seats? [0-9][^)]*\)"),
    re.compile(r"\s*\(seed \d+: [^)]*\)"),
)
_SEAT = re.compile(r"\bseat (\d+)")


@dataclass(frozen=True)
class Phrase:
    """A refusal as people read it: its sentence, and the rules' own words when they add a
    reason the sentence does not give."""

    sentence: str
    detail: str | None = None

    def __str__(self) -> str:
        return self.sentence if self.detail is None else f"{self.sentence}: {self.detail}"


def without_internals(text: str) -> str:
    """The rules' wording without option identifiers, and seats counted from 1."""
    for pattern in _INTERNALS:
        text = pattern.sub("", text)
    return _SEAT.sub(lambda found: f"seat {int(found.group(1)) + 1}", text)


def phrase(message: str, lang: str, books: Sequence[tuple[Phrasebook, Words]] = (), *,
           option_label: Mapping[str, str] | None = None) -> Phrase:
    """``message`` (a refusal in the rules' English) as people read it in ``lang``: each of
    ``books`` (a game's phrasebook and its words) is tried before the box's. ``option_label``
    names options in the reader's words (never by their identifiers)."""
    if lang == "en":
        return Phrase(without_internals(message))
    core = OPTION_PREFIX.sub("", message)  # an option's refusal: the rule behind it first
    for patterns, words in [*books, (REFUSALS, REFUSAL_WORDS)]:
        table = {**REFUSAL_WORDS, **words}
        for pattern, key in patterns:
            found = pattern.search(core if key != "refusal.bad_option" else message)
            if found is None or key not in table:
                continue
            values = {k: v for k, v in found.groupdict().items() if v is not None}
            if "seat" in values:
                values["seat"] = str(int(values["seat"]) + 1)
            if "option" in values and option_label is not None:
                values["option"] = option_label.get(values["option"], values["option"])
            detail = without_internals(core) if key in DETAILED else None
            return Phrase(say(table, key, lang, **values), detail)
    return Phrase(say(REFUSAL_WORDS, "refusal.other", lang), without_internals(message))


__all__ = ["DETAILED", "REFUSALS", "REFUSAL_WORDS", "Phrase", "Phrasebook", "phrase",
           "phrasebook", "without_internals"]
