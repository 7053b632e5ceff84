"""Properties over random games: marker supply, one colour per edge, the tile's path, balance."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ico import GAME, IcoState
from rules.ico.figures import LEVELS
from rules.ico.geometry import FACE, FACE_NEIGHBOURS, across
from tests.rules.ico.positions import PLAYERS


@dataclass(frozen=True)
class Playout:
    """One random game: its setup and the picks that choose each action among the legal ones."""

    level: str
    claim: str
    players: int
    seed: int
    picks: list[int]

    def steps(self) -> list[tuple[IcoState, str, IcoState]]:
        """The (before, action, after) steps of the game."""
        options = {"level": self.level, "claim": self.claim, "start_face": "random"}
        state = GAME.start(PLAYERS[: self.players], options, seed=self.seed)
        steps = []
        for pick in self.picks:
            if GAME.outcome(state) is not None:
                break
            legal = GAME.legal_actions(state, state.mover)
            action = legal[pick % len(legal)]
            after = GAME.apply(state, state.mover, action)
            steps.append((state, action, after))
            state = after
        return steps


games = st.builds(
    Playout,
    level=st.sampled_from(LEVELS),
    claim=st.sampled_from(("auto", "manual")),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    picks=st.lists(st.integers(0, 10**6), min_size=30, max_size=300),
)


def _ico_md_placements(state: IcoState) -> set[str]:
    """Levels 1/1+ balance, written straight from ico.md as an independent check."""
    if state.markers_left(state.mover) == 0:
        return set()
    edges = FACE[state.active_face].edges
    total = {e: sum(state.on_edge(e)) for e in edges}
    without = [e for e in edges if state.on_edge(e)[state.mover] == 0]
    if not without:
        return set()
    candidates = without if len(without) < 3 else list(edges)
    least = min(total[e] for e in candidates)
    return {e for e in candidates if total[e] == least}


@settings(max_examples=60)
@given(games)
def test_no_colour_ever_has_more_than_thirty_markers_on_the_board(game: Playout) -> None:
    for _, _, after in game.steps():
        for seat in range(len(after.players)):
            assert sum(counts[seat] for counts in after.markers) <= 30
            assert after.markers_left(seat) >= 0


@settings(max_examples=60)
@given(games)
def test_an_edge_never_holds_more_of_a_colour_than_its_level_allows(
    game: Playout,
) -> None:
    for _, _, after in game.steps():
        for counts in after.markers:
            if after.level in ("1", "1+"):
                assert max(counts) <= 1, "two markers of one colour on an edge at Level 1/1+"
            elif after.level == "4":
                assert sum(counts) <= 1
            else:
                assert max(counts) <= 2


@settings(max_examples=60)
@given(games)
def test_active_face_always_rolls_to_its_neighbour_across_the_edge_just_used(
    game: Playout,
) -> None:
    for before, action, after in game.steps():
        if after.active_face == before.active_face:
            assert after.turns_done == before.turns_done  # a manual placement or a claim
            continue
        assert after.previous_face == before.active_face
        assert after.last_edge in FACE[before.active_face].edges
        assert after.active_face == across(before.active_face, after.last_edge)
        assert after.active_face in FACE_NEIGHBOURS[before.active_face]
        if action.startswith(("place", "roll")):
            assert action.split()[1] == after.last_edge


@settings(max_examples=60)
@given(games.filter(lambda g: g.level in ("1", "1+")))
def test_legal_placements_are_exactly_what_the_balance_rules_allow(
    game: Playout,
) -> None:
    for before, _, _ in game.steps():
        if before.placed is not None:
            continue
        legal = {a.split()[1] for a in GAME.legal_actions(before, before.mover)
                 if a.startswith("place")}
        assert legal == _ico_md_placements(before)
