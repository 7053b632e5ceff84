"""The rules of ICO on the flat board (``docs/rules/ico.md``) on the rules contract.

A turn: place a marker on an edge of the active face as the balance rules allow, then the face
rolls across that edge. With ``claim=auto`` one action ``place EDGE`` does both and a win is
announced at once. With ``claim=manual`` the two steps are separate actions (``place EDGE``, then
``roll EDGE`` across the same edge) and ``claim`` is allowed at any point of one's own turn while
one's colour covers a winning figure; a win nobody claims does not end the game. A mover who
cannot place (Level 1+ with the colour on all three edges, no markers left, a full face at
Level 4) only rolls: ``roll EDGE`` across any edge of the active face.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from enum import StrEnum
from typing import Any

from rules.errors import IllegalAction, OptionError
from rules.game import Game
from rules.ico.actions import Claim, Place, Roll, parse_action
from rules.ico.balance import Ruling, allowed_placements
from rules.ico.figures import EXTENDED_LEVELS, LEVELS, Figure, figures_for
from rules.ico.geometry import (
    EDGE_IDS,
    EDGE_INDEX,
    EDGES,
    FACE,
    FACE_IDS,
    FACES,
    OPPOSITE_FACE,
    OPPOSITE_VERTEX,
    VERTICES,
    across,
)
from rules.ico.net import colour_indices, net_json
from rules.ico.state import COLOURS, MARKERS_PER_COLOUR, IcoState, dump_state, load_state
from rules.options import Option, OptionValue

OPTIONS: tuple[Option, ...] = (
    Option(
        "level", "choice", "1",
        "1: a face in your colour wins; 1+: a face and its opposite. 2, 2+ and 4 are extended "
        "(known only in part); Level 3 is unknown and not offered.",
        choices=LEVELS, extended=EXTENDED_LEVELS,
    ),
    Option("claim", "choice", "auto",
           "auto: the device announces a win at once — it departs from seed 003, where the "
           "player declares it on their own turn and an overlooked win lets play go on "
           "('自分のターンでしか勝利宣言を行えない。"
           "もしも本人が勝利を見逃した場合はゲームを続行する'); manual: press claim on your own "
           "turn, as the seed says.",
           choices=("auto", "manual")),
    Option("turn_cap", "int", None, "Turns after which the game ends in a draw (none: no cap).",
           allow_none=True, minimum=1),
    Option("start_face", "choice", "random", "The face the black tile starts on.",
           choices=FACE_IDS, allow_random=True),
    Option("first_player", "seat", 0, "Who takes the first turn.", allow_random=True),
    Option("double_opposite", "bool", False,
           "Level 2+ only, the harder variant: also cover the opposite double triangle."),
)

#: Face id → its colour on the paper board (0…9, shared with the opposite face).
_COLOURS = colour_indices()


class Reason(StrEnum):
    """How a game of ICO ended (``outcome()["reason"]``)."""

    #: The winner's markers cover a figure (the outcome's ``figure`` and ``edges``).
    FIGURE_COVERED = "figure_covered"
    #: A draw: every player has run out of markers.
    OUT_OF_MARKERS = "out_of_markers"
    #: A draw: every edge holds a marker (Level 4).
    BOARD_FULL = "board_full"
    #: A draw: the turn cap (the outcome's ``turn_cap``) is reached.
    TURN_CAP = "turn_cap"


#: A drawn game's end (the state's ``end``) → its reason.
DRAWS = {"out of markers": Reason.OUT_OF_MARKERS, "board full": Reason.BOARD_FULL,
         "turn cap": Reason.TURN_CAP}


class Ico(Game[IcoState]):
    """ICO (Icosagame) on the flat net of the icosahedron, for 2–4 players."""

    id = "ico"
    name = "ICO"
    min_players = 2
    max_players = 4
    options = OPTIONS
    reasons = Reason
    perfect_information = True

    def canonical(self, state: IcoState, seat: int, action: str) -> str:
        """The action with its edge's canonical id (``place u1-u0`` → ``place U0-U1``)."""
        return str(parse_action(" ".join(action.split())))

    def describe(self) -> dict[str, Any]:
        """The game and its options, plus ``board``: the paper net as drawing data.

        The drawing never changes during a game, so it travels once with the catalog rather
        than in every view (see :func:`rules.ico.net.net_json`).
        """
        return {**super().describe(), "board": net_json()}

    # --- starting -------------------------------------------------------------------------

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> IcoState:
        """A new game: empty board, the black tile on ``start_face``, ``first_player`` to move;
        "random" choices are drawn from ``seed``, so a game replays."""
        chosen = options
        if chosen["double_opposite"] and chosen["level"] != "2+":
            raise OptionError("double_opposite", "only applies at level 2+")
        rng = random.Random(seed)
        face = chosen["start_face"]
        face = rng.choice(FACE_IDS) if face == "random" else str(face)
        first = chosen["first_player"]
        first = rng.randrange(len(players)) if first == "random" else int(first or 0)
        return IcoState(
            players=tuple(players),
            options=tuple(chosen.items()),
            markers=tuple((0,) * len(players) for _ in EDGE_IDS),
            active_face=face,
            mover=first,
        )

    # --- reading the state ------------------------------------------------------------------

    def ruling(self, state: IcoState) -> Ruling:
        """Where the mover may place on the active face, by the balance rules, and why."""
        return allowed_placements(
            state.level, state.marker_table(), FACE[state.active_face].edges, state.mover,
            state.markers_left(state.mover),
        )

    def phase(self, state: IcoState) -> str:
        """``place``, ``roll`` (placed, the roll to come), ``move`` (roll only) or ``over``."""
        if state.end is not None:
            return "over"
        if state.placed is not None:
            return "roll"
        return "place" if self.ruling(state).edges else "move"

    def winning_figure(self, state: IcoState, seat: int) -> Figure | None:
        """A figure of the level that ``seat``'s colour covers entirely, if any."""
        owned = {e for e, counts in zip(EDGE_IDS, state.markers, strict=True) if counts[seat]}
        double = bool(state.option("double_opposite"))
        for figure in figures_for(state.level, double):
            if figure.edges <= owned:
                return figure
        return None

    def to_act(self, state: IcoState) -> list[int]:
        """The mover, until the game ends."""
        return [] if state.end is not None else [state.mover]

    def legal_actions(self, state: IcoState, seat: int) -> list[str]:
        """Exactly the edges the balance rules allow (or the rolls), plus a claim that holds."""
        if state.end is not None or seat != state.mover:
            return []
        phase = self.phase(state)
        if phase == "roll":
            actions = [str(Roll(str(state.placed)))]
        elif phase == "move":
            actions = [str(Roll(e)) for e in FACE[state.active_face].edges]
        else:
            actions = [str(Place(e)) for e in self.ruling(state).edges]
        if state.manual_claims and self.winning_figure(state, seat) is not None:
            actions.append(str(Claim()))
        return actions

    # --- acting -----------------------------------------------------------------------------

    def apply(self, state: IcoState, seat: int, action: str) -> IcoState:
        """The state after ``seat`` acts; raises ``IllegalAction`` naming the rule that refuses."""
        if state.end is not None:
            raise IllegalAction("the game is over")
        if seat != state.mover:
            raise IllegalAction(
                f"it is not seat {seat}'s turn: {state.players[state.mover]} "
                f"(seat {state.mover}, {COLOURS[state.mover]}) is to act"
            )
        move = parse_action(action)
        if isinstance(move, Claim):
            return self._claim(state)
        if isinstance(move, Place):
            return self._place(state, move.edge)
        return self._roll(state, move.edge)

    def _claim(self, state: IcoState) -> IcoState:
        if not state.manual_claims:
            raise IllegalAction("claims are automatic in this game (claim=auto): a win is "
                                "announced right after the placement")
        figure = self.winning_figure(state, state.mover)
        if figure is None:
            raise IllegalAction(
                f"no win to claim: {COLOURS[state.mover]} does not cover {_goal(state)}; "
                "play continues"
            )
        return self._won(state, figure)

    def _place(self, state: IcoState, edge: str) -> IcoState:
        phase = self.phase(state)
        if phase == "roll":
            raise IllegalAction(f"you have already placed this turn: roll the face across "
                                f"{state.placed} (roll {state.placed})")
        ruling = self.ruling(state)
        if phase == "move":
            raise IllegalAction(f"you cannot place ({ruling.rule}): {ruling.reason}")
        face_edges = FACE[state.active_face].edges
        if edge not in face_edges:
            raise IllegalAction(f"{edge} is not an edge of the active face {state.active_face} "
                                f"(its edges are {', '.join(face_edges)})")
        if edge not in ruling.edges:
            raise IllegalAction(f"{ruling.rule} forbids {edge}: {ruling.reason}")
        index = EDGE_INDEX[edge]
        counts = list(state.markers[index])
        counts[state.mover] += 1
        markers = (*state.markers[:index], tuple(counts), *state.markers[index + 1:])
        placed = replace(state, markers=markers, placed=edge)
        if state.manual_claims:
            return placed
        rolled = self._rolled(placed, edge)
        figure = self.winning_figure(rolled, state.mover)
        if figure is not None:
            return self._won(rolled, figure)
        return self._next_turn(rolled)

    def _roll(self, state: IcoState, edge: str) -> IcoState:
        phase = self.phase(state)
        face_edges = FACE[state.active_face].edges
        if phase == "place":
            ruling = self.ruling(state)
            raise IllegalAction(f"you must place a marker first ({ruling.rule}: {ruling.reason});"
                                " rolling alone is only allowed when you cannot place")
        if phase == "roll" and edge != state.placed:
            raise IllegalAction(f"the face rolls across the edge you just used, {state.placed} "
                                f"(roll {state.placed})")
        if edge not in face_edges:
            raise IllegalAction(f"{edge} is not an edge of the active face {state.active_face} "
                                f"(its edges are {', '.join(face_edges)})")
        return self._next_turn(self._rolled(state, edge))

    @staticmethod
    def _rolled(state: IcoState, edge: str) -> IcoState:
        return replace(state, active_face=across(state.active_face, edge),
                       previous_face=state.active_face, last_edge=edge, placed=None)

    @staticmethod
    def _won(state: IcoState, figure: Figure) -> IcoState:
        return replace(state, winner=state.mover, end="win", figure=figure.name,
                       figure_edges=tuple(e for e in EDGE_IDS if e in figure.edges))

    def _next_turn(self, state: IcoState) -> IcoState:
        done = replace(state, turns_done=state.turns_done + 1,
                       mover=(state.mover + 1) % len(state.players))
        cap = state.option("turn_cap")
        if all(done.markers_left(s) == 0 for s in range(len(state.players))):
            return replace(done, end="out of markers")
        if state.level == "4" and all(any(counts) for counts in state.markers):
            return replace(done, end="board full")
        if isinstance(cap, int) and done.turns_done >= cap:
            return replace(done, end="turn cap")
        return done

    # --- showing ----------------------------------------------------------------------------

    def outcome(self, state: IcoState) -> dict[str, Any] | None:
        """The winner and the figure they covered, or a draw and why."""
        n = len(state.players)
        if state.end is None:
            return None
        if state.end == "win" and state.winner is not None:
            w = state.winner
            return {
                "winners": [w],
                "scores": [1 if s == w else 0 for s in range(n)],
                "reason": Reason.FIGURE_COVERED,
                "draw": False,
                "figure": state.figure,
                "edges": list(state.figure_edges),
            }
        return {"winners": [], "scores": [0] * n, "reason": DRAWS[state.end], "draw": True,
                "figure": None, "edges": [], "turn_cap": state.option("turn_cap")}

    def view(self, state: IcoState, seat: int | None) -> dict[str, Any]:
        """Everything (ICO has no secrets): the board, the active face, the legal edges, why.

        ``balance_reason`` is the rule and the reason in one English text; ``balance_rule``
        (``colour balance``, ``count balance``, ``redoubling``, ``move only``, ``roll``…) and
        ``balance_why`` give them apart, so an interface can name the rule in its own language.
        """
        phase = self.phase(state)
        rule, why = "", ""
        if phase == "place":
            ruling = self.ruling(state)
            legal_edges, rule, why = list(ruling.edges), ruling.rule, ruling.reason
        elif phase == "move":
            ruling = self.ruling(state)
            legal_edges = list(FACE[state.active_face].edges)
            rule, why = ruling.rule, ruling.reason
        elif phase == "roll":
            legal_edges = [str(state.placed)]
            rule, why = "roll", f"roll the face across {state.placed}, the edge you just used"
        else:
            legal_edges = []
        reason = why if rule == "roll" else f"{rule}: {why}" if rule else ""
        return {
            "game": self.id,
            "seats": list(state.players),
            "colours": list(COLOURS[: len(state.players)]),
            "to_act": self.to_act(state),
            "phase": phase,
            "turn": state.turns_done + 1,
            "you": seat,
            "options": dict(state.options),
            "outcome": self.outcome(state),
            "level": state.level,
            "extended": state.level in EXTENDED_LEVELS,
            "claim": state.option("claim"),
            "mover": state.mover,
            "vertices": [{"id": v, "opposite": OPPOSITE_VERTEX[v]} for v in VERTICES],
            "edges": [
                {"id": e.id, "vertices": list(e.ends), "faces": list(e.faces),
                 "markers": list(counts)}
                for e, counts in zip(EDGES, state.markers, strict=True)
            ],
            "faces": [
                {"id": f.id, "vertices": list(f.vertices), "edges": list(f.edges),
                 "opposite": OPPOSITE_FACE[f.id], "colour": _COLOURS[f.id]}
                for f in FACES
            ],
            "active_face": state.active_face,
            "previous_face": state.previous_face,
            "last_edge": state.last_edge,
            "placed": state.placed,
            "legal_edges": legal_edges,
            "balance_reason": reason,
            "balance_rule": rule or None,
            "balance_why": why,
            "can_claim": state.manual_claims and phase != "over",
            "markers_left": [state.markers_left(s) for s in range(len(state.players))],
            "markers_per_colour": MARKERS_PER_COLOUR,
        }

    def dump(self, state: IcoState) -> dict[str, Any]:
        """The state as JSON-safe data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> IcoState:
        """The state :meth:`dump` produced."""
        return load_state(data)


def _goal(state: IcoState) -> str:
    if state.level == "2+" and state.option("double_opposite"):
        return "the six edges around a double triangle and around its opposite"
    return {
        "1": "all three edges of any face",
        "1+": "all three edges of a face and of its opposite face",
        "2": "the ten edges of a zig-zag belt",
        "2+": "the six edges around a double triangle",
        "4": "three perpendicular pairs of opposite edges",
    }[state.level]

