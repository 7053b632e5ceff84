"""The Hacktrick state: plain frozen data, and its exact JSON form.

Virtual cards keep the hands, the deck and the face-up cards; table cards keep only the sizes
(``table_hand_sizes``, ``table_deck_size``) because the device cannot see the physical cards.
The seed and the shuffle counter stand for the random source: shuffle ``n`` of a game is
``random.Random(f"{seed}:{n}")``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import RulesError
from rules.hacktrick.board import Board, Marker, board_from_text, board_text
from rules.hacktrick.endings import RoundEnd
from rules.options import OptionValue

Phase = Literal["lead", "turn", "over"]


@dataclass(frozen=True)
class Settings:
    """The resolved options of one game."""

    cards: str = "virtual"
    target: int = 5
    x2_marker: bool = True
    out_of_markers: str = "own_colour"
    declare_after_draw: bool = False
    starter: str = "alternate"
    ask_under_play: bool = False

    @property
    def table(self) -> bool:
        """True when players use a physical deck the device cannot see."""
        return self.cards == "table"

    def as_dict(self) -> dict[str, OptionValue]:
        return {
            "cards": self.cards,
            "target": self.target,
            "x2_marker": self.x2_marker,
            "out_of_markers": self.out_of_markers,
            "declare_after_draw": self.declare_after_draw,
            "starter": self.starter,
            "ask_under_play": self.ask_under_play,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, OptionValue]) -> Settings:
        return cls(
            cards=str(data["cards"]),
            target=int(str(data["target"])),
            x2_marker=bool(data["x2_marker"]),
            out_of_markers=str(data["out_of_markers"]),
            declare_after_draw=bool(data["declare_after_draw"]),
            starter=str(data["starter"]),
            ask_under_play=bool(data["ask_under_play"]),
        )


@dataclass(frozen=True)
class Supply:
    """The markers in front of one player: their own (plain and ×2) and the captured ones."""

    own: int
    own_x2: bool
    captured: int = 0
    captured_x2: bool = False

    @property
    def own_total(self) -> int:
        """Own-colour markers, the ×2 included: the ones a player can place or discard."""
        return self.own + self.own_x2

    @property
    def captured_total(self) -> int:
        """Captured opponent markers: usable only to Ask the sum."""
        return self.captured + self.captured_x2

    @property
    def total(self) -> int:
        return self.own_total + self.captured_total


@dataclass(frozen=True)
class Declaration:
    """Play! or Guard!, declared by ``by``; it binds the opponent's next turn."""

    kind: Literal["play", "guard"]
    by: int


@dataclass(frozen=True)
class Announcement:
    """A public hand-sum announcement: at the start of a round or after Ask the sum."""

    turn: int
    seat: int
    total: int
    reason: Literal["deal", "ask"]


@dataclass(frozen=True)
class Show:
    """A hand shown under Play! because every card in it equalled the rightmost card."""

    turn: int
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Reshuffle:
    """The deck ran out on ``seat``'s draw in ``turn``: at that moment the row but its rightmost
    card (``cards`` cards) was shuffled into a new deck (seed 001: "山札が尽きてしまったら…")."""

    turn: int
    seat: int
    cards: int


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: its winner, the points scored, why, and the squares of the win."""

    round: int
    winner: int
    points: int
    reason: RoundEnd
    squares: tuple[int, ...] = ()


@dataclass(frozen=True)
class HacktrickState:
    """A whole game of Hacktrick at one moment (secrets included; see ``view`` for what shows)."""

    players: tuple[str, str]
    settings: Settings
    seed: int
    shuffles: int
    round: int
    starter: int
    phase: Phase
    mover: int
    turn: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    deck: tuple[int, ...]
    face_up: tuple[int, ...]
    table_hand_sizes: tuple[int, int]
    table_deck_size: int
    row: tuple[int, ...]
    board: Board
    supplies: tuple[Supply, Supply]
    discarded: tuple[int, int]
    declaration: Declaration | None
    asked: bool
    announcements: tuple[Announcement, ...]
    shown: Show | None
    points: tuple[int, int]
    results: tuple[RoundResult, ...]
    #: The deck rebuilds of the current round, in order (public; the new order is not).
    reshuffles: tuple[Reshuffle, ...] = ()

    def hand_size(self, seat: int) -> int:
        """Cards in ``seat``'s hand (tracked from plays and draws with table cards)."""
        return self.table_hand_sizes[seat] if self.settings.table else len(self.hands[seat])

    @property
    def deck_size(self) -> int:
        return self.table_deck_size if self.settings.table else len(self.deck)

    @property
    def rightmost(self) -> int | None:
        """The rightmost card of the row, or ``None`` before the lead."""
        return self.row[-1] if self.row else None

    @property
    def winner(self) -> int | None:
        """The seat that won the game, once it is over."""
        return self.results[-1].winner if self.phase == "over" else None


def dump_state(state: HacktrickState) -> dict[str, Any]:
    """The state as JSON-safe data."""
    return {
        "players": list(state.players),
        "options": state.settings.as_dict(),
        "seed": state.seed,
        "shuffles": state.shuffles,
        "round": state.round,
        "starter": state.starter,
        "phase": state.phase,
        "mover": state.mover,
        "turn": state.turn,
        "hands": [list(h) for h in state.hands],
        "deck": list(state.deck),
        "face_up": list(state.face_up),
        "table_hand_sizes": list(state.table_hand_sizes),
        "table_deck_size": state.table_deck_size,
        "row": list(state.row),
        "board": {str(s): text for s, text in board_text(state.board).items()},
        "supplies": [
            {"own": s.own, "own_x2": s.own_x2, "captured": s.captured,
             "captured_x2": s.captured_x2}
            for s in state.supplies
        ],
        "discarded": list(state.discarded),
        "declaration": None if state.declaration is None
        else {"kind": state.declaration.kind, "by": state.declaration.by},
        "asked": state.asked,
        "announcements": [
            {"turn": a.turn, "seat": a.seat, "total": a.total, "reason": a.reason}
            for a in state.announcements
        ],
        "shown": None if state.shown is None
        else {"turn": state.shown.turn, "seat": state.shown.seat, "cards": list(state.shown.cards)},
        "points": list(state.points),
        "results": [
            {"round": r.round, "winner": r.winner, "points": r.points, "reason": r.reason,
             "squares": list(r.squares)}
            for r in state.results
        ],
        "reshuffles": [
            {"turn": r.turn, "seat": r.seat, "cards": r.cards} for r in state.reshuffles
        ],
    }


def _pair(values: Any) -> tuple[Any, Any]:
    first, second = values
    return first, second


def _check_words(data: Mapping[str, Any]) -> None:
    """The few fields that are words must be ones the rules know."""
    if data["phase"] not in ("lead", "turn", "over"):
        raise ValueError(f"phase {data['phase']!r}")
    if data["declaration"] is not None and data["declaration"]["kind"] not in ("play", "guard"):
        raise ValueError(f"declaration {data['declaration']!r}")
    if any(a["reason"] not in ("deal", "ask") for a in data["announcements"]):
        raise ValueError("announcement reason")


def load_state(data: Mapping[str, Any]) -> HacktrickState:
    """The state :func:`dump_state` produced; raises :class:`rules.RulesError` on bad data."""
    try:
        _check_words(data)
        declaration = data["declaration"]
        shown = data["shown"]
        board: Board = board_from_text({int(s): t for s, t in data["board"].items()})
        return HacktrickState(
            players=_pair(str(p) for p in data["players"]),
            settings=Settings.from_dict(data["options"]),
            seed=int(data["seed"]),
            shuffles=int(data["shuffles"]),
            round=int(data["round"]),
            starter=int(data["starter"]),
            phase=data["phase"],
            mover=int(data["mover"]),
            turn=int(data["turn"]),
            hands=_pair(tuple(int(c) for c in h) for h in data["hands"]),
            deck=tuple(int(c) for c in data["deck"]),
            face_up=tuple(int(c) for c in data["face_up"]),
            table_hand_sizes=_pair(int(n) for n in data["table_hand_sizes"]),
            table_deck_size=int(data["table_deck_size"]),
            row=tuple(int(c) for c in data["row"]),
            board=board,
            supplies=_pair(
                Supply(int(s["own"]), bool(s["own_x2"]), int(s["captured"]),
                       bool(s["captured_x2"]))
                for s in data["supplies"]
            ),
            discarded=_pair(int(n) for n in data["discarded"]),
            declaration=None if declaration is None
            else Declaration(declaration["kind"], int(declaration["by"])),
            asked=bool(data["asked"]),
            announcements=tuple(
                Announcement(int(a["turn"]), int(a["seat"]), int(a["total"]), a["reason"])
                for a in data["announcements"]
            ),
            shown=None if shown is None else Show(
                int(shown["turn"]), int(shown["seat"]), tuple(int(c) for c in shown["cards"])
            ),
            points=_pair(int(p) for p in data["points"]),
            results=tuple(
                RoundResult(int(r["round"]), int(r["winner"]), int(r["points"]),
                            RoundEnd(r["reason"]), tuple(int(s) for s in r["squares"]))
                for r in data["results"]
            ),
            reshuffles=tuple(
                Reshuffle(int(r["turn"]), int(r["seat"]), int(r["cards"]))
                for r in data["reshuffles"]
            ),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise RulesError(f"not a saved Hacktrick state: {error!r}") from None


__all__ = [
    "Announcement",
    "Declaration",
    "HacktrickState",
    "Marker",
    "Phase",
    "Reshuffle",
    "RoundResult",
    "Settings",
    "Show",
    "Supply",
    "dump_state",
    "load_state",
]
