"""What the pad reads of the session, in the OLED's language: the language itself, a game's
status and name, the :class:`~firmware_host.pad.steps.Table` its controller reads, where OK
leads after its results (and the post-game analysis they show in a line), and the games
menu's rows."""

from __future__ import annotations

from firmware_host.errors import NoSuchGame, SessionError
from firmware_host.games import Registry
from firmware_host.pad.menu import MenuEntry, Row, SeatEntry
from firmware_host.pad.steps import Onward, Table
from firmware_host.screens.text import shown_name, speaks
from firmware_host.screens.words import WORDS, say
from firmware_host.session_api import AnalysisAnswer, GameStatus, SessionApi


class PadReads:
    """The session and the games' registrations, read for the pad; ``lang`` is the config's
    language (the host's choice, if any, wins)."""

    def __init__(self, session: SessionApi, games: Registry, lang: str) -> None:
        self.session = session
        self.games = games
        self.lang = lang

    def language(self) -> str:
        """The language the OLED speaks now: the host's choice, else the config's (English
        when the Japanese font is missing)."""
        try:
            chosen = self.session.pad()["language"]
        except SessionError:
            chosen = None
        return speaks(chosen or self.lang)

    def status(self, game_id: int) -> GameStatus | None:
        """The game's status (``None``: no such game)."""
        try:
            return self.session.summary(game_id)["status"]
        except NoSuchGame:
            return None

    def title(self, game_id: int | None) -> str:
        """A game's name in the OLED's language (the box's name for no game)."""
        if game_id is not None:
            try:
                kind = self.session.summary(game_id)["game"]
            except NoSuchGame:
                kind = None
            box = self.games.get(kind) if kind is not None else None
            if box is not None:
                return box.name(self.language())
        return say(WORDS, "box", self.language())

    def table(self, game_id: int, kind: str) -> Table:
        """The game as its controller reads it now."""
        box = self.games.get(kind)
        return Table(game_id, lambda seat: self.session.view(game_id, seat),
                     lang=self.language(), words=box.words if box is not None else None,
                     name=box.rules.name if box is not None else kind,
                     refusals=box.refusals if box is not None else (),
                     onward=lambda: self.onward(game_id),
                     scored=box.scored if box is not None else None,
                     analysis=(lambda: self.analysis(game_id))
                     if box is not None and box.analysis is not None else None)

    def analysis(self, game_id: int) -> AnalysisAnswer | None:
        """The session's answer for the game's post-game analysis (``None``: none to give)."""
        try:
            return self.session.analysis(game_id)
        except SessionError:
            return None

    def onward(self, game_id: int) -> Onward:
        """Where OK leads after the results of ``game_id`` (see :class:`Onward`)."""
        summary = self.session.summary(game_id)
        if summary["tournament"] is not None:
            games = self.session.tournament(summary["tournament"])["games"]
            later = games[games.index(game_id) + 1:] if game_id in games else []
            if later and self.status(later[0]) == "active":
                view = self.session.view(later[0], None)
                to_act = [s for s in view.get("to_act") or [] if isinstance(s, int) and s >= 0]
                seats = list(view.get("seats") or [])
                player = (shown_name(str(seats[to_act[0]]), to_act[0])
                          if to_act and to_act[0] < len(seats) else None)
                return Onward("next", player)
        pad = self.session.pad()["game"]
        if pad is not None and pad != game_id and self.status(pad) == "active":
            return Onward("game")
        live = [g for g in self.session.games(status="active") if g["id"] != game_id]
        if len(live) > 1:
            return Onward("menu")
        return Onward("game") if live else Onward("start")

    def entries(self) -> list[Row]:
        """The games being played, oldest first, then the seats of the pad's game when the box
        can play them, as the games menu lists them."""
        lang = self.language()
        entries: list[Row] = []
        seats: list[Row] = []
        pad = self.session.pad()["game"]
        for summary in sorted(self.session.games(status="active"), key=lambda g: g["id"]):
            box = self.games.get(summary["game"])
            title = box.name(lang) if box is not None else summary["game"]
            players = ",".join(shown_name(n, i) for i, n in enumerate(summary["seats"]))
            entries.append(MenuEntry(summary["id"], title, players))
            if summary["id"] == pad and box is not None and box.bots:
                bots = summary["bots"] or [None] * len(summary["seats"])
                seats += [SeatEntry(pad, seat, shown_name(name, seat), bots[seat],
                                    tuple(box.bots))
                          for seat, name in enumerate(summary["seats"])]
        return entries + seats
