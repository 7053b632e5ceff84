"""The session API: the one seam through which the web panel and the pad see the daemon.

:class:`SessionApi` is what `firmware_host.companion.Companion` offers (docs/session-api.md);
the panel and the pad are typed against this protocol, never against the class, so either can
be handed another implementation in a test. What crosses it is plain data: views (the rules'
JSON-safe dicts) and the typed records below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, Protocol, TypedDict

#: A view: the rules' JSON-safe dict for one seat (``rules.Game.view``) plus the session's keys.
View = dict[str, Any]
#: A game's status in the journal.
GameStatus = Literal["active", "finished", "abandoned"]
#: Called on the session thread after each committed change: ``(game_id, version)``.
Listener = Callable[[int | None, int], None]


class GameSummary(TypedDict):
    """A game as lists of games show it."""

    id: int
    game: str
    status: GameStatus
    seats: list[str]
    claimed: list[bool]
    created: str
    ended: str | None
    outcome: dict[str, Any] | None
    tournament: int | None
    #: Whether the host locked the seats (a phone then needs the seat's join code).
    locked: bool
    #: Per seat, the level of the bot the box plays it with (``None``: a person).
    bots: list[str | None]
    #: Whether the clock had been set (by NTP) when the game started and when it ended; a
    #: time taken before is shown as "before the clock was set", not as a date.
    created_clock_set: bool
    ended_clock_set: bool


class OptionInfo(TypedDict):
    """One declared option of a game (``rules.Option.describe``)."""

    name: str
    type: str
    default: Any
    help: str
    choices: NotRequired[list[Any]]
    minimum: NotRequired[int]
    maximum: NotRequired[int]
    allow_random: NotRequired[bool]
    allow_none: NotRequired[bool]


class GameInfo(TypedDict):
    """A game of the catalogue: its rules' description and what the box adds."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]
    #: Whether the game has tournaments (each player leads one game, e.g. UNLOCK's Lock).
    tournament: bool
    #: The levels of the game's bots, weakest first (empty: no bots).
    bots: list[str]
    #: Whether the game has hints.
    hints: bool
    #: Whether the game can be played on the pad (it has a pad controller).
    pad: bool
    #: Whether an ended game of it has a post-game analysis (``analysis(game_id)``).
    analysis: bool
    notes: NotRequired[str]
    board: NotRequired[dict[str, Any]]


class ReplayStep(TypedDict):
    """One step of an ended game's replay: the spectator view after ``action`` by ``seat``."""

    step: int
    seat: int | None
    action: str | None
    #: Who entered the action when not the seat itself (a roll: ``die``, ``keypad``,
    #: ``box random``, ``host``, ``host random``, ``seat N``).
    by: str | None
    view: View


class Move(TypedDict):
    """One accepted action of a game (active or ended), for a move log: who, what, when, and
    the public per-seat figures after it (the spectator view's ``scores``, ``points`` or
    ``totals``; ``None`` when the game shows none). ``action`` is the rules' canonical text and
    may be a secret while the game goes on (UNLOCK's codes): whoever shows it to a player
    decides what that player may see (the panel: ``PanelGame.private_moves``)."""

    step: int
    seat: int
    action: str
    by: str | None
    time: str
    scores: list[Any] | None


class Standing(TypedDict):
    """A player's line of the standings over finished games."""

    name: str
    played: int
    won: int
    points: int
    rank: int


class TournamentStanding(TypedDict):
    """A seat's line of a tournament's standings."""

    seat: int
    name: str
    total: int
    rank: int


class TournamentInfo(TypedDict):
    """A tournament (see docs/session-api.md)."""

    id: int
    game: str
    players: list[str]
    options: dict[str, Any]
    order: list[int]
    games: list[int]
    locks: list[int]
    scores: list[list[int] | None]
    totals: list[int]
    standings: list[TournamentStanding]
    winners: list[int]
    status: str
    created: str
    #: Per player, the level of the bot the box plays them with (``None``: a person).
    bots: list[str | None]


class SeatHolding(TypedDict):
    """Which phone holds a seat (its browser's description) and since when."""

    device: str
    since: str


class SeatsInfo(TypedDict):
    """For the host: whether the seats are locked, their join codes, and who holds each."""

    locked: bool
    join_codes: list[str] | None
    holders: list[SeatHolding | None]


class DieFirmware(TypedDict):
    """What the die's firmware said in its HELLO."""

    device: str
    version: str


class AnalysisAnswer(TypedDict):
    """An ended game's post-game analysis (``ready``), or why there is none: ``pending`` (being
    computed), ``unavailable`` (none for this game yet), ``not_over`` (never before the end)."""

    status: Literal["ready", "pending", "unavailable", "not_over"]
    analysis: dict[str, Any] | None
    #: While ``pending``: the share of the game analysed so far (0 while it waits its turn).
    progress: NotRequired[float]


class DeviceStatus(TypedDict):
    """The device's health: the OLED, the die, the die's port, the pad, the die's firmware,
    the pad's lights and the colour TFT (``none`` when none is fitted)."""

    oled: str
    die: bool
    die_port: str | None
    pad: str
    firmware: DieFirmware | None
    lights: str
    tft: str


class Status(DeviceStatus):
    """The box's health for the panel: the device's, the hardware mode, and where the host
    PIN comes from."""

    hardware: str
    host_pin_set: bool


#: Who set the pad's game: ``host`` (the panel), ``pad`` (the OLED's games menu), ``auto`` (the
#: box: a game started while the pad had none being played), ``next`` (the box: a tournament's
#: next game after the pad's), ``none`` (unset).
PadChooser = Literal["host", "pad", "auto", "next", "none"]


class PadSettings(TypedDict):
    """The pad's game (which game the pad and the OLED follow) and the box's language."""

    #: The pad's game (``None``: none chosen); it may have ended since.
    game: int | None
    by: PadChooser
    #: The OLED's language as the host chose it (``en``/``ja``); ``None``: the config's.
    language: str | None


class PairedDieInfo(TypedDict):
    """A smart die paired with the box (docs/dice.md): its Bluetooth address, maker
    (``godice`` or ``pixels``), name (its rolls are entered as ``die <name>``), faces, owner
    (a seat from 0; ``None``: the table's die) and colour."""

    address: str
    vendor: Literal["godice", "pixels"]
    name: str
    faces: int
    owner: int | None
    colour: str | None


class SessionReads(Protocol):
    """What the session API lets a caller read: published snapshots, never waiting for the
    session thread."""

    @property
    def host_pin(self) -> str: ...

    def catalog(self) -> list[GameInfo]: ...
    def games(self, status: GameStatus | None = None) -> list[GameSummary]: ...
    def summary(self, game_id: int) -> GameSummary: ...
    def view(self, game_id: int, seat: int | None) -> View: ...
    def game_version(self, game_id: int) -> int: ...
    def version(self) -> int: ...
    def wait_for_change(self, since: int, timeout: float) -> int: ...
    def wait_for_game(self, game_id: int, since: int, timeout: float) -> int: ...
    def history(self, limit: int = 50) -> list[GameSummary]: ...
    def replay(self, game_id: int) -> list[ReplayStep]: ...
    def moves(self, game_id: int, since: int = 0) -> list[Move]: ...
    def analysis(self, game_id: int) -> AnalysisAnswer: ...
    def standings(self, game: str | None = None) -> list[Standing]: ...
    def tournament(self, tid: int) -> TournamentInfo: ...
    def tournaments(self) -> list[TournamentInfo]: ...
    def status(self) -> Status: ...
    def seat_for_token(self, game_id: int, token: str) -> int | None: ...
    def legal_actions(self, game_id: int, seat: int) -> list[str]: ...
    def pad(self) -> PadSettings: ...
    def dice(self) -> list[PairedDieInfo]: ...
    def seats(self, game_id: int) -> SeatsInfo: ...
    def is_host_session(self, token: str | None) -> bool: ...
    def add_listener(self, listener: Listener) -> None: ...


class SessionWrites(Protocol):
    """What the session API lets a caller change: each write queues a command on the session
    thread and waits for its reply."""

    def create_game(self, game: str, players: list[str],
                    options: Mapping[str, object] | None = None,
                    seed: int | None = None,
                    bots: Mapping[int, str] | None = None) -> int: ...
    def create_tournament(self, game: str, players: list[str],
                          options: Mapping[str, object] | None = None,
                          order: list[int] | None = None,
                          bots: Mapping[int, str] | None = None) -> int: ...
    def hint(self, game_id: int, seat: int) -> dict[str, Any]: ...
    def allow_hints(self, game_id: int, allowed: bool) -> None: ...
    def seat_bot(self, game_id: int, seat: int, level: str | None) -> None: ...
    def act(self, game_id: int, seat: int, action: str, by: str | None = None) -> View: ...
    def act_on_pad(self, game_id: int, seat: int, action: str,
                   by: str | None = None) -> View: ...
    def set_pad_game(self, game_id: int | None, by: PadChooser = "host") -> None: ...
    def set_box_language(self, language: str | None) -> None: ...
    def pair_die(self, die: PairedDieInfo) -> None: ...
    def unpair_die(self, address: str) -> None: ...
    def undo(self, game_id: int) -> None: ...
    def abandon(self, game_id: int) -> None: ...
    def abandon_tournament(self, tid: int) -> None: ...
    def claim_seat(self, game_id: int, seat: int, code: str | None = None,
                   holder: str | None = None) -> str: ...
    def reissue_seat(self, game_id: int, seat: int, holder: str | None = None) -> str: ...
    def lock_seats(self, game_id: int, locked: bool) -> list[str] | None: ...
    def open_host_session(self, lifetime: float) -> str: ...
    def close_host_session(self, token: str | None) -> None: ...


class SessionApi(SessionReads, SessionWrites, Protocol):
    """Every game, tournament and seat of the box (docs/session-api.md).

    Reads use published snapshots and never wait for the session thread; writes queue a command
    on it and wait for the reply. Refusals raise ``firmware_host.errors.SessionError`` or
    ``rules.RulesError``, whose messages are fit for a user.
    """
