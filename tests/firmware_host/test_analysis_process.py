"""Analyses in a child interpreter (``firmware_host.analysis_process``): the same analysis as
in the box's own process, progress as it goes, a child that leaves when idle or recycled, that
is started again when it died, and a game whose analysis fails answered with the reason."""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.analysis_process import NICER, AnalysisFailed, AnalysisProcess
from firmware_host.companion import Companion
from firmware_host.games import builtin_games, is_builtin
from rules.evaluation import GameRecord, analyse_record
from tests.firmware_host.test_game_analyses import bots_game


def ico_record(seed: int = 4) -> GameRecord:
    players = ["Aiko", "Ben"]
    return GameRecord(tuple(players), {}, seed, tuple(bots_game("ico", players, {}, seed)))


def wait_until_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return True
        if done:
            return True
        time.sleep(0.05)
    return False


def test_the_child_gives_the_same_analysis_and_its_progress() -> None:
    record = ico_record()
    process = AnalysisProcess()
    try:
        shares: list[float] = []
        analysis = process.analyse("ico", record, shares.append)
        assert json.loads(analysis) == analyse_record("ico", record).as_dict()
        assert shares and shares == sorted(shares) and 0 < shares[-1] <= 1.0
        pid = process.pid
        assert pid is not None and pid != os.getpid()
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + NICER)
    finally:
        process.close()
    assert process.pid is None


def test_an_idle_child_leaves_and_a_fresh_one_comes_when_needed() -> None:
    record = ico_record()
    process = AnalysisProcess(idle_exit=0.3)
    try:
        process.analyse("ico", record)
        first = process.pid
        assert first is not None
        assert wait_until_gone(first, 10), "the idle child did not leave"
        during: list[int | None] = []
        again = process.analyse("ico", record, lambda _share: during.append(process.pid))
        assert json.loads(again) == analyse_record("ico", record).as_dict()
        assert during and during[0] not in (None, first)
    finally:
        process.close()


def test_a_child_recycled_after_its_analyses_and_one_killed_are_replaced() -> None:
    record = ico_record()
    process = AnalysisProcess(recycle_after=1)
    try:
        # the child's id read while it works: once it has answered it may already have left
        pids: list[int | None] = []
        process.analyse("ico", record, lambda _share: pids.append(process.pid))
        first = pids[0]
        assert first is not None and wait_until_gone(first, 10)
        process.analyse("ico", record, lambda _share: pids.append(process.pid))
        second = pids[-1]
        assert second is not None and second != first
        os.kill(second, signal.SIGKILL)
        assert wait_until_gone(second, 10)
        assert json.loads(process.analyse("ico", record)) == analyse_record("ico", record).as_dict()
    finally:
        process.close()


def test_a_failing_analysis_says_why_and_the_child_carries_on() -> None:
    process = AnalysisProcess()
    try:
        bad = GameRecord(("Aiko", "Ben"), {}, 1, ((0, "place nowhere"),))
        with pytest.raises(AnalysisFailed, match=r"ico game failed: IllegalAction.*nowhere"):
            process.analyse("ico", bad)
        pid = process.pid
        with pytest.raises(AnalysisFailed, match="no analysis for 'chess' games"):
            process.analyse("chess", bad)
        record = ico_record()
        assert json.loads(process.analyse("ico", record)) == analyse_record("ico", record).as_dict()
        assert process.pid == pid
    finally:
        process.close()


def test_a_box_that_analyses_apart_keeps_the_same_analysis(tmp_path: Path) -> None:
    record = ico_record()
    games = builtin_games()
    assert is_builtin(games["ico"]) and not is_builtin(replace(games["ico"], analysis=None))
    with Companion.open(tmp_path, analyses_apart=True) as companion:
        gid = companion.create_game("ico", list(record.players), {})
        options = companion.view(gid, None)["options"]
        actions = bots_game("ico", list(record.players), options, _seed(tmp_path, gid))
        for seat, action in actions:
            companion.act(gid, seat, action)
        companion.settle()
        answer = companion.analysis(gid)
        assert answer["status"] == "ready"
        expected = analyse_record("ico", GameRecord(record.players, options,
                                                    _seed(tmp_path, gid), tuple(actions)))
        assert answer["analysis"] == expected.as_dict()
        child = companion._apart.pid if companion._apart is not None else None
        assert child is not None, "the analysis ran in the child"
        # NICER below the box, not below the niced worker thread that started it (that needs
        # the privilege to raise a priority again: without it the child stays lower still).
        box = os.getpriority(os.PRIO_PROCESS, 0)
        expected = min(19, box + NICER)
        child_nice = os.getpriority(os.PRIO_PROCESS, child)
        assert child_nice == expected if os.geteuid() == 0 else child_nice >= expected
    assert wait_until_gone(child, 10), "closing the box closes its analysis process"


def _seed(data_dir: Path, game_id: int) -> int:
    import sqlite3

    from firmware_host.companion import JOURNAL_FILE

    with sqlite3.connect(data_dir / JOURNAL_FILE) as db:
        (seed,) = db.execute("SELECT seed FROM games WHERE id = ?", (game_id,)).fetchone()
    return int(seed)
