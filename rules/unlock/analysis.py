"""The post-game analysis of an UNLOCK game: turn by turn, how many codes still fit the clue
board, what each card ruled out, and what the hint engine would have played instead.

Given only once a game has ended (the secret is public then). Two inputs, the same result:

- :func:`analyse`: the game's final state (``UnlockState``, ended: found, turn limit or
  abandoned);
- :func:`analyse_actions`: what the journal keeps — the seats' names, the game's options and
  its live actions ``(seat, action text)`` in order — replayed on the rules; ``abandoned=True``
  for a game the host abandoned (its actions do not end it).

Every figure is an exact count of codes of the game's level (``difficulty``, ``auto_connect``)
on the 3×3 card; the 4×4 card's levels are too many to list, so there the result says so
(``enumerable`` false) and holds no counts. Definitions (a "board" is a set of cards with their
matches; a code **fits** it when it holds exactly each card's matches of that card's lines and
is not one of its cards, which would have ended the game):

- a turn's ``codes_before`` / ``codes_after``: the codes fitting the board before / after the
  turn's reveal;
- a card's ``codes_left``: the codes fitting the board before the turn plus that card alone;
  ``ruled_out`` is ``codes_before − codes_left``;
- the hint's card: what :func:`rules.unlock.hints.suggest` gives from the board before the turn
  (public cards only; the same for every guesser of the turn, and the same every time), and the
  codes it would have left with the matches it would have scored against the secret;
- a card (or a hint's card) that **is** the secret leaves 1 code, and so does the turn it was
  found in: the game tells the table that card is the secret;
- ``certain_turn``: the first turn after whose reveal one code was left (the secret);
  ``found_turn``: the turn a card equal to the secret was played; each ``None`` if never.

Repeats (``repeats=score_zero``) are listed with their turn's cards but are no clue: they rule
out nothing. A guesser's summary compares the average ``codes_left`` of their cards with the
average of the hint's cards of the same turns.

>>> actions = [(0, "secret 1-2-3"), (1, "guess 4-5-6"), (1, "guess 1-2-3")]
>>> result = analyse_actions(["Lock", "Aiko"], {"difficulty": "easy"}, actions)
>>> [(t.turn, t.codes_before, t.codes_after) for t in result.turns]
[(1, 3560, 2067), (2, 2067, 1)]
>>> result.certain_turn, result.found_turn
(2, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rules.evaluation import json_plain
from rules.unlock.clues import Clue, consistent_masks
from rules.unlock.codes import Code, feedback
from rules.unlock.enumeration import code_masks, is_enumerable
from rules.unlock.game import GAME, Card, UnlockState
from rules.unlock.hints import suggest

#: ``GuesserSummary.verdict``: the guesser's cards left fewer codes than the hint's on
#: average, as many, or more.
BETTER, EQUAL, WORSE = "better", "equal", "worse"


@dataclass(frozen=True)
class CardAnalysis:
    """One guesser's card of a turn and what it ruled out on its own."""

    seat: int
    code: str
    matches: int
    misses: int
    repeat: bool
    #: The card is the secret.
    found: bool
    codes_left: int
    ruled_out: int


@dataclass(frozen=True)
class HintAnalysis:
    """The hint engine's card from the board before a turn, and what it would have left."""

    code: str
    #: ``book`` (the level's opening book) or ``search`` (see :mod:`rules.unlock.hints`).
    source: str
    matches: int
    misses: int
    found: bool
    codes_left: int
    ruled_out: int


@dataclass(frozen=True)
class TurnAnalysis:
    """One revealed turn: the codes fitting before and after it, its cards and the hint's."""

    turn: int
    codes_before: int
    codes_after: int
    cards: tuple[CardAnalysis, ...]
    hint: HintAnalysis


@dataclass(frozen=True)
class GuesserSummary:
    """A guesser's cards against the hint's cards of the same turns, on average."""

    seat: int
    player: str
    #: How many of their cards were revealed (0: the game ended before a reveal).
    cards: int
    average_left: float | None
    hint_average_left: float | None
    #: :data:`BETTER`, :data:`EQUAL` or :data:`WORSE` (``None`` with no card), for translating.
    verdict: str | None
    #: The same in one English sentence.
    sentence: str


@dataclass(frozen=True)
class UnlockAnalysis:
    """The analysis of one ended UNLOCK game (see the module's docstring)."""

    difficulty: str
    size: int
    auto_connect: bool
    #: ``found``, ``turn_limit`` or ``abandoned``.
    end: str
    secret: str | None
    #: False on the 4×4 card: nothing is counted (``turns`` and ``summaries`` are empty).
    enumerable: bool
    #: Every code of the level (``None`` on 4×4).
    codes_in_level: int | None
    turns: tuple[TurnAnalysis, ...]
    certain_turn: int | None
    found_turn: int | None
    summaries: tuple[GuesserSummary, ...]
    #: Why there are no counts (4×4), in English; ``None`` otherwise.
    note: str | None = None
    #: What the data is, beside the other games' analyses (``rules.evaluation``).
    game: str = "unlock"
    kind: str = "codes"

    def as_dict(self) -> dict[str, Any]:
        """The analysis as plain JSON-able data (lists, dicts, texts, numbers, None)."""
        plain = json_plain(asdict(self))
        assert isinstance(plain, dict)
        return plain



def analyse_actions(players: Sequence[str], options: Mapping[str, object] | None,
                    actions: Iterable[tuple[int, str]], *,
                    abandoned: bool = False) -> UnlockAnalysis:
    """The analysis of the game the journal records: ``players`` (names in seat order), its
    ``options`` and its live ``actions`` (seat, action text) in order; ``abandoned`` when the
    host abandoned it. ``ValueError`` if the actions leave the game unfinished otherwise;
    ``rules.IllegalAction`` if the rules refuse one of them."""
    state = GAME.start(list(players), options)
    for seat, action in actions:
        state = GAME.apply(state, seat, action)
    if abandoned and state.end is None:
        state = GAME.abandon(state)
    return analyse(state)


def analyse(state: UnlockState) -> UnlockAnalysis:
    """The analysis of the ended game ``state``; ``ValueError`` while it is still being played
    (its secret and hidden guesses must stay secret until the end)."""
    if state.end is None:
        raise ValueError(f"the game is in phase {state.phase!r}; it is analysed once it ends")
    enumerable = is_enumerable(state.difficulty, state.size)
    masks = code_masks(state.difficulty, state.size, state.auto_connect) if enumerable else None
    turns = _turns(state, list(masks)) if masks is not None else ()
    return UnlockAnalysis(
        difficulty=state.difficulty,
        size=state.size,
        auto_connect=state.auto_connect,
        end=state.end,
        secret=None if state.secret is None else str(state.secret),
        enumerable=enumerable,
        codes_in_level=None if masks is None else len(masks),
        turns=turns,
        certain_turn=next((t.turn for t in turns if t.codes_after == 1), None),
        found_turn=next((c.turn for c in state.board if c.code == state.secret), None),
        summaries=_summaries(state, turns) if enumerable else (),
        note=None if enumerable else (
            f"the {state.size}×{state.size} card's {state.difficulty} codes are too many to "
            "list: no counts are given"),
    )


def _turns(state: UnlockState, fitting: list[int]) -> tuple[TurnAnalysis, ...]:
    """Every revealed turn in order; ``fitting``: the masks of every code of the level."""
    secret = state.secret
    by_turn: dict[int, list[Card]] = {}
    for card in state.board:
        by_turn.setdefault(card.turn, []).append(card)
    clues: list[Clue] = []
    out = []
    for turn, cards in by_turn.items():
        assert secret is not None  # cards are revealed only once the secret is set
        fresh = [Clue(c.code, c.matches) for c in cards if not c.repeat]
        found = any(c.code == secret for c in cards)
        after = [secret.lines] if found else consistent_masks(fitting, fresh)
        out.append(TurnAnalysis(
            turn=turn,
            codes_before=len(fitting),
            codes_after=len(after),
            cards=tuple(_card(fitting, card, secret) for card in cards),
            hint=_hint(state, clues, fitting, secret),
        ))
        clues += fresh
        fitting = after
    return tuple(out)


def _card(fitting: list[int], card: Card, secret: Code) -> CardAnalysis:
    """What ``card`` left on its own of the codes ``fitting`` the board before its turn."""
    left = _left(fitting, card.code, card.matches, secret)
    return CardAnalysis(
        seat=card.seat, code=str(card.code), matches=card.matches, misses=card.misses,
        repeat=card.repeat, found=card.code == secret, codes_left=left,
        ruled_out=len(fitting) - left,
    )


def _hint(state: UnlockState, clues: Sequence[Clue], fitting: list[int],
          secret: Code) -> HintAnalysis:
    """The hint engine's card from the board ``clues`` (before a turn) and what it left."""
    hint = suggest(clues, state.difficulty, state.size, state.auto_connect)
    code = hint.suggestion
    matches, misses = feedback(secret, code)
    left = _left(fitting, code, matches, secret)
    return HintAnalysis(
        code=str(code), source=hint.source, matches=matches, misses=misses,
        found=code == secret, codes_left=left, ruled_out=len(fitting) - left,
    )


def _left(fitting: list[int], code: Code, matches: int, secret: Code) -> int:
    """How many of ``fitting`` still fit once ``code`` scored ``matches``: 1 if it is the
    secret (the table is told so)."""
    return 1 if code == secret else len(consistent_masks(fitting, [Clue(code, matches)]))


def _summaries(state: UnlockState, turns: Sequence[TurnAnalysis]) -> tuple[GuesserSummary, ...]:
    """Each guesser's line: their cards' average codes left against the hint's."""
    return tuple(_summary(state.players[seat], seat, turns) for seat in state.guessers)


def _summary(player: str, seat: int, turns: Sequence[TurnAnalysis]) -> GuesserSummary:
    pairs = [(card.codes_left, turn.hint.codes_left)
             for turn in turns for card in turn.cards if card.seat == seat]
    if not pairs:
        return GuesserSummary(seat, player, 0, None, None, None,
                              f"{player} played no card before the game ended.")
    mine, hinted = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
    verdict = BETTER if mine < hinted else EQUAL if mine == hinted else WORSE
    average, hint_average = mine / len(pairs), hinted / len(pairs)
    return GuesserSummary(
        seat, player, len(pairs), average, hint_average, verdict,
        f"{player}'s cards left {average:.1f} codes on average; the hint's cards would have "
        f"left {hint_average:.1f}.",
    )
