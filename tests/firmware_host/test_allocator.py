"""The daemon caps glibc's malloc arenas before its threads start (firmware_host/allocator.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

# In a child process: the test runner's own threads have arenas already.
COUNT_ARENAS = textwrap.dedent("""
    import ctypes, os, sys, tempfile, threading
    from firmware_host.allocator import limit_arenas
    print(limit_arenas())
    def allocate():
        kept = [bytearray(4096) for _ in range(200)]  # over pymalloc's limit: from malloc
        barrier.wait()
    barrier = threading.Barrier(12)
    threads = [threading.Thread(target=allocate) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    with tempfile.NamedTemporaryFile(suffix=".xml") as out:
        stream = libc.fopen(out.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        print(open(out.name).read().count("<heap nr="))
""")


def arenas_after_twelve_threads(env: dict[str, str]) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", COUNT_ARENAS], capture_output=True, text=True,
                          env=env, cwd=os.getcwd(), timeout=60, check=True)
    limited, arenas = done.stdout.split()
    return limited, int(arenas)


glibc = pytest.mark.skipif(not sys.platform.startswith("linux")
                           or os.confstr("CS_GNU_LIBC_VERSION") is None, reason="glibc only")


@glibc
def test_twelve_threads_share_two_arenas() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    assert arenas_after_twelve_threads(env) == ("True", 2)


@glibc
def test_a_malloc_arena_max_in_the_environment_wins() -> None:
    env = {**os.environ, "MALLOC_ARENA_MAX": "3"}
    assert arenas_after_twelve_threads(env) == ("False", 3)
