"""The session at start: every unfinished game rebuilt from the journal, the tournaments going
on, the pad's choice, the paired smart dice and the host sessions — what the commands of the
last run left. The games and tournaments that ended stay in the journal, read when asked
(:mod:`firmware_host.ended_games`)."""

from __future__ import annotations

import logging

from firmware_host.dice_pairs import pairings_from
from firmware_host.ended_games import EndedGames
from firmware_host.game_log import end_game, end_tournament
from firmware_host.history_rows import newest_game_of, tournament_games_of
from firmware_host.journal_reader import JournalReader
from firmware_host.journal_rows import (
    hints_used_of,
    holders_of,
    host_sessions_of,
    setting_of,
    tokens_of,
)
from firmware_host.new_games import levels, prepare, record
from firmware_host.pad_choice import pad_takes
from firmware_host.session_state import Live, PadChoice, Session, live_snapshot, rebuild
from firmware_host.snapshots import GameSnapshot
from firmware_host.tournaments import Tournament

log = logging.getLogger(__name__)


def restore(session: Session) -> None:
    """Rebuild every unfinished game by replaying its actions through the rules (on the
    session thread, before any command)."""
    journal = session.journal
    session.snapshots.read_ended_from(
        EndedGames(JournalReader(journal.path, journal.alarm), session.games),
        newest_game_of(journal.db))
    games: dict[int, GameSnapshot] = {}
    for row in journal.games("active"):
        box = session.games.get(row.game)
        if box is None:
            log.error("game %d: the rules of %r are not available", row.id, row.game)
            continue
        actions = journal.actions(row.id)
        try:
            state, previous = rebuild(box, row, actions)
        except Exception as error:  # one game the rules no longer replay must not stop
            # the box from starting; its actions stay in the journal for inspection
            log.error("game %d (%s) cannot be replayed; it is abandoned: %s",
                      row.id, row.game, error)
            with journal.transaction() as version:
                end_game(journal, row.id, "abandoned", None, version)
            continue
        live = Live(row, box, state, actions, previous, tokens_of(journal.db, row.id),
                    holders_of(journal.db, row.id),
                    hints_used_of(journal.db, row.id, len(row.seats)))
        session.live[row.id] = live
        games[row.id] = live_snapshot(live, row.version)
        log.info("game %d (%s) restored after %d actions", row.id, row.game, len(actions))
    tournaments = {}
    going_on = [t for t in journal.tournaments() if t.status == "active"]
    played = tournament_games_of(journal.db, [t.id for t in going_on])
    for t in going_on:
        box = session.games.get(t.game)
        if box is None or box.tournament is None:
            log.error("tournament %d: %r has no tournaments here", t.id, t.game)
            continue
        tournaments[t.id] = Tournament.from_row(box.tournament, t, played[t.id])
    saved = setting_of(journal.db, "pad") or {}
    by = saved.get("by", "none")
    session.pad = PadChoice(saved.get("game") if isinstance(saved.get("game"), int) else None,
                            by if by in ("host", "pad", "auto", "next") else "none",
                            setting_of(journal.db, "language"))
    session.dice = pairings_from(setting_of(journal.db, "dice"))
    session.snapshots.publish(journal.version(), games, tournaments)
    session.snapshots.set_host_sessions(host_sessions_of(journal.db))
    for tournament in tournaments.values():
        _resume(session, tournament)


def _resume(session: Session, tournament: Tournament) -> None:
    """A tournament whose last game could not be replayed goes on with a new game."""
    if tournament.status != "active" or any(o is None for o in tournament.outcomes):
        return
    options = tournament.next_options()
    new = (prepare(session, tournament.game, list(tournament.players), options, None,
                   levels(tournament.bots))
           if options is not None else None)
    pad = None
    journal = session.journal
    with journal.transaction() as version:
        if new is not None:
            live = record(session, new, version, tournament.id)
            pad = pad_takes(session, live.row.id)
        else:
            end_tournament(journal, tournament.id, "finished")
    session.pad = pad or session.pad
    if new is not None:
        session.live[live.row.id] = live
        session.snapshots.publish(version, {live.row.id: live_snapshot(live, version)},
                                  {tournament.id: tournament.with_game(live.row.id)})
    else:
        session.snapshots.publish(version, None, {tournament.id: tournament.ended("finished")})
