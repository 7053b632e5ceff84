"""The box under load, in a process of its own: the companion, the pad & OLED loop and the panel
on waitress, built as ``tabletop run`` builds them, with two measuring instruments:

- the OLED is luma's real ssd1306 driver over a bus that notes when each update's first byte
  arrives, and a pad thread (started by SIGUSR1, once the newest game is an UNLOCK game whose
  entry screen it can draw on) presses the simulated buttons — a dot, then Back, again and
  again, so no action is committed — and measures press → first byte on the bus;
- the garbage collector's pauses: the CPU time of each collection, by generation;
- on SIGTERM it writes ``{"presses": [ms...], "gc": [[generation, ms]...]}`` to ``--out``
  and exits.

    python bench/box_process.py --data DIR --port PORT --out FILE [--presses-every 0.2]

It prints ``ready PORT PIN`` once the panel answers. The load generator is ``bench/busy_table.py``.

Memory diagnostics, by environment variable: ``PYTHONTRACEMALLOC=N`` adds where Python's memory
grew since the start to the ``--out`` report (the run is much slower then); on SIGUSR2,
``BOX_MALLOC_INFO=FILE`` appends glibc's ``malloc_info`` (per arena: size, free) to FILE and
each connection's output buffers (and tracemalloc's top lines, when tracing) to FILE.channels,
``BOX_MALLOC_TRIM=1`` also calls ``malloc_trim(0)`` and reports again, ``BOX_MALLOC_STATS=1``
prints Python's small-object allocator statistics to stderr; ``BOX_THREADS=N`` serves with N
waitress threads instead of the daemon's default; ``BOX_HELD_STREAMS=1`` serves on plain
waitress with 80 threads, each live stream holding one (the design before the hand-over).

Post-game analyses (issue 34), by environment variable: ``BOX_ANALYSES=apart`` (the default, as
``tabletop run``: in a child interpreter at ``nice`` +10), ``thread`` (on the worker thread in
the box's own interpreter, ``nice`` +10) or ``off`` (every game's ``BoxGame.analysis`` is
``None``: no analysis is ever computed); ``BOX_BACKLOG=N`` first plays N finished 12×12
four-player 2 1 6 games (random bots) into the journal with analyses off, and names their ids on
the ready line (``ready PORT PIN ID,ID,…``): asking for each one's analysis
(``GET /api/games/ID/analysis``) queues it, a backlog of seconds of work each.

Where an act's time goes: ``BOX_TRACE=1`` stamps every act inside the box (``bench/act_trace.py``)
and ``bench/busy_table.py`` prints p50/p99 of each stretch (``BOX_TRACE=2``: the slowest acts).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory

import web_panel
from firmware_host.allocator import limit_arenas, restart_tuned
from firmware_host.companion import Companion
from firmware_host.config import DeviceSettings, WebConfig
from firmware_host.device import open_device
from firmware_host.games import Registry, builtin_games
from firmware_host.running_box import quick_switches, settle_heap
from hardware.pinmap import ButtonPins
from hardware.serial_die import SerialConfig
from web_panel.serving import Loop, create_server


class TimingBus:
    """An smbus2-like bus that notes when the first byte of an update arrives."""

    def __init__(self) -> None:
        self.first = threading.Event()
        self.at = 0.0

    def arm(self) -> None:
        self.first.clear()

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        if not self.first.is_set():
            self.at = time.perf_counter()
            self.first.set()


class CollectorPauses:
    """The CPU time of each garbage collection (``gc.callbacks``), by generation."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._start = 0.0
        gc.callbacks.append(self)

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.thread_time()
        else:
            self.pauses.append((info["generation"], (time.thread_time() - self._start) * 1000))


def trace_records() -> list[dict[str, float]]:
    """The acts stamped under ``BOX_TRACE`` (``bench/act_trace.py``), else none."""
    module = sys.modules.get("act_trace")
    return list(module.records) if module is not None else []


#: The backlog's games: 12×12 for four (143 weighed placements: seconds of one core each).
BACKLOG_GAME: tuple[str, dict[str, object], int] = ("dice216", {}, 4)


def registry(analyses: str) -> Registry:
    """The built-in games, each without its analysis when ``analyses`` is ``off``."""
    games = builtin_games()
    if analyses == "off":
        return Registry([replace(game, analysis=None) for game in games.values()])
    return games


def seed_backlog(data: Path, count: int, pin_code: str) -> list[int]:
    """``count`` finished games played into the journal in ``data`` with analyses off (so none
    has an analysis yet), in a process of its own (the box's memory stays its own): their ids."""
    if count <= 0:
        return []
    done = subprocess.run([sys.executable, __file__, "--data", str(data), "--backlog", str(count),
                           "--pin", pin_code], capture_output=True, text=True, check=True,
                          timeout=600)
    return [int(game_id) for game_id in json.loads(done.stdout)]


def play_backlog(data: Path, count: int, pin_code: str) -> list[int]:
    """What :func:`seed_backlog` runs in its process."""
    from game_analyses import play

    game, options, players = BACKLOG_GAME
    ids = []
    with Companion.open(data, host_pin=pin_code, games=registry("off")) as companion:
        for n in range(count):
            record = play(game, options, players, seed=1000 + n, levels=("random",) * players)
            game_id = companion.create_game(game, list(record.players), record.options,
                                            record.seed)
            for seat, action in record.actions:
                companion.act(game_id, seat, action)
            ids.append(game_id)
    return ids


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--port", type=int)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--presses-every", type=float, default=0.2)
    parser.add_argument("--backlog", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--pin", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.backlog is not None:
        print(json.dumps(play_backlog(args.data, args.backlog, args.pin)))
        return
    if args.port is None or args.out is None:
        parser.error("--port and --out are required")
    # As tabletop run does: started again with glibc's tunables, then few malloc arenas,
    # before any thread starts (importing luma starts a pool of four).
    restart_tuned()
    limit_arenas()
    quick_switches()
    if os.environ.get("BOX_SWITCH_INTERVAL"):  # to measure another (CPython's own: 0.005)
        sys.setswitchinterval(float(os.environ["BOX_SWITCH_INTERVAL"]))
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    web = WebConfig(threads=int(os.environ.get("BOX_THREADS", WebConfig.threads)))
    factory = MockFactory()
    bus = TimingBus()
    pins = ButtonPins().keys()
    analyses = os.environ.get("BOX_ANALYSES", "apart")
    if analyses not in ("apart", "thread", "off"):
        parser.error(f"BOX_ANALYSES={analyses!r}: apart, thread or off")
    backlog = seed_backlog(args.data, int(os.environ.get("BOX_BACKLOG", "0")), "135790")
    companion = Companion.open(args.data, host_pin="135790", games=registry(analyses),
                               analyses_apart=analyses == "apart")
    settings = DeviceSettings(url=f"http://127.0.0.1:{args.port}/", debounce=0.0,
                              serial=SerialConfig(port=str(args.data / "no-die")))
    device = open_device(settings, companion, mode="pi", games=companion.registry,
                         pin_factory=factory, oled=lambda: ssd1306(i2c(bus=bus, address=0x3C)))
    companion.attach_status(device.status)
    app = web_panel.create_app(companion, config={
        "PUBLIC_URL": settings.url,
        "MAX_STREAMS_PER_CLIENT": 64})  # every phone of the bench is on 127.0.0.1
    if os.environ.get("BOX_TRACE"):
        import act_trace

        act_trace.install(app)
    if os.environ.get("BOX_HELD_STREAMS"):  # as before issue 15's last round: 80 threads
        import waitress

        server = waitress.create_server(app, host="127.0.0.1", port=args.port, threads=80,
                                        channel_timeout=120, ident="bench",
                                        **web_panel.WAITRESS_SETTINGS)
    else:
        server = create_server(app, host="127.0.0.1", port=args.port, threads=web.threads,
                               per_client=256,  # as for the streams: every phone on 127.0.0.1
                               channel_timeout=120, ident="bench")
    serving = Loop(server)
    latencies: list[float] = []
    pressing = threading.Event()
    stopping = threading.Event()

    def press(key: int | str) -> None:
        """A key pressed and let go; the time to the OLED's first byte from the press (from
        the release for Back, which acts when let go)."""
        pin = factory.pin(pins[key])
        if key == "back":
            pin.drive_low()
            device.pad.wait_idle(5)
        bus.arm()
        start = time.perf_counter()
        if key == "back":
            pin.drive_high()
        else:
            pin.drive_low()
        if bus.first.wait(5):
            latencies.append((bus.at - start) * 1000)
        device.pad.wait_idle(5)
        pin.drive_high()
        device.pad.wait_idle(5)

    def presser() -> None:
        pressing.wait()
        press("ok")  # the privacy screen: open the entry
        keys: list[int | str] = [1, "back", 2, "back", 3, "back", 5, "back"]
        n = 0
        while not stopping.wait(args.presses_every):
            press(keys[n % len(keys)])
            n += 1

    def start_pressing(signum: int, frame: FrameType | None) -> None:
        pressing.set()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()
        pressing.set()
        web_panel.close_app(app)
        growth = memory_growth(baseline) if baseline is not None else []
        if os.environ.get("BOX_MALLOC_STATS"):
            sys._debugmallocstats()  # Python's small-object allocator, to stderr
        args.out.write_text(json.dumps({"presses": latencies, "gc": collections.pauses,
                                        "growth": growth,
                                        "trace": trace_records()}))
        serving.stop()

    snapshots: list[tracemalloc.Snapshot] = []

    def allocator_report(signum: int, frame: FrameType | None) -> None:
        """SIGUSR2: glibc's malloc_info (per arena: in use, free, system) appended to
        ``$BOX_MALLOC_INFO``, then again after ``malloc_trim(0)`` when ``$BOX_MALLOC_TRIM``."""
        target = os.environ.get("BOX_MALLOC_INFO")
        if not target:
            return
        with open(target + ".channels", "a") as out:
            for channel in list(server.active_channels.values()):
                bufs = []
                for outbuf in list(getattr(channel, "outbufs", [])):
                    inner = outbuf.buf
                    kind = type(inner).__name__ if inner is not None else "str"
                    held = (inner.file.getbuffer().nbytes if kind == "BytesIOBasedBuffer"
                            else len(outbuf.strbuf))
                    bufs.append(f"{kind}:{held}:{len(outbuf)}")
                out.write(f"{channel.addr} {' '.join(bufs)}\n")
            out.write("--\n")
            if tracemalloc.is_tracing():
                current, peak = tracemalloc.get_traced_memory()
                out.write(f"tracemalloc: current {current / 2**20:.1f} MiB, "
                          f"peak {peak / 2**20:.1f} MiB\n")
                snap = tracemalloc.take_snapshot()
                for stat in snap.statistics("lineno")[:40]:
                    out.write(f"  {stat}\n")
                if baseline is not None:
                    for stat in snap.compare_to(baseline, "lineno")[:40]:
                        out.write(f"  grown {stat}\n")
                if snapshots:
                    for stat in snap.compare_to(snapshots[-1], "traceback")[:25]:
                        out.write(f"  grown since the last report {stat}\n")
                        for line in stat.traceback.format()[-12:]:
                            out.write(f"      {line}\n")
                snapshots[:] = [snap]
        import ctypes

        libc = ctypes.CDLL(None)
        libc.fopen.restype = ctypes.c_void_p
        libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
        libc.fclose.argtypes = [ctypes.c_void_p]
        if os.environ.get("BOX_MALLOC_STATS"):
            sys._debugmallocstats()  # Python's small-object allocator, to stderr
        stream = libc.fopen(target.encode(), b"a")
        libc.malloc_info(0, stream)
        if os.environ.get("BOX_MALLOC_TRIM"):
            libc.malloc_trim(0)
            libc.malloc_info(0, stream)
        libc.fclose(stream)

    signal.signal(signal.SIGUSR2, allocator_report)
    signal.signal(signal.SIGUSR1, start_pressing)
    signal.signal(signal.SIGTERM, stop)
    threading.Thread(target=presser, daemon=True).start()
    settle_heap()
    collections = CollectorPauses()
    baseline = tracemalloc.take_snapshot() if tracemalloc.is_tracing() else None
    if os.environ.get("BOX_MALLOC_STATS"):
        sys._debugmallocstats()
    print(f"ready {args.port} {companion.host_pin} {','.join(map(str, backlog))}".rstrip(),
          flush=True)
    try:
        serving.run()
    finally:
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        device.close()
        companion.close()


def memory_growth(baseline: tracemalloc.Snapshot, top: int = 15) -> list[str]:
    """Where the memory Python allocated since ``baseline`` lives, biggest first, by the line
    that allocated it (only under ``PYTHONTRACEMALLOC=N``: the run is slower then)."""
    now = tracemalloc.take_snapshot()
    stats = now.compare_to(baseline, "traceback")[:top]
    return [f"{stat.size_diff / 1024:+.0f} KiB in {stat.count_diff:+d} blocks: "
            + " <- ".join(f"{frame.filename.rsplit('/', 2)[-1]}:{frame.lineno}"
                          for frame in stat.traceback[:6]) for stat in stats]


if __name__ == "__main__":
    main()
