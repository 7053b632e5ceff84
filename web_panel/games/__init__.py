"""The panel's games: one registration per game, and the registry the panel iterates over.

Everything the panel knows about a game lives in one folder, ``web_panel/games/<game>/``: its
registration (:class:`PanelGame`, the module's ``PANEL``) with its words in both languages, and
its client scripts — the board is drawn on the phone from the seat's view by ``board.js``, both
when the page opens and at every live update (one implementation, no server-side board). The
panel's core (pages, streams, the host's form) asks the registration and never tests a game's
name; a game without one is drawn by the generic board (``static/generic.js``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

from rules import GAME_IDS

log = logging.getLogger(__name__)

#: A text in every language the panel speaks: ``{"en": …, "ja": …}``.
Words = Mapping[str, str]


@dataclass(frozen=True)
class PanelGame:
    """One game as the panel knows it."""

    id: str
    #: The folder its client scripts are served from.
    folder: Path
    #: Its scripts, loaded in this order on its pages (``board.js`` registers the board).
    scripts: tuple[str, ...] = ("board.js",)
    #: Its style sheets.
    styles: tuple[str, ...] = ()
    #: Its words by key, each in every language: ``option.NAME`` (an option's label),
    #: ``help.NAME`` (its help), ``choice.NAME.VALUE`` (a choice's label), ``reason.VALUE`` (an
    #: outcome's reason, with ``{…}`` blanks filled from the outcome), and the board's own words.
    texts: Mapping[str, Words] = field(default_factory=dict)
    #: The verbs of actions whose text only their author may read while the game goes on
    #: (UNLOCK's ``secret`` and ``guess``): the move log shows the others only the verb.
    private_moves: tuple[str, ...] = ()

    def text(self, key: str, lang: str) -> str | None:
        """The text ``key`` in ``lang``, or ``None`` when the game has no such text."""
        words = self.texts.get(key)
        return words.get(lang) if words is not None else None

    def asset(self, name: str) -> Path | None:
        """The file of the script or style sheet ``name``, if it is one of the game's."""
        return self.folder / name if name in (*self.scripts, *self.styles) else None


class PanelGames(Mapping[str, PanelGame]):
    """The games the panel draws, by id."""

    def __init__(self, games: Iterable[PanelGame]) -> None:
        self._games = {game.id: game for game in games}

    def __getitem__(self, game_id: str) -> PanelGame:
        return self._games[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def with_game(self, game: PanelGame) -> PanelGames:
        """These games and ``game`` (replacing one of the same id)."""
        return PanelGames([*(g for g in self._games.values() if g.id != game.id), game])


def builtin_panel_games(game_ids: Iterable[str] = GAME_IDS) -> PanelGames:
    """The registrations of the built-in games (``web_panel.games.<id>.PANEL``); a game whose
    module fails to load is left out and logged (its pages use the generic board)."""
    found = []
    for game_id in game_ids:
        try:
            panel_game = import_module(f"{__name__}.{game_id}").PANEL
        except (ImportError, AttributeError) as error:
            log.error("the panel of game %s is not available: %s", game_id, error)
            continue
        if isinstance(panel_game, PanelGame):
            found.append(panel_game)
    return PanelGames(found)
