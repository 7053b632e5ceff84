"""The per-app state of the panel, kept in ``app.extensions["tabletop"]``.

Everything a request needs beyond the request itself lives here: the session API (the only way
to games), the panel's game registrations, the simulator (or ``None`` on real hardware), the host
sessions, the PIN rate limiter, pending seat hand-overs, the shared live events and the "closing"
flag that ends live streams on shutdown.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

from firmware_host.session_api import SessionApi
from firmware_host.simulator import Simulator
from web_panel.games import PanelGame, PanelGames
from web_panel.live_streams import LiveStreams
from web_panel.table_game import TableChoice
from web_panel.view_events import ViewEvents

if TYPE_CHECKING:
    from firmware_host.smart_dice import SmartDice

EXTENSION = "tabletop"


class PinLimiter:
    """At most ``tries`` PIN attempts per client, and ``tries_all`` from everyone together,
    within ``window`` seconds (sliding windows): many phones cannot share out a brute force."""

    #: The key of the attempts of every client together.
    EVERYONE = "*"

    def __init__(self, tries: int, tries_all: int, window: float,
                 clock: Callable[[], float]) -> None:
        self.tries = tries
        self.tries_all = tries_all
        self.window = window
        self._clock = clock
        self._attempts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def attempt(self, client: str) -> float | None:
        """Record one attempt: ``None`` if allowed, else the seconds until one is allowed again."""
        now = self._clock()
        with self._lock:
            waits = [self._wait(key, limit, now) for key, limit in
                     ((client, self.tries), (self.EVERYONE, self.tries_all))]
            wait = max((w for w in waits if w is not None), default=None)
            if wait is not None:
                return wait
            for key in (client, self.EVERYONE):
                self._attempts[key].append(now)
            if len(self._attempts) > 4096:  # forget quiet clients
                for key in [k for k, v in self._attempts.items() if not v]:
                    del self._attempts[key]
            return None

    def _wait(self, key: str, limit: int, now: float) -> float | None:
        recent = self._attempts.setdefault(key, deque())
        while recent and now - recent[0] >= self.window:
            recent.popleft()
        return max(self.window - (now - recent[0]), 0.0) if len(recent) >= limit else None


class Handovers:
    """Re-issued seat tokens waiting for the player's phone to take them (one use, expiring)."""

    def __init__(self, lifetime: float, clock: Callable[[], float]) -> None:
        self.lifetime = lifetime
        self._clock = clock
        self._pending: dict[str, tuple[int, int, str, float]] = {}
        self._lock = threading.Lock()

    def offer(self, game_id: int, seat: int, token: str) -> str:
        """Keep ``token`` for ``seat`` of ``game_id``; return the one-time code that fetches it."""
        code = secrets.token_urlsafe(12)
        with self._lock:
            self._expire()
            # A newer hand-over of the same seat replaces the older one (its token is dead anyway).
            for key, (gid, s, _, _) in list(self._pending.items()):
                if (gid, s) == (game_id, seat):
                    del self._pending[key]
            self._pending[code] = (game_id, seat, token, self._clock() + self.lifetime)
        return code

    def peek(self, code: str) -> tuple[int, int] | None:
        """The game and seat a code is for, without using it."""
        with self._lock:
            self._expire()
            entry = self._pending.get(code)
        return None if entry is None else (entry[0], entry[1])

    def take(self, code: str) -> tuple[int, int, str] | None:
        """Use a code once: its game, seat and token, or ``None`` if unknown or expired."""
        with self._lock:
            self._expire()
            entry = self._pending.pop(code, None)
        return None if entry is None else (entry[0], entry[1], entry[2])

    def _expire(self) -> None:
        now = self._clock()
        for key in [k for k, v in self._pending.items() if v[3] <= now]:
            del self._pending[key]


class StreamSlots:
    """A cap on live streams held at once, so what the box spends on them stays bounded, and a
    cap per client (its address, its seat tokens), so no one client takes every slot."""

    def __init__(self, limit: int, per_client: int) -> None:
        self.limit = limit
        self.per_client = per_client
        self.held = 0
        self._by_client: dict[str, int] = {}
        self._changed = threading.Condition()

    def take(self, clients: tuple[str, ...]) -> str | None:
        """Hold one slot for a stream of ``clients`` (the keys it counts against): ``None``, or
        why not — ``full`` when every slot is taken, ``client`` when one of its keys has its
        share."""
        with self._changed:
            if self.held >= self.limit:
                return "full"
            if any(self._by_client.get(c, 0) >= self.per_client for c in clients):
                return "client"
            self.held += 1
            for client in clients:
                self._by_client[client] = self._by_client.get(client, 0) + 1
            return None

    def give_back(self, clients: tuple[str, ...]) -> None:
        """Free one slot (a stream ended or its phone hung up)."""
        with self._changed:
            self.held = max(0, self.held - 1)
            for client in clients:
                left = self._by_client.get(client, 0) - 1
                if left > 0:
                    self._by_client[client] = left
                else:
                    self._by_client.pop(client, None)
            self._changed.notify_all()

    def wait_held_at_most(self, count: int, timeout: float) -> bool:
        """Wait until at most ``count`` slots are held; ``False`` on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: self.held <= count, timeout)


class Successors:
    """Game → the game the host started from it with "play again", for the last ``size`` games
    played again (a phone still on an older game's results is told there is no next game)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._next: OrderedDict[int, int] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game_id: int, following: int) -> None:
        with self._lock:
            self._next[game_id] = following
            while len(self._next) > self.size:
                self._next.popitem(last=False)

    def get(self, game_id: int) -> int | None:
        with self._lock:
            return self._next.get(game_id)

    def __len__(self) -> int:
        with self._lock:
            return len(self._next)


@dataclass
class PanelState:
    """What the panel's requests share (one per app)."""

    session: SessionApi
    games: PanelGames
    simulator: Simulator | None
    pin_limiter: PinLimiter
    handovers: Handovers
    stream_slots: StreamSlots
    events: ViewEvents
    #: The streams the server handed over (``web_panel.serving``), all fed by one thread.
    live: LiveStreams
    keepalive: float = 15.0
    #: How long one live stream lasts before the phone reconnects (and resumes).
    lifetime: float = 300.0
    closing: threading.Event = field(default_factory=threading.Event)
    #: Game → the game the host started from it with "play again" (the last few hundred).
    successors: Successors = field(default_factory=Successors)
    #: The game the host put on the table screen (``/table``; none: it follows the pad's),
    #: kept until the panel restarts.
    table: TableChoice = field(default_factory=TableChoice)
    #: The box's smart dice (docs/dice.md; ``None``: no Bluetooth, or none wanted).
    dice: SmartDice | None = None

    def panel_game(self, game: str) -> PanelGame | None:
        """The panel's registration of ``game`` (``None``: the generic board draws it)."""
        return self.games.get(game)

    def next_game(self, game_id: int) -> int | None:
        """The game that follows an ended one, with the same players in the same seats: the
        tournament's next game, or the host's "play again"; ``None`` while there is none."""
        summary = self.session.summary(game_id)
        if summary["tournament"] is not None:
            games = self.session.tournament(summary["tournament"])["games"]
            later = games[games.index(game_id) + 1:] if game_id in games else []
            return later[0] if later else None
        return self.successors.get(game_id)


def private_moves(games: PanelGames, game: str) -> tuple[str, ...]:
    """The verbs of ``game`` whose text only their author reads while it goes on."""
    registration = games.get(game)
    return registration.private_moves if registration is not None else ()


def make_state(session: SessionApi, games: PanelGames, simulator: Simulator | None,
               config: Mapping[str, Any], dice: SmartDice | None = None) -> PanelState:
    """Build the state from the app's config (clock and limits can be set by tests)."""
    clock: Callable[[], float] = config.get("CLOCK", time.monotonic)
    closing = threading.Event()
    return PanelState(
        session=session,
        games=games,
        simulator=simulator,
        pin_limiter=PinLimiter(
            int(config.get("PIN_TRIES", 5)), int(config.get("PIN_TRIES_ALL", 20)),
            float(config.get("PIN_WINDOW", 60.0)), clock
        ),
        handovers=Handovers(float(config.get("HANDOVER_LIFETIME", 600.0)), clock),
        stream_slots=StreamSlots(int(config.get("MAX_STREAMS", 64)),
                                 int(config.get("MAX_STREAMS_PER_CLIENT", 6))),
        events=ViewEvents(session, private=lambda game: private_moves(games, game)),
        live=LiveStreams(session, closing),
        keepalive=float(config.get("SSE_KEEPALIVE", 15.0)),
        lifetime=float(config.get("SSE_LIFETIME", 300.0)),
        closing=closing,
        dice=dice,
    )


def panel(app: Flask | None = None) -> PanelState:
    """The panel state of ``app`` (default: the current app)."""
    state: PanelState = (app or current_app).extensions[EXTENSION]
    return state
