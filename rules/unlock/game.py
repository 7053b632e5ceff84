"""UNLOCK as a state machine: the Lock sets a secret, guessers guess together, cards are scored.

Actions: ``secret 1-2-5`` (the Lock, once, first) and ``guess 3-5-7`` (each guesser once per
turn, all at the same time). When the last guesser of a turn submits, every card is revealed
and scored ``matches − misses`` (0 for a repeat); non-repeats go onto the clue board. The game
ends when a card equals the secret, or after ``turn_limit`` turns with nobody finding it (then
everyone scores 0 and loses). The host may abandon a game with :func:`abandon_game`.

>>> state = GAME.start(["Lock", "Aiko", "Ben"])
>>> state = GAME.apply(state, 0, "secret 1-2-3")
>>> state = GAME.apply(state, 1, "guess 3-2")
>>> GAME.to_act(state), GAME.view(state, 2)["submitted"], GAME.view(state, 2)["my_guess"]
([2], [1], None)
>>> state = GAME.apply(state, 2, "guess 5-2-1")
>>> board = GAME.view(state, None)["clue_board"]
>>> [(c["seat"], c["code"], c["matches"], c["misses"]) for c in board]
[(1, '2-3', 1, 0), (2, '1-2-5', 1, 1)]
>>> GAME.view(state, None)["scores"]
[0, 1, 0]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from rules.errors import IllegalAction, RulesError
from rules.game import Game
from rules.options import Option, OptionValue
from rules.unlock.clues import Clue, count_consistent
from rules.unlock.codes import Code, feedback
from rules.unlock.enumeration import code_table, is_enumerable, search
from rules.unlock.levels import DIFFICULTIES, Difficulty, check_difficulty, validate

REPEAT_POLICIES = ("reject", "score_zero")

OPTIONS = (
    Option(
        "difficulty",
        "choice",
        "medium",
        "Which codes are allowed: easy, medium or hard.",
        choices=DIFFICULTIES,
    ),
    Option(
        "size", "int", 3, "The card: 3×3 dots, or the designer's 4×4 expansion.", choices=(3, 4)
    ),
    Option(
        "auto_connect",
        "bool",
        True,
        "A stroke over a dot joins that dot into the path (1→3 is 1-2-3), as seed 000 says: "
        "'2つのドットをつなぐ直線上にあるドットは自動的につながるものとします'. Off follows seed "
        "002, which has no such rule (a line may pass over a free dot, which is then crossed: "
        "'The path can't cross the same dot twice'); off departs from seed 000.",
    ),
    Option(
        "repeats",
        "choice",
        "reject",
        "A code drawn in an earlier turn: refused ('It is forbidden to draw a code already "
        "drawn before during the game'), or accepted and scored 0 ('If the player has repeated "
        "an existing code she gets 0 points'); seed 002 says both.",
        choices=REPEAT_POLICIES,
    ),
    Option(
        "turn_limit",
        "int",
        10,
        "Turns before the game ends with everyone at 0: 10 is seed 000's "
        "'10ターン後に誰も推測できていなければ、全員が0点の負けとなります'; 'none' (no limit) "
        "follows seed 002, which has none; another number departs from the printed rules.",
        allow_none=True,
        minimum=1,
    ),
    Option(
        "shared_win",
        "bool",
        False,
        "A tie the secret cannot break makes every tied guesser a winner. On departs from the "
        "printed rules, which say to play again (seed 002: 'If the tie persists play again'); "
        "off reports the tie.",
    ),
    Option("lock", "seat", 0, "The seat of the Lock, who sets the secret."),
)

#: How a game ended: a card found the secret, the turn limit ran out, or the host abandoned it.
END_FOUND, END_TURN_LIMIT, END_ABANDONED = "found", "turn_limit", "abandoned"


class Reason(StrEnum):
    """Why an UNLOCK game ended as it did (``outcome()["reason"]``)."""

    #: The secret was found and one guesser has the highest score.
    FOUND = "found"
    #: The top scores tied and exactly one of the tied guessers found the secret.
    TIE_BREAK = "tie_break"
    #: The top scores tied and finding the secret did not break it: reported as a tie.
    TIE = "tie"
    #: As ``TIE``, with the option ``shared_win``: every tied guesser wins.
    SHARED_WIN = "shared_win"
    #: Nobody found the secret within the turn limit: everyone scores 0 and loses.
    TURN_LIMIT = "turn_limit"
    #: The host abandoned the game; it counts for nothing.
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Card:
    """A revealed guess: who played which code in which turn, and how it scored."""

    turn: int
    seat: int
    code: Code
    matches: int
    misses: int
    points: int
    repeat: bool


@dataclass(frozen=True)
class UnlockState:
    """A game of UNLOCK: plain data, never changed in place."""

    players: tuple[str, ...]
    difficulty: Difficulty
    size: int
    auto_connect: bool
    repeats: str
    turn_limit: int | None
    shared_win: bool
    lock: int
    secret: Code | None = None
    turn: int = 1
    #: This turn's submitted guesses, (seat, code) in seat order; hidden until the reveal.
    guesses: tuple[tuple[int, Code], ...] = ()
    #: Every revealed card in order, repeats included (flagged; they are not clues).
    board: tuple[Card, ...] = ()
    scores: tuple[int, ...] = ()
    end: str | None = None

    @property
    def guessers(self) -> tuple[int, ...]:
        """Every seat but the Lock's."""
        return tuple(s for s in range(len(self.players)) if s != self.lock)

    @property
    def options(self) -> dict[str, OptionValue]:
        """The game's options as chosen (all of them, defaults filled in)."""
        return {
            "difficulty": self.difficulty,
            "size": self.size,
            "auto_connect": self.auto_connect,
            "repeats": self.repeats,
            "turn_limit": self.turn_limit,
            "shared_win": self.shared_win,
            "lock": self.lock,
        }

    @property
    def phase(self) -> str:
        """``secret`` (the Lock is drawing), ``guess``, ``over`` or ``abandoned``."""
        if self.end == END_ABANDONED:
            return "abandoned"
        if self.end is not None:
            return "over"
        return "secret" if self.secret is None else "guess"

    @property
    def clues(self) -> list[Clue]:
        """The public clue board as filter input: every non-repeat card and its matches."""
        return [Clue(card.code, card.matches) for card in self.board if not card.repeat]

    def played_in(self, code: Code) -> int | None:
        """The first earlier turn in which ``code`` was played, if any."""
        return next((card.turn for card in self.board if card.code == code), None)


class Unlock(Game[UnlockState]):
    """The rules of UNLOCK (see ``docs/rules/unlock.md``)."""

    id = "unlock"
    name = "UNLOCK"
    min_players = 2
    max_players = 16
    options = OPTIONS
    reasons = Reason
    players_note = " (the Lock and 1 or more guessers)"

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> UnlockState:
        """A new game; the Lock draws the secret first. UNLOCK has no chance: ``seed`` is unused."""
        turn_limit = options["turn_limit"]
        return UnlockState(
            players=players,
            difficulty=check_difficulty(str(options["difficulty"])),
            size=int(str(options["size"])),
            auto_connect=bool(options["auto_connect"]),
            repeats=str(options["repeats"]),
            turn_limit=None if turn_limit is None else int(str(turn_limit)),
            shared_win=bool(options["shared_win"]),
            lock=int(str(options["lock"])),
            scores=(0,) * len(players),
        )

    def to_act(self, state: UnlockState) -> list[int]:
        """The Lock before the secret is set; then every guesser yet to submit this turn."""
        if state.end is not None:
            return []
        if state.secret is None:
            return [state.lock]
        submitted = {seat for seat, _ in state.guesses}
        return [seat for seat in state.guessers if seat not in submitted]

    def legal_actions(self, state: UnlockState, seat: int) -> Iterator[str]:
        """Every code of the level (less earlier turns' codes when repeats are refused), lazily."""
        if seat not in self.to_act(state):
            return iter(())
        if state.secret is None:
            return _level_actions(state, "secret", set())
        played = {card.code.lines for card in state.board} if state.repeats == "reject" else set()
        return _level_actions(state, "guess", played)

    def apply(self, state: UnlockState, seat: int, action: str) -> UnlockState:
        """``secret CODE`` by the Lock, or ``guess CODE`` by a guesser; refusals name the rule."""
        if not isinstance(action, str):
            raise IllegalAction(f"an action is text like 'guess 1-5-9', not {action!r}")
        _check_seat(state, seat)
        if state.end is not None:
            raise IllegalAction(f"the game is {state.phase}; no more actions are taken")
        verb, _, text = action.strip().partition(" ")
        if verb == "secret":
            return self._set_secret(state, seat, text)
        if verb == "guess":
            return self._guess(state, seat, text)
        raise IllegalAction(
            f"unknown action {action!r}: UNLOCK takes 'secret CODE' from the Lock and "
            "'guess CODE' from a guesser, e.g. 'guess 1-5-9'"
        )

    def canonical(self, state: UnlockState, seat: int, action: str) -> str:
        """``secret CODE`` / ``guess CODE`` with the code's canonical traversal."""
        verb, _, text = action.strip().partition(" ")
        return f"{verb} {Code.parse(text, state.size, state.auto_connect)}"

    def _set_secret(self, state: UnlockState, seat: int, text: str) -> UnlockState:
        if seat != state.lock:
            raise IllegalAction(
                f"only the Lock ({state.players[state.lock]}, seat {state.lock}) sets the secret"
            )
        if state.secret is not None:
            raise IllegalAction("the secret is already set; it stays the same all game")
        return replace(state, secret=_legal_code(state, text))

    def _guess(self, state: UnlockState, seat: int, text: str) -> UnlockState:
        if seat == state.lock:
            raise IllegalAction("the Lock does not guess; only the other players do")
        if state.secret is None:
            raise IllegalAction("the Lock has not set the secret yet; guessing starts after it")
        if any(s == seat for s, _ in state.guesses):
            raise IllegalAction(
                f"{state.players[seat]} (seat {seat}) has already guessed in turn {state.turn}; "
                "one code per turn"
            )
        code = _legal_code(state, text)
        earlier = state.played_in(code)
        if earlier is not None and state.repeats == "reject":
            raise IllegalAction(
                f"{code} was already played in turn {earlier}; a code may not be repeated "
                "(option repeats=reject) — enter another code"
            )
        guesses = tuple(sorted((*state.guesses, (seat, code)), key=lambda g: g[0]))
        state = replace(state, guesses=guesses)
        if len(guesses) == len(state.guessers):
            state = _reveal(state)
        return state

    def view(self, state: UnlockState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see: the secret only for the Lock until the end; a guess only for
        its guesser and the Lock until the reveal."""
        if seat is not None:
            _check_seat(state, seat)
        over = state.end is not None
        is_lock = seat == state.lock
        secret = state.secret
        mine = next((code for s, code in state.guesses if s == seat), None)
        outcome = self.outcome(state)
        return {
            "game": self.id,
            "seats": list(state.players),
            "to_act": self.to_act(state),
            "phase": state.phase,
            "turn": state.turn,
            "you": seat,
            "options": state.options,
            "outcome": outcome,
            "lock": state.lock,
            "difficulty": state.difficulty,
            "size": state.size,
            "secret": str(secret) if secret is not None and (is_lock or over) else None,
            "secret_set": secret is not None,
            "scores": outcome["scores"] if outcome is not None else list(state.scores),
            "submitted": [s for s, _ in state.guesses],
            "my_guess": str(mine) if mine is not None else None,
            "guesses": (
                [{"seat": s, "code": str(code)} for s, code in state.guesses] if is_lock else None
            ),
            "turns_left": (
                None if state.turn_limit is None or over else state.turn_limit - state.turn + 1
            ),
            "clue_board": [_card_view(card) for card in state.board],
        }

    def outcome(self, state: UnlockState) -> dict[str, Any] | None:
        """``winners``, ``scores``, ``reason`` (``found``, ``tie_break``, ``tie``,
        ``shared_win``, ``turn_limit`` or ``abandoned``), ``found_by``, ``tied``, ``counts``."""
        if state.end is None:
            return None
        zero = [0] * len(state.players)
        if state.end == END_ABANDONED:
            return {
                "winners": [],
                "scores": zero,
                "reason": Reason.ABANDONED,
                "found_by": [],
                "tied": [],
                "counts": False,
            }
        if state.end == END_TURN_LIMIT:
            return {
                "winners": [],
                "scores": zero,
                "reason": Reason.TURN_LIMIT,
                "found_by": [],
                "tied": [],
                "counts": True,
            }
        found_by = [c.seat for c in state.board if c.turn == state.turn and c.code == state.secret]
        top = max(state.scores[s] for s in state.guessers)
        leaders = [s for s in state.guessers if state.scores[s] == top]
        tied: list[int] = []
        if len(leaders) == 1:
            winners, reason = leaders, Reason.FOUND
        else:
            finders = [s for s in leaders if s in found_by]
            if len(finders) == 1:
                winners, reason = finders, Reason.TIE_BREAK
            else:
                tied = finders or leaders
                winners, reason = (
                    (tied, Reason.SHARED_WIN) if state.shared_win else ([], Reason.TIE))
        return {
            "winners": winners,
            "scores": list(state.scores),
            "reason": reason,
            "found_by": found_by,
            "tied": tied,
            "counts": True,
        }

    def dump(self, state: UnlockState) -> dict[str, Any]:
        """The state as JSON-safe data (codes as their canonical text)."""
        return {
            "players": list(state.players),
            "options": state.options,
            "secret": None if state.secret is None else str(state.secret),
            "turn": state.turn,
            "guesses": [[seat, str(code)] for seat, code in state.guesses],
            "board": [
                [c.turn, c.seat, str(c.code), c.matches, c.misses, c.points, c.repeat]
                for c in state.board
            ],
            "scores": list(state.scores),
            "end": state.end,
        }

    def load(self, data: Mapping[str, Any]) -> UnlockState:
        """The state :meth:`dump` produced; ``RulesError`` if the data is not such a state."""
        try:
            base = self.start(list(data["players"]), data["options"])

            def code(text: str) -> Code:
                return Code.parse(text, base.size, base.auto_connect)

            return replace(
                base,
                secret=None if data["secret"] is None else code(data["secret"]),
                turn=int(data["turn"]),
                guesses=tuple((int(seat), code(text)) for seat, text in data["guesses"]),
                board=tuple(
                    Card(int(t), int(s), code(text), int(m), int(x), int(p), bool(r))
                    for t, s, text, m, x, p, r in data["board"]
                ),
                scores=tuple(int(score) for score in data["scores"]),
                end=_check_end(data["end"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RulesError(f"not a saved UNLOCK game: {error}") from error

    def abandon(self, state: UnlockState) -> UnlockState:
        """The game ended by the host: kept in history, it counts for nothing."""
        if state.end is not None:
            raise IllegalAction(f"the game is already {state.phase}; it cannot be abandoned")
        return replace(state, end=END_ABANDONED)


def _check_end(end: object) -> str | None:
    if end is None or end in (END_FOUND, END_TURN_LIMIT, END_ABANDONED):
        return end
    raise ValueError(f"unknown end {end!r}")


def _check_seat(state: UnlockState, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction(f"seat {seat!r} is not in this game (seats 0…{len(state.players) - 1})")


def _legal_code(state: UnlockState, text: str) -> Code:
    """The code ``text`` draws on this game's card, checked against the game's level."""
    code = Code.parse(text, state.size, state.auto_connect)
    validate(code, state.difficulty)
    return code


def _level_actions(state: UnlockState, verb: str, exclude: set[int]) -> Iterator[str]:
    """``verb CODE`` for every code of the game's level whose lines are not in ``exclude``."""
    prefix = verb + " "
    if is_enumerable(state.difficulty, state.size):
        table = code_table(state.difficulty, state.size, state.auto_connect)
        texts, bounds = table.texts, table.text_offsets
        for index, mask in enumerate(table.masks):
            if mask not in exclude:
                yield prefix + texts[bounds[index] : bounds[index + 1]]
    else:
        for mask, path in search(state.difficulty, state.size, state.auto_connect):
            if mask not in exclude:
                yield prefix + "-".join(map(str, path))


def _reveal(state: UnlockState) -> UnlockState:
    """Score every card of the turn, put them on the board, and end the game if it is over."""
    assert state.secret is not None
    played = {card.code.lines for card in state.board}
    scores = list(state.scores)
    cards = []
    for seat, code in state.guesses:
        matches, misses = feedback(state.secret, code)
        repeat = code.lines in played
        points = 0 if repeat else matches - misses
        scores[seat] += points
        cards.append(Card(state.turn, seat, code, matches, misses, points, repeat))
    if any(card.code == state.secret for card in cards):
        end: str | None = END_FOUND
    elif state.turn_limit is not None and state.turn >= state.turn_limit:
        end = END_TURN_LIMIT
    else:
        end = None
    return replace(
        state,
        guesses=(),
        board=state.board + tuple(cards),
        scores=tuple(scores),
        turn=state.turn if end else state.turn + 1,
        end=end,
    )


def _card_view(card: Card) -> dict[str, Any]:
    return {
        "turn": card.turn,
        "seat": card.seat,
        "code": str(card.code),
        "matches": card.matches,
        "misses": card.misses,
        "points": card.points,
        "repeat": card.repeat,
        "column": None if card.repeat else card.matches,
    }


def abandon_game(state: UnlockState) -> UnlockState:
    """The host abandons ``state``'s game (see :meth:`Unlock.abandon`)."""
    return GAME.abandon(state)


def codes_remaining(state: UnlockState) -> int | None:
    """How many codes of the level agree with the public clue board (``None`` on 4×4).

    Uses public information only, so any viewer may be shown it. Costs a filter over the cached
    code table (a few ms to tens of ms on 3×3), so the daemon calls it once per change, not per
    view. Once a card has found the secret, the answer is 1.
    """
    if state.end == END_FOUND:
        return 1
    return count_consistent(state.clues, state.difficulty, state.size, state.auto_connect)


GAME = Unlock()
