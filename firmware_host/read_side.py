"""The read side: views, history, replay and standings, from snapshots and the journal.

Nothing here runs on the session thread or waits for it: views come from the published
snapshots; the history, the standings and the ended tournaments are queries on the journal
(:mod:`firmware_host.ended_games`), and the final states of ended games no longer kept, and
replays, are rebuilt from it, through a reader's own connection. Costly public facts (UNLOCK's
codes remaining) are computed once per change — in the background right after it, or by the
first reader — and never under a lock that other readers need.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.errors import NoSuchGame, NotAllowed
from firmware_host.games import BoxGame
from firmware_host.journal_check import DamageAlarm
from firmware_host.journal_reader import JournalReader
from firmware_host.journal_rows import (
    ActionRow,
    GameRow,
    actions_from,
    actions_of,
    analysis_of,
    game_of,
)
from firmware_host.seats import check_seat, seat_of
from firmware_host.session_api import GameSummary, Move, ReplayStep, Standing, View
from firmware_host.session_state import abandoned_state
from firmware_host.shared_results import SharedResults
from firmware_host.snapshots import GameSnapshot, Snapshots
from firmware_host.tournaments import Tournament
from rules import CHANCE
from rules.evaluation import GameRecord

log = logging.getLogger(__name__)

#: The keys the session adds to every rules view (and ``hints`` for a game with hints); a
#: game's public extras add their own.
SESSION_KEYS = ("game_id", "status", "version", "can_undo", "claimed", "bots", "hints")

#: How many ended games' final states (rebuilt from the journal), and games' public extras, are
#: kept.
ENDED_STATES = 32
EXTRAS = 64
#: How many games' move lists (each at one version) are kept.
MOVE_LISTS = 32
#: The keys of a view that hold its per-seat public figures, in order of preference.
SCORE_KEYS = ("scores", "points", "totals")


@dataclass(frozen=True)
class MoveLog:
    """A game's move list as last built, the journal's number of its last move's action, and
    the state after it. The next version's list goes on from it while that action is still live
    (an undo takes back the last live action, never one before it, and an undone action never
    comes back); else it is built again from the start. A list that goes on from another holds
    its very move objects, so a reader can tell a log that only grew from one built anew by
    the identity of a move (the live streams do: :mod:`web_panel.view_events`)."""

    moves: list[Move]
    last: int
    state: Any


class ReadSide:
    """Every read of the session API."""

    def __init__(self, journal_path: Path, snapshots: Snapshots, alarm: DamageAlarm) -> None:
        self.journal_path = journal_path
        self.alarm = alarm
        self.snapshots = snapshots
        self._reader = JournalReader(journal_path, alarm)
        self._ended_states: SharedResults[int, Any] = SharedResults(ENDED_STATES)
        self._extras: SharedResults[tuple[int, int], dict[str, Any]] = SharedResults(EXTRAS)
        self._moves: SharedResults[tuple[int, int], list[Move]] = SharedResults(MOVE_LISTS)
        #: Each live game's move list as last built (the last ``MOVE_LISTS`` games'), to go on
        #: from.
        self._move_logs: OrderedDict[int, MoveLog] = OrderedDict()
        self._move_logs_lock = threading.Lock()
        self._warmer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="extras")

    def close(self) -> None:
        """Stop the background worker (idempotent)."""
        self._warmer.shutdown(wait=False, cancel_futures=True)

    # --- games --------------------------------------------------------------------------------
    def summary(self, game_id: int) -> GameSummary:
        return self.snapshots.game(game_id).summary()

    def games(self, status: str | None = None) -> list[GameSummary]:
        """Summaries of every game (or those with ``status``), newest first: the live ones from
        their snapshots, the ended ones from the journal."""
        live = [g.summary() for g in self.snapshots.live()] if status in (None, "active") else []
        if status == "active":
            return live
        ended = self._ended_summaries(status, None)
        return sorted(live + ended, key=lambda g: g["id"], reverse=True) if live else ended

    def history(self, limit: int = 50) -> list[GameSummary]:
        """Finished and abandoned games, newest first (a query on the journal)."""
        return self._ended_summaries(None, max(0, limit))

    def _ended_summaries(self, status: str | None, limit: int | None) -> list[GameSummary]:
        journal = self.snapshots.journal
        if journal is None:
            return []
        return journal.summaries(status, limit, self.snapshots.live_ids())

    def view(self, game_id: int, seat: int | None) -> View:
        """The rules' view of the game for ``seat`` (``None``: a spectator), its public extras,
        and the session's ``game_id``, ``status``, ``version``, ``can_undo`` and ``claimed``."""
        snap = self.snapshots.game(game_id)
        if seat is not None:
            check_seat(game_id, snap.seats, seat)
        state = snap.state if snap.state is not None else self._ended_state(snap)
        view = snap.box.rules.view(state, seat)
        view.update(self._public_extras(snap, state))
        view.update(
            game_id=snap.id,
            status=snap.status,
            version=snap.version,
            can_undo=snap.undo_refusal is None,
            claimed=list(snap.claimed),
            bots=list(snap.bots) if snap.bots else [None] * len(snap.seats),
        )
        if snap.box.hint is not None:
            used = snap.hints_used or (0,) * len(snap.seats)
            view["hints"] = {"allowed": not snap.hints_off, "used": list(used)}
        return view

    def legal_actions(self, game_id: int, seat: int) -> list[str]:
        """What ``seat`` (or ``rules.CHANCE``) may do now (empty when it is not to act or the
        game has ended)."""
        snap = self.snapshots.game(game_id)
        if seat != CHANCE:
            check_seat(game_id, snap.seats, seat)
        if snap.status != "active" or snap.state is None:
            return []
        return list(snap.box.rules.legal_actions(snap.state, seat))

    def game_version(self, game_id: int) -> int:
        """The game's version (the change counter at its last change), without a view."""
        return self.snapshots.game(game_id).version

    def seat_for_token(self, game_id: int, token: object) -> int | None:
        """The seat ``token`` holds in the game, or ``None``."""
        return seat_of(self.snapshots.game(game_id).tokens, token)

    # --- replay and standings -----------------------------------------------------------------
    def replay(self, game_id: int) -> list[ReplayStep]:
        """An ended game step by step: the spectator view at the start (step 0) and after
        each action."""
        snap = self.snapshots.game(game_id)
        if snap.status == "active":
            raise NotAllowed(f"game {game_id} is still being played; replays are for ended games")
        rules = snap.box.rules
        row, actions = self._read_game(game_id)
        state = rules.start(list(row.seats), row.options, seed=row.seed)
        steps: list[ReplayStep] = [{"step": 0, "seat": None, "action": None, "by": None,
                                    "view": rules.view(state, None)}]
        for step, action in enumerate(actions, start=1):
            state = rules.apply(state, action.seat, action.action)
            steps.append({"step": step, "seat": action.seat, "action": action.action,
                          "by": action.by, "view": rules.view(state, None)})
        return steps

    def moves(self, game_id: int, since: int = 0) -> list[Move]:
        """The game's accepted actions after step ``since`` (active or ended), each with the
        public per-seat figures after it; built once per version of the game."""
        snap = self.snapshots.game(game_id)
        every = self._moves.get((game_id, snap.version), lambda: self._build_moves(snap))
        return every[max(0, since):]

    def _build_moves(self, snap: GameSnapshot) -> list[Move]:
        """The move list at the snapshot's version: the game's last list went on with the
        actions since (one action read and replayed for a live update), or, after an undo or for
        a game not listed lately, every action replayed from the start. A 2 1 6 game of 226
        moves took 60 ms to replay whole, at every version."""
        rules = snap.box.rules
        with self._move_logs_lock:
            log = self._move_logs.get(snap.id)
        since = self._actions_after(snap.id, log) if log is not None else None
        if log is not None and since is not None:
            state, out, actions, last = log.state, list(log.moves), since, log.last
        else:
            row, actions = self._read_game(snap.id)
            state, out, last = rules.start(list(row.seats), row.options, seed=row.seed), [], 0
        for step, action in enumerate(actions, start=len(out) + 1):
            try:
                state = rules.apply(state, action.seat, action.action)
            except ValueError:  # an action the rules no longer take ends the list (as replay)
                break
            view = rules.view(state, None)
            scores = next((view[k] for k in SCORE_KEYS if isinstance(view.get(k), list)), None)
            out.append({"step": step, "seat": action.seat, "action": action.action,
                        "by": action.by, "time": action.time, "scores": scores})
            last = action.n
        with self._move_logs_lock:  # kept for live games alone: an ended one has no next move
            if snap.status != "active" or not out:
                self._move_logs.pop(snap.id, None)
            else:
                self._move_logs[snap.id] = MoveLog(out, last, state)
                self._move_logs.move_to_end(snap.id)
                while len(self._move_logs) > MOVE_LISTS:
                    self._move_logs.popitem(last=False)
        return out

    def _actions_after(self, game_id: int, log: MoveLog) -> list[ActionRow] | None:
        """The game's live actions after the log's last one, or ``None`` when that one has
        been undone."""
        with self._reader.connection() as db:
            actions = actions_from(db, game_id, log.last)
        if not actions or actions[0].n != log.last:
            return None
        return actions[1:]

    def standings(self, game: str | None = None) -> list[Standing]:
        """Every player by name over the finished games (of ``game``, or all), ranked by wins
        then points; abandoned games count for nothing (summed on the journal, in SQL)."""
        journal = self.snapshots.journal
        return journal.standings(game, self.snapshots.live_ids()) if journal is not None else []

    def tournaments(self) -> list[Tournament]:
        """Every tournament, newest first: those going on from their snapshots, the ended ones
        from the journal."""
        live = self.snapshots.live_tournaments()
        journal = self.snapshots.journal
        ended = journal.tournaments({t.id for t in live}) if journal is not None else []
        return sorted([*live, *ended], key=lambda t: t.id, reverse=True)

    # --- public extras ------------------------------------------------------------------------
    def warm(self, game_id: int) -> None:
        """Work out a live game's costly public facts in the background right after a change,
        so the first phone or the pad does not wait for them (on a Pi, UNLOCK's first count of
        a level builds its code index: seconds)."""
        snap = self.snapshots.game(game_id)
        if snap.state is not None and snap.box.extras is not None:
            self._warmer.submit(self._public_extras, snap, snap.state)

    def _public_extras(self, snap: GameSnapshot, state: Any) -> dict[str, Any]:
        compute = snap.box.extras
        if compute is None:
            return {}
        return dict(self._extras.get((snap.id, snap.version), lambda: compute(state)))

    def game_record(self, game_id: int) -> GameRecord:
        """An ended game as the journal keeps it: seats, options, seed and live actions."""
        snap = self.snapshots.game(game_id)
        if snap.status == "active":
            raise ValueError(f"game {game_id} is still being played")
        row, actions = self._read_game(game_id)
        return GameRecord(players=tuple(row.seats), options=row.options, seed=row.seed,
                          actions=tuple((a.seat, a.action) for a in actions),
                          abandoned=snap.status == "abandoned")

    def stored_analysis(self, game_id: int) -> str | None:
        """The kept analysis of a game (its JSON), if it was computed."""
        with self._reader.connection() as db:
            return analysis_of(db, game_id)

    # --- the journal --------------------------------------------------------------------------
    def _ended_state(self, snap: GameSnapshot) -> Any:
        """The final state of an ended game read from the journal (it ended before this run, or
        its snapshot was not kept), rebuilt once and kept."""
        return self._ended_states.get(snap.id, lambda: self._rebuild_ended(snap))

    def _rebuild_ended(self, snap: GameSnapshot) -> Any:
        row, actions = self._read_game(snap.id)
        state = replay_what_applies(snap.box, row, actions)
        return abandoned_state(snap.box, state) if snap.status == "abandoned" else state

    def _read_game(self, game_id: int) -> tuple[GameRow, list[ActionRow]]:
        """A game's row and live actions, through a reader's own connection."""
        with self._reader.connection() as db:
            row = game_of(db, game_id)
            if row is None:
                raise NoSuchGame(f"there is no game {game_id!r}")
            return row, actions_of(db, game_id)


def replay_what_applies(box: BoxGame, row: GameRow, actions: list[ActionRow]) -> Any:
    """An ended game's final state; a game the rules no longer replay (it was abandoned for
    that at start) shows the state before the first action they refuse."""
    rules = box.rules
    state = rules.start(list(row.seats), row.options, seed=row.seed)
    for action in actions:
        try:
            state = rules.apply(state, action.seat, action.action)
        except ValueError as error:
            log.warning("game %d stops replaying at action %d: %s", row.id, action.n, error)
            break
    return state
