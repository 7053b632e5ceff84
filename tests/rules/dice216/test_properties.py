"""Properties of scoring over random games with random options (hypothesis).

Line results are recomputed here from the view's grid alone, so the view's score sheet is checked
against the rules, not against itself.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice216 import GAME, State
from tests.rules.dice216.boards import LETTERS, board_of, play_board

Table = tuple[list[str], dict[str, object]]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    """Players and a random combination of every option."""
    n = draw(st.sampled_from([2, 2, 2, 3, 4]))
    options: dict[str, object] = {
        "line_total": draw(st.sampled_from(["all", "own"])),
        "diagonals": draw(st.booleans()),
        "area": draw(st.booleans()),
        "first_player": draw(st.integers(0, n - 1)),
    }
    if n == 2:
        options["size"] = draw(st.sampled_from([4, 6, 8]))
    # No diagonal of 4×4 has six cells: 'six' is refused there with diagonals on.
    options["diagonal_cells"] = (
        "full" if options.get("size") == 4 and options["diagonals"]
        else draw(st.sampled_from(["six", "full"]))
    )
    if draw(st.booleans()):
        options["handicap"] = draw(st.booleans())
    if draw(st.booleans()):
        options["die_faces"] = draw(st.integers(2, 20))
    return ["Aiko", "Ben", "Chie", "Dai"][:n], options


def random_game(table: Table, seed: int, stop_at: float = 1.0) -> State:
    """A game with random rolls and cells, played until a share ``stop_at`` of the grid is full."""
    players, options = table
    rng = random.Random(seed)
    state = GAME.start(players, options, seed)
    cells = len(state.cells)
    while GAME.to_act(state) and state.placed < stop_at * cells:
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat))))
    return state


def diagonals(size: int, which: str) -> list[list[tuple[int, int]]]:
    """The scored diagonals: cells grouped by column − row (↘) and by column + row (↙), kept
    when they are corner to corner (``full``) or six cells long (``six``: seed 004's
    "6マスの部分のみを計算する"); ↘ before ↙, each family by its top cell in reading order."""
    families: list[list[list[tuple[int, int]]]] = []
    for key in (lambda r, c: c - r, lambda r, c: c + r):
        groups: dict[int, list[tuple[int, int]]] = {}
        for r in range(size):
            for c in range(size):
                groups.setdefault(key(r, c), []).append((r, c))
        families.append(sorted(groups.values()))
    wanted = size if which == "full" else 6
    return [group for family in families for group in family if len(group) == wanted]


def line_cells(kind: str, index: int, size: int, which: str) -> list[tuple[int, int]]:
    i = index - 1
    if kind == "row":
        return [(i, c) for c in range(size)]
    if kind == "column":
        return [(r, i) for r in range(size)]
    return diagonals(size, which)[i]


def expected_line(view: dict[str, Any], kind: str, index: int) -> dict[str, Any]:
    """A line's result by the rules, from the grid in the view."""
    n, size = len(view["seats"]), view["size"]
    cells = line_cells(kind, index, size, view["options"]["diagonal_cells"])
    marks = [view["cells"][r][c] for r, c in cells]
    counts = [sum(1 for m in marks if m and m["owner"] == s) for s in range(n)]
    leaders = [s for s in range(n) if all(counts[s] > counts[o] for o in range(n) if o != s)]
    dominator = leaders[0] if leaders else None
    total = bonus = 0
    if dominator is not None:
        own = view["options"]["line_total"] == "own"
        total = sum(m["value"] for m in marks if m and (not own or m["owner"] == dominator))
        bonus = 10 if counts[dominator] == len(cells) else 0
    return {"kind": kind, "index": index, "counts": counts, "dominator": dominator,
            "total": total, "bonus": bonus}


def expected_groups(view: dict[str, Any]) -> list[int]:
    """Each seat's largest edge-connected group, by repeated label spreading."""
    size = view["size"]
    owner = {(r, c): cell["owner"] for r, row in enumerate(view["cells"])
             for c, cell in enumerate(row) if cell}
    label = {cell: cell for cell in owner}
    changed = True
    while changed:
        changed = False
        for (r, c), seat in owner.items():
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if owner.get(near) == seat and label[near] < label[r, c]:
                    label[r, c], changed = label[near], True
    sizes: dict[tuple[int, int], int] = {}
    for cell in owner:
        sizes[label[cell]] = sizes.get(label[cell], 0) + 1
    best = [0] * len(view["seats"])
    for root, count in sizes.items():
        best[owner[root]] = max(best[owner[root]], count)
    assert all(0 <= r < size and 0 <= c < size for r, c in owner)
    return best


@settings(max_examples=60)
@given(tables(), st.integers(0, 2**32), st.floats(0, 1))
def test_every_line_is_scored_by_the_rules(table: Table, seed: int, share: float) -> None:
    view = GAME.view(random_game(table, seed, share), None)
    kinds = [(x["kind"], x["index"]) for x in view["lines"]]
    size = view["size"]
    scored = diagonals(size, view["options"]["diagonal_cells"])
    assert kinds == (
        [("row", i) for i in range(1, size + 1)] + [("column", i) for i in range(1, size + 1)]
        + ([("diagonal", i) for i in range(1, len(scored) + 1)]
           if view["options"]["diagonals"] else [])
    )
    for line in view["lines"]:
        got = {k: line[k] for k in ("kind", "index", "counts", "dominator", "total", "bonus")}
        assert got == expected_line(view, line["kind"], line["index"])
        cells = line_cells(line["kind"], line["index"], size, view["options"]["diagonal_cells"])
        assert line["cells"] == [[r + 1, c + 1] for r, c in cells]
    if view["options"]["area"]:
        groups = expected_groups(view)
        assert view["area"]["groups"] == groups
        top = max(groups)
        if top > 0 and groups.count(top) == 1:
            assert (view["area"]["winner"], view["area"]["points"]) == (groups.index(top), top)
        else:
            assert (view["area"]["winner"], view["area"]["points"]) == (None, 0)


@settings(max_examples=60)
@given(tables(), st.integers(0, 2**32), st.floats(0, 1))
def test_totals_are_line_results_plus_bonus_area_and_handicap(
    table: Table, seed: int, share: float
) -> None:
    view = GAME.view(random_game(table, seed, share), None)
    for seat in range(len(view["seats"])):
        lines = sum(x["total"] for x in view["lines"] if x["dominator"] == seat)
        bonus = sum(x["bonus"] for x in view["lines"] if x["dominator"] == seat)
        area = view["area"]["points"] if view["area"] and view["area"]["winner"] == seat else 0
        handicap = view["handicap"] or {"seat": None, "roll": None}
        extra = handicap["roll"] if handicap["seat"] == seat and handicap["roll"] else 0
        assert view["totals"][seat] == lines + bonus + area + extra
        assert view["breakdown"][seat] == {
            "seat": seat, "lines": lines, "bonus": bonus, "area": area, "handicap": extra,
            "total": view["totals"][seat], "projected": view["projected"][seat],
        }


@settings(max_examples=60)
@given(tables(), st.integers(0, 2**32), st.floats(0, 1))
def test_projected_total_is_running_plus_the_mean_of_empty_cells_in_dominated_lines(
    table: Table, seed: int, share: float
) -> None:
    view = GAME.view(random_game(table, seed, share), None)
    mean = (view["die_faces"] + 1) / 2
    for seat in range(len(view["seats"])):
        empty = sum(x["empty"] for x in view["lines"] if x["dominator"] == seat)
        assert view["projected"][seat] == view["totals"][seat] + empty * mean
        assert view["projected"][seat] >= view["totals"][seat]
    if view["final"]:
        assert view["projected"] == view["totals"] == view["outcome"]["scores"]


@settings(max_examples=40)
@given(tables(), st.integers(0, 2**32), st.data())
def test_swapping_two_players_colours_swaps_their_totals(
    table: Table, seed: int, data: st.DataObject
) -> None:
    players, options = table
    state = random_game(table, seed)
    view = GAME.view(state, None)
    n = len(players)
    a, b = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
    swap = {**{s: s for s in range(n)}, a: b, b: a}
    owners, values = board_of(state)
    swapped = ["".join(LETTERS[swap[LETTERS.index(x)]] for x in row) for row in owners]
    # The handicap belongs to the second player: start where the swapped handicap seat is second.
    handicap_seat = (view["first_player"] + 1) % n
    first = (swap[handicap_seat] - 1) % n if state.setup.handicap else view["first_player"]
    roll = view["handicap"]["roll"] if view["handicap"] else None
    other = GAME.view(
        play_board(players, {**options, "first_player": first}, swapped, values, roll), None
    )
    assert [other["totals"][swap[s]] for s in range(n)] == view["totals"]
    winners = sorted(swap[s] for s in view["outcome"]["winners"])
    assert sorted(other["outcome"]["winners"]) == winners


@settings(max_examples=30)
@given(tables(), st.integers(0, 2**32))
def test_the_winners_hold_the_highest_total(table: Table, seed: int) -> None:
    state = random_game(table, seed)
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_act(state) == []
    top = max(outcome["scores"])
    assert outcome["winners"] == [s for s, t in enumerate(outcome["scores"]) if t == top]
    assert outcome["draw"] == (len(outcome["winners"]) > 1)
