"""A plain-text picture of a 2 1 6 grid and its score sheet, for logs and failing tests."""

from __future__ import annotations

from rules.dice216.scoring import LineResult
from rules.dice216.state import State

LETTERS = "ABCD"


def render(state: State) -> str:
    """The grid (each cell as value and owner letter, ``.`` when empty), the dominator and score
    of every line, area, handicap and each seat's totals.

    >>> from rules.dice216 import GAME
    >>> state = GAME.apply(GAME.start(["Aiko", "Ben"], {"size": 4}), -1, "roll 3")
    >>> print(render(GAME.apply(state, 0, "place 1 2")).splitlines()[3])
       1     .  3A   .   .  |   A    3
    """
    setup, sheet, size = state.setup, state.sheet, state.setup.size
    flags = [name for name in ("diagonals", "handicap", "area") if getattr(setup, name)]
    head = [f"{size}×{size}", f"d{setup.die_faces}", f"line total: {setup.line_total}", *flags]
    out = ["2 1 6 · " + " · ".join(head)]
    out.append(" · ".join(f"{LETTERS[s]} = {name}" for s, name in enumerate(state.players)))
    out.append("      " + "".join(f"{c:>4}" for c in range(1, size + 1)) + "  | dom  pts")
    by_line = {(r.line.kind, r.line.index): r for r in sheet.lines}
    for row in range(size):
        marks = state.cells[row * size:(row + 1) * size]
        text = "".join(
            f"{'.' if m is None else f'{m.value}{LETTERS[m.owner]}':>4}" for m in marks
        )
        out.append(f"{row + 1:>4}  {text}  | {_summary(by_line['row', row + 1])}")
    columns = [by_line["column", c] for c in range(1, size + 1)]
    out.append(" dom  " + "".join(f"{_letter(r):>4}" for r in columns))
    out.append(" pts  " + "".join(f"{r.total:>4}" for r in columns))
    if any(r.bonus for r in columns):
        out.append(" +10  " + "".join(f"{r.bonus or '':>4}" for r in columns))
    diagonals = [r for r in sheet.lines if r.line.kind == "diagonal"]
    if setup.diagonals:
        out.append(
            f"diagonals ({setup.diagonal_cells}): "
            + ("; ".join(
                f"{r.line.index} ({r.line.direction} from {_cell(r.line.cells[0], size)}) "
                f"{' '.join(_summary(r).split())}" for r in diagonals) or "none")
        )
    if sheet.handicap is not None:
        roll = sheet.handicap.roll
        letter = LETTERS[sheet.handicap.seat]
        out.append(f"handicap: {letter} " + ("not rolled yet" if roll is None else f"+{roll}"))
    if sheet.area is not None:
        groups = ", ".join(f"{LETTERS[s]} {g}" for s, g in enumerate(sheet.area.groups))
        winner = sheet.area.winner
        scored = "nobody" if winner is None else f"{LETTERS[winner]} +{sheet.area.points}"
        out.append(f"area: largest groups {groups} → {scored}")
    for s, name in enumerate(state.players):
        out.append(
            f"{LETTERS[s]} {name}: {sheet.totals[s]} = lines {sheet.line_points[s]}"
            f" + bonus {sheet.bonus[s]} + area {sheet.area_points[s]}"
            f" + handicap {sheet.handicap_points[s]} (projected {sheet.projected[s]:g})"
        )
    out.append(_status(state))
    return "\n".join(line.rstrip() for line in out)


def _cell(index: int, size: int) -> str:
    row, column = divmod(index, size)
    return f"{row + 1},{column + 1}"


def _letter(result: LineResult) -> str:
    return "-" if result.dominator is None else LETTERS[result.dominator]


def _summary(result: LineResult) -> str:
    if result.dominator is None:
        return "  -    0"
    bonus = " +10" if result.bonus else ""
    return f"  {_letter(result)}  {result.total:>3}{bonus}"


def _status(state: State) -> str:
    phase = state.phase
    if phase == "over":
        totals = state.sheet.totals
        top = max(totals)
        winners = [LETTERS[s] for s, t in enumerate(totals) if t == top]
        return f"game over: {' and '.join(winners)} " + ("draw" if len(winners) > 1 else "wins")
    if phase == "handicap":
        return f"to act: chance rolls the handicap for {LETTERS[state.handicap_seat or 0]}"
    if phase == "roll":
        return f"to act: chance rolls for {LETTERS[state.mover]}"
    return f"to act: {LETTERS[state.mover]} places {state.pending_roll}"
