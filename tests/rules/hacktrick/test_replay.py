"""Replays from seed and actions, the public history, and which actions can be taken back."""

from __future__ import annotations

import json
import random
import re

import pytest

from rules.hacktrick import GAME, position, reveals_hidden
from rules.hacktrick.actions import Action


def _random_game(seed: int, options: dict[str, object]) -> list[tuple[int, str]]:
    rng = random.Random(seed)
    state = GAME.start(["Aiko", "Ben"], options, seed=seed)
    actions: list[tuple[int, str]] = []
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        action = rng.choice(list(GAME.legal_actions(state, seat)))
        actions.append((seat, action))
        state = GAME.apply(state, seat, action)
    return actions


@pytest.mark.parametrize("options", [{}, {"cards": "table"}])
def test_a_game_replays_exactly_from_its_seed_and_actions(options: dict[str, object]) -> None:
    actions = _random_game(11, {**options, "target": 2})
    first = GAME.start(["Aiko", "Ben"], {**options, "target": 2}, seed=11)
    second = GAME.load(json.loads(json.dumps(GAME.dump(first))))
    for seat, action in actions:
        first = GAME.apply(first, seat, action)
        second = GAME.apply(second, seat, action)
        assert first == second
    assert GAME.outcome(first) is not None


def test_actions_name_no_hidden_card() -> None:
    """A draw is just 'draw' and the deck order appears nowhere in the action history."""
    pattern = re.compile(r"^(lead [0-5]|ask|play [0-5]( x2)?( declare=(play|guard))?|draw)$")
    actions = _random_game(3, {"target": 2})
    assert all(pattern.match(action) for _, action in actions)
    assert any(action == "draw" for _, action in actions)


def test_action_text_round_trips() -> None:
    for text in ("lead 0", "ask", "play 3", "play 3 x2", "play 3 declare=play",
                 "play 3 x2 declare=guard", "draw", "draw declare=guard"):
        assert str(Action.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "says"),
    [("play", "name the card"), ("play 6", "cards are 0–5"), ("play -1", "not a card"),
     ("play 3 x3", "optional 'x2'"), ("play 3 declare=stop", "declare=play"),
     ("ask 3", "nothing after"), ("lead", "lead N"), ("dance", "unknown action"), ("", "empty")],
)
def test_bad_action_text_is_refused_naming_the_problem(text: str, says: str) -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    with pytest.raises(ValueError, match=re.escape(says)):
        GAME.apply(state, 0, text)


def test_draws_asks_and_virtual_leads_reveal_hidden_information() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), captured={0: "R"})
    assert reveals_hidden(state, 0, "draw")
    assert reveals_hidden(state, 0, "ask")
    start = GAME.start(["Aiko", "Ben"], seed=2)
    assert reveals_hidden(start, 0, f"lead {start.hands[0][0]}")
    assert GAME.reveals_hidden(state, 0, "draw"), "the daemon asks the game object"


def test_a_plain_play_or_declaration_can_be_taken_back() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,))
    assert not reveals_hidden(state, 0, "play 2")
    assert not reveals_hidden(state, 0, "play 3 declare=play")


def test_a_play_that_ends_the_round_deals_anew_and_cannot_be_taken_back() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "WW"})
    assert reveals_hidden(state, 0, "play 2")
    table = position(options={"cards": "table"}, row=(4,), board={6: "WW"})
    assert reveals_hidden(table, 0, "play 2")


def test_forced_show_reveals_and_table_lead_does_not() -> None:
    shown = position(hands=((3, 3), (1, 5)), row=(2, 3), declaration=("play", 1))
    assert reveals_hidden(shown, 0, "draw")
    table = GAME.start(["Aiko", "Ben"], {"cards": "table"}, seed=2)
    assert not reveals_hidden(table, 0, "lead 4")


def test_dump_load_round_trips_a_mid_game_state() -> None:
    state = position(hands=((2, 3), (1, 5)), row=(4,), board={6: "RR*", 5: "W"},
                     captured={0: "R"}, declaration=("guard", 1), announced={0: 5})
    assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state


def test_loading_junk_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="not a saved Hacktrick state"):
        GAME.load({"players": ["a"]})
    data = GAME.dump(GAME.start(["Aiko", "Ben"], seed=1))
    with pytest.raises(ValueError, match="not a saved Hacktrick state"):
        GAME.load({**data, "phase": "dancing"})
