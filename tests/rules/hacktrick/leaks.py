"""The leak check for Hacktrick views: a view must not change when the secrets it hides do.

For a viewer, the secrets are the deck's order, the random seed, and every hand but their own.
Dealing those same cards differently (and changing the seed) must leave the view identical;
anything else means a hidden card or the deck order reached the view.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.hacktrick import GAME, HacktrickState


def rearranged_secrets(state: HacktrickState, viewer: int | None) -> HacktrickState:
    """``state`` with the cards ``viewer`` cannot see dealt otherwise and another seed."""
    hidden = [s for s in (0, 1) if s != viewer]
    pool = sorted(
        [*state.deck, *(c for s in hidden for c in state.hands[s])], reverse=True
    )
    hands = list(state.hands)
    for s in hidden:
        size = len(state.hands[s])
        hands[s], pool = tuple(sorted(pool[:size])), pool[size:]
    return replace(
        state, hands=(hands[0], hands[1]), deck=tuple(pool), seed=state.seed + 7919
    )


def no_leaks(state: HacktrickState, viewer: int | None, view: dict[str, Any]) -> None:
    """Fail if ``view`` (of ``state`` for ``viewer``) shows a secret of the others."""
    assert "deck" not in view and "seed" not in view
    for seat, hand in enumerate(view["hands"]):
        assert hand["size"] == state.hand_size(seat)
        if seat != viewer or state.settings.table:
            assert hand["cards"] is None, f"viewer {viewer} sees the cards of seat {seat}"
        else:
            assert hand["cards"] == list(state.hands[seat])
    assert GAME.view(rearranged_secrets(state, viewer), viewer) == view, (
        f"viewer {viewer}'s view depends on cards or a deck order they cannot see"
    )
