"""Tic-tac-toe on the panel: its board script and its words, registered as a
:class:`web_panel.games.PanelGame`."""

from __future__ import annotations

from pathlib import Path

from web_panel.games import PanelGame

PANEL = PanelGame(id="tictactoe", folder=Path(__file__).parent, texts={
    "reason.three_in_a_row": {"en": "{winner} has three in a row.",
                              "ja": "{winner} が3つ並べました。"},
    "reason.full_board": {"en": "The board is full: a draw.", "ja": "盤面が埋まり引き分けです。"},
})
