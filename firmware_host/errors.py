"""The daemon's error types.

Three roots, each with its own meaning:

- :class:`SessionError` — a refusal of the session API (a request the session will not carry
  out); the message is fit for a user, and the web panel answers it with a 4xx. With
  ``rules.RulesError`` it is the only kind of error a user's input can cause.
- :class:`StartupError` (and :class:`ConfigError`, :class:`JournalError`) — something that
  stops the daemon from starting; the ``tabletop`` command prints it as one line, no traceback.
- Anything else is a bug: logged with its traceback (and a 500 on the panel).
"""


#: The ``tabletop`` command's exit statuses. The systemd unit does not restart on a bad config
#: or on :data:`EXIT_JOURNAL` — the journal is from a newer program, or lost while a backup holds
#: games: restarting cannot help, a person must look.
EXIT_OK = 0
EXIT_ERROR = 1
EXIT_CONFIG = 2
EXIT_JOURNAL = 3


class SessionError(ValueError):
    """Root of every refusal of the session API; the message is fit for a user."""


class NoSuchGame(SessionError):
    """A game id the journal does not know."""


class SeatTaken(SessionError):
    """A seat that already has a player (the host may re-issue it instead)."""


class JoinCodeNeeded(SessionError):
    """A claim of a locked seat without that seat's join code."""


class NotAllowed(SessionError):
    """A request the session refuses in the game's current state (e.g. an unsafe undo)."""


class NotPadGame(NotAllowed):
    """A move entered on the pad for a game that is not the pad's game (the pad was moved to
    another game meanwhile): nothing was entered."""


class NoSuchTournament(SessionError):
    """A tournament id the journal does not know."""


class SessionBusy(SessionError):
    """The session thread did not take the command in time; it was cancelled, not run."""


class StorageError(SessionError):
    """The journal could not save a change (a full disk, a read-only or vanished file): the
    change was not made and nobody was shown it."""


class JournalDamaged(StorageError):
    """The journal file is damaged (SQLite found a malformed page, or it is no longer a
    database): the box takes no more moves; the journal is set aside for a backup to replace
    (``firmware_host/recovery.py``)."""


class DeviceRefusal(SessionError):
    """An input the (simulated) device cannot take: a dot not on the pad, a die not there."""


class BluetoothMissing(SessionError):
    """The box cannot use Bluetooth (no adapter, blocked, BlueZ not running): smart dice
    cannot be scanned for or reached; the message says what to check."""


class StartupError(Exception):
    """Something that stops the daemon from starting; printed as one line, no traceback."""


class ConfigError(StartupError):
    """A bad configuration value; the message names the key."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"config error: {key}: {message}")
        self.key = key


class JournalError(StartupError):
    """The journal database cannot be opened or is damaged."""
