"""What the session thread holds: the journal, the live games, the pad's choice, the snapshots.

Commands (:mod:`firmware_host.commands`) read and change a :class:`Session` only on the session
thread; other threads read the published snapshots and :attr:`Session.pad` (a frozen value,
swapped whole). The snapshots of a game are built here, from its live state or its journal rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_host.dice_pairs import PairedDie
from firmware_host.ended_games import ended_snapshot
from firmware_host.errors import NotAllowed
from firmware_host.games import BoxGame, Registry
from firmware_host.journal import Journal
from firmware_host.journal_rows import ActionRow, GameRow, SeatHolder
from firmware_host.session_api import PadChooser
from firmware_host.snapshots import Deferred, GameSnapshot, Snapshots, claimed


@dataclass(frozen=True)
class PadChoice:
    """The pad's game and who chose it, and the box's language as the host chose it (journaled
    as box-wide settings; docs/session-api.md, "The pad's game")."""

    game: int | None = None
    by: PadChooser = "none"
    language: str | None = None


@dataclass
class Live:
    """An active game as the session thread holds it (never shared with other threads)."""

    row: GameRow
    box: BoxGame
    state: Any
    actions: list[ActionRow]
    previous: Any | None
    tokens: dict[str, int]
    holders: dict[int, SeatHolder] = field(default_factory=dict)
    hints_used: tuple[int, ...] = ()


@dataclass
class Session:
    """The session thread's state; see the module docstring."""

    journal: Journal
    games: Registry
    snapshots: Snapshots
    live: dict[int, Live] = field(default_factory=dict)
    #: Read by any thread (a frozen value, swapped whole after each commit).
    pad: PadChoice = PadChoice()
    #: The smart dice paired with the box (:mod:`firmware_host.dice_pairs`); read by any
    #: thread, swapped whole like ``pad``.
    dice: tuple[PairedDie, ...] = ()

    def active(self, game_id: int) -> Live:
        """The live game ``game_id``; refused when it has ended (or is unknown)."""
        live = self.live.get(game_id) if isinstance(game_id, int) else None
        if live is not None:
            return live
        snap = self.snapshots.game(game_id)
        raise NotAllowed(f"game {game_id} is {snap.status}")

    def ended_snapshot(self, row: GameRow, box: BoxGame, state: Any) -> GameSnapshot:
        """The snapshot of a game that has ended (``state``: its final state if known)."""
        return ended_snapshot(self.journal.db, row, box, state)


def live_snapshot(live: Live, version: int) -> GameSnapshot:
    """The snapshot of a live game at ``version``."""
    row = live.row
    return GameSnapshot(
        id=row.id, game=row.game, box=live.box, status="active", seats=tuple(row.seats),
        claimed=claimed(set(live.tokens.values()), row.bots, len(row.seats)),
        created=row.created, ended=None, outcome=None, tournament=row.tournament,
        version=version, state=live.state, undo_check=_undo_check(live),
        tokens=dict(live.tokens), holders=dict(live.holders), join_codes=row.join_codes,
        bots=row.bots, hints_off=row.hints_off, hints_used=live.hints_used,
        created_clock_set=row.created_clock_set,
    )


def live_snapshots(live: Live, version: int) -> Mapping[int, GameSnapshot]:
    """:func:`live_snapshot` keyed by the game's id, as :class:`~commands.Done` takes it."""
    return {live.row.id: live_snapshot(live, version)}


def _undo_check(live: Live) -> Deferred[str | None]:
    """Whether the last action may be taken back — worked out by the first reader that asks
    (a view, the host's undo), not on the session thread."""
    if not live.actions or live.previous is None:
        return Deferred.known("there is no action to take back")
    box, before, last, after = live.box, live.previous, live.actions[-1], live.state
    return Deferred(lambda: box.undo_refusal(before, last.seat, last.action, after))


def abandoned_state(box: BoxGame, state: Any) -> Any:
    """The final state of an abandoned game: the game's own abandoned state where it has one
    (UNLOCK reveals its secret), else the state it stopped in."""
    return box.abandoned(state) if box.abandoned is not None else state


def rebuild(box: BoxGame, row: GameRow, actions: list[ActionRow]) -> tuple[Any, Any | None]:
    """The state after ``actions`` (a seeded start, then each action), and the one before the
    last action."""
    rules = box.rules
    state = rules.start(list(row.seats), row.options, seed=row.seed)
    previous = None
    for action in actions:
        previous, state = state, rules.apply(state, action.seat, action.action)
    return state, previous
