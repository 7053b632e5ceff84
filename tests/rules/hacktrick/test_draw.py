"""Drawing: fewer than four cards, not under Play!, and the deck rebuilt from the row."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import IllegalAction
from rules.hacktrick import GAME, HacktrickState, position
from rules.hacktrick.cards import FULL_DECK

#: 14 cards laid alternately: with hands 1 / 2 and face-up 0 0 this leaves the deck empty.
LONG_ROW = (3, 4, 5, 3, 4, 5, 3, 4, 5, 0, 1, 2, 1, 2)


def test_draw_takes_the_top_card_into_the_hand() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), deck=(0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4))
    assert state.face_up == (0, 5)
    after = GAME.apply(state, 0, "draw")
    assert after.hands[0] == (0, 2, 3) and after.deck == state.deck[1:]
    assert GAME.to_act(after) == [1], "a draw is the turn's main action"


def test_draw_needs_fewer_than_four_cards() -> None:
    state = position(hands=((0, 1, 2, 3), (1, 5)), row=(4,))
    assert "draw" not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="you hold 4 cards"):
        GAME.apply(state, 0, "draw")


def test_empty_deck_is_rebuilt_from_the_row_except_its_rightmost_card() -> None:
    state = position(hands=((1,), (2,)), row=LONG_ROW, face_up=(0, 0), deck=())
    assert state.deck_size == 0
    after = GAME.apply(state, 0, "draw")
    assert after.row == (2,)
    assert after.face_up == (0, 0), "the face-up cards stay out"
    assert Counter((*after.deck, *after.hands[0])) == Counter((*LONG_ROW[:-1], 1))
    assert after.deck_size == len(LONG_ROW) - 2


def test_rebuilt_deck_is_shuffled_from_the_seed() -> None:
    decks = set()
    for seed in range(5):
        state = position(hands=((1,), (2,)), row=LONG_ROW, face_up=(0, 0), deck=(), seed=seed)
        after = GAME.apply(state, 0, "draw")
        assert GAME.apply(state, 0, "draw") == after, "the same seed gives the same deck"
        decks.add(after.deck)
    assert len(decks) > 1


def _rebuilt(before: HacktrickState, after: HacktrickState) -> bool:
    return after.round == before.round and after.deck_size > before.deck_size


def test_deck_is_rebuilt_twice_in_one_round() -> None:
    """Players who draw whenever they may, and avoid ending the round, go through the deck
    twice within a round; each rebuild follows the rule."""
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.start(["Aiko", "Ben"], {"out_of_markers": "empty_supply"}, seed=seed)
        rebuilds = 0
        while GAME.outcome(state) is None and state.round == 1:
            seat = GAME.to_act(state)[0]
            legal = [a for a in GAME.legal_actions(state, seat) if "declare" not in a]
            calm = [a for a in legal if GAME.apply(state, seat, a).round == 1]
            action = "draw" if "draw" in legal else rng.choice(calm or legal)
            after = GAME.apply(state, seat, action)
            if _rebuilt(state, after):
                rebuilds += 1
                assert state.deck_size == 0 and action == "draw"
                assert after.row == state.row[-1:]
                assert after.face_up == state.face_up
                drawn = Counter(after.hands[seat]) - Counter(state.hands[seat])
                assert Counter(after.deck) + drawn == Counter(state.row[:-1])
            state = after
        if rebuilds >= 2:
            return
    pytest.fail("no round went through the deck twice")


def test_cards_add_up_after_a_rebuild() -> None:
    state = position(hands=((1,), (2,)), row=LONG_ROW, face_up=(0, 0), deck=())
    after = GAME.apply(state, 0, "draw")
    held = (*after.hands[0], *after.hands[1], *after.deck, *after.row, *after.face_up)
    assert Counter(held) == Counter(FULL_DECK)
