"""Properties over random games: markers and cards are conserved, the row alternates, and
``legal_actions`` is exactly what ``apply`` accepts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.hacktrick import GAME, HacktrickState
from rules.hacktrick.actions import all_action_texts
from rules.hacktrick.board import MARKERS_EACH, count_markers
from rules.hacktrick.cards import FULL_DECK

OPTIONS = st.fixed_dictionaries({
    "cards": st.sampled_from(["virtual", "table"]),
    "target": st.integers(1, 3),
    "x2_marker": st.booleans(),
    "out_of_markers": st.sampled_from(["own_colour", "empty_supply"]),
    "declare_after_draw": st.booleans(),
    "starter": st.sampled_from(["alternate", "winner"]),
    "ask_under_play": st.booleans(),
})
PICKS = st.lists(st.integers(0, 10_000), min_size=20, max_size=400)


def states(options: dict[str, object], seed: int, picks: list[int]) -> Iterator[HacktrickState]:
    """The states of one game whose actions are chosen by ``picks``."""
    state = GAME.start(["Aiko", "Ben"], options, seed=seed)
    yield state
    for pick in picks:
        if GAME.outcome(state) is not None:
            return
        seat = GAME.to_act(state)[0]
        legal = list(GAME.legal_actions(state, seat))
        state = GAME.apply(state, seat, legal[pick % len(legal)])
        yield state


def markers_of(state: HacktrickState, colour: int) -> int:
    """Every marker of ``colour``: on the board, in its supply, captured, discarded."""
    own = state.supplies[colour].own_total
    captured = state.supplies[1 - colour].captured_total
    return count_markers(state.board, colour) + own + captured + state.discarded[colour]


@settings(max_examples=40)
@given(options=OPTIONS, seed=st.integers(0, 2**31), picks=PICKS)
def test_markers_are_conserved(options: dict[str, object], seed: int, picks: list[int]) -> None:
    for state in states(options, seed, picks):
        assert markers_of(state, 0) == MARKERS_EACH and markers_of(state, 1) == MARKERS_EACH
        x2_count = sum(m.x2 for square in state.board for m in square) + sum(
            s.own_x2 + s.captured_x2 for s in state.supplies)
        assert x2_count <= (2 if options["x2_marker"] else 0)


@settings(max_examples=40)
@given(options=OPTIONS, seed=st.integers(0, 2**31), picks=PICKS)
def test_row_always_alternates_values(
    options: dict[str, object], seed: int, picks: list[int]
) -> None:
    for state in states(options, seed, picks):
        assert all(a != b for a, b in zip(state.row, state.row[1:], strict=False)), state.row


@settings(max_examples=40)
@given(options=OPTIONS.map(lambda o: {**o, "cards": "virtual"}), seed=st.integers(0, 2**31),
       picks=PICKS)
def test_cards_are_conserved_with_virtual_cards(
    options: dict[str, object], seed: int, picks: list[int]
) -> None:
    for state in states(options, seed, picks):
        every = (*state.hands[0], *state.hands[1], *state.deck, *state.row, *state.face_up)
        assert Counter(every) == Counter(FULL_DECK)
        assert all(len(hand) <= 4 for hand in state.hands)


@settings(max_examples=40)
@given(options=OPTIONS.map(lambda o: {**o, "cards": "table"}), seed=st.integers(0, 2**31),
       picks=PICKS)
def test_table_counts_add_up_to_the_eighteen_cards(
    options: dict[str, object], seed: int, picks: list[int]
) -> None:
    for state in states(options, seed, picks):
        counted = state.hand_size(0) + state.hand_size(1) + state.deck_size + len(state.row)
        assert counted == len(FULL_DECK) - 2, "all but the two face-up cards"
        assert all(0 <= state.hand_size(s) <= 4 for s in (0, 1))


@settings(max_examples=25)
@given(options=OPTIONS, seed=st.integers(0, 2**31), picks=PICKS)
def test_legal_actions_are_exactly_the_actions_apply_accepts(
    options: dict[str, object], seed: int, picks: list[int]
) -> None:
    for number, state in enumerate(states(options, seed, picks)):
        if number % 5:
            continue
        for seat in (0, 1):
            legal = set(GAME.legal_actions(state, seat))
            for text in all_action_texts():
                try:
                    GAME.apply(state, seat, text)
                except IllegalAction:
                    assert text not in legal, f"{text!r} is listed but refused"
                else:
                    assert text in legal, f"{text!r} is accepted but not listed"
