"""The Hacktrick game object on the rules contract (two players; see docs/rules/hacktrick.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.errors import IllegalAction
from rules.game import Game
from rules.hacktrick.actions import Action
from rules.hacktrick.disclosure import reveals_hidden
from rules.hacktrick.endings import Reason
from rules.hacktrick.state import HacktrickState, Settings, dump_state, load_state
from rules.hacktrick.turns import (
    UNDER_PLAY_SEED,
    apply_action,
    deal_round,
    fresh_supply,
    legal_actions,
)
from rules.hacktrick.views import outcome, to_act, view
from rules.options import Option, OptionValue

TWO_PLAYERS_ONLY = (
    "Two players only: the 3–4 player team game and the Battle of Wits expansion are not "
    "implemented (no complete text of their rules could be found)."
)

OPTIONS = (
    Option("cards", "choice", "virtual",
           "virtual: the device deals and phones hold the hands; table: a physical deck, "
           "enter each card played and press draw.", choices=("virtual", "table")),
    Option("target", "int", 5,
           "Excellence points that win the game: 5 is seed 001's "
           "'エクセレンスポイントを5点先取したプレイヤーが最終的な勝者です'; another target "
           "departs from the printed rules.", minimum=1, maximum=99),
    Option("x2_marker", "bool", True,
           "Each player has a ×2 marker (seed 001: '1個ずつにはx2と描かれている'): a win it is "
           "part of (not placed last) scores 2. Off departs from the printed rules."),
    Option("out_of_markers", "choice", "own_colour",
           "Who runs out of markers loses the round: own_colour (no own markers left) or "
           "empty_supply (captured markers keep you alive). Seed 001 says the round ends when "
           "'手元からカーソルマーカーが全て無くなる' and that the case of captured markers only is "
           "not in the rulebook: both are readings.",
           choices=("own_colour", "empty_supply")),
    Option("declare_after_draw", "bool", False,
           "Also allow Play!/Guard! after drawing a card. On departs from seed 001, where "
           "declaring is the optional second step of playing a card "
           "('カードを出した後、2つ目のステップを実行することができます')."),
    Option("ask_under_play", "bool", False,
           "Under Play!, may the player still Ask the sum before playing? Off (default) follows "
           f"seed 001: under Play! '{UNDER_PLAY_SEED}' (no action but playing a card; the 等 "
           "(etc.) reaches past drawing, and Ask the sum is the only other action). On departs "
           "from the printed rules."),
    Option("starter", "choice", "alternate",
           "Who starts the next round: alternate, or the winner of the last round.",
           choices=("alternate", "winner")),
)


class Hacktrick(Game[HacktrickState]):
    """Hacktrick for two: play cards onto a row, mark sums on a magic square, make a line."""

    id = "hacktrick"
    name = "Hacktrick"
    min_players = 2
    max_players = 2
    options = OPTIONS
    reasons = Reason
    players_note = f". {TWO_PLAYERS_ONLY}"

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "notes": TWO_PLAYERS_ONLY}

    def canonical(self, state: HacktrickState, seat: int, action: str) -> str:
        """The action as :class:`rules.hacktrick.actions.Action` prints it."""
        return str(Action.parse(action))

    def setup(self, players: tuple[str, ...], options: Mapping[str, OptionValue],
              seed: int) -> HacktrickState:
        """A new game: round 1 is dealt and seat 0 leads; ``seed`` fixes every shuffle."""
        settings = Settings.from_dict(dict(options))
        blank = HacktrickState(
            players=(players[0], players[1]),
            settings=settings,
            seed=seed,
            shuffles=0,
            round=0,
            starter=0,
            phase="lead",
            mover=0,
            turn=0,
            hands=((), ()),
            deck=(),
            face_up=(),
            table_hand_sizes=(0, 0),
            table_deck_size=0,
            row=(),
            board=((),) * 9,
            supplies=(fresh_supply(settings.x2_marker), fresh_supply(settings.x2_marker)),
            discarded=(0, 0),
            declaration=None,
            asked=False,
            announcements=(),
            shown=None,
            points=(0, 0),
            results=(),
        )
        return deal_round(blank, starter=0)

    def to_act(self, state: HacktrickState) -> list[int]:
        return to_act(state)

    def legal_actions(self, state: HacktrickState, seat: int) -> Iterable[str]:
        return legal_actions(state, seat)

    def apply(self, state: HacktrickState, seat: int, action: str) -> HacktrickState:
        return apply_action(state, seat, Action.parse(action))

    def view(self, state: HacktrickState, seat: int | None) -> dict[str, Any]:
        if seat is not None and seat not in (0, 1):
            raise IllegalAction(f"seat {seat} does not play Hacktrick (seats are 0 and 1)")
        return view(state, seat)

    def outcome(self, state: HacktrickState) -> dict[str, Any] | None:
        return outcome(state)

    def reveals_hidden(self, state_before: HacktrickState, seat: int, action: str) -> bool:
        """Whether the action showed hidden information or involved chance (undo refused);
        see :mod:`rules.hacktrick.disclosure`."""
        return reveals_hidden(state_before, seat, action)

    def dump(self, state: HacktrickState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> HacktrickState:
        return load_state(data)


GAME = Hacktrick()
