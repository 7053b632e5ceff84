"""The ``tabletop`` command: its arguments, and each command dispatched (docs/design.md,
"The daemon").

``tabletop run`` is :mod:`firmware_host.running_box`, the composition root that builds
everything from the config and wires it together; the journal's own commands are
:mod:`firmware_host.journal_commands`.

Every problem a user can cause or meet (a bad config value, a read-only or damaged data
directory, a port in use, missing hardware) ends the command with one line on stderr and a
non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host import journal_commands
from firmware_host.errors import (
    EXIT_CONFIG,
    EXIT_ERROR,
    EXIT_JOURNAL,
    EXIT_OK,
    ConfigError,
    JournalError,
    StartupError,
)

if TYPE_CHECKING:
    from firmware_host.config import Config

log = logging.getLogger("tabletop")



def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="Tabletop Companion")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", type=Path, help="the TOML config file (default: "
                       "/etc/tabletop/config.toml or ~/.config/tabletop/config.toml)")
        p.add_argument("--data-dir", type=Path, help="where the journal and host PIN live")

    def running(p: argparse.ArgumentParser) -> None:
        common(p)
        p.add_argument("--hardware", choices=("auto", "simulator", "pi"), default="auto",
                       help="real Pi hardware, or the simulator (default: auto-detect)")
        p.add_argument("--host", help="address the web panel listens on (default: every "
                       "interface on a Pi, 127.0.0.1 in the simulator)")
        p.add_argument("--port", type=int, help="port of the web panel (default 8080)")
        p.add_argument("--new-journal", action="store_true",
                       help="start with an empty journal even though a backup holds games")

    run = sub.add_parser("run", help="run the companion: pad, OLED, die and web panel")
    running(run)
    run.add_argument("--club-hub", action="store_true",
                     help="also be the club's hub, as 'tabletop club serve' (docs/club.md)")
    run.add_argument("--join-club", metavar="BOX:PASSWORD[@HOST[:PORT]]",
                     help="join a club (docs/club.md): this box's name and password from the "
                          "hub ('tabletop club add-box'), and the hub's address (default: "
                          "found by mDNS); kept in the data directory for every later start")

    club = sub.add_parser("club", help="club mode: many boxes, one league (docs/club.md)")
    club_actions = club.add_subparsers(dest="club_command", required=True)
    serve = club_actions.add_parser(
        "serve", help="run this box as the club's hub: its own Mosquitto (or --broker), the "
                      "league and its pages, and the box itself")
    running(serve)
    serve.set_defaults(join_club=None, club_hub=True)
    serve.add_argument("--box", help="this box's own name in the club (default: "
                       "[club] box, else table-1)")
    serve.add_argument("--broker", help="the club's own broker, host[:port] (default: run "
                       "Mosquitto here)")
    serve.add_argument("--broker-port", type=int, help="port of the Mosquitto run here "
                       "(default 1883)")
    adding = club_actions.add_parser("add-box", help="a name and password for a new box; "
                                     "prints the one command to run on it")
    common(adding)
    adding.add_argument("box", help="the new box's name, e.g. table-2")
    adding.add_argument("--hub-address", help="the address the box reaches the hub at (default: "
                        "found by mDNS)")

    check = sub.add_parser("check-hardware", help="what is found on the buses, pins and ports")
    common(check)

    history = sub.add_parser("history", help="the games played, newest first")
    common(history)
    history.add_argument("--limit", type=int, default=50)

    export = sub.add_parser("export", help="games as JSON or CSV (actions of ended games only)")
    common(export)
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--out", type=Path, help="file to write (default: standard output)")

    journal = sub.add_parser("journal", help="the journal: check it; list or restore backups")
    actions = journal.add_subparsers(dest="journal_command", required=True)
    checking = actions.add_parser(
        "check", help="whether the journal is sound (its header, its write-ahead log and "
                      "SQLite's quick_check); exit status 3 when it is damaged")
    common(checking)
    checking.set_defaults(file=None)
    checking.add_argument("--full", action="store_true",
                          help="SQLite's integrity_check (slower, also checks every index)")
    listing = actions.add_parser("backups", help="the backups, newest first")
    common(listing)
    listing.set_defaults(file=None)
    restoring = actions.add_parser(
        "restore", help="put a backup back (the newest sound one, or FILE); the journal it "
                        "replaces is moved aside, never deleted. Stop the companion first (or "
                        "restore from its host page while it shows a damaged journal).")
    common(restoring)
    restoring.add_argument("file", nargs="?", type=Path, help="a backup file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tabletop`` console script."""
    args = _parser().parse_args(argv)
    if argv is None and (args.command == "run" or (args.command == "club"
                                                   and args.club_command == "serve")):
        from firmware_host.allocator import restart_tuned

        restart_tuned()  # the box's malloc settings, read only at a start (allocator.py)
    try:
        from firmware_host.config import load_config

        config = load_config(args.config)
        if args.data_dir is not None:
            config = replace(config, data_dir=args.data_dir)
        if args.command == "run":
            from firmware_host.running_box import run

            return run(args, config)
        if args.command == "club":
            return _club(args, config)
        if args.command == "check-hardware":
            return _check_hardware(config)
        if args.command == "history":
            return journal_commands.history(config, args.limit)
        if args.command == "journal":
            return journal_commands.journal(config, args.journal_command, args.file,
                            getattr(args, "full", False))
        return journal_commands.export(config, args.format, args.out)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    except JournalError as error:
        print(f"tabletop: {error}", file=sys.stderr)
        return EXIT_JOURNAL
    except StartupError as error:
        print(f"tabletop: {error}", file=sys.stderr)
        return EXIT_ERROR


def _club(args: argparse.Namespace, config: Config) -> int:
    if args.club_command == "serve":
        from firmware_host.running_box import run

        return run(args, config)
    from firmware_host.club.runtime import add_box

    if config.club.hub and config.club.broker != "local":
        raise StartupError(f"this hub uses the club's own broker ({config.club.broker}): add "
                           "the box's user and its topics there (docs/club.md, 'A broker the "
                           "club already has')")
    password = add_box(Path(config.data_dir), args.box)
    where = f"@{args.hub_address}" if args.hub_address else ""
    print(f"tabletop: box {args.box} can join the club; on it, run:")
    print(f"  scripts/run --join-club {args.box}:{password}{where}")
    if not where:
        print("(the box finds the hub by mDNS; add @HOST:PORT after the password where it "
              "cannot)")
    return EXIT_OK


def _check_hardware(config: Config) -> int:
    from firmware_host.hardware_check import report

    text, ok = report(config)
    sys.stdout.write(text)
    return EXIT_OK if ok else EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
