"""The post-game analysis of Hacktrick, ICO and 2 1 6 (``rules.evaluation``): every move a
player chose weighed by the ``hard`` bot from the mover's view, the turning points, a line per
player."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from rules import CHANCE, get_game
from rules.bots import get_bot
from rules.evaluation import NOTICEABLE, GameRecord, analyse_record
from rules.ico.bots import Table, _try, action_text

NAMES = ("Aiko", "Ben", "Chie", "Dai")

#: (game, options, players): the default of each game, its variants' dice and levels.
TABLES = [
    ("hacktrick", {}, 2),
    ("hacktrick", {"x2_marker": False, "target": 3}, 2),
    ("ico", {}, 2),
    ("ico", {"level": "2"}, 3),
    ("ico", {"level": "4"}, 4),
    ("ico", {"claim": "manual"}, 2),
    ("dice216", {}, 2),
    ("dice216", {"size": 4}, 2),
    ("dice216", {"size": 8, "diagonals": True}, 2),
    ("dice216", {}, 3),
]


def play(game_id: str, options: Mapping[str, Any], players: int, seed: int,
         levels: tuple[str, ...] = ("hard", "easy", "random", "easy")) -> GameRecord:
    """A whole game, seat ``i`` played by a bot of ``levels[i]``, chance drawn from ``seed``."""
    game = get_game(game_id)
    names = list(NAMES[:players])
    state = game.start(names, dict(options), seed=seed)
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    while game.outcome(state) is None:
        assert len(actions) < 2_000, "the bots' game does not end"
        seat = game.to_act(state)[0]
        legal = list(game.legal_actions(state, seat))
        if seat == CHANCE:
            action = legal[rng.randrange(len(legal))]
        else:
            action = get_bot(game_id, levels[seat]).choose(game.view(state, seat), legal, rng)
        state = game.apply(state, seat, action)
        actions.append((seat, action))
    return GameRecord(tuple(names), dict(options), seed, tuple(actions))


@pytest.mark.parametrize(("game_id", "options", "players"), TABLES)
def test_every_choice_is_weighed_and_the_figures_hold_together(
    game_id: str, options: dict[str, Any], players: int
) -> None:
    record = play(game_id, options, players, seed=7)
    result = analyse_record(game_id, record)
    assert result.end == "ended" and result.evaluated and result.kind == "evaluation"
    assert result.players == record.players
    game = get_game(game_id)
    state = game.start(list(record.players), dict(record.options), seed=record.seed)
    choices = []  # (n, seat) of every move that was a choice: not chance, not forced
    for n, (seat, action) in enumerate(record.actions, start=1):
        if seat != CHANCE and len(list(game.legal_actions(state, seat))) > 1:
            choices.append((n, seat, game.canonical(state, seat, action)))
        state = game.apply(state, seat, action)
    steps = {s.n: s for s in result.steps}
    assert [s.step for s in result.steps] == list(range(1, len(result.steps) + 1))
    assert set(steps) <= {n for n, _, _ in choices}
    weighed = [c for c in choices if c[0] in steps]
    # Only Hacktrick's free "ask" and ICO's claims go unweighed among the choices.
    for n, _, action in choices:
        if n not in steps:
            assert action in ("ask", "claim"), f"move {n} ({action}) was a choice, not weighed"
    for n, seat, action in weighed:
        step = steps[n]
        assert (step.seat, step.action) == (seat, action)
        assert -1.0 <= step.value <= step.best <= 1.0
        assert step.loss == pytest.approx(step.best - step.value, abs=1e-3)
        if step.loss == 0:
            assert step.best_action == action
    losses = sorted(result.steps, key=lambda s: (-s.loss, s.step))
    expected = sorted(s.step for s in losses[:3] if s.loss >= NOTICEABLE)
    assert list(result.turning_points) == expected
    assert {s.step for s in result.steps if s.turning_point} == set(expected)
    for summary in result.summaries:
        mine = [s for s in result.steps if s.seat == summary.seat]
        assert summary.player == record.players[summary.seat]
        assert summary.moves == len(mine)
        assert summary.best_moves == sum(1 for s in mine if s.loss < NOTICEABLE)
        assert summary.player in summary.sentence


@pytest.mark.parametrize(("game_id", "options", "players"), TABLES)
def test_the_hard_bot_loses_nothing_by_its_own_weighing(
    game_id: str, options: dict[str, Any], players: int
) -> None:
    record = play(game_id, options, players, seed=11)
    result = analyse_record(game_id, record)
    hard = [s for s in result.steps if s.seat == 0]
    assert hard, "the hard bot made choices"
    assert all(s.loss < NOTICEABLE for s in hard), [
        (s.n, s.action, s.best_action, s.loss) for s in hard if s.loss >= NOTICEABLE]
    assert result.summaries[0].best_moves == len(hard)
    assert result.summaries[0].worst_step is None


def test_a_missed_ico_win_is_a_turning_point() -> None:
    """A player who could have completed a figure and did not: the best move is a win (+1), and
    the step's loss is the largest there is."""
    game = get_game("ico")
    for seed in range(200):
        record = play("ico", {}, 2, seed, levels=("random", "random"))
        state = game.start(list(record.players), {}, seed=seed)
        missed = None
        for n, (seat, action) in enumerate(record.actions, start=1):
            if seat != CHANCE:
                view = game.view(state, seat)
                table = Table.from_view(view)
                wins = [action_text(m) for m in table.moves() if _try(table, m) == seat]
                if wins and action not in wins:
                    missed = (n, seat, wins)
                    break
            state = game.apply(state, seat, action)
        if missed is not None:
            break
    else:
        pytest.fail("no random game missed a win")
    n, seat, wins = missed
    result = analyse_record("ico", GameRecord(record.players, {}, seed, record.actions[:n]))
    [step] = [s for s in result.steps if s.n == n]
    assert step.seat == seat and step.best == 1.0 and step.best_action in wins
    assert step.value < 1.0 and result.end == "unfinished"
    # Missing a win in hand is as large a loss as any (earlier ones may equal it: a random
    # player misses longer wins too, and the earliest of equal losses are marked).
    assert step.loss == max(s.loss for s in result.steps) > 1.0
    assert len(result.turning_points) == 3


def test_hacktrick_with_table_cards_cannot_be_weighed_and_says_why() -> None:
    record = play("hacktrick", {"cards": "table"}, 2, seed=3, levels=("easy", "easy"))
    result = analyse_record("hacktrick", record)
    assert not result.evaluated and result.steps == () and result.turning_points == ()
    assert result.note is not None and "table cards" in result.note


def test_an_abandoned_game_is_weighed_as_far_as_it_went() -> None:
    record = play("dice216", {}, 2, seed=5)
    part = GameRecord(record.players, record.options, record.seed, record.actions[:20],
                      abandoned=True)
    result = analyse_record("dice216", part)
    assert result.end == "abandoned"
    assert [s.n for s in result.steps] == [n for n in range(2, 21, 2)]  # a roll, a placement
    whole = analyse_record("dice216", record)
    unmarked = [replace(s, turning_point=False) for s in result.steps]
    assert unmarked == [replace(s, turning_point=False) for s in whole.steps[:len(unmarked)]]
