"""A tournament going on: when one of its games ends, its next game begins in the same
transaction (or the tournament ends), and both are published together."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_host.commands import PLAY, Done, kinds
from firmware_host.game_log import end_tournament
from firmware_host.new_games import NewGame, levels, prepare, record
from firmware_host.session_state import Live, Session, live_snapshot
from firmware_host.snapshots import GameSnapshot
from firmware_host.tournaments import Tournament


def next_game(session: Session, tid: int | None, outcome: Mapping[str, Any] | None
              ) -> tuple[Tournament | None, NewGame | None]:
    """When a tournament's game ends (``outcome`` ``None``: abandoned): the tournament after
    it, and its next game, prepared but not written."""
    if tid is None:
        return None, None
    tournament = session.snapshots.tournament(tid).game_ended(outcome)
    options = tournament.next_options()
    if options is None:
        return tournament.ended("finished"), None
    return tournament, prepare(session, tournament.game, list(tournament.players), options,
                               None, levels(tournament.bots))


def start_next(session: Session, tournament: Tournament | None, new: NewGame | None,
               version: int) -> Live | None:
    """Inside the transaction that ended a tournament's game: write its next game, or close
    the tournament."""
    if tournament is None:
        return None
    if new is None:
        end_tournament(session.journal, tournament.id, "finished")
        return None
    return record(session, new, version, tournament.id)


def go_on(session: Session, version: int, ended: GameSnapshot,
          tournament: Tournament | None, follow_up: Live | None) -> Done[None]:
    """After the commit that ended a game: the game, its tournament and the tournament's next
    game (live from now on), to publish."""
    snaps = {ended.id: ended}
    told = [ended.id]
    tournaments: dict[int, Tournament] = {}
    if follow_up is not None:
        session.live[follow_up.row.id] = follow_up
        snaps[follow_up.row.id] = live_snapshot(follow_up, version)
        told.append(follow_up.row.id)
        assert tournament is not None
        tournament = tournament.with_game(follow_up.row.id)
    if tournament is not None:
        tournaments[tournament.id] = tournament
    return Done(None, snaps, tournaments, tuple(told), kinds(PLAY))
