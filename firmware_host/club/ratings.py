"""Ratings per game with openskill's Plackett–Luce model (made for games of many players):
each seat is a team of one, placed by the game's outcome.

A finished game's places: its winners first (tied), then the others by their score, higher
first, equal scores tied; a game without scores places its winners first and the others tied
second. Only the seats that competed are placed (UNLOCK's Lock scores nothing and is not rated
in that game). An abandoned game, or one with a single competitor, rates nobody. A player's
shown rating is openskill's ordinal (μ − 3σ): it starts at 0 and grows as the model becomes sure
of the skill.

>>> places(Outcome((1,), (3.0, 7.0, 3.0), "found"), 3)
[2, 1, 2]
>>> places(Outcome((), None, "nobody"), 2)
[1, 1]
>>> places(Outcome((2,), (0.0, -2.0, 2.0), "found"), 3, competitors=[1, 2])
[None, 2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from firmware_host.club.topics import Outcome

if TYPE_CHECKING:
    from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Rating:
    """A player's skill in one game as openskill keeps it."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The rating shown: μ − 3σ."""
        return self.mu - 3 * self.sigma


def places(outcome: Outcome, seats: int, competitors: Sequence[int] | None = None
           ) -> list[int | None]:
    """Each seat's place (1 is best; ties share a place) among the ``competitors`` (default
    every seat); ``None`` for a seat that did not compete."""
    winners = set(outcome.winners)
    scores = outcome.scores
    competing = list(range(seats)) if competitors is None else list(competitors)

    def order(seat: int) -> tuple[int, float]:
        score = scores[seat] if scores is not None else None
        return (0 if seat in winners else 1, -(score or 0.0) if scores is not None else 0.0)

    keys = sorted({order(seat) for seat in competing})
    return [keys.index(order(seat)) + 1 if seat in competing else None
            for seat in range(seats)]


@cache
def model() -> PlackettLuce:
    """The one model every rating goes through (openskill's defaults)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def initial() -> Rating:
    """A new player's rating."""
    fresh = model().rating()
    return Rating(fresh.mu, fresh.sigma)


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The seats' ratings after one game in which they took ``ranks`` places."""
    m = model()
    teams = [[m.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = m.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma) for team in after]
