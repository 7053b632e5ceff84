"""Bots for Hacktrick, deciding from their seat's view: their own hand, the public board, row,
supplies and announcements — never the opponent's hand or the deck's order.

- ``easy`` looks at its own move only: it wins when a card reaches a winning square (a ×2
  double win first), else it plays where it captures the most and builds the most (ties at
  random), draws when its hand is down to one card, and never declares or asks.
- ``hard`` looks three moves ahead over the exact odds of the hidden cards
  (:func:`rules.hacktrick.bot_model.hand_odds`). Each of its legal actions is played on a model
  of the board (:class:`rules.hacktrick.bot_model.Board`); then, for every hand the opponent may
  hold, the opponent answers with what is worst for the bot — any card it holds, with either
  marker, with or without Play! (which takes the bot's draw away), or a draw; then the bot
  answers with its best card or a draw, and the position is scored: minus the points the
  opponent is expected to win at once from there (the odds it holds a card reaching one of its
  winning squares), plus the shape of the position (winning squares, squares held, markers left,
  capped below one point so that a win in hand always counts more). It asks the sum whenever it
  can do so for free (captured markers serve nothing else under ``out_of_markers=own_colour``).

With table cards (``cards=table``) a bot has no hand the rules know of; both levels then play
the easy policy over whatever values the rules accept. Seat bots with virtual cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from math import tanh
from typing import Any

from rules.bots import Bot, RandomBot, require_legal
from rules.evaluation import Weighing
from rules.hacktrick.actions import Action
from rules.hacktrick.bot_model import LINES_THROUGH, Board, Ending, Hand, hand_odds, unseen
from rules.hacktrick.cards import HAND_LIMIT, VALUES

#: Weights of the position score (a round won is worth its points, 1 or 2).
WINNING_SQUARE = 0.22
SQUARE_HELD = 0.04
MARKER_LEFT = 0.03
LAST_MARKERS = 0.25
#: The most a position's shape may be worth: less than the point a win in hand brings.
SHAPE_CAP = 0.6


def _best(scored: Sequence[tuple[float, str]], rng: random.Random) -> str:
    top = max(score for score, _ in scored)
    tied = [action for score, action in scored if score >= top - 1e-9]
    return tied[rng.randrange(len(tied))]


# --- easy --------------------------------------------------------------------------------------


def _build_score(board: Board, seat: int, square: int) -> float:
    """How much a placement on ``square`` builds for ``seat``: captures and line progress."""
    other = 1 - seat
    gain = 1.5 * board.stack[other][square]
    mine = board.stack[seat]
    for line in LINES_THROUGH[square]:
        gain += sum(1 for s in line if s != square and mine[s])
    return gain + 0.5 * mine[square]


class EasyBot:
    """Its own move only: win, else capture and build; never declares or asks."""

    level = "easy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        board = Board.from_view(view)
        seat = int(view["you"])
        hand = view["hands"][seat]["cards"]
        scored: list[tuple[float, str]] = []
        for text in legal:
            action = Action.parse(text)
            if action.verb == "lead" or action.declare is not None or action.verb == "ask":
                scored.append((0.0 if action.verb == "lead" else -100.0, text))
                continue
            if action.verb == "draw":
                small = hand is not None and len(hand) <= 1
                scored.append((5.0 if small else -1.0, text))
                continue
            assert action.card is not None
            square = action.card + int(view["rightmost"])
            if board.wins_at(seat, square):
                scored.append((100.0 + board.win_points(seat, square, action.x2), text))
                continue
            x2_penalty = 0.5 if action.x2 and board.plain[seat] else 0.0
            scored.append((_build_score(board, seat, square) - x2_penalty, text))
        return _best(scored, rng)


# --- hard --------------------------------------------------------------------------------------


@dataclass
class _Outlook:
    """What ``hard`` knows when it weighs an action."""

    me: int
    hand: list[int]
    board: Board
    rightmost: int | None
    odds: list[tuple[Hand, float]]
    possible: list[int]
    opponent_cards: int
    #: The chance the next card drawn is each value (the unseen cards, in proportion).
    draw_odds: list[tuple[int, float]]
    #: Whether the opponent may declare Play! on its coming turn (no Guard! of ours in force).
    opponent_may_play: bool = True
    _holding: dict[int | None, list[float]] = field(default_factory=dict)

    def holds_any(self, played: int | None) -> list[float]:
        """For each set of values (a bit per value 0–5), the chance the opponent holds one of
        them once it has played ``played`` (``None``: once it has drawn a card instead)."""
        table = self._holding.get(played)
        if table is None:
            table = self._holding[played] = self._holds_any(played)
        return table

    def _holds_any(self, played: int | None) -> list[float]:
        spread: dict[int, float] = {}
        for counts, chance in self.odds:
            if played is not None and not counts[played]:
                continue
            held = sum(1 << v for v in VALUES if counts[v] - (v == played) > 0)
            spread[held] = spread.get(held, 0.0) + chance
        weight = sum(spread.values())
        table = [0.0] * 64
        for held, chance in spread.items():
            for values in range(1, 64):
                if values & held:
                    table[values] += chance / weight
        if played is None:  # and a card drawn from the unseen ones
            for values in range(1, 64):
                drawn = sum(p for v, p in self.draw_odds if values >> v & 1)
                table[values] += (1 - table[values]) * drawn
        return table


def threat(their_wins: Sequence[int], rightmost: int, holds_any: Sequence[float]) -> float:
    """The points the opponent is expected to win at once, moving next with ``rightmost`` on
    the row: the chance it holds a card that marks a winning square, times what it scores
    (``their_wins`` is :meth:`Board.wins` of the opponent)."""
    singles = doubles = 0
    for card in VALUES:
        if card != rightmost:
            points = their_wins[card + rightmost]
            if points == 2:
                doubles |= 1 << card
            elif points:
                singles |= 1 << card
    if not singles | doubles:
        return 0.0
    return 2 * holds_any[doubles] + holds_any[singles | doubles] - holds_any[doubles]


def shape(board: Board, seat: int, wins: Sequence[int]) -> float:
    """The longer-term shape of ``seat``'s position: its winning squares (a ×2 win counts
    twice; ``wins`` is :meth:`Board.wins`), the squares it holds, its markers left."""
    left = board.own_total(seat)
    return (WINNING_SQUARE * sum(wins) + SQUARE_HELD * board.held[seat].bit_count()
            + MARKER_LEFT * left - (LAST_MARKERS if left <= 2 else 0.0))


def leaf_value(board: Board, me: int, rightmost: int, holds_any: Sequence[float]) -> float:
    """A position with the opponent to move: its expected win at once, and both shapes."""
    other = 1 - me
    their_wins = board.wins(other)
    lead = shape(board, me, board.wins(me)) - shape(board, other, their_wins)
    return SHAPE_CAP * tanh(lead / SHAPE_CAP) - threat(their_wins, rightmost, holds_any)


def _ending_value(ending: Ending, me: int) -> float:
    return float(ending.points if ending.winner == me else -ending.points)


def my_turn_value(
    board: Board,
    me: int,
    rightmost: int,
    hand: Sequence[int],
    may_draw: bool,
    holds_any: Sequence[float],
) -> float:
    """``me`` to move holding ``hand``: its best play (a win counts in full) or a draw;
    ``holds_any`` gives the odds of the opponent's cards by then."""
    markers = board.markers(me)
    best = float("-inf")
    for card in sorted(set(hand)):
        if card == rightmost:
            continue
        for x2 in markers:
            after = board.copy()
            ending = after.place(me, card + rightmost, x2)
            if ending is not None:
                value = _ending_value(ending, me)
            else:
                value = leaf_value(after, me, card, holds_any)
            best = max(best, value)
    if best == float("-inf") or (may_draw and len(hand) < HAND_LIMIT):
        best = max(best, leaf_value(board, me, rightmost, holds_any))
    return best


def answer_value(
    board: Board, outlook: _Outlook, rightmost: int, hand: Sequence[int], play_declared: bool
) -> float:
    """``me``'s expected value over the opponent's possible hands, each answering at its best
    (for the opponent) from ``board`` with ``rightmost`` on the row: a play (perhaps with
    Play!, which takes ``me``'s draw away) or a draw; ``me`` then answers as well as it can."""
    me, other = outlook.me, 1 - outlook.me
    markers = board.markers(other)
    replies: dict[int, float] = {}
    for card in outlook.possible:
        if card == rightmost or not markers:
            continue
        holds_any = outlook.holds_any(card)
        worst = float("inf")
        for x2 in markers:
            after = board.copy()
            ending = after.place(other, card + rightmost, x2)
            if ending is not None:
                worst = min(worst, _ending_value(ending, me))
                continue
            worst = min(worst, my_turn_value(after, me, card, hand, True, holds_any))
            if outlook.opponent_may_play and after.own_total(other):
                ending = after.discard(other)
                worst = min(worst, _ending_value(ending, me) if ending is not None
                            else my_turn_value(after, me, card, hand, False, holds_any))
        replies[card] = worst
    drawn = my_turn_value(board, me, rightmost, hand, True, outlook.holds_any(None))
    may_draw = outlook.opponent_cards < HAND_LIMIT
    expected = 0.0
    for counts, chance in outlook.odds:
        options = [replies[v] for v in VALUES if counts[v] and v in replies]
        if may_draw and not play_declared:
            options.append(drawn)
        expected += chance * (min(options) if options else drawn)
    return expected


class HardBot:
    """Three moves deep over the odds of the hidden hand (see the module's docstring)."""

    level = "hard"

    def choose(self, view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        require_legal(legal, view)
        if view["options"]["cards"] == "table":
            return EASY.choose(view, legal, rng)
        board = Board.from_view(view)
        if "ask" in legal and not board.captured_keep_alive:
            return "ask"
        return _best(self._scored(view, board, legal), rng)

    def weigh(self, view: Mapping[str, Any], legal: Sequence[str],
              chosen: str) -> Weighing | None:
        """The best action's expected points and ``chosen``'s, from the mover's hand and the
        odds of the hidden cards, on the analysis's scale; ``None`` for the free "ask" and with
        table cards (no hand to weigh from)."""
        if view["options"]["cards"] == "table" or chosen == "ask" or chosen not in legal:
            return None
        scored = self._scored(view, Board.from_view(view), legal)
        values = {text: value for value, text in scored}
        best_value, best = max(scored, key=lambda pair: pair[0])
        return Weighing(best, tanh(best_value), tanh(values[chosen]))

    def _scored(self, view: Mapping[str, Any], board: Board,
                legal: Sequence[str]) -> list[tuple[float, str]]:
        """Each legal action but "ask" with its expected points (see the module docstring)."""
        outlook = self._outlook(view, board)
        guarded = replace(outlook, opponent_may_play=False, _holding=outlook._holding)
        scored = []
        for text in legal:
            action = Action.parse(text)
            if action.verb != "ask":
                seen = guarded if action.declare == "guard" else outlook
                scored.append((self._value(seen, action), text))
        return scored

    @staticmethod
    def _outlook(view: Mapping[str, Any], board: Board) -> _Outlook:
        me = int(view["you"])
        pool = unseen(view)
        cards = sum(pool.values())
        odds = hand_odds(view)
        return _Outlook(
            me=me,
            hand=list(view["hands"][me]["cards"]),
            board=board,
            rightmost=view["rightmost"],
            odds=odds,
            possible=[v for v in VALUES if any(h[v] for h, _ in odds)],
            opponent_cards=int(view["hands"][1 - me]["size"]),
            draw_odds=[(v, pool[v] / cards) for v in VALUES if pool[v] > 0] if cards else [],
        )

    def _value(self, outlook: _Outlook, action: Action) -> float:
        me, hand = outlook.me, outlook.hand
        if action.verb == "lead":
            assert action.card is not None
            rest = _without(hand, action.card)
            return answer_value(outlook.board, outlook, action.card, rest, False)
        board = outlook.board.copy()
        rightmost = outlook.rightmost
        assert rightmost is not None
        if action.verb == "play":
            assert action.card is not None
            ending = board.place(me, action.card + rightmost, action.x2)
            if ending is not None:
                return _ending_value(ending, me)
            if action.declare is not None:
                ending = board.discard(me)
                if ending is not None:
                    return _ending_value(ending, me)
            return answer_value(board, outlook, action.card, _without(hand, action.card),
                                action.declare == "play")
        # A draw: the card is one of the unseen, in proportion.
        if action.declare is not None:
            ending = board.discard(me)
            if ending is not None:
                return _ending_value(ending, me)
        return sum(
            chance * answer_value(board, outlook, rightmost, [*hand, card],
                                  action.declare == "play")
            for card, chance in outlook.draw_odds
        )


def _without(hand: Sequence[int], card: int) -> list[int]:
    rest = list(hand)
    rest.remove(card)
    return rest


EASY = EasyBot()
BOTS: Mapping[str, Bot] = {"random": RandomBot(), "easy": EASY, "hard": HardBot()}
