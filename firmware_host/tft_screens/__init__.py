"""The colour TFT's screens: what the whole table reads from a metre or two (issue 33).

Drawn for the TFT's own size (320×240, 240×240, or either on its side), never the OLED's scaled
up, with PIL on an RGB image — the drawing luma's canvases make — and shown by
:class:`hardware.tft.TftScreen`, which sends only what changed. Only public information: every
screen is drawn from the spectator's view (``view(game, None)``), never a seat's, so the Lock's
secret and the players' hands are never on it before the game ends.

- :func:`~firmware_host.tft_screens.frames.game_frame`: whose turn it is, big, in the player's
  colour; the game's board (UNLOCK's clue board and codes left, Hacktrick's magic square, the
  ICO net with its active face, 2 1 6's grid and tally); the score track in the seats' colours;
  at the end the results.
- :func:`~firmware_host.tft_screens.frames.start_frame`: no game: the panel's address and a
  join code.
"""
