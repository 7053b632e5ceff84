"""The game's set-up, the deal, the lead and the announced sums; options and player count."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import IllegalAction, OptionError, get_game
from rules.hacktrick import GAME
from rules.hacktrick.cards import FULL_DECK


def test_registry_loads_hacktrick() -> None:
    assert get_game("hacktrick") is GAME


def test_game_is_for_exactly_two_players_and_says_so() -> None:
    described = GAME.describe()
    assert (described["min_players"], described["max_players"]) == (2, 2)
    assert "Two players only" in described["notes"]
    for players in (["Aiko"], ["Aiko", "Ben", "Chie"], ["Aiko", "Ben", "Chie", "Dai"]):
        with pytest.raises(OptionError, match="Two players only") as refusal:
            GAME.start(players, seed=1)
        assert refusal.value.option == "players"


def test_every_option_has_its_default() -> None:
    state = GAME.start(["Aiko", "Ben"], seed=1)
    assert GAME.view(state, None)["options"] == {
        "cards": "virtual", "target": 5, "x2_marker": True, "out_of_markers": "own_colour",
        "declare_after_draw": False, "starter": "alternate", "ask_under_play": False,
    }


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"cards": "paper"}, "cards"),
        ({"target": 0}, "target"),
        ({"target": "five"}, "target"),
        ({"x2_marker": "maybe"}, "x2_marker"),
        ({"out_of_markers": "never"}, "out_of_markers"),
        ({"declare_after_draw": 3}, "declare_after_draw"),
        ({"starter": "loser"}, "starter"),
        ({"players": 4}, "players"),
    ],
)
def test_bad_option_is_refused_by_name(options: dict[str, object], named: str) -> None:
    with pytest.raises(OptionError) as refusal:
        GAME.start(["Aiko", "Ben"], options, seed=1)
    assert refusal.value.option == named


def test_deal_gives_starter_four_other_three_two_face_up_and_nine_in_deck() -> None:
    for seed in range(20):
        state = GAME.start(["Aiko", "Ben"], seed=seed)
        assert state.starter == 0 and GAME.to_act(state) == [0] and state.phase == "lead"
        assert [len(h) for h in state.hands] == [4, 3]
        assert len(state.face_up) == 2 and len(state.deck) == 9 and state.row == ()
        dealt = Counter((*state.hands[0], *state.hands[1], *state.face_up, *state.deck))
        assert dealt == Counter(FULL_DECK)


def test_same_seed_deals_the_same_cards_and_seeds_differ() -> None:
    first = GAME.start(["Aiko", "Ben"], seed=42)
    assert GAME.start(["Aiko", "Ben"], seed=42) == first
    deals = {GAME.start(["Aiko", "Ben"], seed=s).deck for s in range(10)}
    assert len(deals) == 10


def test_starting_player_leads_a_card_from_hand_then_the_other_takes_the_first_turn() -> None:
    state = GAME.start(["Aiko", "Ben"], seed=3)
    card = state.hands[0][0]
    led = GAME.apply(state, 0, f"lead {card}")
    assert led.row == (card,)
    assert len(led.hands[0]) == 3
    assert led.phase == "turn" and GAME.to_act(led) == [1]
    assert led.board == state.board, "no marker is placed for the lead card"


def test_lead_card_must_come_from_hand() -> None:
    state = GAME.start(["Aiko", "Ben"], seed=3)
    missing = next(v for v in range(6) if v not in state.hands[0])
    with pytest.raises(IllegalAction, match=f"you hold no {missing}"):
        GAME.apply(state, 0, f"lead {missing}")


def test_round_starts_with_the_lead_and_nothing_else() -> None:
    state = GAME.start(["Aiko", "Ben"], seed=3)
    assert set(GAME.legal_actions(state, 0)) == {f"lead {v}" for v in set(state.hands[0])}
    for action in ("draw", f"play {state.hands[0][0]}", "ask"):
        with pytest.raises(IllegalAction, match="lead"):
            GAME.apply(state, 0, action)
    with pytest.raises(IllegalAction, match="turn"):
        GAME.apply(state, 1, f"lead {state.hands[1][0]}")


def test_both_hand_sums_are_announced_after_the_lead() -> None:
    state = GAME.start(["Aiko", "Ben"], seed=5)
    led = GAME.apply(state, 0, f"lead {state.hands[0][-1]}")
    view = GAME.view(led, None)
    assert view["announced_sums"] == [sum(led.hands[0]), sum(led.hands[1])]
    assert [a["reason"] for a in view["announcements"]] == ["deal", "deal"]


def test_lead_is_refused_once_the_row_has_begun() -> None:
    state = GAME.start(["Aiko", "Ben"], seed=5)
    led = GAME.apply(state, 0, f"lead {state.hands[0][0]}")
    with pytest.raises(IllegalAction, match="already laid"):
        GAME.apply(led, 1, f"lead {led.hands[1][0]}")
