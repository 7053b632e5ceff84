"""The post-game analysis of Hacktrick, ICO and 2 1 6: the ``hard`` bot's evaluation of every
move, as a chess player's engine gives it (issue 34).

Given only once a game has ended (Hacktrick's hands are secret until then), from what the
journal keeps (:class:`GameRecord`). The game is replayed on the rules; before each player's
move the game's :class:`Weigher` (its ``hard`` bot) is asked, from the **mover's view** — its
own hand in Hacktrick, never the opponent's — for the value of the move played and of the best
move it finds. Values are the mover's outlook in [−1, 1]: +1 a won position for the mover, −1 a
lost one, 0 even (each game maps its bot's own units onto that scale, see its ``weigh``).

- A **step** is a move that was a choice: chance (die rolls, deals), moves the rules force (one
  legal action) and moves the bot does not weigh (Hacktrick's free "ask", ICO's claim and its
  roll after a placement) are not steps. ``n`` is the move's place among all the game's actions
  (1-based, chance included), so a replay can put the step on its move.
- ``loss`` is ``best − value`` (never below 0: where a move searched on its own comes out
  better than the bot's pick, it is the best).
- **Turning points**: the (up to) three steps with the largest loss, any loss above
  :data:`NOTICEABLE`.
- A player's **summary**: how many of their steps lost nothing noticeable, their average loss,
  their worst step, and one English sentence (pages build their own translations from the
  numbers).

Hacktrick with table cards (``cards=table``) has no hands the rules know of: nothing can be
weighed, and the analysis says so (``evaluated`` false, a ``note``).

>>> record = GameRecord(players=("Aiko", "Ben"), options={}, seed=1,
...                     actions=((-1, "roll 3"), (0, "place 1 1")))
>>> result = analyse_record("dice216", record)
>>> result.end, len(result.steps), result.steps[0].n, result.steps[0].loss >= 0
('unfinished', 1, 2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol

from rules.game import CHANCE
from rules.registry import get_game

#: A loss below this is "as good as the bot's best" (values are on the [−1, 1] scale).
NOTICEABLE = 0.02
#: How many turning points an analysis marks.
TURNING_POINTS = 3


@dataclass(frozen=True)
class GameRecord:
    """A game as the journal keeps it: names in seat order, options, seed, the live actions
    ``(seat, action text)`` in order, and whether the host abandoned it."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    seed: int
    actions: tuple[tuple[int, str], ...]
    abandoned: bool = False


@dataclass(frozen=True)
class Weighing:
    """A move weighed from its mover's view: the best move the bot finds and its value, and the
    value of the move played (both on the [−1, 1] scale, from the mover's side)."""

    best_action: str
    best: float
    value: float


class Weigher(Protocol):
    """What weighs a game's moves: its ``hard`` bot."""

    def weigh(self, view: Mapping[str, Any], legal: Sequence[str],
              chosen: str) -> Weighing | None:
        """The weighing of ``chosen`` (one of ``legal``) for the seat whose ``view`` this is;
        ``None`` when the bot does not weigh such a move."""
        ...


@dataclass(frozen=True)
class Step:
    """One weighed move."""

    step: int
    n: int
    seat: int
    action: str
    value: float
    best: float
    best_action: str
    loss: float
    turning_point: bool = False


@dataclass(frozen=True)
class PlayerSummary:
    """One player's moves in a line."""

    seat: int
    player: str
    moves: int
    #: Steps that lost less than :data:`NOTICEABLE`.
    best_moves: int
    average_loss: float | None
    #: The step of the player's largest loss (``None``: no step lost anything noticeable).
    worst_step: int | None
    sentence: str


@dataclass(frozen=True)
class EvaluationAnalysis:
    """A game's analysis by its ``hard`` bot (see the module docstring)."""

    game: str
    players: tuple[str, ...]
    #: ``ended``, ``abandoned`` or ``unfinished`` (a record that stops before the end).
    end: str
    evaluated: bool
    steps: tuple[Step, ...]
    turning_points: tuple[int, ...]
    summaries: tuple[PlayerSummary, ...]
    note: str | None = None
    kind: str = field(default="evaluation")

    def as_dict(self) -> dict[str, Any]:
        """JSON-able data (what the journal keeps and the API gives)."""
        plain = json_plain(asdict(self))
        assert isinstance(plain, dict)
        return plain


def json_plain(data: object) -> object:
    """``data`` with every tuple made a list (JSON has arrays only)."""
    if isinstance(data, dict):
        return {key: json_plain(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [json_plain(item) for item in data]
    return data


def weigher_of(game_id: str) -> Weigher:
    """The weigher of ``game_id``: its ``hard`` bot (``KeyError``: the game has none)."""
    from rules.bots import get_bot

    bot = get_bot(game_id, "hard")
    if not hasattr(bot, "weigh"):
        raise KeyError(f"the hard bot of {game_id!r} does not weigh moves")
    weigher: Weigher = bot  # type: ignore[assignment]
    return weigher


def analyse_record(game_id: str, record: GameRecord,
                   progress: Callable[[float], None] | None = None) -> EvaluationAnalysis:
    """The analysis of the game ``record`` holds (``rules.IllegalAction`` if the rules refuse
    one of its actions); ``progress`` is told the share of the moves done as it goes."""
    game = get_game(game_id)
    weigher = weigher_of(game_id)
    state = game.start(list(record.players), dict(record.options), seed=record.seed)
    raw: list[Step] = []
    evaluated = _weighable(game_id, record)
    for n, (seat, action) in enumerate(record.actions, start=1):
        if seat != CHANCE and evaluated:
            legal = list(game.legal_actions(state, seat))
            chosen = game.canonical(state, seat, action)
            if len(legal) > 1 and chosen in legal:
                weighing = weigher.weigh(game.view(state, seat), legal, chosen)
                if weighing is not None:
                    raw.append(_step(len(raw) + 1, n, seat, chosen, weighing))
        state = game.apply(state, seat, action)
        if progress is not None:
            progress(n / len(record.actions))
    turning = _turning_points(raw)
    steps = tuple(s if s.step not in turning else _marked(s) for s in raw)
    if record.abandoned:
        end = "abandoned"
    else:
        end = "ended" if game.outcome(state) is not None else "unfinished"
    return EvaluationAnalysis(
        game=game_id, players=tuple(record.players), end=end, evaluated=evaluated,
        steps=steps, turning_points=turning,
        summaries=tuple(_summary(seat, name, steps) for seat, name in enumerate(record.players)),
        note=None if evaluated else (
            "played with table cards: the box never knew the hands, so no move can be weighed"),
    )


def _weighable(game_id: str, record: GameRecord) -> bool:
    """Whether the bot can weigh this game at all (Hacktrick with table cards cannot)."""
    return not (game_id == "hacktrick" and record.options.get("cards") == "table")


def _step(number: int, n: int, seat: int, action: str, weighing: Weighing) -> Step:
    value = round(weighing.value, 4) + 0.0  # + 0.0: no "-0.0" in the data
    best = max(round(weighing.best, 4) + 0.0, value)
    best_action = weighing.best_action if best > value else action
    return Step(step=number, n=n, seat=seat, action=action, value=value, best=best,
                best_action=best_action, loss=round(best - value, 4))


def _marked(step: Step) -> Step:
    return replace(step, turning_point=True)


def _turning_points(steps: Sequence[Step]) -> tuple[int, ...]:
    """The steps of the largest losses (earlier first among equal losses), in game order."""
    noticeable = [s for s in steps if s.loss >= NOTICEABLE]
    largest = sorted(noticeable, key=lambda s: (-s.loss, s.step))[:TURNING_POINTS]
    return tuple(sorted(s.step for s in largest))


def _summary(seat: int, player: str, steps: Sequence[Step]) -> PlayerSummary:
    mine = [s for s in steps if s.seat == seat]
    if not mine:
        return PlayerSummary(seat, player, 0, 0, None, None,
                             f"{player}: no move to weigh.")
    best_moves = sum(1 for s in mine if s.loss < NOTICEABLE)
    average = round(sum(s.loss for s in mine) / len(mine), 4)
    worst = max(mine, key=lambda s: (s.loss, -s.step))
    worst_step = worst.step if worst.loss >= NOTICEABLE else None
    sentence = (f"{player}: {best_moves} of {len(mine)} moves as good as the bot's best, "
                f"average loss {average:.2f}")
    sentence += f", largest at move {worst.n}." if worst_step is not None else "."
    return PlayerSummary(seat, player, len(mine), best_moves, average, worst_step, sentence)
