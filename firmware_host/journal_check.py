"""Is the journal sound? Its header, its write-ahead log's committed frames, SQLite's own check.

SQLite notices a damaged page only when it reads it, and a damaged write-ahead log (WAL) not at
all: it replays frames up to the first whose checksum fails and silently drops the rest, even
committed ones. So the box checks its journal before it opens it for writing (``tabletop run``
and ``tabletop journal check``):

- the file's header is SQLite's;
- every frame of the WAL with the log's current salts is reachable: one that fails its checksum
  is damage when a committed frame follows it (a power cut only ever tears the last,
  uncommitted transaction: the journal syncs each commit, ``synchronous=FULL``);
- ``PRAGMA quick_check`` (``integrity_check`` with ``full``) reports nothing.

:func:`is_damage` tells damage from other failures when SQLite raises during play, and a
:class:`DamageAlarm` keeps the first such sign: from then on the session takes no more commands,
and whoever listens (``tabletop run``) sets the journal aside for a backup to replace.
"""

from __future__ import annotations

import logging
import sqlite3
import struct
import threading
from collections.abc import Callable
from pathlib import Path

from firmware_host.errors import JournalDamaged
from firmware_host.journal_schema import small_cache

log = logging.getLogger(__name__)

#: SQLite's result codes for a damaged file (the low byte of an extended code).
SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26
HEADER = b"SQLite format 3\x00"
WAL_MAGIC = {0x377F0682: "<", 0x377F0683: ">"}
WAL_HEADER = 32
FRAME_HEADER = 24


def is_damage(error: BaseException) -> bool:
    """Whether ``error`` says the journal file is damaged (not full, locked or missing)."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)
    text = str(error)
    return "malformed" in text or "not a database" in text


def examine(path: Path, *, full: bool = False) -> str | None:
    """What is wrong with the journal at ``path``, in one line; ``None`` when it is sound (or
    missing or empty: those are not damage). Reads only; writes nothing to the journal."""
    try:
        with path.open("rb") as file:
            header = file.read(len(HEADER))
    except OSError:  # missing or unreadable: not damage (opening it says what is wrong)
        return None
    if not header:
        return None
    if header != HEADER:
        return "its header is not an SQLite database's"
    wal = path.with_name(path.name + "-wal")
    has_wal = wal.exists()
    if has_wal:
        problem = wal_problem(wal)
        if problem is not None:
            return problem
    return _sqlite_check(path, full, has_wal)


def _sqlite_check(path: Path, full: bool, has_wal: bool) -> str | None:
    pragma = "integrity_check" if full else "quick_check"
    # With no WAL to read, the file is opened immutable: SQLite then creates no WAL or index
    # file beside it either.
    mode = "mode=ro" if has_wal else "mode=ro&immutable=1"
    try:
        db = small_cache(sqlite3.connect(f"file:{path}?{mode}", uri=True))
        try:
            rows = [str(row[0]) for row in db.execute(f"PRAGMA {pragma}")]
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        if is_damage(error):
            return f"SQLite cannot read it: {error}"
        raise
    if rows == ["ok"]:
        return None
    first = " ".join(rows[0].replace("*** in database main ***", "").split())
    more = f" (and {len(rows) - 1} more problems)" if len(rows) > 1 else ""
    return f"SQLite's {pragma} reports: {first}{more}"


def wal_problem(wal: Path) -> str | None:
    """Damage in the write-ahead log ``wal`` that would silently drop committed changes."""
    data = wal.read_bytes()
    if len(data) < WAL_HEADER:
        return None  # never written past its header: nothing committed in it
    order = WAL_MAGIC.get(struct.unpack(">I", data[:4])[0])
    page = _page_size(data)
    step = FRAME_HEADER + page
    frames = (len(data) - WAL_HEADER) // step
    if order is None:
        return "its write-ahead log's header is damaged" if frames else None
    salts = data[16:24]
    s0, s1 = _checksum(data[:24], order, 0, 0)
    if (s0, s1) != struct.unpack(">II", data[24:32]):
        return (f"its write-ahead log's header is damaged: {frames} frames would be lost"
                if frames else None)
    for n in range(frames):
        at = WAL_HEADER + n * step
        head = data[at:at + FRAME_HEADER]
        if head[8:16] != salts:
            return None  # the end of this log's frames (what follows is an older log's)
        s0, s1 = _checksum(head[:8], order, s0, s1)
        s0, s1 = _checksum(data[at + FRAME_HEADER:at + step], order, s0, s1)
        if (s0, s1) == struct.unpack(">II", head[16:24]):
            continue
        later = _committed_after(data, n + 1, frames, step, salts)
        if later:
            return (f"its write-ahead log is damaged at frame {n + 1}: {later} committed "
                    "changes after it would be lost")
        return None  # a torn last transaction, never committed: what a power cut leaves
    return None


def _page_size(data: bytes) -> int:
    size = struct.unpack(">I", data[8:12])[0]
    return size if 512 <= size <= 65536 and size & (size - 1) == 0 else 4096


def _committed_after(data: bytes, first: int, frames: int, step: int, salts: bytes) -> int:
    """How many commit frames of this log lie from frame ``first`` on."""
    count = 0
    for n in range(first, frames):
        at = WAL_HEADER + n * step
        if data[at + 8:at + 16] == salts and struct.unpack(">I", data[at + 4:at + 8])[0]:
            count += 1
    return count


def _checksum(chunk: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum of ``chunk`` (a multiple of 8 bytes), continuing from s0, s1."""
    words = struct.unpack(f"{order}{len(chunk) // 4}I", chunk)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


class DamageAlarm:
    """The first sign of damage met during play: kept, logged once, told to each listener."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: What was found (``None`` while the journal is sound).
        self.problem: str | None = None
        self._listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()

    def listen(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(problem)`` once, when damage is first found (at once if it was)."""
        with self._lock:
            self._listeners.append(listener)
            problem = self.problem
        if problem is not None:
            listener(problem)

    def report(self, problem: str) -> None:
        """Damage was found: keep it (the first only), log it and tell the listeners."""
        with self._lock:
            if self.problem is not None:
                return
            self.problem = problem
            listeners = list(self._listeners)
        log.error("journal %s is damaged: %s; it takes no more writes", self.path, problem)
        for listener in listeners:
            try:
                listener(problem)
            except Exception:
                log.exception("a listener of the journal's damage failed")

    def refusal(self) -> JournalDamaged:
        """The refusal of every command once the journal is damaged."""
        return JournalDamaged(
            f"the journal is damaged ({self.problem}): the box takes no more moves until the "
            "host restores a backup (the host page, or 'tabletop journal restore')")

    def check(self) -> None:
        """Raise the refusal if the journal is damaged (before a command runs)."""
        if self.problem is not None:
            raise self.refusal()

    def translate(self, error: BaseException) -> BaseException:
        """``error`` itself, or the refusal when it is SQLite finding damage (then reported)."""
        if isinstance(error, sqlite3.DatabaseError) and is_damage(error):
            self.report(str(error))
            return self.refusal()
        return error
