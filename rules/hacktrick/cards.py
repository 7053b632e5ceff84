"""The 18 data cards and the seeded shuffles that deal and rebuild the deck.

Every shuffle is derived from the game's seed and a shuffle counter kept in the state, so a game
replays exactly from its seed and actions and the state holds no random generator.

>>> FULL_DECK
(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5)
>>> shuffled((1, 2, 3), seed=7, number=0) == shuffled((1, 2, 3), seed=7, number=0)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

VALUES = range(0, 6)
COPIES = 3
#: All 18 data cards, sorted.
FULL_DECK: tuple[int, ...] = tuple(v for v in VALUES for _ in range(COPIES))
HAND_LIMIT = 4
STARTER_CARDS = 4
OTHER_CARDS = 3
FACE_UP_CARDS = 2


def shuffled(cards: Sequence[int], *, seed: int, number: int) -> tuple[int, ...]:
    """``cards`` in the order of the game's ``number``-th shuffle (0 is the first deal)."""
    order = list(cards)
    random.Random(f"{seed}:{number}").shuffle(order)
    return tuple(order)


def with_card(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` plus ``card``, kept sorted (a hand has no order)."""
    return tuple(sorted((*hand, card)))


def without_card(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` less one ``card`` (which it must hold)."""
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]
