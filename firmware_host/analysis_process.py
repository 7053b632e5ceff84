"""Post-game analyses in a process of their own, so that their seconds of pure-Python work never
hold the box's interpreter lock while the session thread and the panel serve the tables.

A thread at a lower priority is not enough in one process: a thread that computes holds the
GIL, and every other thread waits for it at each switch (up to ``sys.getswitchinterval()``, 5 ms,
each time). So the box's analysis worker (``firmware_host.game_analyses``) hands each built-in
game's analysis to a child interpreter (``python -m firmware_host.analysis_process``) and waits
for the answer without holding the GIL:

- the child is started when first needed, at a lower priority (``nice`` +10), and leaves by
  itself after :data:`IDLE_EXIT` seconds without work (its memory goes back to the system: a
  convention box keeps no analyser's caches between games) or after :data:`RECYCLE_AFTER`
  analyses;
- messages are pickled both ways over its stdin/stdout: ``(kind, record)`` in; ``("progress",
  share)``, then ``("done", the analysis's JSON text)`` or ``("error", text)`` out (the box
  keeps the text as it comes: no object of the analysis is built in the box);
- a child that dies (or had just left when asked) is started again once; a second failure is an
  :class:`AnalysisFailed` naming the game's kind (the game's analysis is asked again later).

Only built-in games can be analysed apart: the child finds the analyser by the game's id
(``firmware_host.games.builtin_games``).
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import select
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from typing import IO, Any

from rules.evaluation import GameRecord

#: Seconds without work after which the child leaves.
IDLE_EXIT = 30.0
#: Analyses after which the child leaves (and a fresh one is started when next needed).
RECYCLE_AFTER = 100
#: How much lower than the box the child is scheduled (``nice`` steps).
NICER = 10
#: The least change of progress worth a message.
PROGRESS_STEP = 0.05


class AnalysisFailed(RuntimeError):
    """The analysis process could not give a game's analysis."""


class AnalysisProcess:
    """The child interpreter that computes analyses, one at a time (see the module docstring)."""

    def __init__(self, idle_exit: float = IDLE_EXIT, recycle_after: int = RECYCLE_AFTER) -> None:
        self._idle_exit = idle_exit
        self._recycle_after = recycle_after
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None

    def analyse(self, kind: str, record: GameRecord,
                progress: Callable[[float], None] | None = None) -> str:
        """The analysis of the built-in game ``kind`` that ``record`` holds, as JSON text."""
        with self._lock:
            for attempt in (1, 2):
                child = self._running()
                try:
                    return _exchange(child, kind, record, progress)
                except (BrokenPipeError, EOFError, OSError) as error:
                    self._drop()
                    if attempt == 2:
                        raise AnalysisFailed(
                            f"the analysis process stopped while analysing a {kind} game: "
                            f"{type(error).__name__}") from error
        raise AssertionError("unreachable")

    @property
    def pid(self) -> int | None:
        """The child's process id while one runs."""
        child = self._child
        return child.pid if child is not None and child.poll() is None else None

    def close(self) -> None:
        """Ask the child to leave, and make sure it has (idempotent)."""
        with self._lock:
            self._drop()

    def _running(self) -> subprocess.Popen[bytes]:
        child = self._child
        if child is None or child.poll() is not None:
            self._drop()
            child = self._child = subprocess.Popen(
                [sys.executable, "-m", __name__, str(self._idle_exit), str(self._recycle_after),
                 str(os.getpriority(os.PRIO_PROCESS, os.getpid()))],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True)
        return child

    def _drop(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _exchange(child: subprocess.Popen[bytes], kind: str, record: GameRecord,
              progress: Callable[[float], None] | None) -> str:
    assert child.stdin is not None and child.stdout is not None
    pickle.dump((kind, record), child.stdin)
    child.stdin.flush()
    while True:
        what, data = pickle.load(child.stdout)
        if what == "progress":
            if progress is not None:
                progress(float(data))
        elif what == "done":
            return str(data)
        else:
            raise AnalysisFailed(f"the analysis of a {kind} game failed: {data}")


# --- the child ----------------------------------------------------------------------------------


def serve(inbox: IO[bytes], outbox: IO[bytes], idle_exit: float, recycle_after: int) -> None:
    """Answer analyses from ``inbox`` on ``outbox`` until idle, recycled or told to leave."""
    from firmware_host.games import builtin_games

    games = builtin_games()
    for _ in range(recycle_after):
        ready, _, _ = select.select([inbox], [], [], idle_exit)
        if not ready:
            return
        try:
            kind, record = pickle.load(inbox)
        except EOFError:
            return
        _answer(games, kind, record, outbox)


def _answer(games: Mapping[str, Any], kind: str, record: GameRecord, outbox: IO[bytes]) -> None:
    told = [0.0]

    def progress(share: float) -> None:
        if share - told[0] >= PROGRESS_STEP:
            told[0] = share
            _send(outbox, ("progress", share))

    try:
        box = games.get(kind)
        if box is None or box.analysis is None:
            raise LookupError(f"no analysis for {kind!r} games")
        text = json.dumps(box.analysis(record, progress), separators=(",", ":"))
        answer: tuple[str, Any] = ("done", text)
    except Exception as error:  # one game's failure is its answer, not the child's end
        answer = ("error", f"{type(error).__name__}: {error}")
    _send(outbox, answer)


def _send(outbox: IO[bytes], message: tuple[str, Any]) -> None:
    pickle.dump(message, outbox)
    outbox.flush()


def main(argv: list[str]) -> None:
    # NICER below the box's own priority (argv[2]: the box's; the child inherits the priority
    # of the thread that started it, which may already be lower). Raising it again needs a
    # privilege the box may not have: then it stays as it is.
    with contextlib.suppress(OSError, IndexError, ValueError):
        os.setpriority(os.PRIO_PROCESS, 0, min(19, int(argv[2]) + NICER))
    idle_exit, recycle_after = float(argv[0]), int(argv[1])
    outbox = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print must not garble a message
    serve(sys.stdin.buffer, outbox, idle_exit, recycle_after)


if __name__ == "__main__":
    main(sys.argv[1:])
