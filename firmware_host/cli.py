"""The ``tabletop`` command (the composition root; see DESIGN.md)."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tabletop`` console script."""
    parser = argparse.ArgumentParser(prog="tabletop", description="Tabletop Companion")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the companion (not built yet: see README)")
    args = parser.parse_args(argv)
    if args.command == "run":
        print("tabletop run: the daemon is not built yet (issue 7); only the rules and their "
              "tests exist so far.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
