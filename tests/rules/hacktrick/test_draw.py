"""Drawing: fewer than four cards, not under Play!, and the deck rebuilt from the row the moment it
runs out (seed 001)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import IllegalAction, RulesError
from rules.hacktrick import GAME, HacktrickState, position
from rules.hacktrick.cards import FULL_DECK
from rules.hacktrick.state import Reshuffle
from rules.hacktrick.text import render

#: 13 cards laid alternately: with hands 1 / 2, face-up 0 0 and a deck of one 2, all 18 cards.
LONG_ROW = (3, 4, 5, 3, 4, 5, 3, 4, 5, 0, 1, 2, 1)
#: Seed 001, the moment the deck is rebuilt: "if the deck runs out, leave only the rightmost card
#: of the row, shuffle all the other cards and make them the new deck".
SEED_001 = ("もし山札が尽きてしまったら、カード列の一番右端に置かれているカードを1枚だけ残し、"
            "残りのカードを全てシャッフルし新たな山札とします")


def last_card_drawn(seed: int = 0, **options: object) -> tuple[HacktrickState, HacktrickState]:
    """A position whose deck holds one card, and the state after White draws it."""
    state = position(hands=((1,), (2,)), row=LONG_ROW, face_up=(0, 0), deck=(2,), seed=seed,
                     options=dict(options))
    return state, GAME.apply(state, 0, "draw")


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


def test_the_deck_is_rebuilt_the_moment_the_last_card_is_drawn() -> None:
    # Seed 001: "もし山札が尽きてしまったら…新たな山札とします" — when the deck runs out, not at the
    # next draw.
    assert "山札が尽きてしまったら" in SEED_001
    state, after = last_card_drawn()
    assert state.deck_size == 1
    assert after.hands[0] == (1, 2), "the last card is drawn first"
    assert after.row == (1,), "only the rightmost card stays in the row"
    assert after.face_up == (0, 0), "the face-up cards stay out"
    assert Counter(after.deck) == Counter(LONG_ROW[:-1])
    assert after.deck_size == len(LONG_ROW) - 1 == 12
    assert GAME.to_act(after) == [1]


def test_the_rebuild_shows_in_every_view_and_in_the_text() -> None:
    # Seed 001: "山札が尽きてしまったら…残りのカードを全てシャッフルし新たな山札とします".
    _, after = last_card_drawn()
    for seat in (0, 1, None):
        view = GAME.view(after, seat)
        assert view["deck_size"] == 12
        assert view["reshuffled"] == {"turn": after.turn - 1, "seat": 0, "cards": 12}
        assert view["reshuffles"] == [view["reshuffled"]]
        assert "deck" not in view, "the new order stays secret"
    text = render(after, hands=False)
    assert "Deck rebuilt in turn" in text and "12 cards of the row shuffled into a new deck" in text
    nxt = GAME.apply(after, 1, "draw")
    assert GAME.view(nxt, None)["reshuffled"] is None, "'just happened' lasts one turn"
    assert len(GAME.view(nxt, None)["reshuffles"]) == 1, "the round's history keeps it"


def test_table_cards_count_the_rebuilt_deck_at_once() -> None:
    # Seed 001: "山札が尽きてしまったら…新たな山札とします": the players rebuild it at the table.
    state = position(options={"cards": "table"}, row=LONG_ROW, hand_sizes=(1, 1), deck_size=1)
    after = GAME.apply(state, 0, "draw")
    assert after.deck_size == 12 and after.row == (1,)
    assert GAME.view(after, None)["reshuffled"] == {"turn": after.turn - 1, "seat": 0,
                                                    "cards": 12}


def test_no_position_has_an_empty_deck_and_a_row_to_rebuild_it_from() -> None:
    with pytest.raises(RulesError, match="rebuilt the moment it runs out"):
        position(hands=((1,), (2,)), row=(*LONG_ROW, 2), face_up=(0, 0), deck=())


def test_rebuilt_deck_is_shuffled_from_the_seed() -> None:
    decks = set()
    for seed in range(5):
        state, after = last_card_drawn(seed)
        assert GAME.apply(state, 0, "draw") == after, "the same seed gives the same deck"
        assert GAME.load(GAME.dump(after)) == after, "dump and load keep the rebuild"
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
                assert state.deck_size == 1 and action == "draw", "rebuilt as it runs out"
                assert after.row == state.row[-1:]
                assert after.face_up == state.face_up
                assert Counter(after.deck) == Counter(state.row[:-1])
                assert after.reshuffles[-1] == Reshuffle(state.turn, seat, len(state.row) - 1)
            else:
                assert after.deck_size > 0 or after.round != state.round
            state = after
        if rebuilds >= 2:
            return
    pytest.fail("no round went through the deck twice")


def test_cards_add_up_after_a_rebuild() -> None:
    _, after = last_card_drawn()
    held = (*after.hands[0], *after.hands[1], *after.deck, *after.row, *after.face_up)
    assert Counter(held) == Counter(FULL_DECK)
