"""Rules that hold at the end of every random game, checked from the public record."""

from __future__ import annotations

import pytest

from rules.unlock import GAME, Code, UnlockState, feedback
from tests.rules.conformance import playout
from tests.rules.unlock.test_conformance import NAMES, pick

OPTION_SETS = [
    {},
    {"difficulty": "hard", "repeats": "score_zero"},
    {"difficulty": "easy", "auto_connect": False, "turn_limit": 3},
    {"turn_limit": "none", "lock": 2},
]


def final_state(players: int, options: dict[str, object], seed: int) -> UnlockState:
    steps = list(playout(GAME, NAMES[:players], options, seed, pick=pick))
    final: UnlockState = steps[-1][0]
    return final


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.values())))
@pytest.mark.parametrize("seed", range(6))
def test_every_game_keeps_the_rules(options: dict[str, object], seed: int) -> None:
    players = 3 + seed % 3
    state = final_state(players, options, seed)
    secret = state.secret
    assert secret is not None
    earlier: dict[int, int] = {}
    points = [0] * players
    for turn in range(1, state.turn + 1):
        cards = [card for card in state.board if card.turn == turn]
        # one card per guesser per turn, in seat order
        assert [card.seat for card in cards] == list(state.guessers)
        for card in cards:
            matches, misses = feedback(secret, card.code)
            assert (card.matches, card.misses) == (matches, misses)
            assert matches + misses == card.code.line_count
            assert card.repeat == (card.code.lines in earlier)
            assert card.points == (0 if card.repeat else matches - misses)
            points[card.seat] += card.points
        for card in cards:
            earlier.setdefault(card.code.lines, turn)
        found = any(card.code == secret for card in cards)
        if turn < state.turn:
            assert not found, "the game went on after a card equalled the secret"
    if options.get("repeats", "reject") == "reject":
        assert not any(card.repeat for card in state.board)
    outcome = GAME.outcome(state)
    assert outcome is not None
    last = [card for card in state.board if card.turn == state.turn]
    if any(card.code == secret for card in last):
        assert outcome["reason"] in ("found", "tie_break", "tie", "shared_win")
        assert outcome["scores"] == points
        assert points[state.lock] == 0
        best = max(points[s] for s in state.guessers)
        assert all(points[w] == best for w in outcome["winners"])
    else:
        assert outcome["reason"] == "turn_limit" and state.turn == state.turn_limit
        assert outcome["scores"] == [0] * players and outcome["winners"] == []
    assert Code.parse(str(secret), state.size, state.auto_connect) == secret
