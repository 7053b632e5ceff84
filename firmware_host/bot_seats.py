"""The box's own players: the seats a game was created with bots in.

A bot plays through the session API exactly as a phone of its seat would: it is handed
``view(game, seat)`` and ``legal_actions(game, seat)`` and answers with ``act``, entered
``by="bot <level>"`` in the journal. It never sees a state, so it cannot read a hand, a deck or
the Lock's secret. When a game waits on a die roll for a bot's seat (the view's ``roll_for``),
the box rolls it fairly (``by="box random"``).

After each committed change the session tells :meth:`BotSeats.changed` what changed (it only
notes the game, and forgets its seats when they changed hands: :class:`SeatBot`, the command
that seats a bot during a game, lives here too); the bots' own thread then looks at the game
and, for every bot seat that is to act, waits a short visible delay so the people at the table
can follow, checks the seat is still to act, and moves.
Moves come from the operating system's generator (:class:`random.SystemRandom`), so a bot seated
as UNLOCK's Lock draws a secret as unguessable as any player's; tests pass a seeded one.
"""

from __future__ import annotations

import heapq
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from firmware_host.commands import BOTS, Change, Done, Step, kinds
from firmware_host.errors import SeatTaken
from firmware_host.games import Registry
from firmware_host.journal import Journal
from firmware_host.journal_rows import bots_text
from firmware_host.new_games import check_bots
from firmware_host.seats import check_seat
from firmware_host.session_api import SessionApi
from firmware_host.session_state import Session, live_snapshots
from rules import CHANCE, RulesError

log = logging.getLogger(__name__)

#: Seconds a bot waits before it moves, so the table sees one move at a time.
DELAY = 1.0
#: How many games' bot seats are remembered (those looked at last; a game forgotten is only
#: looked at again at its next change).
LEVELS_KEPT = 256


class BotSeats:
    """The thread that plays every bot seat of every active game."""

    def __init__(self, session: SessionApi, games: Registry, *, delay: float = DELAY,
                 rng: random.Random | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.games = games
        self.delay = delay
        self.rng = rng if rng is not None else random.SystemRandom()
        self.clock = clock
        self.moves = 0
        self._wake = threading.Condition()
        self._changed: set[int] = set()
        #: (due, game id, seat) of each move waiting for its delay.
        self._due: list[tuple[float, int, int]] = []
        self._closed = False
        #: Per game seen lately (at most :data:`LEVELS_KEPT`, an ended one dropped), its bot
        #: seats' levels (fixed unless reseated); games without any are not looked at again.
        self._levels: dict[int, list[str | None]] = {}
        self._thread = threading.Thread(target=self._run, name="bots", daemon=True)

    def start(self, listen: Callable[[Callable[[Change], None]], None]) -> None:
        """Listen to the session's changes (``listen``: the session owner's ``add_listener``)
        and play the bot seats of the games already going on."""
        for summary in self.session.games("active"):
            self._changed.add(summary["id"])
        listen(self.changed)
        self._thread.start()

    def changed(self, change: Change) -> None:
        """A session listener: note the games (on the session thread; never blocks); a game
        whose seats changed hands (:class:`SeatBot`) has its bot seats read again."""
        reseated = BOTS in change.kinds
        games = [g for g in change.games if reseated or any(self._levels.get(g, [True]))]
        if not games:
            return
        with self._wake:
            for game_id in games:
                if reseated:
                    self._levels.pop(game_id, None)
                self._changed.add(game_id)
            self._wake.notify()

    def close(self) -> None:
        """Stop the thread (a move in progress finishes first); idempotent."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    # --- the bots' thread ---------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed and not self._changed and not self._ready():
                    timeout = self._due[0][0] - self.clock() if self._due else None
                    self._wake.wait(timeout)
                if self._closed:
                    return
                changed, self._changed = self._changed, set()
                ready = []
                while self._ready():
                    ready.append(heapq.heappop(self._due))
            for game_id in sorted(changed):
                self._guarded(game_id, self._schedule, game_id)
            for _, game_id, seat in ready:
                self._guarded(game_id, self._move, game_id, seat)

    def _ready(self) -> bool:
        return bool(self._due) and self._due[0][0] <= self.clock()

    def _guarded(self, game_id: int, step: Callable[..., None], *args: int) -> None:
        try:
            step(*args)
        except RulesError as error:  # the game moved on meanwhile (ended, abandoned, undone)
            log.info("game %d: a bot did not move: %s", game_id, error)
        except Exception:
            log.exception("game %d: a bot failed", game_id)

    def _schedule(self, game_id: int) -> None:
        """Plan a move for every bot seat of the game that is to act (once per seat)."""
        summary = self.session.summary(game_id)
        bots = summary["bots"]
        with self._wake:  # as :meth:`changed` (on the session thread) forgets a game
            if summary["status"] != "active":
                self._levels.pop(game_id, None)
                return
            self._levels[game_id] = bots
            while len(self._levels) > LEVELS_KEPT:
                del self._levels[next(iter(self._levels))]
        if not any(bots):
            return
        waiting = {(g, s) for _, g, s in self._due}
        for seat in self._bot_turns(game_id, bots):
            if (game_id, seat) not in waiting:
                heapq.heappush(self._due, (self.clock() + self.delay, game_id, seat))

    def _bot_turns(self, game_id: int, bots: list[str | None]) -> list[int]:
        """The seats the box must move now: bots to act, and chance rolling for a bot."""
        public = self.session.view(game_id, None)
        to_act = public.get("to_act", [])
        turns = [s for s in to_act if 0 <= s < len(bots) and bots[s]]
        roll_for = public.get("roll_for")
        rolling = roll_for.get("seat") if isinstance(roll_for, dict) else None
        if CHANCE in to_act and isinstance(rolling, int) and 0 <= rolling < len(bots) \
                and bots[rolling]:
            turns.append(CHANCE)
        return turns

    def _move(self, game_id: int, seat: int) -> None:
        summary = self.session.summary(game_id)
        bots = summary["bots"]
        if summary["status"] != "active" or seat not in self._bot_turns(game_id, bots):
            return
        legal = self.session.legal_actions(game_id, seat)
        if not legal:
            return
        if seat == CHANCE:  # a fair roll of the box's die for a bot's seat
            self.session.act(game_id, CHANCE, legal[self.rng.randrange(len(legal))],
                             "box random")
            self.moves += 1
            return
        level = bots[seat]
        assert level is not None
        bot_levels = self.games[summary["game"]].bots
        assert bot_levels is not None
        action = bot_levels[level].choose(self.session.view(game_id, seat), legal, self.rng)
        self.session.act(game_id, seat, action, f"bot {level}")
        self.moves += 1


def set_bots(journal: Journal, game_id: int, bots: Sequence[str | None], version: int) -> None:
    """Who plays each seat from now on: a bot's level, or ``None`` for a person."""
    journal.write("UPDATE games SET bots = ? WHERE id = ?", (bots_text(bots), game_id))
    journal.touch(game_id, version)


@dataclass(frozen=True)
class SeatBot:
    """During the game, the box takes over ``seat`` with a bot at ``level`` (a player left, or
    none came), or gives it back to a person (``None``). Refused for a seat a phone holds."""

    game_id: int
    seat: int
    level: str | None

    def check(self, session: Session) -> Step[None]:
        game_id, seat, level = self.game_id, self.seat, self.level
        live = session.active(game_id)
        seats = live.row.seats
        check_seat(game_id, seats, seat)
        before = tuple(live.row.bots) or (None,) * len(seats)
        if level is not None:
            check_bots(live.box, {seat: level}, len(seats))
            if seat in live.tokens.values():
                raise SeatTaken(f"{seats[seat]}'s phone holds that seat: the box cannot take "
                                "it over")
        if before[seat] == level:
            return Step(None, lambda _, version: Done(None))
        levels = [*before[:seat], level, *before[seat + 1:]]

        def done(_: None, version: int | None) -> Done[None]:
            assert version is not None
            live.row = replace(live.row, bots=tuple(levels) if any(levels) else ())
            log.info("game %d: seat %d played by %s", game_id, seat,
                     f"the box ({level})" if level else "a person")
            return Done(None, live_snapshots(live, version), None, (game_id,), kinds(BOTS))

        return Step(lambda version: set_bots(session.journal, game_id, levels, version), done)
