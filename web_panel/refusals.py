"""Refusals in the players' words and language.

The rules and the session refuse in English, naming the rule and sometimes its internals (a
0-based seat, an option's identifier such as ``repeats=reject``). A phone shows a refusal in its
page's language with seats named by player: the panel's own refusals by their error name
(``error.<name>`` in :mod:`web_panel.messages`), the rules' and the session's through the
patterns below, and anything else as one plain sentence in the page's language with the
rules' wording kept apart as a detail (``detail`` in the JSON), so nothing shows twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from web_panel.messages import MESSAGES


@dataclass(frozen=True)
class Refusal:
    """A refusal as a page shows it: its sentence and the rules' own wording, if different."""

    message: str
    detail: str | None = None


#: (pattern of a rules' or session's refusal, message key). The named groups fill the message's
#: blanks; a group named ``seat`` or ``seat1`` is a 0-based seat, shown from 1.
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), key) for pattern, key in (
        # UNLOCK: codes and turns
        (r"^(?P<code>[\d-]+) was already played in turn (?P<turn>\d+); a code may not be "
         r"repeated", "refusal.repeat"),
        (r"^lines (?P<a>\d+-\d+) and (?P<b>\d+-\d+) cross; crossing is not allowed on "
         r"(?P<level>\w+)", "refusal.cross"),
        (r"^line (?P<line>\d+-\d+) joins dots that are not neighbours", "refusal.too_long"),
        (r"^(?P<code>[\d-]+) starts and ends on dot (?P<dot>\d+)", "refusal.loop"),
        (r"^line (?P<line>\d+-\d+) passes over dot (?P<dot>\d+), which the path uses",
         "refusal.passes_used"),
        (r"^lines (?P<a>\d+-\d+) and (?P<b>\d+-\d+) both pass over dot (?P<dot>\d+)",
         "refusal.crossed_twice"),
        (r"^(?P<name>.+) \(seat \d+\) has already guessed in turn (?P<turn>\d+)",
         "refusal.already_guessed"),
        (r"^the Lock has not set the secret yet", "refusal.no_secret_yet"),
        (r"^the secret is already set", "refusal.secret_set"),
        (r"^the Lock does not guess", "refusal.lock_guesses"),
        (r"^only the Lock \((?P<name>.+), seat \d+\) sets the secret", "refusal.only_lock"),
        # UNLOCK: hints (rules.unlock.hints.NoHint, the session's refusals of a hint)
        (r"^the host has turned hints off", "refusal.hints_off"),
        (r"^hints are given while the guessers are guessing", "refusal.hint_not_yet"),
        (r"^the Lock knows the code", "refusal.hint_lock"),
        (r"^you have already entered your code for this turn", "refusal.hint_submitted"),
        (r"^hints need the 3×3 card", "refusal.hint_grid4"),
        (r"^no code of the level fits every card", "refusal.hint_none_fit"),
        (r"^seat \d+ is played by the box", "refusal.hint_bot"),
        (r"^(?P<game>.+) has no hints", "refusal.no_hints"),
        (r"^(?P<name>.+)'s phone holds that seat: the box cannot take it over",
         "refusal.seat_on_phone"),
        # whose turn it is (every game)
        (r"^it is (?P<name>.+)'s turn, not seat \d+'s", "refusal.not_your_turn_name"),
        (r"^it is not seat \d+'s turn: (?P<name>.+) \(seat \d+", "refusal.not_your_turn_name"),
        (r"^it is seat (?P<seat>\d+)'s turn to place, not seat \d+'s", "refusal.not_your_turn"),
        (r"^the game is (over|finished|abandoned)", "refusal.game_over"),
        (r"^game \d+ is (finished|abandoned)", "refusal.game_over"),
        (r"^the game is over", "refusal.game_over"),
        # 2 1 6
        (r"^cell (?P<row>\d+) (?P<col>\d+) already holds (?P<value>\d+)", "refusal.cell_taken"),
        (r"^nothing to place yet", "refusal.roll_first"),
        (r"^(?P<n>\d+) players play on the 12×12 grid", "refusal.size_for_players"),
        (r"^size 12 is the grid for 3–4 players", "refusal.size_12"),
        (r"^no diagonal of the (?P<size>\d+)×\d+ grid has six cells", "refusal.no_six_cells"),
        # Hacktrick
        (r"^a card equal to the rightmost card of the row \((?P<card>\d+)\) cannot be played",
         "refusal.rightmost"),
        (r"^you hold (?P<n>\d+) cards: you may draw only with fewer", "refusal.hand_full"),
        (r"^there is no card left to draw", "refusal.no_card_left"),
        # ICO
        (r"^(?P<rule>.+) forbids (?P<edge>\S+): ", "refusal.ico_forbids"),
        (r"^(?P<edge>\S+) is not an edge of the active face", "refusal.ico_not_active"),
        # the session: players, seats, undo
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
)

OPTION_PREFIX = re.compile(r"^option '\w+': ")

#: Refusals whose rules' wording adds a reason the sentence does not give.
DETAILED = frozenset({"refusal.ico_forbids", "refusal.bad_option", "refusal.cannot_undo"})

#: The panel's own errors whose message is the panel's, by error name (``error.<name>``).
OWN_ERRORS = frozenset(key.removeprefix("error.") for key in MESSAGES if key.startswith("error."))


def _fill(key: str, lang: str, values: dict[str, str]) -> str:
    text = MESSAGES[key][lang]
    return text.format(**values)


def phrase(error: str, message: str, lang: str, *, own: bool = False,
           option_label: dict[str, str] | None = None) -> Refusal:
    """The refusal ``message`` (error name ``error``) as a page in ``lang`` shows it: in
    English the message itself, without internals; in another language its translation.

    ``own`` marks the panel's own refusals: their English is already the players' (a seat it
    names is counted as the request counted it), so it is not rewritten. ``option_label``
    names options in the page's words (an option error names the option by its label, never
    by its identifier).
    """
    if lang == "en":
        return Refusal(message if own else _without_internals(message))
    if error in OWN_ERRORS:
        return Refusal(MESSAGES["error." + error][lang])
    # an option's refusal: the rule behind it first, else the option named by its label
    core = OPTION_PREFIX.sub("", message)
    for pattern, key in PATTERNS:
        found = pattern.search(core if key != "refusal.bad_option" else message)
        if found is None:
            continue
        values = {name: value for name, value in found.groupdict().items() if value is not None}
        for name in ("seat",):
            if name in values:
                values[name] = str(int(values[name]) + 1)
        if "option" in values and option_label is not None:
            values["option"] = option_label.get(values["option"], values["option"])
        sentence = _fill(key, lang, values)
        # the rules' reason after the sentence's own (an ICO balance rule, an option's limit)
        detail = core if key in DETAILED else None
        return Refusal(sentence, _without_internals(detail) if detail else None)
    return Refusal(MESSAGES["refusal.other"][lang], _without_internals(message))


_INTERNALS = (
    re.compile(r"\s*\(option [a-z_0-9]+(=[a-z_0-9]+)? is (on|off)\)"),
    re.compile(r"\s*\(option [a-z_0-9]+=[a-z_0-9]+\)"),
    re.compile(r"\s*\(seats? [0-9][^)]*\)"),
)
_SEAT = re.compile(r"\bseat (\d+)")


def _without_internals(text: str) -> str:
    """The rules' wording without option identifiers, and seats counted from 1."""
    for pattern in _INTERNALS:
        text = pattern.sub("", text)
    return _SEAT.sub(lambda found: f"seat {int(found.group(1)) + 1}", text)
