"""Build a Hacktrick position directly from data, to reach a particular case in a test.

Markers are written as in :meth:`rules.hacktrick.board.Marker.parse_many` (``W`` white, seat 0;
``R`` red, seat 1; ``*`` after a ×2 marker). Supplies are what is left of each player's ten
markers; cards not placed in hands, row or face-up cards make the deck.

>>> state = position(hands=((1, 2), (4, 5)), row=(3,), board={5: "WW*"}, captured={1: "W"})
>>> state.supplies[0]
Supply(own=7, own_x2=False, captured=0, captured_x2=False)
>>> state.deck_size
11
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from rules.errors import RulesError
from rules.hacktrick.board import MARKERS_EACH, Marker, board_from_text
from rules.hacktrick.cards import FULL_DECK
from rules.hacktrick.state import (
    Announcement,
    Declaration,
    HacktrickState,
    Phase,
    Settings,
    Supply,
)
from rules.options import OptionValue


def position(
    *,
    hands: tuple[Sequence[int], Sequence[int]] = ((), ()),
    row: Sequence[int] = (),
    board: Mapping[int, str] | None = None,
    captured: Mapping[int, str] | None = None,
    discarded: str = "",
    deck: Sequence[int] | None = None,
    face_up: Sequence[int] | None = None,
    to_act: int = 0,
    phase: Phase = "turn",
    starter: int | None = None,
    declaration: tuple[str, int] | None = None,
    asked: bool = False,
    points: tuple[int, int] = (0, 0),
    round_number: int = 1,
    turn: int | None = None,
    announced: Mapping[int, int] | None = None,
    hand_sizes: tuple[int, int] = (3, 3),
    deck_size: int = 9,
    options: Mapping[str, OptionValue] | None = None,
    players: tuple[str, str] = ("White", "Red"),
    seed: int = 0,
) -> HacktrickState:
    """A position; raises :class:`rules.RulesError` if cards or markers do not add up.

    ``captured`` maps a seat to the opponent markers it holds; ``discarded`` lists markers out
    for the round; ``declaration`` is ``("play" | "guard", by_seat)``. With table cards
    (``options={"cards": "table"}``) give ``hand_sizes`` and ``deck_size`` instead of cards.
    """
    from rules.hacktrick.game import GAME

    settings = Settings.from_dict(GAME.resolve_options(options, 2))
    placed = board_from_text(dict(board or {}))
    held = {seat: Marker.parse_many(text) for seat, text in (captured or {}).items()}
    out = Marker.parse_many(discarded)
    supplies: list[Supply] = []
    for colour in (0, 1):
        mine = [m for m in (*(m for sq in placed for m in sq), *out) if m.owner == colour]
        taken = [m for seat, ms in held.items() for m in ms if m.owner == colour and seat != colour]
        if any(m.owner == seat for seat, ms in held.items() for m in ms):
            raise RulesError("a player can only capture the opponent's markers")
        used = mine + taken
        x2_used = sum(m.x2 for m in used)
        if x2_used > settings.x2_marker:
            raise RulesError(f"colour {colour} has {x2_used} ×2 markers in play")
        plain = MARKERS_EACH - settings.x2_marker - (len(used) - x2_used)
        if plain < 0:
            raise RulesError(f"colour {colour} uses more than {MARKERS_EACH} markers")
        mine_held = held.get(colour, ())
        supplies.append(
            Supply(
                own=plain,
                own_x2=settings.x2_marker and not x2_used,
                captured=sum(1 for m in mine_held if not m.x2),
                captured_x2=any(m.x2 for m in mine_held),
            )
        )
    hand_cards: tuple[tuple[int, ...], tuple[int, ...]] = (
        tuple(sorted(hands[0])), tuple(sorted(hands[1]))
    )
    deck_cards: tuple[int, ...] = ()
    face: tuple[int, ...] = ()
    if settings.table:
        hand_cards = ((), ())
    else:
        rest = Counter(FULL_DECK)
        rest.subtract(Counter((*hand_cards[0], *hand_cards[1], *row)))
        if face_up is not None:
            rest.subtract(Counter(face_up))
        if deck is not None:
            rest.subtract(Counter(deck))
        if any(n < 0 for n in rest.values()):
            raise RulesError("more copies of a card than the three that exist: "
                             f"{sorted(v for v, n in rest.items() if n < 0)}")
        spare = tuple(sorted(rest.elements()))
        if face_up is None:
            if len(spare) < 2:
                raise RulesError("not enough cards left for the two face-up cards")
            face, spare = spare[:2], spare[2:]
        else:
            face = tuple(sorted(face_up))
        if deck is None:
            deck_cards, spare = spare, ()
        else:
            deck_cards = tuple(deck)
        if spare:
            raise RulesError(f"cards unaccounted for: {list(spare)}")
    if len(row) > 1 and (deck_size if settings.table else len(deck_cards)) == 0:
        raise RulesError(
            "the deck is empty while the row holds cards to rebuild it from; the deck is rebuilt "
            "the moment it runs out (seed 001), so no position has an empty deck"
        )
    return HacktrickState(
        players=players,
        settings=settings,
        seed=seed,
        shuffles=1,
        round=round_number,
        starter=(1 - to_act if phase == "turn" else to_act) if starter is None else starter,
        phase=phase,
        mover=to_act,
        turn=len(row) if turn is None else turn,
        hands=hand_cards,
        deck=deck_cards,
        face_up=face,
        table_hand_sizes=hand_sizes if settings.table else (0, 0),
        table_deck_size=deck_size if settings.table else 0,
        row=tuple(row),
        board=placed,
        supplies=(supplies[0], supplies[1]),
        discarded=(sum(m.owner == 0 for m in out), sum(m.owner == 1 for m in out)),
        declaration=None if declaration is None
        else Declaration("play" if declaration[0] == "play" else "guard", declaration[1]),
        asked=asked,
        announcements=tuple(
            Announcement(0, seat, total, "deal") for seat, total in (announced or {}).items()
        ),
        shown=None,
        points=points,
        results=(),
    )
