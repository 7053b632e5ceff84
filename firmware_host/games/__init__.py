"""The box's games: one registration per game, and the registry the core iterates over.

Everything the box knows about a game besides its pure rules (``rules/<game>/``) lives in one
folder here, ``firmware_host/games/<game>/``: its registration (:class:`BoxGame`, the
module's ``BOX``), its pad controller (``pad.py``) and its OLED screens (``screens.py``). The
core — sessions, undo, tournaments, the pad loop — asks the registration and never tests a game's
name. Adding a game is adding a folder (docs/adding-a-game.md); a test can hand the core a
:class:`Registry` with a game of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from firmware_host.undo import generic_refusal
from rules import CHANCE, GAME_IDS, Game, UnknownGame
from rules.bots import Bot
from rules.evaluation import GameRecord, analyse_record

if TYPE_CHECKING:
    from firmware_host.pad.steps import PadGame
    from firmware_host.refusals import Phrasebook
    from firmware_host.screens.words import Words

log = logging.getLogger(__name__)

#: Why the action ``seat`` took from ``before`` (giving ``after``) may not be taken back, or
#: ``None`` when it may: ``(rules, before, seat, action, after)``.
UndoPolicy = Callable[[Game[Any], Any, int, str, Any], "str | None"]
#: Costly public facts of a state, added to every view (UNLOCK: ``codes_remaining``); computed
#: once per change, away from the session thread.
PublicExtras = Callable[[Any], dict[str, Any]]
#: A hint for ``seat`` from the spectator's view alone (public information only): a JSON-safe
#: document; raises ``rules.RulesError`` naming why there is none (e.g. not the seat's turn).
HintEngine = Callable[[Mapping[str, Any], int], dict[str, Any]]


class Placing(Protocol):
    """A seat's place in a tournament's standings."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def total(self) -> int: ...
    @property
    def rank(self) -> int: ...


class TournamentScores(Protocol):
    """A tournament's scoring as the rules keep it (``rules.unlock.tournament.Tournament``):
    one game per player, each player leading one game (UNLOCK: being the Lock)."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def order(self) -> tuple[int, ...]: ...
    @property
    def results(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def next_lock(self) -> int | None: ...
    @property
    def winners(self) -> list[int]: ...
    def standings(self) -> Sequence[Placing]: ...
    def game_options(self, options: Mapping[str, object] | None = None) -> dict[str, object]: ...
    def record(self, outcome: Mapping[str, Any]) -> TournamentScores: ...


class TournamentFormat(Protocol):
    """How a game's tournaments start: the scoring for ``players`` with the leaders' order."""

    def start(self, players: Sequence[str],
              order: Sequence[int] | None = None) -> TournamentScores: ...


class Analyser(Protocol):
    """A game's post-game analysis from what the journal keeps of it, as JSON-able data;
    ``progress``, if given, is told the share done as it goes (a long game's takes seconds)."""

    def __call__(self, record: GameRecord,
                 progress: Callable[[float], None] | None = None) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class BoxGame:
    """One game as the box knows it: its rules and the box-side parts that go with them."""

    rules: Game[Any]
    #: The pad controller (a pure step function); ``None``: the game is played on phones only.
    pad: PadGame[Any] | None = None
    #: The game's own undo rule; ``None``: the generic rule of :mod:`firmware_host.undo`.
    undo: UndoPolicy | None = None
    #: Costly public facts added to every view.
    extras: PublicExtras | None = None
    #: The state an abandoned game shows (UNLOCK reveals its secret); ``None``: as it stopped.
    abandoned: Callable[[Any], Any] | None = None
    #: The game's tournament scoring, if it has tournaments.
    tournament: TournamentFormat | None = None
    #: The game's bots by level (``rules.bots.LEVELS``), for seats the box plays; ``None``: none.
    bots: Mapping[str, Bot] | None = None
    #: The game's hint engine, if it has one.
    hint: HintEngine | None = None
    #: What the OLED says for the game, in English and Japanese (``firmware_host.screens.words``):
    #: ``name`` (the title of every screen), ``reason.<reason>`` for each outcome reason, and
    #: the words of its screens and refusals. Without it the OLED names the game by its rules.
    words: Words | None = None
    #: Patterns of the rules' refusals and the ``words`` keys that say them in Japanese.
    refusals: Phrasebook = ()
    #: The seats the results list with their scores (default: every seat; UNLOCK: the Lock
    #: does not score).
    scored: Callable[[Mapping[str, Any]], Sequence[int]] | None = None
    #: The seats that compete for places, from a game's options and seat count (UNLOCK: all
    #: but the Lock); ``None``: every seat. A club's league rates only these (docs/club.md).
    competing: Callable[[Mapping[str, Any], int], Sequence[int]] | None = None
    #: The post-game analysis of an ended game from what the journal keeps of it, as JSON-able
    #: data (issue 34; :func:`weighed_by_bot` for a game whose ``hard`` bot weighs moves);
    #: ``None``: the game has none.
    analysis: Analyser | None = None

    @property
    def id(self) -> str:
        return self.rules.id

    def name(self, lang: str) -> str:
        """The game's name as the OLED says it in ``lang``."""
        from firmware_host.screens.words import say

        if self.words is not None and "name" in self.words:
            return say(self.words, "name", lang)
        return self.rules.name
    def competitors(self, options: Mapping[str, Any], seats: int) -> list[int]:
        """The seats of a game with ``options`` and ``seats`` seats that compete for places."""
        if self.competing is None:
            return list(range(seats))
        return sorted(seat for seat in set(self.competing(options, seats)) if 0 <= seat < seats)

    def undo_refusal(self, before: Any, seat: int, action: str, after: Any) -> str | None:
        """Why the action ``seat`` took from ``before`` (giving ``after``) may not be taken
        back, or ``None`` when it may (the order of :mod:`firmware_host.undo`)."""
        if seat == CHANCE:
            return "the last action was chance (a roll or a shuffle); it cannot be taken back"
        if self.undo is not None:
            return self.undo(self.rules, before, seat, action, after)
        return generic_refusal(self.rules, before, seat, after)


class Registry(Mapping[str, BoxGame]):
    """The games the box offers, by id, in the order given."""

    def __init__(self, games: Iterable[BoxGame]) -> None:
        self._games = {game.id: game for game in games}

    def __getitem__(self, game_id: str) -> BoxGame:
        return self._games[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def find(self, game_id: object) -> BoxGame:
        """The registration of ``game_id``, or ``rules.UnknownGame`` naming the games there are."""
        game = self._games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise UnknownGame(f"unknown game {game_id!r} (known games: {', '.join(self)})")
        return game

    def with_game(self, game: BoxGame) -> Registry:
        """These games and ``game`` (replacing one of the same id)."""
        return Registry([*(g for g in self._games.values() if g.id != game.id), game])


def builtin_games(game_ids: Iterable[str] = GAME_IDS) -> Registry:
    """The registrations of the built-in games (``firmware_host.games.<id>.BOX``); a game whose
    module fails to load is left out and logged, so one broken game never stops the box."""
    found = []
    for game_id in game_ids:
        try:
            box = import_module(f"{__name__}.{game_id}").BOX
        except (ImportError, AttributeError, UnknownGame) as error:
            log.error("game %s is not available: %s", game_id, error)
            continue
        if not isinstance(box, BoxGame):
            log.error("game %s is not available: its BOX is not a BoxGame", game_id)
            continue
        found.append(box)
    return Registry(found)


def is_builtin(game: BoxGame) -> bool:
    """Whether ``game`` is a built-in game's own registration (another process finds it by id)."""
    if game.id not in GAME_IDS:
        return False
    try:
        return bool(import_module(f"{__name__}.{game.id}").BOX is game)
    except ImportError:
        return False


def weighed_by_bot(game_id: str) -> Analyser:
    """The analysis of a game whose ``hard`` bot weighs every move (:mod:`rules.evaluation`)."""
    def analysis(record: GameRecord,
                 progress: Callable[[float], None] | None = None) -> Mapping[str, Any]:
        return analyse_record(game_id, record, progress).as_dict()
    return analysis
