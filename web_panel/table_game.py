"""Which game the table screen (``/table``) shows: the game the host put on it, else the pad's.

The pad's game moves by itself (a game started while the pad has none being played, a
tournament's next game: ``firmware_host.pad_choice``), and so the screen follows it. When the pad
has no game (its player put the results away, the host took it off), the screen shows the newest
game being played, else the last game played: its results stay up between games. A game the
host chose is followed, once it has ended, into the game that follows it (a tournament's next,
the host's "play again"). The host's choice is the panel's (``PanelState.table``), not journaled:
after a restart the screen follows the pad again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from web_panel.panel_state import PanelState

#: Why the screen shows its game: the ``host`` chose it, it is the ``pad``'s, it is the
#: ``newest`` game being played or (none is) the ``last`` game played (the newest of those
#: ended), or there is ``none``.
TableBy = Literal["host", "pad", "newest", "last", "none"]
#: How many next games a chosen game is followed through at most (a guard).
MAX_FOLLOWED = 64


@dataclass(frozen=True)
class Followed:
    """The game the table screen shows (``None``: none), why, and the host's choice."""

    game_id: int | None
    by: TableBy
    chosen: int | None = None

    def answer(self) -> dict[str, object]:
        """As ``/api/table`` says it."""
        return {"game_id": self.game_id, "by": self.by, "chosen": self.chosen}


class TableChoice:
    """The host's choice for the table screen (``None``: follow the pad), and the game the
    screen follows worked out from it: every screen's stream asks at every change of the box
    and every second, so the one answer that queries the journal is kept until the box
    changes."""

    def __init__(self) -> None:
        #: The game the host put on the screen (``None``: it follows the pad's).
        self.chosen: int | None = None
        #: The box's change counter and the newest ended game then.
        self._last: tuple[int, int | None] | None = None

    def followed(self, state: PanelState) -> Followed:
        """The game the screen shows now."""
        chosen = self.chosen
        if chosen is not None:
            return Followed(latest(state, chosen), "host", chosen)
        pad = state.session.pad()["game"]
        if pad is not None:
            return Followed(pad, "pad")
        playing = state.session.games(status="active")
        if playing:
            return Followed(playing[0]["id"], "newest")
        last = self._last_played(state)
        return Followed(last, "last") if last is not None else Followed(None, "none")

    def _last_played(self, state: PanelState) -> int | None:
        version = state.session.version()  # read first: a change from here on is seen
        known = self._last
        if known is None or known[0] != version:
            ended = state.session.history(limit=1)  # a query on the journal
            known = self._last = (version, ended[0]["id"] if ended else None)
        return known[1]


def latest(state: PanelState, game_id: int) -> int:
    """``game_id``, or the game that followed it once it ended, and so on."""
    for _ in range(MAX_FOLLOWED):
        if state.session.summary(game_id)["status"] == "active":
            break
        following = state.next_game(game_id)
        if following is None:
            break
        game_id = following
    return game_id
