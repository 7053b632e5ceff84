"""How a round goes: the deal, the lead, Ask the sum, plays, declarations, draws, the round's end.

Each function takes a state and returns a new one, or raises :class:`rules.IllegalAction` naming
the rule that refused; nothing is changed on a refusal because states are immutable.
"""

from __future__ import annotations

from dataclasses import replace

from rules.errors import IllegalAction
from rules.hacktrick.actions import Action, Declare
from rules.hacktrick.board import (
    EMPTY_BOARD,
    MARKERS_EACH,
    Board,
    Marker,
    on_square,
    placement_win,
    with_square,
)
from rules.hacktrick.cards import (
    COPIES,
    FACE_UP_CARDS,
    FULL_DECK,
    HAND_LIMIT,
    OTHER_CARDS,
    STARTER_CARDS,
    VALUES,
    shuffled,
    with_card,
    without_card,
)
from rules.hacktrick.endings import RoundEnd
from rules.hacktrick.state import (
    Announcement,
    Declaration,
    HacktrickState,
    Reshuffle,
    RoundResult,
    Show,
    Supply,
)

#: Seed 001 on Play!: the opponent can do nothing but play a card (drawing etc. are barred).
UNDER_PLAY_SEED = "カードのプレイ以外のアクション(山札からカードをドロー等)を実行できなくなる"
THREE_ON_A_SQUARE, LINE = RoundEnd.THREE_ON_A_SQUARE, RoundEnd.LINE
OUT_OF_MARKERS, NO_MOVE = RoundEnd.OUT_OF_MARKERS, RoundEnd.NO_MOVE


def other(seat: int) -> int:
    return 1 - seat


def _pair(first: int, second: int, seat: int) -> tuple[int, int]:
    """``(first, second)`` with ``first`` at ``seat``."""
    return (first, second) if seat == 0 else (second, first)


def _set(pair: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _set_hand(
    hands: tuple[tuple[int, ...], tuple[int, ...]], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (hand, hands[1]) if seat == 0 else (hands[0], hand)


def _set_supply(
    supplies: tuple[Supply, Supply], seat: int, supply: Supply
) -> tuple[Supply, Supply]:
    return (supply, supplies[1]) if seat == 0 else (supplies[0], supply)


def fresh_supply(x2_marker: bool) -> Supply:
    """A player's ten markers at the start of a round (one is ×2 when the option is on)."""
    return Supply(own=MARKERS_EACH - x2_marker, own_x2=x2_marker)


# --- the deal ------------------------------------------------------------------------------


def deal_round(state: HacktrickState, starter: int) -> HacktrickState:
    """The next round: markers back to their owners, the cards reshuffled and dealt."""
    x2 = state.settings.x2_marker
    common = replace(
        state,
        round=state.round + 1,
        starter=starter,
        phase="lead",
        mover=starter,
        row=(),
        board=EMPTY_BOARD,
        supplies=(fresh_supply(x2), fresh_supply(x2)),
        discarded=(0, 0),
        declaration=None,
        asked=False,
        announcements=(),
        shown=None,
        reshuffles=(),
    )
    if state.settings.table:
        return replace(
            common,
            table_hand_sizes=_pair(STARTER_CARDS, OTHER_CARDS, starter),
            table_deck_size=len(FULL_DECK) - STARTER_CARDS - OTHER_CARDS - FACE_UP_CARDS,
        )
    cards = shuffled(FULL_DECK, seed=state.seed, number=state.shuffles)
    starter_hand = tuple(sorted(cards[:STARTER_CARDS]))
    rest = cards[STARTER_CARDS:]
    other_hand = tuple(sorted(rest[:OTHER_CARDS]))
    rest = rest[OTHER_CARDS:]
    hands = (starter_hand, other_hand) if starter == 0 else (other_hand, starter_hand)
    return replace(
        common,
        shuffles=state.shuffles + 1,
        hands=hands,
        face_up=tuple(sorted(rest[:FACE_UP_CARDS])),
        deck=rest[FACE_UP_CARDS:],
    )


# --- what a seat may do --------------------------------------------------------------------


def under_play(state: HacktrickState, seat: int) -> bool:
    """The opponent declared Play!: ``seat`` must play this turn."""
    d = state.declaration
    return d is not None and d.kind == "play" and d.by != seat


def under_guard(state: HacktrickState, seat: int) -> bool:
    """The opponent declared Guard!: ``seat`` may not declare Play! this turn."""
    d = state.declaration
    return d is not None and d.kind == "guard" and d.by != seat


def forced_draw(state: HacktrickState, seat: int) -> bool:
    """Under Play!, the hand is empty or every card in it equals the rightmost: draw instead.

    With table cards the device cannot see the hand; the player shows it at the table, and the
    device only checks that so many cards equal to the rightmost can exist outside the row.
    """
    if not under_play(state, seat):
        return False
    if state.settings.table:
        rightmost = state.rightmost
        return state.hand_size(seat) <= COPIES - state.row.count(rightmost)
    return all(card == state.rightmost for card in state.hands[seat])


def may_draw(state: HacktrickState, seat: int) -> bool:
    if under_play(state, seat):
        return forced_draw(state, seat)
    return state.hand_size(seat) < HAND_LIMIT


def playable_values(state: HacktrickState, seat: int) -> list[int]:
    """The card values ``seat`` could lay on the row now (markers aside)."""
    if state.settings.table:
        if state.hand_size(seat) == 0:
            return []
        candidates = [v for v in VALUES if state.row.count(v) < COPIES]
    else:
        candidates = sorted(set(state.hands[seat]))
    return [v for v in candidates if v != state.rightmost]


def marker_choices(supply: Supply) -> list[bool]:
    """Which markers can be placed: ``False`` a plain one, ``True`` the ×2."""
    return [x2 for x2, present in ((False, supply.own > 0), (True, supply.own_x2)) if present]


def can_ask(state: HacktrickState, seat: int) -> bool:
    if under_play(state, seat) and not state.settings.ask_under_play:
        return False
    return not state.asked and state.supplies[seat].captured_total > 0


def has_main_action(state: HacktrickState, seat: int) -> bool:
    """Whether ``seat`` can play or draw (a turn cannot be passed)."""
    can_place = bool(marker_choices(state.supplies[seat]))
    return (can_place and bool(playable_values(state, seat))) or may_draw(state, seat)


def declarations(
    state: HacktrickState, seat: int, supply: Supply | None = None
) -> list[Declare]:
    """The declarations ``seat`` may make after its main action in ``state`` (its supply by
    then is ``supply``, if given): one needs an own marker to discard."""
    if (supply or state.supplies[seat]).own_total == 0:
        return []
    return ["guard"] if under_guard(state, seat) else ["play", "guard"]


def legal_actions(state: HacktrickState, seat: int) -> list[str]:
    """Every action ``seat`` may take now, in canonical text."""
    if state.phase == "over" or seat != state.mover:
        return []
    if state.phase == "lead":
        leads = VALUES if state.settings.table else sorted(set(state.hands[seat]))
        return [f"lead {v}" for v in leads]
    actions: list[str] = ["ask"] if can_ask(state, seat) else []
    supply = state.supplies[seat]
    for value in playable_values(state, seat):
        for x2 in marker_choices(supply):
            play = Action("play", value, x2)
            actions.append(str(play))
            board, after, square, marker = _placement(state, seat, value, x2)
            ends = placement_win(board, seat, square, marker, state.settings.x2_marker) or (
                _markers_left(state, after) == 0
            )
            if not ends:
                actions.extend(f"{play} declare={d}" for d in declarations(state, seat, after))
    if may_draw(state, seat):
        actions.append("draw")
        if state.settings.declare_after_draw:
            actions.extend(f"draw declare={d}" for d in declarations(state, seat))
    return actions


# --- applying actions ----------------------------------------------------------------------


def apply_action(state: HacktrickState, seat: int, action: Action) -> HacktrickState:
    """The state after ``seat`` takes ``action``; raises ``IllegalAction`` if refused."""
    if state.phase == "over":
        raise IllegalAction("the game is over")
    if seat not in (0, 1):
        raise IllegalAction(f"seat {seat} does not play Hacktrick (seats are 0 and 1)")
    if seat != state.mover:
        raise IllegalAction(f"it is {state.players[state.mover]}'s turn, not seat {seat}'s")
    if state.phase == "lead":
        if action.verb != "lead":
            raise IllegalAction(
                f"the round starts with {state.players[seat]} laying the first card: 'lead N'"
            )
        return _lead(state, seat, action.card)
    if action.verb == "lead":
        raise IllegalAction("the round's first card is already laid; 'lead' is only for that")
    if action.verb == "ask":
        return _ask(state, seat)
    if action.verb == "play":
        assert action.card is not None
        return _play(state, seat, action.card, action.x2, action.declare)
    return _draw(state, seat, action.declare)


def _lead(state: HacktrickState, seat: int, card: int | None) -> HacktrickState:
    assert card is not None
    if state.settings.table:
        led = replace(state, table_hand_sizes=_set(state.table_hand_sizes, seat,
                                                   state.hand_size(seat) - 1))
    else:
        if card not in state.hands[seat]:
            raise IllegalAction(f"you hold no {card} to lead (your hand: {_cards(state, seat)})")
        hands = _set_hand(state.hands, seat, without_card(state.hands[seat], card))
        sums = tuple(
            Announcement(state.turn, s, sum(hands[s]), "deal") for s in (0, 1)
        )
        led = replace(state, hands=hands, announcements=sums)
    return _end_turn(replace(led, row=(card,), phase="turn"), seat, None)


def _ask(state: HacktrickState, seat: int) -> HacktrickState:
    if under_play(state, seat) and not state.settings.ask_under_play:
        raise IllegalAction(
            "Play! was declared against you: no action but playing a card (seed 001: "
            f"'{UNDER_PLAY_SEED}'), so no Ask the sum (option ask_under_play is off)"
        )
    if state.asked:
        raise IllegalAction("Ask the sum is allowed only once a turn")
    supply = state.supplies[seat]
    if supply.captured_total == 0:
        raise IllegalAction(
            "Ask the sum discards a captured opponent marker, and you have captured none"
        )
    if supply.captured > 0:
        supply = replace(supply, captured=supply.captured - 1)
    else:
        supply = replace(supply, captured_x2=False)
    opponent = other(seat)
    asked = replace(
        state,
        supplies=_set_supply(state.supplies, seat, supply),
        discarded=_set(state.discarded, opponent, state.discarded[opponent] + 1),
        asked=True,
    )
    if not state.settings.table:
        told = Announcement(state.turn, opponent, sum(state.hands[opponent]), "ask")
        asked = replace(asked, announcements=(*state.announcements, told))
    return _check_supplies(asked) or asked


def _placement(
    state: HacktrickState, seat: int, card: int, x2: bool
) -> tuple[Board, Supply, int, Marker]:
    """The board and ``seat``'s supply after laying ``card`` and placing a marker (captures
    included), the square marked, and the marker placed."""
    rightmost = state.rightmost
    assert rightmost is not None
    square = card + rightmost
    supply = state.supplies[seat]
    marker = Marker(seat, x2)
    there = on_square(state.board, square)
    taken = [m for m in there if m.owner != seat]
    supply = Supply(
        own=supply.own - (not x2),
        own_x2=supply.own_x2 and not x2,
        captured=supply.captured + sum(1 for m in taken if not m.x2),
        captured_x2=supply.captured_x2 or any(m.x2 for m in taken),
    )
    board = with_square(state.board, square, (*(m for m in there if m.owner == seat), marker))
    return board, supply, square, marker


def _markers_left(state: HacktrickState, supply: Supply) -> int:
    """The markers that keep a player in the round, as ``out_of_markers`` counts them."""
    return supply.own_total if state.settings.out_of_markers == "own_colour" else supply.total


def _place(state: HacktrickState, seat: int, card: int, x2: bool) -> HacktrickState:
    """Lay ``card`` (known to be allowed) and place the marker; the round may end here."""
    board, supply, square, marker = _placement(state, seat, card, x2)
    if state.settings.table:
        sizes, hands = _set(state.table_hand_sizes, seat, state.hand_size(seat) - 1), state.hands
    else:
        sizes = state.table_hand_sizes
        hands = _set_hand(state.hands, seat, without_card(state.hands[seat], card))
    placed = replace(
        state,
        hands=hands,
        table_hand_sizes=sizes,
        row=(*state.row, card),
        board=board,
        supplies=_set_supply(state.supplies, seat, supply),
    )
    win = placement_win(board, seat, square, marker, state.settings.x2_marker)
    if win is not None:
        return _finish_round(placed, seat, win.points, win.reason, win.squares)
    return _check_supplies(placed) or placed


def _play(
    state: HacktrickState, seat: int, card: int, x2: bool, declare: Declare | None
) -> HacktrickState:
    rightmost = state.rightmost
    if state.settings.table:
        if state.hand_size(seat) == 0:
            raise IllegalAction("by the count your hand is empty: you cannot play a card")
        if state.row.count(card) >= COPIES:
            raise IllegalAction(f"all three {card}s are already in the row: nobody holds a {card}")
    elif card not in state.hands[seat]:
        raise IllegalAction(f"you hold no {card} (your hand: {_cards(state, seat)})")
    if card == rightmost:
        raise IllegalAction(
            f"a card equal to the rightmost card of the row ({rightmost}) cannot be played"
        )
    supply = state.supplies[seat]
    if x2:
        if not state.settings.x2_marker:
            raise IllegalAction("there are no ×2 markers in this game (option x2_marker is off)")
        if not supply.own_x2:
            raise IllegalAction("your ×2 marker is not in your supply")
    elif supply.own == 0:
        hint = f": write 'play {card} x2' to place your ×2 marker" if supply.own_x2 else ""
        raise IllegalAction(f"you have no plain marker of your colour left to place{hint}")
    if declare == "play" and under_guard(state, seat):
        raise IllegalAction("Guard! was declared against you: you may not declare Play! this turn")
    placed = _place(state, seat, card, x2)
    if placed.round != state.round or placed.phase == "over":
        if declare is not None:
            raise IllegalAction(
                f"playing {card} ends the round, so there is nothing to declare: "
                f"write 'play {card}{' x2' if x2 else ''}'"
            )
        return placed
    if declare is not None:
        placed = _declare(placed, seat, declare)
        if placed.round != state.round or placed.phase == "over":
            return placed
    return _end_turn(placed, seat, declare)


def _declare(state: HacktrickState, seat: int, kind: Declare) -> HacktrickState:
    """Discard one of ``seat``'s own markers to declare ``kind``; the round may end."""
    supply = state.supplies[seat]
    if supply.own_total == 0:
        raise IllegalAction(
            f"declaring {'Play!' if kind == 'play' else 'Guard!'} discards one of your own "
            "markers, and you have none left in your supply"
        )
    # A plain marker goes first: the ×2 is never worth less than a plain one.
    supply = replace(supply, own=supply.own - 1) if supply.own else replace(supply, own_x2=False)
    declared = replace(
        state,
        supplies=_set_supply(state.supplies, seat, supply),
        discarded=_set(state.discarded, seat, state.discarded[seat] + 1),
    )
    return _check_supplies(declared) or declared


def _draw(state: HacktrickState, seat: int, declare: Declare | None) -> HacktrickState:
    shown = state.shown
    if under_play(state, seat):
        if not forced_draw(state, seat):
            why = (
                f"{state.hand_size(seat)} cards cannot all equal the rightmost {state.rightmost}"
                if state.settings.table
                else f"you hold one that differs from the rightmost {state.rightmost}"
            )
            raise IllegalAction(f"Play! was declared against you: you must play a card ({why})")
        if not state.settings.table and state.hands[seat]:
            shown = Show(state.turn, seat, state.hands[seat])
    elif state.hand_size(seat) >= HAND_LIMIT:
        raise IllegalAction(f"you hold {HAND_LIMIT} cards: you may draw only with fewer")
    if declare is not None:
        if not state.settings.declare_after_draw:
            raise IllegalAction(
                "a declaration follows a play, not a draw (option declare_after_draw is off)"
            )
        if declare == "play" and under_guard(state, seat):
            raise IllegalAction(
                "Guard! was declared against you: you may not declare Play! this turn"
            )
        if state.supplies[seat].own_total == 0:
            raise IllegalAction("declaring discards one of your own markers, and you have none")
    if state.deck_size == 0:  # cannot happen in play: the deck is rebuilt as it runs out
        raise IllegalAction("there is no card left to draw")
    drawn = state
    if state.settings.table:
        drawn = replace(
            drawn,
            table_deck_size=drawn.table_deck_size - 1,
            table_hand_sizes=_set(drawn.table_hand_sizes, seat, drawn.hand_size(seat) + 1),
        )
    else:
        drawn = replace(
            drawn,
            deck=drawn.deck[1:],
            hands=_set_hand(drawn.hands, seat, with_card(drawn.hands[seat], drawn.deck[0])),
        )
    drawn = replace(drawn, shown=shown)
    if drawn.deck_size == 0:
        drawn = _rebuild_deck(drawn, seat)
    if declare is not None:
        drawn = _declare(drawn, seat, declare)
        if drawn.round != state.round or drawn.phase == "over":
            return drawn
    return _end_turn(drawn, seat, declare)


def _rebuild_deck(state: HacktrickState, seat: int) -> HacktrickState:
    """The deck has just run out on ``seat``'s draw: at once, the row but its rightmost card,
    shuffled, is the new deck (the face-up cards stay out). Seed 001: "もし山札が尽きてしまったら、
    カード列の一番右端に置かれているカードを1枚だけ残し、残りのカードを全てシャッフルし新たな山札とします"."""
    rest, keep = state.row[:-1], state.row[-1:]
    if not rest:  # the row is the rightmost card alone (cannot happen: it holds 8 or more)
        return state
    event = Reshuffle(state.turn, seat, len(rest))
    rebuilt = replace(state, row=keep, reshuffles=(*state.reshuffles, event))
    if state.settings.table:
        return replace(rebuilt, table_deck_size=len(rest))
    deck = shuffled(rest, seed=state.seed, number=state.shuffles)
    return replace(rebuilt, deck=deck, shuffles=state.shuffles + 1)


def _end_turn(state: HacktrickState, seat: int, declared: Declare | None) -> HacktrickState:
    """Pass the turn; a declaration binds the opponent's coming turn, an old one lapses."""
    opponent = other(seat)
    passed = replace(
        state,
        declaration=Declaration(declared, seat) if declared else None,
        asked=False,
        mover=opponent,
        turn=state.turn + 1,
    )
    if not has_main_action(passed, opponent):
        return _finish_round(passed, seat, 1, NO_MOVE, ())
    return passed


# --- the end of a round --------------------------------------------------------------------


def _check_supplies(state: HacktrickState) -> HacktrickState | None:
    """The round's end if a player has run out of markers (``out_of_markers`` says which)."""
    for seat in (state.mover, other(state.mover)):
        if _markers_left(state, state.supplies[seat]) == 0:
            return _finish_round(state, other(seat), 1, OUT_OF_MARKERS, ())
    return None


def _finish_round(
    state: HacktrickState, winner: int, points: int, reason: RoundEnd,
    squares: tuple[int, ...]
) -> HacktrickState:
    score = _set(state.points, winner, state.points[winner] + points)
    result = RoundResult(state.round, winner, points, reason, squares)
    ended = replace(state, points=score, results=(*state.results, result))
    if score[winner] >= state.settings.target:
        return replace(ended, phase="over", declaration=None, asked=False)
    starter = winner if state.settings.starter == "winner" else other(state.starter)
    return deal_round(ended, starter)


def _cards(state: HacktrickState, seat: int) -> str:
    return " ".join(str(c) for c in state.hands[seat]) or "empty"
