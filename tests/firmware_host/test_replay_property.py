"""Property: whatever mix of actions and undos was played, a restarted companion shows exactly
the game the rules give for the actions that were kept (seeded start + kept actions)."""

from __future__ import annotations

import random
import tempfile
from itertools import islice
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host import read_side
from firmware_host.companion import Companion
from firmware_host.errors import NotAllowed
from rules import get_game

#: What the session adds to the rules' view (UNLOCK's public extra too).
SESSION_KEYS = (*read_side.SESSION_KEYS, "codes_remaining")


def public(view: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k not in SESSION_KEYS}


@settings(max_examples=12)
@given(game=st.sampled_from(["dice216", "ico", "unlock", "hacktrick"]),
       seed=st.integers(0, 2**31), steps=st.integers(1, 40), undo_rate=st.floats(0, 0.5))
def test_restart_shows_the_seeded_start_plus_the_kept_actions(
    game: str, seed: int, steps: int, undo_rate: float
) -> None:
    rules = get_game(game)
    players = ["Aiko", "Ben", "Chie"] if game == "unlock" else ["Aiko", "Ben"]
    rng = random.Random(seed)
    kept: list[tuple[int, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        with Companion.open(Path(tmp)) as box:
            gid = box.create_game(game, players, seed=seed)
            for _ in range(steps):
                state = rules.start(players, None, seed=seed)
                for seat, action in kept:
                    state = rules.apply(state, seat, action)
                if rules.outcome(state) is not None:
                    break
                if kept and rng.random() < undo_rate:
                    try:
                        box.undo(gid)
                    except NotAllowed:
                        assert box.view(gid, None)["can_undo"] is False
                    else:
                        kept.pop()
                    continue
                seat = rng.choice(rules.to_act(state))
                action = rng.choice(list(islice(iter(rules.legal_actions(state, seat)), 200)))
                box.act(gid, seat, action)
                kept.append((seat, action))
            before = {s: box.view(gid, s) for s in (None, *range(len(players)))}
        with Companion.open(Path(tmp)) as box:
            state = rules.start(players, None, seed=seed)
            for seat, action in kept:
                state = rules.apply(state, seat, action)
            for viewer in (None, *range(len(players))):
                after = box.view(gid, viewer)
                assert public(after) == public(before[viewer])
                assert public(after) == rules.view(state, viewer)
