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


def test_the_tunables_are_added_to_what_a_person_set() -> None:
    from firmware_host.allocator import tuned_environment

    if os.confstr("CS_GNU_LIBC_VERSION") is None:
        assert tuned_environment({}) is None
        return
    assert tuned_environment({"A": "1"}) == {"A": "1",
                                             "GLIBC_TUNABLES": "glibc.malloc.tcache_count=0"}
    other = {"GLIBC_TUNABLES": "glibc.malloc.mxfast=0"}
    assert tuned_environment(other) == {
        "GLIBC_TUNABLES": "glibc.malloc.mxfast=0:glibc.malloc.tcache_count=0"}
    # a person's own tcache_count wins, and a tuned environment is left as it is
    assert tuned_environment({"GLIBC_TUNABLES": "glibc.malloc.tcache_count=3"}) is None
    assert tuned_environment({"GLIBC_TUNABLES": "glibc.malloc.tcache_count=0"}) is None


# In a child process, started with ``-c``: restart_tuned starts it again, the same PID, with
# the tunables; a 1 000-byte chunk freed then is no longer held in a thread's cache (counted as
# in use by mallinfo2) but given back to the arena.
TUNED_AGAIN = textwrap.dedent("""
    import ctypes, os, sys
    print("pid", os.getpid(), flush=True)
    from firmware_host.allocator import restart_tuned
    restart_tuned()
    class Info(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks",
                    "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = Info
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    chunks = [libc.malloc(1000) for _ in range(4)]
    before = libc.mallinfo2().uordblks
    for chunk in chunks:
        libc.free(chunk)
    print("freed", before - libc.mallinfo2().uordblks, os.environ.get("GLIBC_TUNABLES"))
""")


@glibc
def test_the_box_starts_again_with_no_per_thread_chunk_caches() -> None:
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    done = subprocess.run([sys.executable, "-c", TUNED_AGAIN], capture_output=True, text=True,
                          env=env, cwd=os.getcwd(), timeout=60, check=True)
    first, second, freed = done.stdout.splitlines()
    assert first == second  # the same process, started again
    _, given_back, tunables = freed.split()
    assert tunables == "glibc.malloc.tcache_count=0"
    assert int(given_back) >= 4 * 1000
    # and untuned (a person's tcache_count wins), the four chunks stay cached as in use
    env["GLIBC_TUNABLES"] = "glibc.malloc.tcache_count=7"
    done = subprocess.run([sys.executable, "-c", TUNED_AGAIN], capture_output=True, text=True,
                          env=env, cwd=os.getcwd(), timeout=60, check=True)
    assert done.stdout.splitlines()[-1].split()[1:] == ["0", "glibc.malloc.tcache_count=7"]
