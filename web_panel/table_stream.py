"""The table screen's live stream: a phone's stream of the game it shows, as a spectator, that
also says when the screen is to show another game.

It is a :class:`~web_panel.live_streams.LiveStream` with no seat token (the spectator's view,
never a seat's) and one more event, ``moved``, sent as soon as the game the screen follows
(:meth:`web_panel.table_game.TableChoice.followed`) is no longer the one it shows; the stream
then ends and the page loads the screen again. It is fed as every stream is (one thread for all
of them), and between writes it waits for any change, not only its game's: the pad moving to
another game, or a new game starting, changes no game's version.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.session_api import SessionApi
from web_panel.live_streams import KEEP_ALIVE, LiveStream
from web_panel.view_events import ViewEvents

#: The event that sends the screen to the game it now follows.
MOVED = b"event: moved\ndata: {}\n\n"


class TableStream(LiveStream):
    """The stream of a table screen showing game ``showing`` (``None``: no game), which moves
    when ``follows()`` names another."""

    def __init__(self, session: SessionApi, events: ViewEvents, showing: int | None,
                 follows: Callable[[], int | None], since: int, *, keepalive: float,
                 lifetime: float, now: float, on_end: Callable[[], None] = lambda: None) -> None:
        super().__init__(session, events, -1 if showing is None else showing, "", since,
                         keepalive=keepalive, lifetime=lifetime, now=now, on_end=on_end)
        self.showing = showing
        self.follows = follows
        #: The box's change counter when the stream last looked (what :meth:`wait` waits past).
        self.seen = session.version()

    def poll(self, now: float) -> tuple[bytes, bool]:
        self.seen = self.session.version()  # before looking: a change from here on wakes it
        if self.follows() != self.showing:
            self.sent_at = now
            return MOVED, True
        if self.showing is not None:
            return super().poll(now)
        if now - self.started >= self.lifetime:
            return b"", True
        if now - self.sent_at >= self.keepalive:
            self.sent_at = now
            return KEEP_ALIVE, False
        return b"", False

    def wait(self, timeout: float) -> None:
        """Wait for any change of the box (at most ``timeout`` seconds)."""
        self.session.wait_for_change(self.seen, timeout)
