"""The games' commands: begin a game, act in it (from anywhere, or on the pad), take the last
action back, abandon it."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.commands import PLAY, Done, Step, kinds
from firmware_host.errors import NotAllowed, NotPadGame
from firmware_host.game_log import add_action, end_game, end_tournament, undo_last_action
from firmware_host.journal_rows import ActionRow
from firmware_host.new_games import prepare, record
from firmware_host.pad_choice import pad_follows, pad_takes
from firmware_host.session_state import (
    Live,
    Session,
    abandoned_state,
    live_snapshots,
    rebuild,
)
from firmware_host.tournament_flow import go_on, next_game, start_next
from rules import IllegalAction

log = logging.getLogger(__name__)

MAX_ACTION_LENGTH = 200


@dataclass(frozen=True)
class CreateGame:
    """Begin a game of ``game`` for ``players`` (``bots``: seat → level the box plays)."""

    game: str
    players: list[str]
    options: Mapping[str, object] | None = None
    seed: int | None = None
    bots: Mapping[int, str] | None = None

    def check(self, session: Session) -> Step[int]:
        new = prepare(session, self.game, self.players, self.options, self.seed, self.bots)

        def write(version: int) -> tuple[Live, Any]:
            live = record(session, new, version, None)
            return live, pad_takes(session, live.row.id)

        def done(written: tuple[Live, Any], version: int | None) -> Done[int]:
            live, pad = written
            assert version is not None
            session.pad = pad or session.pad
            session.live[live.row.id] = live
            log.info("game %d (%s) started for %d players", live.row.id, self.game,
                     len(new.names))
            return Done(live.row.id, live_snapshots(live, version), None, (live.row.id,),
                        kinds(PLAY))

        return Step(write, done)


@dataclass(frozen=True)
class Act:
    """``seat`` (or chance) plays ``action`` in ``game_id``, entered ``by`` someone else (the
    die, the keypad, the host; ``None``: the seat itself); ``on_pad``: only if it is the pad's
    game when the session thread takes it (the host may have moved the pad meanwhile)."""

    game_id: int
    seat: int
    action: str
    by: str | None = None
    on_pad: bool = False

    def check(self, session: Session) -> Step[None]:
        game_id, seat = self.game_id, self.seat
        if self.on_pad and session.pad.game != game_id:
            raise NotPadGame(f"the pad is on game {session.pad.game}, not game {game_id}: "
                             "the move was not entered")
        live = session.active(game_id)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"a seat is a number, got {seat!r}")
        if not isinstance(self.action, str) or len(self.action) > MAX_ACTION_LENGTH:
            raise IllegalAction("an action is a short text such as 'place 2 3'")
        rules = live.box.rules
        after = rules.apply(live.state, seat, self.action)
        action = rules.canonical(live.state, seat, self.action)
        outcome = rules.outcome(after)
        tournament, upcoming = (next_game(session, live.row.tournament, outcome)
                                if outcome is not None else (None, None))

        def write(version: int) -> tuple[int, Any, Any, Any]:
            journal = session.journal
            n = add_action(journal, game_id, seat, action, version, entered=self.action,
                           by=self.by)
            if outcome is None:
                return n, None, None, None
            ended_at = end_game(journal, game_id, "finished", outcome, version)
            follow_up = start_next(session, tournament, upcoming, version)
            return n, ended_at, follow_up, pad_follows(session, game_id, follow_up)

        def done(written: tuple[int, Any, Any, Any], version: int | None) -> Done[None]:
            n, ended_at, follow_up, pad = written
            assert version is not None
            session.pad = pad or session.pad
            live.actions.append(ActionRow(n, seat, action, session.journal.now(), self.by))
            live.previous, live.state = live.state, after
            if rules.perfect_information:  # else the action may be a secret: never in a log
                log.info("game %d: seat %d: %s", game_id, seat, action)
            else:
                log.info("game %d: seat %d acted", game_id, seat)
            if outcome is None:
                return Done(None, live_snapshots(live, version), None, (game_id,), kinds(PLAY))
            del session.live[game_id]
            row = replace(live.row, status="finished", outcome=outcome, ended=ended_at.at,
                          ended_clock_set=ended_at.clock_set, version=version)
            log.info("game %d finished: %s", game_id, outcome.get("reason", ""))
            return go_on(session, version, session.ended_snapshot(row, live.box, after),
                         tournament, follow_up)

        return Step(write, done)


@dataclass(frozen=True)
class Undo:
    """Take the last action of ``game_id`` back, when the game allows it."""

    game_id: int

    def check(self, session: Session) -> Step[None]:
        game_id = self.game_id
        live = session.active(game_id)
        if not live.actions:
            raise NotAllowed(f"game {game_id} has no action to take back")
        refusal = session.snapshots.game(game_id).undo_refusal  # the live snapshot's, kept
        if refusal is not None:
            raise NotAllowed(f"cannot undo: {refusal}")
        kept = live.actions[:-1]
        state, previous = rebuild(live.box, live.row, kept)

        def done(taken: ActionRow, version: int | None) -> Done[None]:
            assert version is not None
            live.actions, live.state, live.previous = kept, state, previous
            log.info("game %d: action %d of seat %d taken back", game_id, taken.n, taken.seat)
            return Done(None, live_snapshots(live, version), None, (game_id,), kinds(PLAY))

        return Step(lambda version: undo_last_action(session.journal, game_id, version), done)


@dataclass(frozen=True)
class Abandon:
    """End ``game_id`` unplayed: in a tournament the same leader plays again, or, with
    ``whole_tournament``, the tournament ends with it."""

    game_id: int
    whole_tournament: bool = False

    def check(self, session: Session) -> Step[None]:
        game_id = self.game_id
        live = session.active(game_id)
        tid = live.row.tournament
        whole = self.whole_tournament and tid is not None
        # the game counts for nothing; the same leader plays again
        tournament, upcoming = (None, None) if whole else next_game(session, tid, None)

        def write(version: int) -> tuple[Any, Any, Any]:
            journal = session.journal
            ended_at = end_game(journal, game_id, "abandoned", None, version)
            follow_up = start_next(session, tournament, upcoming, version)
            pad = pad_follows(session, game_id, follow_up)
            if whole and tid is not None:
                end_tournament(journal, tid, "abandoned")
            return ended_at, follow_up, pad

        def done(written: tuple[Any, Any, Any], version: int | None) -> Done[None]:
            ended_at, follow_up, pad = written
            assert version is not None
            session.pad = pad or session.pad
            del session.live[game_id]
            ended = tournament
            if whole and tid is not None:
                ended = session.snapshots.tournament(tid).game_ended(None).ended("abandoned")
            row = replace(live.row, status="abandoned", ended=ended_at.at,
                          ended_clock_set=ended_at.clock_set, version=version)
            log.info("game %d abandoned", game_id)
            final = abandoned_state(live.box, live.state)
            return go_on(session, version, session.ended_snapshot(row, live.box, final), ended,
                         follow_up)

        return Step(write, done)
