"""The daemon's error types.

Refusals of the session API are ``ValueError``s (like the rules' own errors) so the web panel can
answer them with a 4xx; start-up problems (config, journal) are :class:`StartupError`s that the
``tabletop`` command prints as one line.
"""


class SessionError(ValueError):
    """Root of every refusal of the session API; the message is fit for a user."""


class NoSuchGame(SessionError):
    """A game id the journal does not know."""


class SeatTaken(SessionError):
    """A seat that already has a player (the host may re-issue it instead)."""


class NotAllowed(SessionError):
    """A request the session refuses in the game's current state (e.g. an unsafe undo)."""


class NoSuchTournament(SessionError):
    """A tournament id the journal does not know."""


class StartupError(Exception):
    """Something that stops the daemon from starting; printed as one line, no traceback."""


class ConfigError(StartupError):
    """A bad configuration value; the message names the key."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"config error: {key}: {message}")
        self.key = key


class JournalError(StartupError):
    """The journal database cannot be opened or is damaged."""
