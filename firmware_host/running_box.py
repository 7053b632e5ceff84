"""``tabletop run``: the running box, built and wired from the config — the composition root
(docs/design.md, "The daemon") with :mod:`firmware_host.cli`.

It builds the journal and sessions (:class:`Companion`), the hardware
(``firmware_host.device.open_device``) and the web panel (``web_panel.create_app`` on waitress),
and serves in phases on one listening socket: playing, or, while the journal is damaged,
offering its backup (:mod:`firmware_host.recovery`). This module and the CLI are the only ones
of ``firmware_host`` that import ``web_panel``.
"""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import socket
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from firmware_host.errors import EXIT_OK, ConfigError, StartupError
from firmware_host.hardware_mode import Mode, hardware_mode

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

    from flask import Flask

    from firmware_host.club.runtime import Club
    from firmware_host.companion import Companion
    from firmware_host.config import ClubConfig, Config
    from firmware_host.device import Device
    from firmware_host.names import Names
    from firmware_host.recovery import Damage
    from hardware.oled import Display

log = logging.getLogger("tabletop")



def panel_url(host: str, port: int) -> str:
    """The address phones use: the LAN address when listening on every interface."""
    if host in ("0.0.0.0", "::", ""):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))  # no packet is sent; this picks the LAN route
                host = probe.getsockname()[0]
        except OSError:
            host = socket.gethostname()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def run(args: argparse.Namespace, config: Config) -> int:
    """Run the box until a signal stops it."""
    from firmware_host.allocator import limit_arenas
    from firmware_host.companion import JOURNAL_FILE
    from firmware_host.journal_check import examine
    from firmware_host.recovery import set_aside

    limit_arenas()  # before any thread starts (firmware_host/allocator.py)
    quick_switches()
    web = config.web
    if args.host is not None:
        web = replace(web, host=args.host)
    if args.port is not None:
        if not 1 <= args.port <= 65535:
            raise ConfigError("--port", f"expected a port 1–65535, got {args.port}")
        web = replace(web, port=args.port)
    config = replace(config, web=web)
    logging.basicConfig(level=config.log_level, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    # Library warnings (gpiozero's pin factory fallbacks) as one log line each.
    warnings.formatwarning = _one_line_warning
    logging.captureWarnings(True)
    mode = hardware_mode(args.hardware)
    if web.host is None:  # the simulator stays on this computer unless told otherwise
        web = replace(web, host="0.0.0.0" if mode == "pi" else "127.0.0.1")
    host = web.host
    assert host is not None
    url = panel_url(host, web.port)
    config = replace(config, web=web, url=url, club=_club_settings(args, config))
    journal = Path(config.data_dir) / JOURNAL_FILE

    panel = _Panel()
    server = _listen(host, web.port, web.threads, panel)
    phases = _Phases(server)
    previous: dict[signal.Signals, Any] = {}
    try:
        for sig in (signal.SIGTERM, signal.SIGINT):  # a signal from here on stops the box
            previous[sig] = signal.signal(sig, phases.stop)
        new_journal = args.new_journal
        # Checked before anything writes to it (docs/design.md, "The journal"): a damaged
        # journal is set aside and the box offers its newest sound backup; damage met during
        # play comes back here the same way.
        problem = examine(journal)
        while not phases.stopping:
            if problem is not None:
                damage = set_aside(journal, problem)
                if not _recover(config, mode, damage, panel, phases):
                    break
                new_journal, problem = damage.backup is None, None
                continue
            problem = _play(config, mode, panel, phases, new_journal)
            new_journal = False
            if problem is None:
                break
        log.info("stopping")
        return EXIT_OK
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        server.close()


class _Phases:
    """The serving loop of each phase of a run (playing, or offering a damaged journal's
    backup) on the one server, and why the phase ended: a signal ends the run, while damage
    found during play, or a backup restored, starts the next phase."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.threads = len(server.task_dispatcher.threads)
        self.stopping = False
        self._ended = False
        self._loop: Any = None
        #: Told at once when a signal stops the box (each must only set a flag).
        self.on_stop: list[Callable[[], None]] = []

    def serve(self) -> bool:
        """Serve until the phase ends; ``False`` when a signal stopped the box."""
        from web_panel.serving import Loop

        self._ended = False
        self.server.task_dispatcher.set_thread_count(self.threads)
        self._loop = Loop(self.server)
        if self._ended or self.stopping:  # ended before the loop existed
            self._loop.stop()
        self._loop.run()
        return not self.stopping

    def end(self) -> None:
        """End this phase (any thread): the next one starts."""
        self._ended = True
        if self._loop is not None:
            self._loop.stop()

    def stop(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler: end the run (safe in a handler: it never waits)."""
        self.stopping = True
        for told in self.on_stop:
            told()
        if self._loop is not None:
            self._loop.stop()

    def drain(self) -> None:
        """Let the requests still running finish before what they use is closed."""
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)


def _play(config: Config, mode: Mode, panel: _Panel, phases: _Phases,
          new_journal: bool) -> str | None:
    """The box at play until a signal (``None``) or damage to its journal (what was found)."""
    from firmware_host.companion import Companion

    web = config.web
    assert web.host is not None and config.url is not None
    companion = Companion.open(config.data_dir, host_pin=config.host_pin, hardware=mode,
                               new_journal=new_journal, bot_delay=config.bot_delay,
                               analyses_apart=True)
    device: Device | None = None
    app: Flask | None = None
    club: Club | None = None
    names: Names | None = None
    try:
        companion.journal.alarm.listen(lambda _problem: phases.end())
        device = _open_device(config, companion, mode)
        companion.attach_status(device.status)
        live_url = _LiveUrl(config.url)
        if config.club.enabled:
            club = _start_club(config, companion, live_url)
            if club.supervisor is not None:
                # the service's stop signal reaches the hub's Mosquitto too: no restart then
                phases.on_stop.append(club.supervisor.stop)
        app = _web_app(companion, device, config.url, club)
        panel.app = app
        names = _start_names(config, web.host, web.port, club, live_url, app, device)
        settle_heap()
        _greet(config.url, mode, config, companion.host_pin, device, web.host, web.port)
        phases.serve()
        return companion.journal.alarm.problem
    finally:
        # Live streams are told to end and requests still running finish first (their replies
        # wake the server's trigger, which must still be open); then the hardware and the
        # journal close; the sockets last.
        panel.app = None
        if app is not None:
            import web_panel

            web_panel.close_app(app)
        phases.drain()
        if names is not None:
            names.close()
        phases.on_stop.clear()
        if club is not None:
            club.close()
        if device is not None:
            device.close()
        companion.close()


def _recover(config: Config, mode: Mode, damage: Damage, panel: _Panel,
             phases: _Phases) -> bool:
    """Offer the damaged journal's backup on the OLED and every page until the host restores
    it (``True``: play again) or a signal stops the box (``False``)."""
    from firmware_host.companion import JOURNAL_FILE
    from firmware_host.host_pin import load_or_create_pin
    from firmware_host.recovery import put_back
    from firmware_host.screens.damage import damage_screen
    from web_panel.recovery import create_recovery_app

    assert config.url is not None
    pin = config.host_pin or load_or_create_pin(Path(config.data_dir))
    journal = Path(config.data_dir) / JOURNAL_FILE

    def restore() -> None:
        put_back(journal, damage)
        phases.end()

    screen = damage_screen(damage, config.url, pin, config.device_settings().language)
    display = _damage_display(config, mode)
    try:
        if display is not None:
            display.show(screen)
        panel.app = create_recovery_app(damage, pin=pin, put_back=restore,
                                        screen=screen if mode == "simulator" else None)
        print(f"tabletop: the journal is damaged; the host can restore its newest sound backup "
              f"at {config.url}host", flush=True)
        return phases.serve()
    finally:
        panel.app = None
        phases.drain()
        if display is not None:
            display.close()


def _damage_display(config: Config, mode: Mode) -> Display | None:
    """The OLED alone (no pad, no session), to show the damage; ``None`` if it is absent."""
    from hardware.errors import DeviceNotFound
    from hardware.oled import Display

    settings = config.device_settings().oled
    try:
        if mode == "simulator":
            from luma.core.device import dummy

            return Display(dummy(width=settings.width, height=settings.height, mode="1"))
        return Display.from_config(settings)
    except (DeviceNotFound, OSError) as error:
        log.warning("no OLED to show the damage on: %s", error)
        return None


#: How long a thread may keep the GIL while another waits for it (CPython's default: 5 ms).
#: The pad, the session thread and an acting request wait at most this long behind the live
#: streams' feeder or a page being rendered: at 30–60 streaming phones act p99 fell from ~50
#: to ~35 ms and press → OLED p99 from 9–13 to 4–7 ms, the CPU per action unchanged
#: (``docs/benchmarks.md``, "Busy table, one feeder").
SWITCH_INTERVAL = 0.001


def quick_switches() -> None:
    """Let a thread waiting for the GIL have it within :data:`SWITCH_INTERVAL`."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def settle_heap() -> None:
    """Move everything built so far (modules, rules tables, the restored games) out of the
    garbage collector's sight: it lives as long as the box, and a full collection would
    otherwise rescan it, a pause of 10–40 ms in the middle of a request on this machine."""
    gc.collect()
    gc.freeze()


def _greet(url: str, mode: Mode, config: Config, pin: str, device: Device, host: str,
           port: int) -> None:
    """The lines a person starting the box reads: where the panel is, and the host PIN."""
    print(f"tabletop: panel at {url} ({mode} hardware; journal in {config.data_dir})",
          flush=True)
    if device.simulator is not None or sys.stdout.isatty():
        print(f"tabletop: host PIN {pin} (log in at {url}host)", flush=True)
    else:  # a service's log is no place for the PIN: the box's screen shows it
        print("tabletop: the host PIN is on the box's screen", flush=True)
    if device.simulator is not None:
        print(f"tabletop: simulated device at {url}device (for the host)", flush=True)
        if host in ("0.0.0.0", "::", ""):
            print(f"tabletop: on this computer, open http://localhost:{port}/device",
                  flush=True)


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str,
                      lineno: int, line: str | None = None) -> str:
    return f"{category.__name__}: {message}"


def _listen(host: str, port: int, threads: int, panel: _Panel) -> Any:
    """A waitress server bound to the port before any hardware is touched (so a port in use
    is reported first), serving ``panel``."""
    from web_panel.serving import create_server

    try:
        return create_server(panel, host=host, port=port, threads=threads,
                             channel_timeout=120, ident="tabletop")
    except OSError as error:
        reason = error.strerror or str(error)
        raise StartupError(f"cannot listen on {host}:{port}: {reason} (is another tabletop "
                           "running? choose another --port)") from None


class _Panel:
    """The server's WSGI application: "starting" (503) until the panel is set, then the panel.
    The server is listening before the hardware is opened, so a port in use is found first."""

    def __init__(self) -> None:
        self.app: WSGIApplication | None = None

    def __call__(self, environ: WSGIEnvironment,
                 start_response: StartResponse) -> Iterable[bytes]:
        if self.app is not None:
            return self.app(environ, start_response)
        start_response("503 Service Unavailable", [("Content-Type", "text/plain"),
                                                    ("Retry-After", "1")])
        return [b"starting\n"]


def _open_device(config: Config, companion: Companion, mode: Mode) -> Device:
    from firmware_host.device import open_device

    try:
        return open_device(config.device_settings(), companion, mode=mode,
                           games=companion.registry)
    except (OSError, ValueError, RuntimeError, ImportError) as error:
        hint = " (try --hardware simulator)" if mode == "pi" else ""
        raise StartupError(f"cannot open the {mode} hardware: {error}{hint}") from None


def _web_app(companion: Companion, device: Device, url: str,
             club: Club | None = None) -> Flask:
    import web_panel

    config = {"PUBLIC_URL": url}  # live pages hold no thread: the stream cap is the panel's
    club_panel = None
    if club is not None:
        from web_panel.club import ClubPanel

        publisher, hub = club.publisher, club.hub
        club_panel = ClubPanel(
            set_code=companion.set_club_code if publisher is not None else None,
            status=publisher.status if publisher is not None else None,
            league=club.league, live=hub.live if hub is not None else None,
            broker=club.supervisor.status if club.supervisor is not None else None)
    return web_panel.create_app(companion, simulator=device.simulator, config=config,
                                club=club_panel, dice=device.dice)


class _LiveUrl:
    """The panel's address for phones, which mDNS may change while the box runs."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __call__(self) -> str:
        return self.url


def _club_settings(args: argparse.Namespace, config: Config) -> ClubConfig:
    """The club settings of this start: ``club serve``'s options, ``--join-club`` (saved for
    later starts), the config's ``[club]``, or what an earlier ``--join-club`` saved."""

    club = config.club
    if getattr(args, "club_hub", False):  # club serve, run --club-hub: this box is the hub
        broker = getattr(args, "broker", None) or (club.broker if club.hub else "local")
        box = getattr(args, "box", None) or club.box or "table-1"
        broker_port = getattr(args, "broker_port", None)
        if broker_port is not None and not 1 <= broker_port <= 65535:
            raise ConfigError("--broker-port", f"expected a port 1–65535, got {broker_port}")
        from firmware_host.config import parse_club

        given = {"hub": True, "box": box, "broker": broker, "password": club.password,
                 "hub_password": club.hub_password}
        settings = parse_club({key: value for key, value in given.items() if value is not None})
        return replace(club, hub=True, box=box, broker=settings.broker,
                       broker_port=broker_port or club.broker_port)
    if getattr(args, "join_club", None):
        from firmware_host.club.joining import joined, parse_join, save_join

        join = parse_join(args.join_club)
        path = save_join(config.data_dir, join)
        print(f"tabletop: joining the club as {join.box} (kept in {path})", flush=True)
        return joined(club, join)
    if club.enabled:
        return club
    from firmware_host.club.joining import joined, saved_club

    saved = saved_club(config.data_dir)
    return joined(club, saved) if saved is not None else club


def _start_club(config: Config, companion: Companion, live_url: _LiveUrl) -> Club:
    from firmware_host.club.runtime import start_club

    club = config.club
    club_runtime = start_club(club, Path(config.data_dir), companion, companion.journal.path,
                              panel_url=live_url, league_url=lambda: live_url() + "club/")
    roles = " and ".join(role for role, on in (("the club's hub", club.hub),
                                                (f"box {club.box}", club.box is not None)) if on)
    print(f"tabletop: club mode: {roles}", flush=True)
    if club_runtime.broker is not None:
        print(f"tabletop: club broker (Mosquitto) on port {club.broker_port}; add a box with "
              "'tabletop club add-box NAME'", flush=True)
    return club_runtime


def _start_names(config: Config, host: str, port: int, club: Club | None, live_url: _LiveUrl,
                 app: Flask, device: Device) -> Names | None:
    """Advertise the panel by mDNS (in the background), and follow its address."""
    names_config = config.names
    everywhere = host in ("0.0.0.0", "::", "")
    if names_config.advertise == "off" or (names_config.advertise == "auto" and not everywhere):
        return None
    from firmware_host.names import HTTP_SERVICE, Names, Service, lan_addresses

    host_name = names_config.host
    if host_name == "tabletop" and config.club.box is not None:
        host_name = config.club.box  # every box of a club needs a name of its own
    service = names_config.service or host_name
    services = [Service(HTTP_SERVICE, service, port, {"path": "/"})]
    if club is not None:
        services += club.services(service)

    def moved(url: str) -> None:
        live_url.url = url
        app.config["PUBLIC_URL"] = url
        device.pad.url = url
        device.pad.submit_redraw()

    names = Names(host_name, port, services, addresses=lambda: lan_addresses(host),
                  fallback=live_url(), check_seconds=names_config.check_seconds,
                  on_change=moved)
    names.start()
    return names
