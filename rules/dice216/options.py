"""The options of 2 1 6 (``docs/rules/dice216.md``, "Options") and their combinations.

>>> from rules.dice216.options import resolve
>>> resolve({"size": 8}, 2)["die_faces"]
8
>>> resolve({"diagonals": True}, 2)["handicap"]
True
>>> resolve(None, 3)["size"]
12
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.dice216.grid import diagonals_of
from rules.errors import OptionError
from rules.options import Option, OptionValue, resolve_options

#: The grid sides the rules know: 4 (d4), 6 (d6, standard), 8 (d8) and 12 (3–4 players).
SIZES = (4, 6, 8, 12)
#: The die that goes with each grid side unless ``die_faces`` says otherwise.
DIE_BY_SIZE = {4: 4, 6: 6, 8: 8, 12: 6}
#: The grid side 3–4 players play on.
MANY_PLAYERS_SIZE = 12
#: Seed 004's diagonal variant: "count only the six-cell parts".
SEED_SIX_CELLS = "6マスの部分のみを計算する"
#: Sides of the dice tables use (d2 coins up to d20).
MIN_FACES, MAX_FACES = 2, 20


def _default_size(chosen: Mapping[str, OptionValue], n_players: int) -> OptionValue:
    return MANY_PLAYERS_SIZE if n_players >= 3 else 6


def _default_die(chosen: Mapping[str, OptionValue], n_players: int) -> OptionValue:
    size = chosen.get("size")
    return DIE_BY_SIZE[size] if isinstance(size, int) and size in DIE_BY_SIZE else 6


def _default_handicap(chosen: Mapping[str, OptionValue], n_players: int) -> OptionValue:
    return chosen.get("diagonals") is True


# Declared in the order of the rules' table; ``default_from`` only sees options declared before it.
OPTIONS: tuple[Option, ...] = (
    Option("line_total", "choice", "all",
           "What a dominated line scores: 'all' its numbers — seed 004 writes down "
           "'自分が支配している列および行の合計値' (the total of the line) — or only the "
           "dominator's 'own', which departs from the seed.",
           choices=("all", "own")),
    Option("diagonals", "bool", False,
           "Also score diagonals (seed 004's variant; which ones: diagonal_cells)."),
    Option("diagonal_cells", "choice", "six",
           f"Which diagonals score with diagonals on. 'six' (default), as seed 004 says: "
           f"'{SEED_SIX_CELLS}' (count only the six-cell parts): the diagonals of exactly six "
           "cells — corner to corner on 6×6; on 8×8 and 12×12 the four six-cell diagonals; none "
           "on 4×4, so there it is refused. 'full': the two corner-to-corner diagonals on every "
           "size (departs from the seed on 4×4, 8×8 and 12×12).",
           choices=("six", "full")),
    Option("handicap", "bool", False,
           "The second player rolls once at the start and adds it to their total (default: on "
           "with diagonals, where seed 004 lists it: '最終計算時にハンデとして合計値に合算する'). "
           "Off with diagonals, or on without them, departs from the seed.",
           default_from=_default_handicap),
    Option("size", "int", 6,
           "Grid side: 4 (d4), 6 (d6), 8 (d8), or 12 for 3–4 players (default: 12 for 3–4).",
           choices=SIZES, default_from=_default_size),
    Option("die_faces", "int", 6,
           "The die's faces (default by size: 4, 6, 8 — seed 004: "
           "'4面ダイスや8面ダイスを用意し' —; 6 on 12×12, where the seed names no die). Another "
           "die departs from the seed.",
           minimum=MIN_FACES, maximum=MAX_FACES, default_from=_default_die),
    Option("area", "bool", False,
           "The larger edge-connected group of own cells scores 1 per cell."),
    Option("first_player", "seat", 0, "The seat that places first, or 'random' (by the seed).",
           allow_random=True),
)


def resolve(given: Mapping[str, object] | None, n_players: int) -> dict[str, OptionValue]:
    """Every option of 2 1 6 resolved for ``n_players``; raises ``OptionError`` naming the option.

    Beyond each option's own checks, the grid must suit the table: 2 players play on 4, 6 or 8;
    3–4 players on 12 (the only grid the rules give them); and six-cell diagonals need a grid
    that has some (not 4×4).
    """
    chosen = resolve_options(OPTIONS, given, n_players)
    size = chosen["size"]
    if n_players >= 3 and size != MANY_PLAYERS_SIZE:
        raise OptionError(
            "size", f"{n_players} players play on the 12×12 grid (size 12), not size {size}"
        )
    if n_players < 3 and size == MANY_PLAYERS_SIZE:
        raise OptionError(
            "size", f"size 12 is the grid for 3–4 players; {n_players} players play on 4, 6 or 8"
        )
    if chosen["diagonals"] is True and chosen["diagonal_cells"] == "six" and not diagonals_of(
        int(str(size)), "six"
    ):
        raise OptionError(
            "diagonal_cells",
            f"no diagonal of the {size}×{size} grid has six cells, and seed 004 scores only "
            f"those ('{SEED_SIX_CELLS}'): choose diagonal_cells=full to score the two "
            "corner-to-corner diagonals, or play without diagonals",
        )
    return chosen
