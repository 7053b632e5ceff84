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
"""

from __future__ import annotations

import os
import sys

#: ``mallopt``'s parameter number for the arena limit (glibc's ``<malloc.h>``).
M_ARENA_MAX = -8
#: The daemon's arena limit: the main thread's arena and one shared by every other thread.
ARENAS = 2


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
