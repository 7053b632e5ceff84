"""The club's broker: Debian's Mosquitto, run by the hub from its own files (never the system
service), or the broker a club already has.

The hub's files live in ``<data dir>/club/``: ``mosquitto.conf``, the password file (each box's
user name and hashed password, written by ``mosquitto_passwd``), the ACL and Mosquitto's
persistence. The ACL lets each box write only under ``club/v1/boxes/<its name>/`` and read only
its own acknowledgements and the hub's information; the hub reads and writes everything under
``club/v1/``. No anonymous client is accepted.
"""

from __future__ import annotations

import contextlib
import ctypes
import getpass
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from firmware_host.club.topics import ROOT
from firmware_host.config import LABEL
from firmware_host.errors import StartupError

log = logging.getLogger(__name__)

#: The local broker's user for the hub.
HUB_USER = "hub"

ACL = f"""# Written by tabletop (firmware_host/club/broker.py); a box is its user name.
user {HUB_USER}
topic readwrite {ROOT}/#

pattern readwrite {ROOT}/boxes/%u/#
pattern read {ROOT}/acks/%u
pattern read {ROOT}/hub/#
"""


class BrokerError(StartupError):
    """The broker cannot be set up or started; the message says what to do."""


def _program(name: str) -> str:
    found = shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/usr/bin") / name) if p.is_file()),
        None)
    if found is None:
        raise BrokerError(f"{name} is not installed: install Debian's mosquitto "
                          "('sudo apt-get install mosquitto'; scripts/bootstrap does it)")
    return found


class BrokerFiles:
    """The hub's broker files in one directory (created 0700)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.conf = self.directory / "mosquitto.conf"
        self.passwords = self.directory / "passwd"
        self.acl = self.directory / "acl"
        self.store = self.directory / "store"
        self.hub_secret = self.directory / "hub.secret"
        self.log = self.directory / "mosquitto.log"

    def prepare(self) -> None:
        """Create the directory, the ACL and the hub's credential (idempotent)."""
        for folder in (self.directory, self.store):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_private(self.acl, ACL)
        if not self.hub_secret.is_file() or HUB_USER not in self.users():
            password = secrets.token_urlsafe(24)
            self.set_password(HUB_USER, password)
            _write_private(self.hub_secret, password + "\n")

    def hub_password(self) -> str:
        """The hub's own password on the local broker."""
        return self.hub_secret.read_text(encoding="utf-8").strip()

    def write_conf(self, *, port: int, listen: str, tls_cert: Path | None = None,
                   tls_key: Path | None = None) -> Path:
        """Mosquitto's config for these files; returns its path."""
        lines = [
            "# Written by tabletop (firmware_host/club/broker.py) on each start.",
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {self.passwords}",
            f"acl_file {self.acl}",
            "persistence true",
            f"persistence_location {self.store}/",
            "autosave_interval 5",
            # the hub offline for a while: keep every box's messages for it
            "max_queued_messages 100000",
            # the hub acknowledges records once committed (a group commit): let many be in
            # flight to it meanwhile (Mosquitto's default, 20, stalls the stream)
            "max_inflight_messages 1000",
            "max_packet_size 1048576",
            "set_tcp_nodelay true",
            f"user {getpass.getuser()}",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            f"listener {port} {listen}",
        ]
        if tls_cert is not None and tls_key is not None:
            lines += [f"certfile {tls_cert}", f"keyfile {tls_key}"]
        _write_private(self.conf, "\n".join(lines) + "\n")
        return self.conf

    def users(self) -> list[str]:
        """The user names in the password file."""
        if not self.passwords.is_file():
            return []
        return [line.split(":", 1)[0] for line in
                self.passwords.read_text(encoding="utf-8").splitlines() if ":" in line]

    def set_password(self, user: str, password: str) -> None:
        """Add ``user`` (or change its password) with ``mosquitto_passwd``."""
        if not LABEL.fullmatch(user):
            raise BrokerError(f"{user!r} is not a box name (lowercase letters, digits and "
                              "inner hyphens, like table-2)")
        create = [] if self.passwords.is_file() else ["-c"]
        done = subprocess.run([_program("mosquitto_passwd"), *create, "-b", str(self.passwords),
                               user, password], capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            raise BrokerError(f"mosquitto_passwd failed: {done.stderr.strip() or done.stdout}")
        os.chmod(self.passwords, 0o600)

    def add_box(self, box: str) -> str:
        """A new box's credential: its password (a box already there gets a new one)."""
        if box == HUB_USER:
            raise BrokerError(f"{HUB_USER!r} is the hub's own name; choose another box name")
        password = secrets.token_urlsafe(18)
        self.set_password(box, password)
        return password


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
    os.chmod(path, 0o600)


def _parent_death_signal() -> Callable[[], None] | None:
    """What the child runs before ``exec`` so that the broker ends when the process that
    started it dies, even by SIGKILL (Linux's ``PR_SET_PDEATHSIG``). libc is loaded here, in
    the parent: the child of a threaded process must do as little as it can."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def child() -> None:  # pragma: no cover - runs in the child
        prctl(1, signal.SIGTERM)

    return child


def _listens(pid: int, port: int) -> bool | None:
    """Whether process ``pid`` has a TCP socket listening on ``port``, from Linux's
    ``/proc``; ``None`` where ``/proc`` cannot say (another system, another user's process)."""
    inodes: set[str] = set()
    tables = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        tables += 1
        for row in rows:
            fields = row.split()  # sl local_address rem_address st … uid timeout inode
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    if not tables:
        return None
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
        for fd in fds:
            with contextlib.suppress(FileNotFoundError):  # closed meanwhile
                if os.readlink(fd) in inodes:
                    return True
    except PermissionError:
        return None
    except FileNotFoundError:  # the process has ended
        return False
    return False


class Mosquitto:
    """A Mosquitto process started here from a config file."""

    def __init__(self, conf: Path, port: int, log_file: Path | None = None,
                 host: str = "127.0.0.1") -> None:
        self.conf = conf
        self.port = port
        self.host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        self.log_file = log_file
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        """Start it and wait until it accepts connections."""
        out = (os.open(self.log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
               if self.log_file is not None else subprocess.DEVNULL)
        try:
            self.proc = subprocess.Popen([_program("mosquitto"), "-c", str(self.conf)],
                                         stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                                         preexec_fn=_parent_death_signal())
        finally:
            if out != subprocess.DEVNULL:
                os.close(out)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BrokerError(f"mosquitto stopped at once (exit {self.proc.returncode}); "
                                  f"is port {self.port} in use? see {self.log_file}")
            if self._listening():
                log.info("mosquitto listening on %s:%d", self.host, self.port)
                return
            time.sleep(0.05)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def _listening(self) -> bool:
        """Whether this process listens on the port. Where Linux says which sockets listen on
        it, one of them must be this process's: a connection alone could reach another
        program holding the port (this broker then stops, the address in use) or, on an
        unused port in the ephemeral range, the probe's own socket."""
        assert self.proc is not None
        owned = _listens(self.proc.pid, self.port)
        if owned is not None:
            return owned
        with contextlib.suppress(OSError), socket.create_connection(
                (self.host, self.port), timeout=0.5):
            return self.proc.poll() is None
        return False

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def reload(self) -> None:
        """Re-read the password file and the ACL (a box was added)."""
        if self.running():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGHUP)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop it cleanly (it saves its store), or kill it after ``timeout``; idempotent."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout)

    def kill(self) -> None:
        """Stop it at once, as a power cut would (what it had not saved is lost)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
