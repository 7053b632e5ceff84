"""The C allocator's settings for the daemon: few malloc arenas for many threads.

glibc's malloc gives threads their own arenas to avoid lock contention — up to eight per core,
each a heap that grows on its own and keeps its free holes. The daemon runs a thread per live
stream besides waitress's pool, so every arena ends up holding long-lived objects (cached views
and events) between short-lived ones, and each one's free space is lost to the others: under 30
streaming phones (then ~80 pool threads serving streams and requests in turn) the arenas alone
grew by ~30 MiB in five minutes (``docs/benchmarks.md``). The GIL already serialises the
Python code those threads run, so the contention arenas avoid barely exists here; two arenas
(the main thread's and one for the rest) keep the freed memory where every thread can use it again.

``tabletop run`` calls :func:`limit_arenas` first thing, before the session thread and the
server's threads exist.

Before even that it starts itself again with :data:`TUNABLES` (:func:`restart_tuned`): glibc
reads them only when a process starts. Without them each of the box's ~40 threads keeps a cache
of freed chunks of its own (glibc's tcache: up to seven per size, up to 1 KiB), counted as in
use and never trimmed; which sizes each thread has cached drifts with what it serves, so the
box's resident size crept up with the games played (+2.2 MiB of "in use" from 400 to 2 000
games, ``bench/memory_history.py``), though nothing it holds grew.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

#: ``mallopt``'s parameter number for the arena limit (glibc's ``<malloc.h>``).
M_ARENA_MAX = -8
#: The daemon's arena limit: the main thread's arena and one shared by every other thread.
ARENAS = 2


#: glibc's malloc tunables the box runs with (``GLIBC_TUNABLES``): no per-thread chunk caches.
TUNABLES: tuple[tuple[str, str], ...] = (("glibc.malloc.tcache_count", "0"),)


def _glibc() -> bool:
    return sys.platform.startswith("linux") and bool(os.confstr("CS_GNU_LIBC_VERSION") or "")


def tuned_environment(environ: Mapping[str, str]) -> dict[str, str] | None:
    """``environ`` with :data:`TUNABLES` added to its ``GLIBC_TUNABLES``; ``None`` when there
    is nothing to add (not glibc, or each of them is set already: a person's setting wins)."""
    if not _glibc():
        return None
    present = environ.get("GLIBC_TUNABLES", "")
    named = {item.split("=", 1)[0] for item in present.split(":") if item}
    missing = [f"{name}={value}" for name, value in TUNABLES if name not in named]
    if not missing:
        return None
    return {**environ, "GLIBC_TUNABLES": ":".join(filter(None, [present, *missing]))}


def restart_tuned(argv: Sequence[str] | None = None) -> None:
    """Start this process again (the same PID, ``os.execve``) with :data:`TUNABLES`, unless it
    has them; ``argv``: how it was started (``sys.orig_argv``). Call it before anything else:
    the process is replaced. Where it cannot, the box runs on untuned."""
    environ = tuned_environment(os.environ)
    if environ is None:
        return
    args = list(sys.orig_argv if argv is None else argv)
    if not args or not sys.executable:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, [sys.executable, *args[1:]], environ)
    except OSError:
        return


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Cap glibc's malloc arenas at ``arenas``; call it before any thread starts (an arena
    made before stays). Returns whether the limit was set: not off Linux, not where the C
    library has no ``mallopt`` (musl), and not when ``MALLOC_ARENA_MAX`` in the environment
    already says how many (a person's setting wins)."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))


def give_back() -> bool:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``); whether it
    could (not off Linux, nor where the C library has none).

    What a game and its backup freed stays in malloc's arenas as holes between what lives on
    (the views and events the panel keeps, the journal's caches), so without this the box's
    resident size creeps up with every game played, though what it holds does not. The
    companion calls it after each game's backup, on the backup's thread (a fraction of a
    millisecond: no one waits for it).
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    trim(0)
    return True
