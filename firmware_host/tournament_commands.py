"""The tournaments' commands: begin one (its first game with it), abandon one."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.commands import PLAY, Done, Step, kinds
from firmware_host.errors import NotAllowed
from firmware_host.game_commands import Abandon
from firmware_host.game_log import add_tournament, end_tournament
from firmware_host.new_games import check_bots, check_players, prepare, record
from firmware_host.pad_choice import pad_takes
from firmware_host.session_state import Live, Session, live_snapshots
from firmware_host.tournaments import Tournament

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CreateTournament:
    """A tournament of ``game`` for ``players`` (the Lock rotating in ``order``), its first
    game begun in the same transaction."""

    game: str
    players: list[str]
    options: Mapping[str, object] | None = None
    order: list[int] | None = None
    bots: Mapping[int, str] | None = None

    def check(self, session: Session) -> Step[int]:
        box = session.games.find(self.game)
        if box.tournament is None:
            raise NotAllowed(f"{box.rules.name} has no tournaments")
        names = check_players(box, self.players)
        levels = check_bots(box, self.bots, len(names))
        scores, shared = Tournament.plan(box.tournament, names, self.options, self.order)
        # Check the options of every game before anything is written.
        for lock in scores.order:
            box.rules.resolve_options({**shared, "lock": lock}, len(names))
        first = prepare(session, self.game, names, scores.game_options(shared), None,
                        self.bots)

        def write(version: int) -> tuple[int, str, Live, Any]:
            journal = session.journal
            created = journal.now()
            tid = add_tournament(journal, self.game, names, shared, list(scores.order),
                                 created=created, bots=levels)
            live = record(session, first, version, tid)
            return tid, created, live, pad_takes(session, live.row.id)

        def done(written: tuple[int, str, Live, Any], version: int | None) -> Done[int]:
            tid, created, live, pad = written
            assert version is not None
            session.pad = pad or session.pad
            session.live[live.row.id] = live
            tournament = Tournament(tid, self.game, shared, scores, (), (), "active", created,
                                    levels)
            log.info("tournament %d started: game %d", tid, live.row.id)
            return Done(tid, live_snapshots(live, version),
                        {tid: tournament.with_game(live.row.id)}, (live.row.id,), kinds(PLAY))

        return Step(write, done)


@dataclass(frozen=True)
class AbandonTournament:
    """End tournament ``tid`` and the game it is playing."""

    tid: int

    def check(self, session: Session) -> Step[None]:
        tournament = session.snapshots.tournament(self.tid)
        if tournament.status != "active":
            raise NotAllowed(f"tournament {self.tid} is {tournament.status}")
        current = tournament.games[-1]
        if current in session.live:
            return Abandon(current, whole_tournament=True).check(session)

        def done(_: None, version: int | None) -> Done[None]:
            return Done(None, None, {self.tid: tournament.ended("abandoned")}, (current,),
                        kinds(PLAY))

        return Step(lambda version: end_tournament(session.journal, self.tid, "abandoned"),
                    done)
