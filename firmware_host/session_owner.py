"""The session owner: one thread, one queue, every live game.

Hardware callbacks, serial readers and web requests never touch a game: each write is a command
run on the session thread (:class:`firmware_host.session.SessionThread`), which applies it
through the game's rules, commits it to the journal, and only then publishes new snapshots
(:mod:`firmware_host.snapshots`) and tells the listeners — "shown means saved". Tournaments start
their next game inside the same transaction that ends the last one.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from firmware_host.errors import NotAllowed, NotPadGame, SeatTaken
from firmware_host.games import BoxGame, Registry
from firmware_host.journal import ActionRow, GameRow, Journal, SeatHolder
from firmware_host.seats import check_join_code, check_seat, join_codes, new_token
from firmware_host.session import SessionThread
from firmware_host.session_api import GameStatus, Listener, PadChooser
from firmware_host.snapshots import Deferred, GameSnapshot, Snapshots
from firmware_host.tournaments import Tournament
from rules import IllegalAction

log = logging.getLogger(__name__)

MAX_ACTION_LENGTH = 200
MAX_NAME_LENGTH = 40
#: The languages the box's OLED speaks.
BOX_LANGUAGES = ("en", "ja")


@dataclass(frozen=True)
class PadChoice:
    """The pad's game and who chose it, and the box's language as the host chose it (journaled
    as box-wide settings; docs/session-api.md, "The pad's game")."""

    game: int | None = None
    by: PadChooser = "none"
    language: str | None = None


@dataclass(frozen=True)
class _NewGame:
    """A validated game, started in memory, not yet journaled."""

    box: BoxGame
    names: list[str]
    options: dict[str, Any]
    seed: int
    state: Any
    bots: tuple[str | None, ...]


@dataclass
class _Live:
    """An active game as the session thread holds it (never shared with other threads)."""

    row: GameRow
    box: BoxGame
    state: Any
    actions: list[ActionRow]
    previous: Any | None
    tokens: dict[str, int]
    holders: dict[int, SeatHolder] = field(default_factory=dict)
    hints_used: tuple[int, ...] = ()


class SessionOwner:
    """Every write of the session API, run on the session thread."""

    def __init__(self, journal: Journal, games: Registry, snapshots: Snapshots) -> None:
        self.journal = journal
        self.games = games
        self.snapshots = snapshots
        self._live: dict[int, _Live] = {}
        self._listeners: list[Listener] = []
        #: Read by any thread (a frozen value, swapped whole after each commit).
        self.pad = PadChoice()
        self.thread = SessionThread(guard=journal.alarm)
        try:
            self.thread.call(self._restore, timeout=None)
        except BaseException:
            self.thread.close()
            raise

    def close(self) -> None:
        """Finish queued commands and stop the thread (idempotent)."""
        self.thread.close()

    # --- commands (any thread) ----------------------------------------------------------------
    def add_listener(self, listener: Listener) -> None:
        self.thread.call(lambda: self._listeners.append(listener))

    def create_game(self, game: str, players: list[str], options: Mapping[str, object] | None,
                    seed: int | None, bots: Mapping[int, str] | None = None) -> int:
        return self.thread.call(lambda: self._create_game(game, players, options, seed, bots))

    def create_tournament(self, game: str, players: list[str],
                          options: Mapping[str, object] | None, order: list[int] | None,
                          bots: Mapping[int, str] | None = None) -> int:
        return self.thread.call(
            lambda: self._create_tournament(game, players, options, order, bots))

    def count_hint(self, game_id: int, seat: int) -> None:
        self.thread.call(lambda: self._count_hint(game_id, seat))

    def allow_hints(self, game_id: int, allowed: bool) -> None:
        self.thread.call(lambda: self._allow_hints(game_id, allowed))

    def seat_bot(self, game_id: int, seat: int, level: str | None) -> None:
        self.thread.call(lambda: self._seat_bot(game_id, seat, level))

    def act(self, game_id: int, seat: int, action: str, by: str | None = None) -> None:
        self.thread.call(lambda: self._act(game_id, seat, action, by))

    def act_on_pad(self, game_id: int, seat: int, action: str, by: str | None = None) -> None:
        self.thread.call(lambda: self._act_on_pad(game_id, seat, action, by))

    def set_pad_game(self, game_id: int | None, by: PadChooser) -> None:
        self.thread.call(lambda: self._set_pad_game(game_id, by))

    def set_box_language(self, language: str | None) -> None:
        self.thread.call(lambda: self._set_box_language(language))

    def undo(self, game_id: int) -> None:
        self.thread.call(lambda: self._undo(game_id))

    def abandon(self, game_id: int) -> None:
        self.thread.call(lambda: self._abandon(game_id))

    def abandon_tournament(self, tid: int) -> None:
        self.thread.call(lambda: self._abandon_tournament(tid))

    def issue_seat(self, game_id: int, seat: int, *, reissue: bool, code: str | None = None,
                   holder: str | None = None) -> str:
        return self.thread.call(lambda: self._issue(game_id, seat, reissue=reissue, code=code,
                                                    holder=holder))

    def lock_seats(self, game_id: int, locked: bool) -> list[str] | None:
        return self.thread.call(lambda: self._lock_seats(game_id, locked))

    def open_host_session(self, token_hash: str, expires: str) -> None:
        self.thread.call(lambda: self._open_host_session(token_hash, expires))

    def set_club_code(self, game_id: int, seat: int, code: str) -> None:
        self.thread.call(lambda: self._set_club_code(game_id, seat, code))

    def club_delivered(self, through_seq: int) -> int:
        return self.thread.call(lambda: self._club_delivered(through_seq))

    def close_host_session(self, token_hash: str) -> None:
        self.thread.call(lambda: self._close_host_session(token_hash))

    # --- start-up -----------------------------------------------------------------------------
    def _restore(self) -> None:
        """Rebuild every unfinished game by replaying its actions through the rules."""
        games: dict[int, GameSnapshot] = {}
        for row in self.journal.games():
            box = self.games.get(row.game)
            if box is None:
                log.error("game %d: the rules of %r are not available", row.id, row.game)
                continue
            if row.status != "active":
                games[row.id] = self._ended_snapshot(row, box, None)
                continue
            actions = self.journal.actions(row.id)
            try:
                state, previous = rebuild(box, row, actions)
            except Exception as error:  # one game the rules no longer replay must not stop
                # the box from starting; its actions stay in the journal for inspection
                log.error("game %d (%s) cannot be replayed; it is abandoned: %s",
                          row.id, row.game, error)
                with self.journal.transaction() as version:
                    ended_at = self.journal.end_game(row.id, "abandoned", None, version)
                row = replace(row, status="abandoned", ended=ended_at.at,
                              ended_clock_set=ended_at.clock_set, version=version)
                games[row.id] = self._ended_snapshot(row, box, None)
                continue
            live = _Live(row, box, state, actions, previous, self.journal.tokens(row.id),
                         self.journal.holders(row.id),
                         self.journal.hints_used(row.id, len(row.seats)))
            self._live[row.id] = live
            games[row.id] = self._live_snapshot(live, row.version)
            log.info("game %d (%s) restored after %d actions", row.id, row.game, len(actions))
        tournaments = {}
        for t in self.journal.tournaments():
            box = self.games.get(t.game)
            if box is None or box.tournament is None:
                log.error("tournament %d: %r has no tournaments here", t.id, t.game)
                continue
            played = sorted((g for g in games.values() if g.tournament == t.id),
                            key=lambda g: g.id)
            tournaments[t.id] = Tournament.from_row(
                box.tournament, t, [(g.id, g.status, g.outcome) for g in played])
        saved = self.journal.setting("pad") or {}
        by = saved.get("by", "none")
        self.pad = PadChoice(saved.get("game") if isinstance(saved.get("game"), int) else None,
                             by if by in ("host", "pad", "auto", "next") else "none",
                             self.journal.setting("language"))
        self.snapshots.publish(self.journal.version(), games, tournaments)
        self.snapshots.set_host_sessions(self.journal.host_sessions())
        for tournament in tournaments.values():
            self._resume_tournament(tournament)

    def _resume_tournament(self, tournament: Tournament) -> None:
        """A tournament whose last game could not be replayed goes on with a new game."""
        if tournament.status != "active" or any(o is None for o in tournament.outcomes):
            return
        options = tournament.next_options()
        new = (self._prepare(tournament.game, list(tournament.players), options, None,
                             _levels(tournament.bots))
               if options is not None else None)
        pad = None
        with self.journal.transaction() as version:
            if new is not None:
                live = self._record(new, version, tournament.id)
                pad = self._pad_takes(live.row.id)
            else:
                self.journal.end_tournament(tournament.id, "finished")
        self.pad = pad or self.pad
        if new is not None:
            self._live[live.row.id] = live
            self.snapshots.publish(version, {live.row.id: self._live_snapshot(live, version)},
                                   {tournament.id: tournament.with_game(live.row.id)})
        else:
            self.snapshots.publish(version, None, {tournament.id: tournament.ended("finished")})

    # --- new games ----------------------------------------------------------------------------
    def _prepare(self, game: str, players: list[str], options: Mapping[str, object] | None,
                 seed: int | None, bots: Mapping[int, str] | None = None) -> _NewGame:
        """Validate a new game and start it in memory; nothing is written yet."""
        box = self.games.find(game)
        names = check_players(box, players)
        levels = check_bots(box, bots, len(names))
        if options is not None and not isinstance(options, Mapping):
            raise NotAllowed("options must be a mapping of option names to values")
        resolved = box.rules.resolve_options(options, len(names))
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise NotAllowed(f"a seed must be a whole number from 0 to 2^63−1, got {seed!r}")
        state = box.rules.start(names, resolved, seed=seed)
        return _NewGame(box, names, dict(resolved), seed, state, levels)

    def _record(self, new: _NewGame, version: int, tournament: int | None) -> _Live:
        """Write a prepared game inside the caller's transaction; returns it (not yet live)."""
        created = self.journal.stamp()
        game_id = self.journal.add_game(new.box.id, new.options, new.names, new.seed, version,
                                        tournament, created=created, bots=new.bots)
        row = GameRow(game_id, new.box.id, new.options, new.names, new.seed, created.at, None,
                      "active", None, tournament, version, bots=new.bots,
                      created_clock_set=created.clock_set)
        return _Live(row, new.box, new.state, [], None, {}, hints_used=(0,) * len(new.names))

    def _create_game(self, game: str, players: list[str],
                     options: Mapping[str, object] | None, seed: int | None,
                     bots: Mapping[int, str] | None) -> int:
        new = self._prepare(game, players, options, seed, bots)
        with self.journal.transaction() as version:
            live = self._record(new, version, None)
            pad = self._pad_takes(live.row.id)
        self.pad = pad or self.pad
        self._live[live.row.id] = live
        log.info("game %d (%s) started for %d players", live.row.id, game, len(new.names))
        self._publish(version, [live.row.id], {live.row.id: self._live_snapshot(live, version)})
        return live.row.id

    def _create_tournament(self, game: str, players: list[str],
                           options: Mapping[str, object] | None, order: list[int] | None,
                           bots: Mapping[int, str] | None) -> int:
        box = self.games.find(game)
        if box.tournament is None:
            raise NotAllowed(f"{box.rules.name} has no tournaments")
        names = check_players(box, players)
        levels = check_bots(box, bots, len(names))
        scores, shared = Tournament.plan(box.tournament, names, options, order)
        # Validate the options of every game before anything is written.
        for lock in scores.order:
            box.rules.resolve_options({**shared, "lock": lock}, len(names))
        first = self._prepare(game, names, scores.game_options(shared), None, bots)
        with self.journal.transaction() as version:
            created = self.journal.now()
            tid = self.journal.add_tournament(game, names, shared, list(scores.order),
                                              created=created, bots=levels)
            live = self._record(first, version, tid)
            pad = self._pad_takes(live.row.id)
        self.pad = pad or self.pad
        self._live[live.row.id] = live
        tournament = Tournament(tid, game, shared, scores, (), (), "active", created, levels)
        log.info("tournament %d started: game %d", tid, live.row.id)
        self._publish(version, [live.row.id], {live.row.id: self._live_snapshot(live, version)},
                      {tid: tournament.with_game(live.row.id)})
        return tid

    # --- tournaments going on -----------------------------------------------------------------
    def _next_game(self, tid: int | None, outcome: Mapping[str, Any] | None
                   ) -> tuple[Tournament | None, _NewGame | None]:
        """When a tournament's game ends (``outcome`` ``None``: abandoned): the tournament
        after it, and its next game, prepared but not written."""
        if tid is None:
            return None, None
        tournament = self.snapshots.tournament(tid).game_ended(outcome)
        options = tournament.next_options()
        if options is None:
            return tournament.ended("finished"), None
        return tournament, self._prepare(tournament.game, list(tournament.players), options,
                                         None, _levels(tournament.bots))

    def _start_next(self, tournament: Tournament | None, new: _NewGame | None,
                    version: int) -> _Live | None:
        """Inside the transaction that ended a tournament's game: write its next game, or
        close the tournament."""
        if tournament is None:
            return None
        if new is None:
            self.journal.end_tournament(tournament.id, "finished")
            return None
        return self._record(new, version, tournament.id)

    def _go_on(self, version: int, ended: GameSnapshot, tournament: Tournament | None,
               follow_up: _Live | None) -> None:
        """After the commit that ended a game: publish it, its tournament and the tournament's
        next game (live from now on)."""
        snaps = {ended.id: ended}
        changed = [ended.id]
        tournaments: dict[int, Tournament] = {}
        if follow_up is not None:
            self._live[follow_up.row.id] = follow_up
            snaps[follow_up.row.id] = self._live_snapshot(follow_up, version)
            changed.append(follow_up.row.id)
            assert tournament is not None
            tournament = tournament.with_game(follow_up.row.id)
        if tournament is not None:
            tournaments[tournament.id] = tournament
        self._publish(version, changed, snaps, tournaments)

    # --- play ---------------------------------------------------------------------------------
    def _active(self, game_id: int) -> _Live:
        live = self._live.get(game_id) if isinstance(game_id, int) else None
        if live is not None:
            return live
        snap = self.snapshots.game(game_id)
        raise NotAllowed(f"game {game_id} is {snap.status}")

    def _act(self, game_id: int, seat: int, action: str, by: str | None) -> None:
        live = self._active(game_id)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"a seat is a number, got {seat!r}")
        if not isinstance(action, str) or len(action) > MAX_ACTION_LENGTH:
            raise IllegalAction("an action is a short text such as 'place 2 3'")
        rules = live.box.rules
        after = rules.apply(live.state, seat, action)
        entered, action = action, rules.canonical(live.state, seat, action)
        outcome = rules.outcome(after)
        tournament, upcoming = (self._next_game(live.row.tournament, outcome)
                                if outcome is not None else (None, None))
        pad = None
        with self.journal.transaction() as version:
            n = self.journal.add_action(game_id, seat, action, version, entered=entered, by=by)
            if outcome is not None:
                ended_at = self.journal.end_game(game_id, "finished", outcome, version)
                follow_up = self._start_next(tournament, upcoming, version)
                pad = self._pad_follows(game_id, follow_up)
        self.pad = pad or self.pad
        live.actions.append(ActionRow(n, seat, action, self.journal.now(), by))
        live.previous, live.state = live.state, after
        if rules.perfect_information:  # else the action may be a secret: never in a log
            log.info("game %d: seat %d: %s", game_id, seat, action)
        else:
            log.info("game %d: seat %d acted", game_id, seat)
        if outcome is None:
            self._publish(version, [game_id], {game_id: self._live_snapshot(live, version)})
            return
        del self._live[game_id]
        row = replace(live.row, status="finished", outcome=outcome, ended=ended_at.at,
                      ended_clock_set=ended_at.clock_set, version=version)
        log.info("game %d finished: %s", game_id, outcome.get("reason", ""))
        self._go_on(version, self._ended_snapshot(row, live.box, after), tournament, follow_up)

    def _act_on_pad(self, game_id: int, seat: int, action: str, by: str | None) -> None:
        """An action entered on the pad: only for the pad's game (checked on this thread, so
        the host moving the pad meanwhile cannot let it into another game)."""
        if self.pad.game != game_id:
            raise NotPadGame(f"the pad is on game {self.pad.game}, not game {game_id}: "
                             "the move was not entered")
        self._act(game_id, seat, action, by)

    # --- the pad's game -----------------------------------------------------------------------
    def _set_pad_game(self, game_id: int | None, by: PadChooser) -> None:
        if game_id is not None:
            if isinstance(game_id, bool) or not isinstance(game_id, int):
                raise NotAllowed(f"the pad's game is a game number, got {game_id!r}")
            if game_id not in self._live:
                snap = self.snapshots.game(game_id)  # NoSuchGame for an unknown one
                raise NotAllowed(f"game {game_id} is {snap.status}: the pad follows games "
                                 "being played")
        if by not in ("host", "pad"):
            raise NotAllowed(f"the pad's game is chosen by the host or on the pad, not {by!r}")
        with self.journal.transaction() as version:
            pad = self._write_pad(game_id, by)
        self.pad = pad
        log.info("the pad is on game %s (chosen by the %s)", game_id, by)
        self._publish(version, [], None, tell=True)

    def _set_box_language(self, language: str | None) -> None:
        if language is not None and language not in BOX_LANGUAGES:
            raise NotAllowed(f"the box speaks {' or '.join(BOX_LANGUAGES)}, not {language!r}")
        with self.journal.transaction() as version:
            self.journal.set_setting("language", language)
        self.pad = replace(self.pad, language=language)
        log.info("the box's language: %s", language or "the config's")
        self._publish(version, [], None, tell=True)

    def _write_pad(self, game_id: int | None, by: PadChooser) -> PadChoice:
        """Inside the caller's transaction: the pad's new game; returns the setting to show
        once committed."""
        self.journal.set_setting("pad", {"game": game_id, "by": by})
        return replace(self.pad, game=game_id, by=by if game_id is not None else "none")

    def _pad_takes(self, game_id: int) -> PadChoice | None:
        """A new game becomes the pad's when the pad has no game being played."""
        if self.pad.game in self._live:
            return None
        return self._write_pad(game_id, "auto")

    def _pad_follows(self, ended: int, follow_up: _Live | None) -> PadChoice | None:
        """A tournament's next game becomes the pad's when its previous game was."""
        if follow_up is None or self.pad.game != ended:
            return None
        return self._write_pad(follow_up.row.id, "next")

    def _undo(self, game_id: int) -> None:
        live = self._active(game_id)
        if not live.actions:
            raise NotAllowed(f"game {game_id} has no action to take back")
        refusal = self.snapshots.game(game_id).undo_refusal  # the live snapshot's, kept
        if refusal is not None:
            raise NotAllowed(f"cannot undo: {refusal}")
        kept = live.actions[:-1]
        state, previous = rebuild(live.box, live.row, kept)
        with self.journal.transaction() as version:
            taken = self.journal.undo_last_action(game_id, version)
        live.actions, live.state, live.previous = kept, state, previous
        log.info("game %d: action %d of seat %d taken back", game_id, taken.n, taken.seat)
        self._publish(version, [game_id], {game_id: self._live_snapshot(live, version)})

    def _abandon(self, game_id: int, *, whole_tournament: bool = False) -> None:
        live = self._active(game_id)
        tid = live.row.tournament
        if whole_tournament:
            tournament, upcoming = None, None
        else:  # the game counts for nothing; the same leader plays again
            tournament, upcoming = self._next_game(tid, None)
        with self.journal.transaction() as version:
            ended_at = self.journal.end_game(game_id, "abandoned", None, version)
            follow_up = self._start_next(tournament, upcoming, version)
            pad = self._pad_follows(game_id, follow_up)
            if whole_tournament and tid is not None:
                self.journal.end_tournament(tid, "abandoned")
        self.pad = pad or self.pad
        del self._live[game_id]
        if whole_tournament and tid is not None:
            tournament = self.snapshots.tournament(tid).game_ended(None).ended("abandoned")
        row = replace(live.row, status="abandoned", ended=ended_at.at,
                      ended_clock_set=ended_at.clock_set, version=version)
        log.info("game %d abandoned", game_id)
        final = abandoned_state(live.box, live.state)
        self._go_on(version, self._ended_snapshot(row, live.box, final), tournament, follow_up)

    def _abandon_tournament(self, tid: int) -> None:
        tournament = self.snapshots.tournament(tid)
        if tournament.status != "active":
            raise NotAllowed(f"tournament {tid} is {tournament.status}")
        current = tournament.games[-1]
        if current in self._live:
            self._abandon(current, whole_tournament=True)
            return
        with self.journal.transaction() as version:
            self.journal.end_tournament(tid, "abandoned")
        self._publish(version, [current], None, {tid: tournament.ended("abandoned")})

    def _issue(self, game_id: int, seat: int, *, reissue: bool, code: str | None,
               holder: str | None) -> str:
        live = self._active(game_id)
        if isinstance(seat, int) and 0 <= seat < len(live.row.bots) and live.row.bots[seat]:
            raise SeatTaken(f"seat {seat} ({live.row.seats[seat]}) is played by the box")
        if not reissue:
            check_join_code(live.row.join_codes, seat, code)
        token, hashed = new_token(game_id, live.row.seats, live.tokens, seat, reissue=reissue)
        with self.journal.transaction() as version:
            since = self.journal.issue_token(game_id, seat, hashed, version, holder)
        live.tokens = {h: s for h, s in live.tokens.items() if s != seat}
        live.tokens[hashed] = seat
        live.holders = {**live.holders, seat: SeatHolder(holder or "", since)}
        log.info("game %d: seat %d %s", game_id, seat, "re-issued" if reissue else "claimed")
        self._publish(version, [game_id], {game_id: self._live_snapshot(live, version)})
        return token

    def _lock_seats(self, game_id: int, locked: bool) -> list[str] | None:
        live = self._active(game_id)
        codes = join_codes(len(live.row.seats)) if locked else None
        with self.journal.transaction() as version:
            self.journal.set_join_codes(game_id, codes, version)
        live.row = replace(live.row, join_codes=codes)
        log.info("game %d: seats %s", game_id, "locked" if locked else "open")
        self._publish(version, [game_id], {game_id: self._live_snapshot(live, version)})
        return codes

    def _count_hint(self, game_id: int, seat: int) -> None:
        live = self._active(game_id)
        if live.row.hints_off:
            raise NotAllowed("the host has turned hints off for this game")
        with self.journal.transaction() as version:
            counted = self.journal.add_hint(game_id, seat, len(live.actions), version)
        if not counted:  # asked again on the same board: one hint
            return
        used = list(live.hints_used)
        used[seat] += 1
        live.hints_used = tuple(used)
        log.info("game %d: seat %d asked for a hint", game_id, seat)
        self._publish(version, [game_id], {game_id: self._live_snapshot(live, version)})

    def _allow_hints(self, game_id: int, allowed: bool) -> None:
        live = self._active(game_id)
        if live.box.hint is None:
            raise NotAllowed(f"{live.box.rules.name} has no hints")
        with self.journal.transaction() as version:
            self.journal.set_hints_off(game_id, not allowed, version)
        live.row = replace(live.row, hints_off=not allowed)
        log.info("game %d: hints %s", game_id, "on" if allowed else "off")
        self._publish(version, [game_id], {game_id: self._live_snapshot(live, version)})

    def _seat_bot(self, game_id: int, seat: int, level: str | None) -> None:
        live = self._active(game_id)
        seats = live.row.seats
        check_seat(game_id, seats, seat)
        before = tuple(live.row.bots) or (None,) * len(seats)
        if level is not None:
            check_bots(live.box, {seat: level}, len(seats))
            if seat in live.tokens.values():
                raise SeatTaken(f"{seats[seat]}'s phone holds that seat: the box cannot take "
                                "it over")
        if before[seat] == level:
            return
        levels = [*before[:seat], level, *before[seat + 1:]]
        with self.journal.transaction() as version:
            self.journal.set_bots(game_id, levels, version)
        bots = tuple(levels) if any(levels) else ()
        live.row = replace(live.row, bots=bots)
        log.info("game %d: seat %d played by %s", game_id, seat,
                 f"the box ({level})" if level else "a person")
        self._publish(version, [game_id], {game_id: self._live_snapshot(live, version)})

    def _open_host_session(self, token_hash: str, expires: str) -> None:
        with self.journal.transaction():
            self.journal.add_host_session(token_hash, expires)
        self.snapshots.set_host_sessions({**self.snapshots.host_sessions, token_hash: expires})

    def _set_club_code(self, game_id: int, seat: int, code: str) -> None:
        """Club mode: a seat's club code, kept until the game's record is sent (shown to no
        one; it changes no view)."""
        live = self._active(game_id)
        check_seat(game_id, live.row.seats, seat)
        with self.journal.transaction():
            self.journal.set_club_code(game_id, seat, code)
        log.info("game %d: seat %d gave a club code", game_id, seat)

    def _club_delivered(self, through_seq: int) -> int:
        with self.journal.transaction():
            return self.journal.club_delivered(through_seq)

    def _close_host_session(self, token_hash: str) -> None:
        with self.journal.transaction():
            self.journal.end_host_session(token_hash)
        sessions = dict(self.snapshots.host_sessions)
        sessions.pop(token_hash, None)
        self.snapshots.set_host_sessions(sessions)

    # --- snapshots ----------------------------------------------------------------------------
    def _refusal(self, live: _Live) -> Deferred[str | None]:
        """Whether the last action may be taken back — worked out by the first reader that
        asks (a view, the host's undo), not on this thread."""
        if not live.actions or live.previous is None:
            return Deferred.known("there is no action to take back")
        box, before, last, after = live.box, live.previous, live.actions[-1], live.state
        return Deferred(lambda: box.undo_refusal(before, last.seat, last.action, after))

    def _live_snapshot(self, live: _Live, version: int) -> GameSnapshot:
        row = live.row
        claimed = set(live.tokens.values())
        return GameSnapshot(
            id=row.id, game=row.game, box=live.box, status="active", seats=tuple(row.seats),
            claimed=_claimed(claimed, row.bots, len(row.seats)), created=row.created,
            ended=None, outcome=None, tournament=row.tournament, version=version,
            state=live.state, undo_check=self._refusal(live), tokens=dict(live.tokens),
            holders=dict(live.holders), join_codes=row.join_codes, bots=row.bots,
            hints_off=row.hints_off, hints_used=live.hints_used,
            created_clock_set=row.created_clock_set,
        )

    def _ended_snapshot(self, row: GameRow, box: BoxGame, state: Any) -> GameSnapshot:
        tokens = self.journal.tokens(row.id)
        claimed = set(tokens.values())
        status: GameStatus = "finished" if row.status == "finished" else "abandoned"
        return GameSnapshot(
            id=row.id, game=row.game, box=box, status=status, seats=tuple(row.seats),
            claimed=_claimed(claimed, row.bots, len(row.seats)), created=row.created,
            ended=row.ended, outcome=row.outcome, tournament=row.tournament,
            version=row.version, state=state,
            undo_check=Deferred.known("the game has ended"), tokens=tokens,
            holders=self.journal.holders(row.id), join_codes=None, bots=row.bots,
            hints_off=row.hints_off, hints_used=self.journal.hints_used(row.id, len(row.seats)),
            created_clock_set=row.created_clock_set, ended_clock_set=row.ended_clock_set,
        )

    def _publish(self, version: int, changed: list[int],
                 games: Mapping[int, GameSnapshot] | None,
                 tournaments: Mapping[int, Tournament] | None = None, *,
                 tell: bool = False) -> None:
        """Swap in the new snapshots (the change is already committed), then tell the
        listeners of each changed game (and of a box-wide change, ``tell``: game ``None``)."""
        self.snapshots.publish(version, games, tournaments, later=self.thread.after)
        told: list[int | None] = [*changed, *([None] if tell else [])]
        for game_id in told:
            for listener in list(self._listeners):
                try:
                    listener(game_id, version)
                except Exception:
                    log.exception("a listener failed on game %s", game_id)


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


def _claimed(held: set[int], bots: tuple[str | None, ...], seats: int) -> tuple[bool, ...]:
    """Per seat, whether a phone or the box (a bot) holds it."""
    return tuple(s in held or (s < len(bots) and bots[s] is not None) for s in range(seats))


def _levels(bots: tuple[str | None, ...]) -> dict[int, str]:
    return {seat: level for seat, level in enumerate(bots) if level is not None}


def check_bots(box: BoxGame, bots: object, seats: int) -> tuple[str | None, ...]:
    """Per seat, the level of the bot the box plays it with: ``bots`` maps seats to levels."""
    if bots is None or (isinstance(bots, Mapping) and not bots):
        return ()
    if not isinstance(bots, Mapping):
        raise NotAllowed("bots must map seat numbers to bot levels, e.g. {1: 'hard'}")
    if box.bots is None:
        raise NotAllowed(f"{box.rules.name} has no bots")
    levels: list[str | None] = [None] * seats
    for seat, level in bots.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise NotAllowed(f"a bot's seat is a number from 0 to {seats - 1}, got {seat!r}")
        if level not in box.bots:
            raise NotAllowed(f"unknown bot level {level!r} (levels: {', '.join(box.bots)})")
        levels[seat] = level
    return tuple(levels)


def check_players(box: BoxGame, players: object) -> list[str]:
    """Player names: a list of distinct, non-empty, short texts, as many as the game takes."""
    rules = box.rules
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise NotAllowed("players must be a list of names")
    names = [p.strip() for p in players]
    if any(not name for name in names):
        raise NotAllowed("every player needs a name")
    long = [n for n in names if len(n) > MAX_NAME_LENGTH]
    if long:
        raise NotAllowed(f"the name {long[0][:20]!r}… is longer than {MAX_NAME_LENGTH} characters")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise NotAllowed(f"two players are called {twice!r}; give each a different name")
    if not rules.min_players <= len(names) <= rules.max_players:
        raise NotAllowed(
            f"{rules.name} takes {rules.min_players}–{rules.max_players} players, "
            f"got {len(names)}"
        )
    return names

